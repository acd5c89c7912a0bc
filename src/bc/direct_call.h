// direct_call.h — calls from RIR code to a rir closure without GNU R's
// applyClosure, bcEval and .External2 (see direct_call.cpp).
#pragma once

#include "../runtime/dispatch_table.h"
#include "code.h"

namespace rir {

// Calls `fun` (whose body is a rir trampoline of table `t`) with the
// supplied argument list `promargs` (promises, values, R_MissingArg; tags as
// written in the call). Returns nullptr, having done nothing observable,
// when the call needs GNU R's own machinery (partial argument matching,
// argument errors, debugging); the caller then uses Rf_applyClosure.
// `suppliedvars` as for applyClosureFromRir (calls.h).
SEXP directCall(SEXP call, SEXP fun, DispatchTable* t, SEXP promargs, SEXP env, SEXP tramp,
                SEXP suppliedvars = R_NilValue);

// The same for a StaticCall's arguments (`promargs` unnamed, matching the
// first formals by position): no matching. `given`: the Context the
// arguments' types proved (checked with RIR_DEBUG=verify).
SEXP staticDirectCall(SEXP call, SEXP fun, DispatchTable* t, SEXP promargs, SEXP env, SEXP tramp,
                      Context given);

// The baseline code of t, compiled at its first use (for the closure
// environment `cloenv`, if t has no compile environment of its own).
Code* baselineOf(DispatchTable* t, SEXP cloenv);

// Runs the baseline (or dispatched) code of `t` in the new environment.
// `given`: the Context bits the caller proved (see staticDirectCall).
SEXP runFunctionBody(DispatchTable* t, SEXP env, SEXP tramp, Context given = Context());

}  // namespace rir
