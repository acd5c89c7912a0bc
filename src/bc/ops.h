// ops.h — arithmetic, comparison and logic operators with fast paths for
// attribute-free scalars. Anything else (vectors, attributes, objects, NA in
// integer arithmetic, overflow) calls the base primitive's C function, i.e.
// exactly what GNU R runs, including S3/S4 group dispatch and warnings.
#pragma once

#include "../runtime/rapi.h"

#include <cstring>

namespace rir {

enum class ArithOp : int32_t {
    Add, Sub, Mul, Div, Pow, Mod, IDiv, Eq, Ne, Lt, Le, Gt, Ge, And, Or,  // binary
    Neg, Plus, Not                                                      // unary
};

inline bool binaryOp(const char* n, ArithOp* op) {
    static const struct {
        const char* name;
        ArithOp op;
    } table[] = {{"+", ArithOp::Add}, {"-", ArithOp::Sub},  {"*", ArithOp::Mul},
                 {"/", ArithOp::Div}, {"^", ArithOp::Pow},  {"%%", ArithOp::Mod},
                 {"%/%", ArithOp::IDiv}, {"==", ArithOp::Eq}, {"!=", ArithOp::Ne},
                 {"<", ArithOp::Lt},  {"<=", ArithOp::Le},  {">", ArithOp::Gt},
                 {">=", ArithOp::Ge}, {"&", ArithOp::And},  {"|", ArithOp::Or}};
    for (auto& e : table)
        if (!strcmp(n, e.name)) {
            *op = e.op;
            return true;
        }
    return false;
}

inline bool unaryOp(const char* n, ArithOp* op) {
    if (!strcmp(n, "-")) *op = ArithOp::Neg;
    else if (!strcmp(n, "+")) *op = ArithOp::Plus;
    else if (!strcmp(n, "!")) *op = ArithOp::Not;
    else return false;
    return true;
}

inline const char* opName(ArithOp op) {
    static const char* names[] = {"+",  "-",  "*", "/",  "^",  "%%", "%/%", "==", "!=",
                                  "<",  "<=", ">", ">=", "&",  "|",  "-",   "+",  "!"};
    return names[int(op)];
}

// Fast paths; return nullptr when the general primitive must run.
// `reuse` (or nullptr): a scalar that may be overwritten with the result
// when its type matches (the old value of the variable being assigned).
// `scratch` (or nullptr): this instruction's own previous result, which may
// be overwritten when nothing refers to it any more (refcount 0).
SEXP fastBinop(ArithOp op, SEXP a, SEXP b, SEXP reuse = nullptr, SEXP scratch = nullptr);
SEXP fastUnop(ArithOp op, SEXP a);

}  // namespace rir
