// direct_call.h — calls from RIR code to a rir closure without GNU R's
// applyClosure, bcEval and .External2 (see direct_call.cpp).
#pragma once

#include "../runtime/dispatch_table.h"
#include "../runtime/rapi.h"
#include "code.h"
#include "interp.h"

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

// The environment of an inlined call of `fun` (a rir closure) whose
// arguments, unnamed and matching its first formals by position, are
// `promargs` (missing formals with a default get its promise), made when a
// deoptimization leaves the inlined code.
SEXP inlinedCallEnv(SEXP fun, SEXP promargs);

// Continues an inlined call of `fun` after a deoptimization inside it: the
// function context GNU R would have pushed for `call` from `env` (with the
// arguments `promargs`) is pushed, fun's baseline code runs from `at` in
// `newrho` (inlinedCallEnv, with the variables' current values), and the
// call's value is returned (on.exit code run, a return() aimed at the call
// landed) for the caller's frame to go on with. `tramp`: as for a direct
// call, the caller's.
SEXP resumeInlinedCall(SEXP call, SEXP fun, SEXP newrho, SEXP promargs, SEXP env, SEXP tramp,
                       const ResumePoint& at);

// The function context of a call, in four steps, for code that makes the
// context itself (native code inlining a call; runInFunctionContext): begin
// (pushes it, for `call` of `fun` from `env`, the frame `newrho`), then
// sigsetjmp on its jump buffer; when that returns 0, enter (evaluation
// depth, interrupts) and run the body, whose value goes into the context
// (setContextReturnValue); when a jump landed, landed; then end (on.exit
// code, the frame's promises released), which gives the call's value.
void beginFunctionContext(RContext* c, SEXP call, SEXP fun, SEXP newrho, SEXP promargs, SEXP env);
void enterFunctionContext(RContext* c);
void landedInFunctionContext(RContext* c);
SEXP endFunctionContext(RContext* c, SEXP newrho);

}  // namespace rir
