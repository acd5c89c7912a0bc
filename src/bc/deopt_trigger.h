// deopt_trigger.h — what a failed speculation saw, written into the
// baseline's feedback.
//
// Native code speculates on the feedback the interpreter gathered; when a
// speculation fails, the frame state resumes the RIR code at the
// speculated instruction (its operands on the stack) or right after it
// (its result on top). The interpreter would record what it sees there when
// it runs the instruction; a deoptless continuation (native/deoptless.cpp)
// goes on without the interpreter, so the observation is recorded here
// first, as the interpreter records it, and the continuation compiled from
// the feedback does not make the same speculation again:
//
//   x + y, feedback "int | int", y now a double:
//     deoptimization at the binop's pc, stack [..., x, y]
//     recordDeoptTrigger: the binop's feedback becomes "int | int, real"
//     the continuation's `+` then tests y's type instead of assuming it
#pragma once

#include "code.h"

namespace rir {

// Records in `code`'s feedback what the instruction at pc (or, for a
// result speculated on, the one before it) observes with the frame state
// (env, the operand stack's n values, bottom first), and the types of the
// local variables that binops read (their values now); returns the kind of
// speculation that failed: "type", "overflow", "branch", "callee",
// "member", "result", "guard", "loop" or "other" (the stack tells nothing:
// a forced failure, a binding that changed). Runs no R code and does not
// allocate (a callee recorded in the callee list is stored with
// SET_VECTOR_ELT).
const char* recordDeoptTrigger(Code* code, int pc, SEXP env, const SEXP* stack, int n);

}  // namespace rir
