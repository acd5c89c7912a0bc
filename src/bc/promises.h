// promises.h — forcing promises from RIR code without GNU R's eval when
// their code is rir's own (see promises.cpp).
#pragma once

#include "code.h"

namespace rir {

// The value of promise `p`, forcing it if needed, with GNU R's semantics.
// `tramp`: as for interpret().
SEXP forcePromise(SEXP p, SEXP tramp);

// Drops a promise's value, code and environment (GNU R's clearPromise), so
// that they lose the references it held.
void clearPromise(SEXP p);

// After a closure call: the argument list `args` (uncounted cells, as
// promisedArgs builds it) is no longer used, so its promises that nothing
// counted refers to (no frame, closure or list kept them) are cleared and
// its cells emptied
// (GNU R's byte code does the same after CALL and the setter/getter calls).
// Otherwise a promise left holding a value the callee modified in place and
// returned (a replacement function's `*tmp*`) keeps that value counted as
// shared, and a later x[i] <- v copies where GNU R modifies in place.
void releaseArgs(SEXP args);

// A function context rir pushes (direct calls) guards the promises forced
// while it is the innermost context: its cend is markInterruptedFrom with
// frameMark(pendingMark(), extraDepth before the call) as data, so a jump
// leaving it marks them interrupted and restores the evaluation depth
// (eval_depth.h), and a jump landing in it must call markInterruptedFrom
// itself.
void markInterruptedFrom(void* mark);
uint32_t pendingMark();
inline void* frameMark(uint32_t pending, int savedDepth) {
    return reinterpret_cast<void*>((uintptr_t(uint32_t(savedDepth)) << 32) | pending);
}

}  // namespace rir
