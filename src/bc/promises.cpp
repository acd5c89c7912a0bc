// promises.cpp — forcing a promise the way GNU R's forcePromise does, but
// running rir promise code directly instead of through eval -> bcEval ->
// .External2 -> rir_entry.
//
//   before:  Rf_eval(p) -> forcePromise -> bcEval(trampoline) -> .External2 -> interpret
//   after:   PRSEEN(p) = 1; interpret(promise code, PRENV(p)); PRVALUE(p) = v; PRSEEN(p) = 0
//
// GNU R keeps promises under evaluation on a list (R_PendingPromises, not
// exported) so that a jump out of the evaluation marks them "interrupted"
// (PRSEEN = 2: forcing again warns and restarts instead of reporting a
// recursive reference). rir gets the same effect from a C-code context
// pushed around the evaluation whose cend function sets PRSEEN to 2: GNU R's
// jumps run the cend functions of the contexts they leave (R_run_onexits). A promise of a plain
// variable is read from its environment's own frame when the binding is an ordinary value.
// Everything else (PRSEEN set, GNU R code, active bindings, missing or unbound variables) goes to
// GNU R's eval.
#include "promises.h"

#include <vector>

#include "../runtime/eval_depth.h"
#include "../runtime/r_messages.h"
#include "../runtime/trampoline.h"
#include "calls.h"
#include "interp.h"

