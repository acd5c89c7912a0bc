// arith_op.h — R's arithmetic, comparison and logic operators, as RIR's
// binop/unop operands name them and PIR's instruction table maps them.
#pragma once

#include <cstdint>

namespace rir {

enum class ArithOp : int32_t {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Mod,
    IDiv,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,  // binary
    Neg,
    Plus,
    Not,  // unary
    None  // (the PIR table: an instruction that is not one of these)
};

}  // namespace rir
