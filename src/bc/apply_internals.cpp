// apply_internals.cpp — .Internal(lapply(X, FUN)) run by rir.
//
// GNU R's do_lapply calls FUN through R_forceAndCall, i.e. applyClosure ->
// bcEval -> .External2 -> rir for every element when FUN is a rir closure.
// Here the same loop calls FUN as rir calls closures (directly):
//
//   lapply(xs, function(x) x * x)
//   before:  do_lapply: for i: R_forceAndCall(FUN(X[[i]], ...)) -> GNU R entry into rir
//   after:   for i: promise X[[i]] (forced), ... promises; FUN called directly
//
// Same observable steps as GNU R 4.2: `i` is bound in lapply's frame to an
// integer that holds the current index (a fresh one once FUN captured or
// removed it), FUN's call is `FUN(X[[i]], ...)`,
// the first argument is a promise of `X[[i]]` forced before the call, the
// remaining ones promises of lapply's `...`, and the result keeps X's names.
// When an element cannot be taken as `[[` would take it without dispatch
// (X an object, X rebound meanwhile) or FUN is not a closure (any more),
// that iteration uses R_forceAndCall itself; when X or FUN are not plain
// values in the frame at the start, GNU R's do_lapply does everything.
#include "apply_internals.h"

#include "../runtime/rapi.h"
#include "calls.h"

namespace rir {

namespace {

const unsigned kActiveBinding = 1u << 15;

// The value bound to sym in env's own frame when it is an ordinary value
// (or an evaluated promise's), else nullptr.
SEXP frameValue(SEXP env, SEXP sym) {
    R_varloc_t loc = R_findVarLocInFrame(env, sym);
    SEXP cell = loc.cell;
    if (!cell || cell == R_NilValue || (hdr(cell)->gp & kActiveBinding) || hdr(cell)->extra)
        return nullptr;
    SEXP v = fcar(cell);
    if (TYPEOF(v) == PROMSXP) v = PRVALUE(v);
    return v == R_UnboundValue || v == R_MissingArg ? nullptr : v;
}

// X[[i]] for a vector X that is not an object, as `[[` gives it.
SEXP element(SEXP x, R_xlen_t i) {
    switch (TYPEOF(x)) {
        case VECSXP:
        case EXPRSXP:
            return VECTOR_ELT(x, i);
        case LGLSXP:
            return Rf_ScalarLogical(LOGICAL_ELT(x, i));
        case INTSXP:
            return Rf_ScalarInteger(INTEGER_ELT(x, i));
        case REALSXP:
            return Rf_ScalarReal(REAL_ELT(x, i));
        case STRSXP:
            return Rf_ScalarString(STRING_ELT(x, i));
        default:
            return nullptr;
    }
}

}  // namespace

SEXP lapplyInternal(SEXP call, SEXP env, SEXP tramp) {
    SEXP xsym = CADR(call), funsym = CADDR(call);
    SEXP x = frameValue(env, xsym);
    SEXP fun = frameValue(env, funsym);
    if (!x || !fun || TYPEOF(fun) != CLOSXP) return nullptr;
    switch (TYPEOF(x)) {
        case VECSXP:
        case EXPRSXP:
        case LGLSXP:
        case INTSXP:
        case REALSXP:
        case STRSXP:
            break;
        default:
            return nullptr;
    }
    R_xlen_t n = XLENGTH(x);
    if (n > INT_MAX) return nullptr;
    PROTECT(x);
    SEXP ans = PROTECT(Rf_allocVector(VECSXP, n));
    SEXP names = Rf_getAttrib(x, R_NamesSymbol);
    if (!Rf_isNull(names)) Rf_setAttrib(ans, R_NamesSymbol, names);
    static SEXP isym = Rf_install("i");
    SEXP elt = PROTECT(Rf_lcons(R_Bracket2Symbol, Rf_lcons(xsym, Rf_lcons(isym, R_NilValue))));
    SEXP fcall = PROTECT(Rf_lcons(funsym, Rf_lcons(elt, Rf_lcons(R_DotsSymbol, R_NilValue))));
    MARK_NOT_MUTABLE(fcall);
    PROTECT_INDEX ipx, cpx;
    SEXP ind = Rf_allocVector(INTSXP, 1);
    PROTECT_WITH_INDEX(ind, &ipx);
    Rf_defineVar(isym, ind, env);
    R_varloc_t loc = R_findVarLocInFrame(env, isym);
    PROTECT_WITH_INDEX(loc.cell, &cpx);
    for (R_xlen_t i = 0; i < n; i++) {
        INTEGER(ind)[0] = int(i + 1);
        SEXP r;
        SEXP cur = frameValue(env, xsym);
        SEXP f = frameValue(env, funsym);
        SEXP v = cur == x && !OBJECT(x) && f && TYPEOF(f) == CLOSXP ? element(x, i) : nullptr;
        if (!v) {
            r = R_forceAndCall(fcall, 1, env);
        } else {
            PROTECT(v);
            // FUN(X[[i]], ...): the first promise already forced, as
            // R_forceAndCall leaves it, then lapply's `...` as promises
            SEXP p = PROTECT(mkPromise(elt, env));
            SET_PRVALUE(p, v);
            SET_PRENV(p, R_NilValue);
            SEXP args = PROTECT(consNR(p, R_NilValue));
            SEXP dots = Rf_findVar(R_DotsSymbol, env);
            if (TYPEOF(dots) == DOTSXP) {
                SEXP tail = args;
                for (SEXP h = dots; h != R_NilValue; h = CDR(h)) {
                    SEXP a = CAR(h) == R_MissingArg ? R_MissingArg : mkPromise(CAR(h), env);
                    SEXP cell = consNR(a, R_NilValue);
                    SETCDR(tail, cell);
                    SET_TAG(cell, TAG(h));
                    tail = cell;
                }
            }
            r = applyClosureFromRir(fcall, f, args, env, tramp);
            UNPROTECT(3);
        }
        if (MAYBE_REFERENCED(r)) r = Rf_lazy_duplicate(r);
        SET_VECTOR_ELT(ans, i, r);
        SEXP bound = loc.cell && loc.cell != R_NilValue && !hdr(loc.cell)->extra &&
                             !(hdr(loc.cell)->gp & kActiveBinding)
                         ? fcar(loc.cell)
                         : R_UnboundValue;
        if (ind != bound || MAYBE_SHARED(ind)) {
            // FUN captured or removed the index: a fresh one from now on
            REPROTECT(ind = Rf_duplicate(ind), ipx);
            Rf_defineVar(isym, ind, env);
            loc = R_findVarLocInFrame(env, isym);
            REPROTECT(loc.cell, cpx);
        }
    }
    UNPROTECT(6);
    R_Visible = TRUE;
    return ans;
}

}  // namespace rir
