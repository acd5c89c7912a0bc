// for_loop.h — the for() loop's sequence at run time (for_loop.cpp).
// Were file-local in interp.cpp; internal to rir.so (hidden visibility).
#pragma once

#include "code.h"

namespace rir {

#pragma GCC visibility push(hidden)

// Element i of a vector as an R value: list elements as they are, atomic
// elements as new scalars (also x[[i]] on a plain vector in interp.cpp).
SEXP elementOf(SEXP seq, R_xlen_t i);

// for(): checks and converts the sequence on top of the stack (GNU R's
// STARTFOR) and pushes the loop state: two INTSXP-tagged node-stack slots,
// which GNU R's GC and link counting skip, holding the length (flags: the
// step of a compact integer range, else 0) and the counter (flags: the
// range's first value).
NodeStackSlot* forInit(NodeStackSlot* sp, SEXP call);

#pragma GCC visibility pop

}  // namespace rir
