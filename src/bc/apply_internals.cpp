// apply_internals.cpp — .Internal(lapply(X, FUN)) and
// .Internal(vapply(X, FUN, FUN.VALUE, USE.NAMES)) run by rir.
//
// GNU R's do_lapply / do_vapply call FUN through R_forceAndCall, i.e.
// applyClosure -> bcEval -> .External2 -> rir for every element when FUN is
// a rir closure. Here the same loop calls FUN as rir calls closures (directly):
//
//   vapply(xs, function(x) x * x, numeric(1))
//   before:  do_vapply: for i: R_forceAndCall(FUN(X[[i]], ...)) -> GNU R entry into rir
//   after:   for i: promise X[[i]] (forced), ... promises; FUN called directly
//
// Same observable steps as GNU R 4.2: `i` is bound in the frame to an integer
// that holds the current index (lapply: a fresh one once FUN captured or
// removed it; vapply: always the same), FUN's call is `FUN(X[[i]], ...)`,
// the first argument is a promise of `X[[i]]` forced before the call, the
// remaining ones promises of the frame's `...`. lapply keeps X's names;
// vapply checks each result against FUN.VALUE (length, type, coercion) with
// GNU R's errors and builds the vector / matrix / array with its names and
// dimnames as do_vapply does.
// When an element cannot be taken as `[[` would take it without dispatch
// (X an object, X or `i` rebound meanwhile) or FUN is not a closure (any
// more), that iteration uses R_forceAndCall itself; when X or FUN are not
// plain values in the frame at the start, GNU R's internal does everything.
#include "apply_internals.h"

#include <libintl.h>

#include "../runtime/rapi.h"
#include "calls.h"

#define _(s) dgettext("R", s)

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

// Calls FUN(X[[i]], ...) for i = 1..n as GNU R's do_lapply / do_vapply do,
// in env (the apply function's frame), handing each result to take(i, r).
// x is X's value at the start; fcall is FUN(X[[i]], ...). The index `i` is
// one integer updated in place; with freshIndex (lapply) a new one is bound
// once FUN captured or removed it, else (vapply) it stays the same object.
template <class Take>
void callEach(SEXP xsym, SEXP funsym, SEXP x, R_xlen_t n, SEXP fcall, SEXP env, SEXP tramp,
              bool freshIndex, Take take) {
    static SEXP isym = Rf_install("i");
    SEXP elt = CADR(fcall);
    PROTECT_INDEX ipx, cpx;
    SEXP ind = Rf_allocVector(INTSXP, 1);
    PROTECT_WITH_INDEX(ind, &ipx);
    Rf_defineVar(isym, ind, env);
    R_varloc_t loc = R_findVarLocInFrame(env, isym);
    PROTECT_WITH_INDEX(loc.cell, &cpx);
    auto boundIndex = [&]() {
        return loc.cell && loc.cell != R_NilValue && !hdr(loc.cell)->extra &&
                       !(hdr(loc.cell)->gp & kActiveBinding)
                   ? fcar(loc.cell)
                   : R_UnboundValue;
    };
    for (R_xlen_t i = 0; i < n; i++) {
        INTEGER(ind)[0] = int(i + 1);
        SEXP r;
        SEXP cur = frameValue(env, xsym);
        SEXP f = frameValue(env, funsym);
        // X[[i]] taken directly only while X, FUN and i are what they were
        SEXP v = cur == x && !OBJECT(x) && f && TYPEOF(f) == CLOSXP && boundIndex() == ind
                     ? element(x, i)
                     : nullptr;
        if (!v) {
            r = R_forceAndCall(fcall, 1, env);
        } else {
            PROTECT(v);
            // FUN(X[[i]], ...): the first promise already forced, as
            // R_forceAndCall leaves it, then the frame's `...` as promises
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
        PROTECT(r);
        take(i, r);
        UNPROTECT(1);
        if (freshIndex && (ind != boundIndex() || MAYBE_SHARED(ind))) {
            // FUN captured or removed the index: a fresh one from now on
            REPROTECT(ind = Rf_duplicate(ind), ipx);
            Rf_defineVar(isym, ind, env);
            loc = R_findVarLocInFrame(env, isym);
            REPROTECT(loc.cell, cpx);
        }
    }
    UNPROTECT(2);
}

bool plainVectorType(SEXP x) {
    switch (TYPEOF(x)) {
        case VECSXP:
        case EXPRSXP:
        case LGLSXP:
        case INTSXP:
        case REALSXP:
        case STRSXP:
            return true;
        default:
            return false;
    }
}

// FUN(X[[i]], ...) as a call object (not to be modified: GNU R marks it so)
SEXP elementCall(SEXP xsym, SEXP funsym) {
    static SEXP isym = Rf_install("i");
    SEXP elt = PROTECT(Rf_lcons(R_Bracket2Symbol, Rf_lcons(xsym, Rf_lcons(isym, R_NilValue))));
    SEXP fcall = Rf_lcons(funsym, Rf_lcons(elt, Rf_lcons(R_DotsSymbol, R_NilValue)));
    MARK_NOT_MUTABLE(fcall);
    UNPROTECT(1);
    return fcall;
}

}  // namespace