namespace rir {

namespace {

inline unsigned prseen(SEXP p) {
    return hdr(p)->gp;
}
inline void setPrseen(SEXP p, unsigned v) {
    hdr(p)->gp = v;
}

// The data of a guard context: the promise and the evaluation depth to
// restore.
struct Guarded {
    SEXP p;
    int savedDepth;
};

// A jump out of a promise's evaluation passes the guard context: GNU R
// runs its cend function on the way.
void markInterrupted(void* data) {
    Guarded* g = static_cast<Guarded*>(data);
    setPrseen(g->p, 2);
    restoreDepth(g->savedDepth);
}

void setValue(SEXP p, SEXP v) {
    setPrvalue(p, v);
    setPrenv(p, R_NilValue);
}

}  // namespace

namespace {
// Promises under evaluation guarded by the innermost rir function context
// (a stack: forcing nests).
std::vector<SEXP> pending;
}  // namespace

void markInterruptedFrom(void* mark) {
    size_t m = reinterpret_cast<uintptr_t>(mark) & 0xffffffffu;
    restoreDepth(int(uint32_t(reinterpret_cast<uintptr_t>(mark) >> 32)));
    for (size_t i = m; i < pending.size(); i++) setPrseen(pending[i], 2);
    if (m < pending.size()) pending.resize(m);
}

uint32_t pendingMark() {
    return uint32_t(pending.size());
}

namespace {

// Runs eval() for p (PRSEEN already 1) so that a jump out of it leaves p
// marked as interrupted. Counts one level of evaluation depth, as GNU R's
// eval() of the promise's code would (R_EvalDepth taken from the innermost
// context: exact when that is the function context forcing the promise).
template <class Eval>
SEXP evalGuarded(SEXP p, Eval eval) {
    int savedDepth = extraDepth;
    if (R_GlobalContext->cend == markInterruptedFrom) {
        // the innermost context is a rir function context: it does it
        pending.push_back(p);
        enterEval(R_GlobalContext->evaldepth);
        SEXP v = eval();
        extraDepth = savedDepth;
        pending.pop_back();
        return v;
    }
    RContext guard;
    // (its call: what errors raised in C code below it report)
    Rf_begincontext(&guard, CTXT_CCODE, R_GlobalContext->call, R_GlobalEnv, R_BaseEnv, R_NilValue,
                    R_NilValue);
    Guarded data{p, savedDepth};
    guard.cend = markInterrupted;
    guard.cenddata = &data;
    enterEval(guard.evaldepth);
    SEXP v = eval();
    extraDepth = savedDepth;
    Rf_endcontext(&guard);
    return v;
}

// A promise of a variable that is missing or unbound where it lives, made by
// rir for a call's argument (isCompiledArg): GNU R's byte code evaluates such
// an argument as promise code compiled with the call the argument belongs to
// as its current expression, so the error names that call: the innermost
// function context that received `p` among its arguments (`h(z)` for
// f <- function(z) h(z)). When no such call is found, GNU R's eval reports
// the error.
// The call to name, or nullptr; `missing`: the variable is a missing
// argument (else it is unbound).
SEXP argumentErrorCall(SEXP p, SEXP sym, SEXP env, bool* missing) {
    R_varloc_t loc = R_findVarLoc(sym, env);
    SEXP cell = loc.cell;
    if (cell && cell != R_NilValue && TYPEOF(cell) == LISTSXP && (!plainCell(cell)))
        return nullptr;  // active or special bindings: GNU R decides
    SEXP v =
        cell && cell != R_NilValue && TYPEOF(cell) == LISTSXP ? CAR(cell) : Rf_findVar(sym, env);
    if (v != R_UnboundValue && v != R_MissingArg) return nullptr;
    *missing = v == R_MissingArg;
    for (RContext* c = R_GlobalContext; c && c->callflag != CTXT_TOPLEVEL; c = c->nextcontext) {
        if (!(c->callflag & CTXT_FUNCTION)) continue;
        for (SEXP a = c->promargs; a != R_NilValue && TYPEOF(a) == LISTSXP; a = CDR(a))
            if (CAR(a) == p) return c->call;
    }
    return nullptr;
}

// The unforced promise bound to `sym` in env's own frame (an ordinary
// binding), else nullptr.
SEXP localPromise(SEXP sym, SEXP env) {
    if (TYPEOF(env) != ENVSXP) return nullptr;
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    if (!cell || cell == R_NilValue || !plainCell(cell)) return nullptr;
    SEXP v = fcar(cell);
    return ftype(v) == PROMSXP && fprvalue(v) == R_UnboundValue ? v : nullptr;
}

}  // namespace

void clearPromise(SEXP p) {
    setPrvalue(p, R_UnboundValue);
    setPrenv(p, R_NilValue);
    setPrcode(p, R_NilValue);
}

void releaseArgs(SEXP args) {
    for (; args != R_NilValue; args = CDR(args)) {
        SEXP v = CAR(args);
        if (TYPEOF(v) == PROMSXP && REFCNT(v) == 0) clearPromise(v);
        SETCAR(args, R_NilValue);
    }
}

SEXP forcePromise(SEXP p, SEXP tramp) {
    SEXP v = fprvalue(p);
    if (v != R_UnboundValue) return v;
    if (prseen(p) == 0) {
        SEXP code = PRCODE(p), env = PRENV(p);
        if (ftype(code) == SYMSXP) {
            v = frameValue(env, code);
            if (v) {
                // (GNU R's eval() of the symbol counts a level too: at the
                // limit, let evalGuarded raise the error)
                if (R_GlobalContext->evaldepth + extraDepth >= depthLimit()) {
                    setPrseen(p, 1);
                    evalGuarded(p, [&]() { return v; });
                    setPrseen(p, 0);
                }
                setValue(p, v);
                return v;
            }
            // an argument passed on (f <- function(x) g(x)): the promise
            // it is bound to is forced as eval(x) would force it, without
            // GNU R's evaluator in between
            SEXP inner = localPromise(code, env);
            bool missing = false;
            SEXP errCall = !inner && isCompiledArg(p) && !DDVAL(code) && code != R_DotsSymbol
                               ? argumentErrorCall(p, code, env, &missing)
                               : nullptr;
            if (errCall) {
                // raised while the promise is under evaluation, so that it
                // is marked interrupted as GNU R marks it (forcing it again
                // warns "restarting interrupted promise evaluation")
                PROTECT(p);
                setPrseen(p, 1);
                evalGuarded(p, [&]() -> SEXP {
                    if (missing)
                        Rf_errorcall(errCall, _("argument \"%s\" is missing, with no default"),
                                     CHAR(PRINTNAME(code)));
                    Rf_errorcall(errCall, _("object '%s' not found"), CHAR(PRINTNAME(code)));
                });
                UNPROTECT(1);
            }
            if (inner && prseen(inner) == 0) {
                PROTECT(p);
                setPrseen(p, 1);
                v = evalGuarded(p, [&]() { return forcePromise(inner, tramp); });
                setPrseen(p, 0);
                setValue(p, v);
                UNPROTECT(1);
                return v;
            }
        } else if (ftype(code) == PROMSXP) {
            // an argument passed on through `...` (a promise of a promise):
            // the inner one is forced as eval() would force it
            PROTECT(p);
            setPrseen(p, 1);
            v = evalGuarded(p, [&]() { return forcePromise(code, tramp); });
            setPrseen(p, 0);
            setValue(p, v);
            UNPROTECT(1);
            return v;
        } else if (ftype(code) == BCODESXP && rirEnabled) {
            SEXP target = trampolineTargetFast(code);
            Code* c = target ? Code::unpack(target) : nullptr;
            if (c) {
                PROTECT(p);
                setPrseen(p, 1);
                v = evalGuarded(p, [&]() { return interpret(c, env, tramp); });
                setPrseen(p, 0);
                setValue(p, v);
                UNPROTECT(1);
                return v;
            }
        }
    }
    return Rf_eval(p, R_BaseEnv);
}

}  // namespace rir
