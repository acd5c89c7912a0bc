// calls.h — variable and function lookup, argument lists and calls made by
// the RIR interpreter, with GNU R's semantics (promises for closures, eager
// arguments for builtins, unevaluated ones for specials).
#pragma once

#include "../runtime/context.h"
#include "code.h"

namespace rir {

// A cons cell that does not count references to its CAR/CDR (GNU R's CONS_NR):
// argument lists must not make their values look shared.
SEXP consNR(SEXP car, SEXP cdr);
SEXP mkPromise(SEXP code, SEXP env);

// `expr`: what errors of the lookup name (default: the symbol, which GNU R
// shows as the function's call). `keepMissing`: GNU R's GETVAR_MISSOK (an
// index of `[` / `[[`): a missing argument, also one passed on through
// promises of variables (isMissingArgument), is R_MissingArg instead of an
// error; sym may be ..N then.
SEXP getVariable(SEXP sym, SEXP env, SEXP tramp, SEXP expr = nullptr, bool keepMissing = false);
// Is `sym` (or ..N) a missing argument in env's own frame: bound to the
// empty argument or marked missing, or to an unevaluated promise of a
// variable that is missing where the promise looks it up (f(x) with x
// missing)? The test GNU R's R_isMissing makes (not exported).
bool isMissingArgument(SEXP sym, SEXP env);
// The value bound to sym in env's own frame when the binding is an ordinary
// one holding a value or an evaluated promise, else nullptr (unbound,
// missing, active, locked-special or unevaluated).
SEXP frameValue(SEXP env, SEXP sym);
// (*forced, when given, is set to 1 when a promise was evaluated on the way.)
SEXP findFunction(SEXP sym, SEXP env, SEXP call, SEXP tramp, char* forced = nullptr);
// findFunction(sym, env, ...) == expected (GNU R's BASEGUARD), usually
// without a lookup.
bool stillNames(SEXP sym, SEXP expected, SEXP env, SEXP call, SEXP tramp, char* forced = nullptr);
// stillNames() when it can tell without running R code (no promise forced,
// no active binding called: what the frames hold up to GNU R's global cache);
// false otherwise.
bool stillNamesWithoutR(SEXP sym, SEXP expected, SEXP env);
// The function findFun would find for sym from env, when finding it runs
// no R code (no unevaluated promise, active binding or user database on
// the way); else nullptr.
SEXP functionWithoutR(SEXP sym, SEXP env);

void recordCallee(Code* c, long slot, Feedback& f, SEXP fun);
// (`eager`: for a closure, per argument of the site, the value of its
// promise code when the caller computed it, else nullptr; see rir2pir's
// eagerCall)
SEXP doCall(Code* c, CallSite& cs, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager = nullptr);
// A StaticCall from native code: doCall for a function known to be a rir
// closure whose formals the site's arguments match by position; `given`:
// the Context bits their types proved.
SEXP staticCall(Code* c, CallSite& cs, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager,
                Context given);
// A getter (rhs == nullptr) or setter call of a complex assignment: the
// ArgKind::Stack arguments are `lhs` (as `*tmp*`) and `rhs` (as `value`,
// its promise showing `vexpr`), as GNU R's byte code passes them.
SEXP doAssignCall(Code* c, CallSite& cs, SEXP fun, SEXP env, SEXP tramp, SEXP lhs, SEXP rhs,
                  SEXP vexpr);
// Calls a builtin on an evaluated argument list, as GNU R's eval() does
// (visibility, builtin context for foreign functions).
// `expr` (default: call) is the expression errors without a call report.
SEXP callBuiltin(SEXP call, SEXP fun, SEXP args, SEXP env, SEXP tramp, SEXP expr = nullptr);

// Calls closure `fun` with the argument list `args` (promises) as GNU R's
// applyClosure would, compiling it first if it is not rir yet; rir closures
// are called directly. `suppliedvars` (a fresh tagged list, or R_NilValue):
// variables defined in the new frame unless an argument has the name
// (UseMethod's .Generic, .Class, ...).
SEXP applyClosureFromRir(SEXP call, SEXP fun, SEXP args, SEXP env, SEXP tramp,
                         SEXP suppliedvars = R_NilValue);

// Set right before a rir->rir closure call, consumed by the entry, so that
// stats can tell calls from rir apart from entries from GNU R code.
bool consumeRirCallFlag();

// Switches a closure to rir in place (its body becomes a trampoline).
// Returns false (with a reason) when it stays with GNU R.
// `report`: list a refusal in status().
bool compileInPlace(SEXP f, const char* name, const char** reason, bool report = true);
// Whether GNU R's JIT compiles a closure with this body made by its AST
// interpreter (at once or at its second call): defined at top level, or a
// JIT score at least GNU R's minimum (loops). Others it marks NOJIT and
// always runs in its AST interpreter.
bool gnurJitCompiles(SEXP body, bool topLevel);

extern bool rirEnabled;

}  // namespace rir
