// for_loop.h — loops at run time (for_loop.cpp): the for() sequence, and
// loop bodies that need GNU R's loop context.
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
// A sequence longer than INT_MAX (1:1e10) is handed to GNU R's for() in
// env, which runs the whole loop; the state then has no iteration left.
// (*ranLoop: it did; the interpreter goes on at afterLoopStart; the
// operand slots from base up to the sequence count meanwhile)
NodeStackSlot* forInit(NodeStackSlot* sp, SEXP call, SEXP env, bool* ranLoop, NodeStackSlot* base);
// The pc after the instructions that begin a loop after its for_init or
// for_colon at `pc` (binding the variable to NULL, as GNU R's STARTFOR
// does): skipped where GNU R's for() ran the loop and bound the variable.
const int32_t* afterLoopStart(const int32_t* pc);
// The sequence a for() loop iterates over `seq` (factors as their labels,
// pairlists as lists; GNU R's error naming `call` for anything else).
SEXP forSequence(SEXP seq, SEXP call);
// A vector with more elements than an int counts (not a loop state's).
bool longSequence(SEXP seq);
// The step (1 or -1) and first value of a compact integer range, else 0, 0:
// what forInit keeps in the loop state's flags.
void loopRange(SEXP seq, int* step, int* first);

// One iteration of a loop whose break/next can come from behind a promise
// or function boundary (see the loop_body instruction): runs `body` in env
// inside a GNU R loop context, which GNU R's break and next (do_break ->
// findcontext) jump to. True when the loop must end (break).
bool runLoopBody(Code* body, SEXP env, SEXP tramp);

#pragma GCC visibility pop

}  // namespace rir