namespace {

SEXP lapplyInternal(SEXP call, SEXP env, SEXP tramp) {
    SEXP xsym = CADR(call), funsym = CADDR(call);
    SEXP x = frameValue(env, xsym);
    SEXP fun = frameValue(env, funsym);
    if (!x || !fun || TYPEOF(fun) != CLOSXP || !plainVectorType(x)) return nullptr;
    R_xlen_t n = XLENGTH(x);
    if (n > INT_MAX) return nullptr;
    PROTECT(x);
    SEXP ans = PROTECT(Rf_allocVector(VECSXP, n));
    SEXP names = Rf_getAttrib(x, R_NamesSymbol);
    if (!Rf_isNull(names)) Rf_setAttrib(ans, R_NamesSymbol, names);
    SEXP fcall = PROTECT(elementCall(xsym, funsym));
    callEach(xsym, funsym, x, n, fcall, env, tramp, true,
             [&](R_xlen_t i, SEXP r) { SET_VECTOR_ELT(ans, i, r); });
    UNPROTECT(3);
    R_Visible = TRUE;
    return ans;
}

SEXP vapplyInternal(SEXP call, SEXP env, SEXP tramp) {
    SEXP xsym = CADR(call), funsym = CADDR(call);
    SEXP x = frameValue(env, xsym);
    SEXP fun = frameValue(env, funsym);
    if (!x || !fun || TYPEOF(fun) != CLOSXP || !plainVectorType(x) || XLENGTH(x) > INT_MAX)
        return nullptr;
    R_xlen_t n = XLENGTH(x);
    PROTECT(x);
    // from here on as do_vapply: FUN.VALUE and USE.NAMES evaluated after X
    // (already a value), then checked
    SEXP value = PROTECT(Rf_eval(CADDDR(call), env));
    if (!Rf_isVector(value)) Rf_error(_("'FUN.VALUE' must be a vector"));
    int useNames = Rf_asLogical(Rf_eval(CAR(CDR(CDDDR(call))), env));
    if (useNames == NA_LOGICAL) Rf_error(_("invalid '%s' value"), "USE.NAMES");
    int commonLen = Rf_length(value);
    SEXPTYPE commonType = TYPEOF(value);
    switch (commonType) {
        case CPLXSXP:
        case REALSXP:
        case INTSXP:
        case LGLSXP:
        case RAWSXP:
        case STRSXP:
        case VECSXP:
            break;
        default:
            Rf_error(_("type '%s' is not supported"), Rf_type2char(commonType));
    }
    SEXP dimv = Rf_getAttrib(value, R_DimSymbol);
    bool arrayValue = TYPEOF(dimv) == INTSXP && LENGTH(dimv) >= 1;
    PROTECT(dimv);
    SEXP ans = PROTECT(Rf_allocVector(commonType, n * commonLen));
    SEXP names = R_NilValue, rowNames = R_NilValue;
    if (useNames) {
        names = Rf_getAttrib(x, R_NamesSymbol);
        if (Rf_isNull(names) && TYPEOF(x) == STRSXP) names = x;
        rowNames = Rf_getAttrib(value, arrayValue ? R_DimNamesSymbol : R_NamesSymbol);
    }
    PROTECT(names);
    PROTECT_INDEX rpx;
    PROTECT_WITH_INDEX(rowNames, &rpx);
    SEXP fcall = PROTECT(elementCall(xsym, funsym));
    R_xlen_t offset = 0;
    callEach(xsym, funsym, x, n, fcall, env, tramp, false, [&](R_xlen_t i, SEXP val) {
        if (Rf_length(val) != commonLen)
            Rf_error(_("values must be length %d,\n but FUN(X[[%d]]) result is length %d"),
                     commonLen, int(i + 1), Rf_length(val));
        SEXPTYPE valType = TYPEOF(val);
        if (valType != commonType) {
            bool okay = (commonType == CPLXSXP &&
                         (valType == REALSXP || valType == INTSXP || valType == LGLSXP)) ||
                        (commonType == REALSXP && (valType == INTSXP || valType == LGLSXP)) ||
                        (commonType == INTSXP && valType == LGLSXP);
            if (!okay)
                Rf_error(_("values must be type '%s',\n but FUN(X[[%d]]) result is type '%s'"),
                         Rf_type2char(commonType), int(i + 1), Rf_type2char(valType));
            val = Rf_coerceVector(val, commonType);
        }
        PROTECT(val);
        // row names come from the first result only
        if (i == 0 && useNames && Rf_isNull(rowNames))
            REPROTECT(rowNames = Rf_getAttrib(val, arrayValue ? R_DimNamesSymbol : R_NamesSymbol),
                      rpx);
        for (int j = 0; j < commonLen; j++, offset++) switch (commonType) {
                case CPLXSXP:
                    COMPLEX(ans)[offset] = COMPLEX_ELT(val, j);
                    break;
                case REALSXP:
                    REAL(ans)[offset] = REAL_ELT(val, j);
                    break;
                case INTSXP:
                    INTEGER(ans)[offset] = INTEGER_ELT(val, j);
                    break;
                case LGLSXP:
                    LOGICAL(ans)[offset] = LOGICAL_ELT(val, j);
                    break;
                case RAWSXP:
                    RAW(ans)[offset] = RAW_ELT(val, j);
                    break;
                case STRSXP:
                    SET_STRING_ELT(ans, offset, STRING_ELT(val, j));
                    break;
                default:
                    SET_VECTOR_ELT(ans, offset, VECTOR_ELT(val, j));
                    break;
            }
        UNPROTECT(1);
    });
    int rank = -1;
    if (commonLen != 1) {
        rank = arrayValue ? LENGTH(dimv) : 1;
        SEXP dim = PROTECT(Rf_allocVector(INTSXP, rank + 1));
        for (int j = 0; j < rank; j++) INTEGER(dim)[j] = arrayValue ? INTEGER(dimv)[j] : commonLen;
        INTEGER(dim)[rank] = int(n);
        Rf_setAttrib(ans, R_DimSymbol, dim);
        UNPROTECT(1);
    }
    if (useNames) {
        if (commonLen == 1) {
            if (!Rf_isNull(names)) Rf_setAttrib(ans, R_NamesSymbol, names);
        } else if (!Rf_isNull(names) || !Rf_isNull(rowNames)) {
            SEXP dimnames = PROTECT(Rf_allocVector(VECSXP, rank + 1));
            if (arrayValue && !Rf_isNull(rowNames)) {
                if (TYPEOF(rowNames) != VECSXP || LENGTH(rowNames) != rank)
                    Rf_error(_("dimnames(<value>) is neither NULL nor list of length %d"), rank);
                for (int j = 0; j < rank; j++) SET_VECTOR_ELT(dimnames, j, VECTOR_ELT(rowNames, j));
            } else {
                SET_VECTOR_ELT(dimnames, 0, rowNames);
            }
            SET_VECTOR_ELT(dimnames, rank, names);
            Rf_setAttrib(ans, R_DimNamesSymbol, dimnames);
            UNPROTECT(1);
        }
    }
    UNPROTECT(7);
    R_Visible = TRUE;
    return ans;
}

}  // namespace

bool isApplyInternal(SEXP inner) {
    static SEXP lapplySym = Rf_install("lapply"), vapplySym = Rf_install("vapply");
    if (TYPEOF(inner) != LANGSXP) return false;
    SEXP fn = CAR(inner);
    int nargs = Rf_length(CDR(inner));
    if (!(fn == lapplySym && nargs == 2) && !(fn == vapplySym && nargs == 4)) return false;
    for (SEXP a = CDR(inner); a != R_NilValue; a = CDR(a))
        if (TYPEOF(CAR(a)) != SYMSXP || TAG(a) != R_NilValue || CAR(a) == R_DotsSymbol)
            return false;
    return INTERNAL(fn) != R_NilValue && TYPEOF(INTERNAL(fn)) == SPECIALSXP;
}

SEXP applyInternal(SEXP inner, SEXP env, SEXP tramp) {
    static SEXP lapplySym = Rf_install("lapply");
    return CAR(inner) == lapplySym ? lapplyInternal(inner, env, tramp)
                                   : vapplyInternal(inner, env, tramp);
}

}  // namespace rir
