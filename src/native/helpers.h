// helpers.h — the runtime helpers native code calls (C ABI), listed in one
// table (helpers()). Lowering (lower.cpp) calls them by address; each one
// does what the RIR interpreter does for the same operation, with the same
// errors, so that a value computed natively is the value RIR computes.
//
// Every helper may raise an R error (a longjmp through the native frames,
// which hold no C++ objects) unless its comment says otherwise.
#pragma once

#include <vector>

#include "../runtime/rapi.h"

namespace rir {
struct Code;
struct DispatchTable;
namespace native {

extern "C" {
// The frame's node-stack slots (every boxed value native code makes is
// stored in one, so the collector sees it): `n` slots, zeroed.
NodeStackSlot* rirn_enter(int n);
// Drops the slots (no error).
void rirn_leave(NodeStackSlot* base);
// Argument `sym` as the call bound it in the new environment (no error).
SEXP rirn_ldarg(SEXP env, SEXP sym);
// The environment's parent (no error).
SEXP rirn_enclos(SEXP env);
// A variable's binding value, lazy when it is a promise (errors: unbound,
// missing).
SEXP rirn_ldvar(SEXP sym, SEXP env, SEXP tramp);
// The value of a possibly lazy value; `sym`: the variable it was loaded
// from (what errors of forcing name), or NULL.
SEXP rirn_force(SEXP v, SEXP sym, SEXP tramp);
// x <- v in env (locked and active bindings as GNU R).
void rirn_stvar(SEXP sym, SEXP v, SEXP env);
// A missing argument bound to the promise of its default.
void rirn_starg_default(SEXP sym, SEXP promise, SEXP env);
// A promise of `code` (a symbol, or a promise trampoline) in env.
SEXP rirn_mkarg(SEXP code, SEXP env);
// Arithmetic, comparison and unary operators (ArithOp), as RIR's binop /
// unop; `keep` bit 0 / 1: operand a / b is used again (GNU R's arithmetic
// must not write its result into it).
SEXP rirn_binop(int op, SEXP a, SEXP b, SEXP call, SEXP env, SEXP tramp, int keep);
SEXP rirn_unop(int op, SEXP a, SEXP call, SEXP env, SEXP tramp, int keep);
// The truth value of an if/while condition.
int rirn_astest(SEXP v, SEXP call);
// Does v have the PIR type (kinds, flags) (no error).
int rirn_istype(SEXP v, int kinds, int flags);
// GNU R's AST interpreter on e.
SEXP rirn_eval(SEXP e, SEXP env);
// The function a call names.
SEXP rirn_ldfun(SEXP sym, SEXP env, SEXP call, SEXP tramp);
// The call of RIR call site `site` of `code` to `fun`, its arguments made
// from the site as the RIR interpreter makes them.
SEXP rirn_call_site(Code* code, int site, SEXP fun, SEXP env, SEXP tramp);
// RIR_DEOPT_CHAOS: 1 when this Assume is to fail on purpose (no error).
int rirn_chaos();
// A loop's back edge: polls for interrupts every so many (as RIR does).
void rirn_backedge();
// R_Srcref = s (no error).
void rirn_srcref(SEXP s);
// Leaves native code: resumes the baseline code at pc with the operand
// stack (values, bottom first) in env, and returns the function's result.
// Counts the deoptimization on the function's table (one that keeps
// deoptimizing loses its native code).
SEXP rirn_deopt(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp, const SEXP* stack,
                int n);
}

struct Helper {
    const char* name;
    void* address;
};
// Every helper, for listing and checking.
const std::vector<Helper>& helpers();

}  // namespace native
}  // namespace rir
