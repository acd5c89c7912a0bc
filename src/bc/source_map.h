// source_map.h — the pc -> source map of RIR code: for an instruction, the
// call it reports in errors and warnings (GNU R's "Error in <call>"). The
// instruction table says which operand names it ('c', or the call site of
// an 's' operand), so optimized code that deoptimizes, or raises an error on
// behalf of an instruction, can name the same call as the RIR interpreter.
//
//   f <- function(x) x + 1        # pc of the `+` binop  ->  x + 1
#pragma once

#include "code.h"

namespace rir {

// The call reported by the instruction at `pc`, or nullptr when it reports
// none of its own (loads, stores, jumps: errors there name the enclosing
// call) or pc does not start an instruction. No R allocation.
SEXP sourceAt(const Code* c, int pc);

}  // namespace rir
