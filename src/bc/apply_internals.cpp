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

#include <algorithm>

#include "../runtime/r_messages.h"
#include "../runtime/rapi.h"
#include "../runtime/trampoline.h"
#include "calls.h"

namespace rir {

namespace {

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
        // `...` as R_forceAndCall would expand it (else its error)
        SEXP dots = Rf_findVar(R_DotsSymbol, env);
        bool dotsOk = TYPEOF(dots) == DOTSXP || dots == R_NilValue || dots == R_MissingArg;
        // X[[i]] taken directly only while X, FUN and i are what they were
        SEXP v = cur == x && !OBJECT(x) && f && TYPEOF(f) == CLOSXP && boundIndex() == ind && dotsOk
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

SEXP mapplyInternal(SEXP args, SEXP env, SEXP tramp) {
    static SEXP dotsSym = Rf_install("dots");
    SEXP f = CAR(args), varying = CADR(args), constant = CADDR(args);
    if (TYPEOF(f) != CLOSXP || TYPEOF(varying) != VECSXP || frameValue(env, dotsSym) != varying)
        return nullptr;
    // MoreArgs: a list; GNU R's errors, its other cases (a pairlist is
    // dropped, an expression vector converted) and odd entries (`...`,
    // empty) stay with it
    if (constant != R_NilValue && TYPEOF(constant) != VECSXP) return nullptr;
    R_xlen_t nconst = Rf_xlength(constant);
    for (R_xlen_t k = 0; k < nconst; k++) {
        SEXP a = VECTOR_ELT(constant, k);
        if (a == R_DotsSymbol || a == R_MissingArg) return nullptr;
    }
    // varying arguments: plain vectors (objects dispatch on length()) or NULL
    int m = LENGTH(varying);
    R_xlen_t* lengths = reinterpret_cast<R_xlen_t*>(R_alloc(m, sizeof(R_xlen_t)));
    R_xlen_t* counters = reinterpret_cast<R_xlen_t*>(R_alloc(m, sizeof(R_xlen_t)));
    R_xlen_t longest = 0;
    bool zero = false;
    for (int j = 0; j < m; j++) {
        SEXP a = VECTOR_ELT(varying, j);
        if (OBJECT(a) || (a != R_NilValue && !plainVectorType(a))) return nullptr;
        lengths[j] = Rf_xlength(a);
        counters[j] = 0;
        zero = zero || lengths[j] == 0;
        longest = std::max(longest, lengths[j]);
    }
    if (longest > INT_MAX) return nullptr;
    if (zero && longest) return Rf_allocVector(VECSXP, 0);
    // FUN(dots[[1L]][[i1]], dots[[2L]][[i2]], ..., <MoreArgs>) with the
    // varying arguments tagged by the names of dots and the indices i_j
    // integers updated in place, as GNU R builds it
    SEXP vnames = PROTECT(Rf_getAttrib(varying, R_NamesSymbol));
    SEXP fcall = constant == R_NilValue ? R_NilValue : Rf_VectorToPairList(constant);
    PROTECT_INDEX fpx;
    PROTECT_WITH_INDEX(fcall, &fpx);
    SEXP index = PROTECT(Rf_allocVector(VECSXP, m));
    for (int j = m - 1; j >= 0; j--) {
        SEXP ij = Rf_allocVector(INTSXP, 1);
        SET_VECTOR_ELT(index, j, ij);
        SEXP inner = PROTECT(Rf_lang3(R_Bracket2Symbol, dotsSym, Rf_ScalarInteger(j + 1)));
        SEXP elt = PROTECT(Rf_lang3(R_Bracket2Symbol, inner, ij));
        REPROTECT(fcall = Rf_lcons(elt, fcall), fpx);
        UNPROTECT(2);
        if (vnames != R_NilValue && CHAR(STRING_ELT(vnames, j))[0] != '\0')
            SET_TAG(fcall, Rf_installTrChar(STRING_ELT(vnames, j)));
    }
    REPROTECT(fcall = Rf_lcons(f, fcall), fpx);
    // the argument vectors as they were (kept alive: FUN may replace them)
    SEXP orig = PROTECT(Rf_shallow_duplicate(varying));
    SEXP ans = PROTECT(Rf_allocVector(VECSXP, longest));
    for (R_xlen_t i = 0; i < longest; i++) {
        for (int j = 0; j < m; j++) {
            counters[j] = counters[j] + 1 > lengths[j] ? 1 : counters[j] + 1;
            INTEGER(VECTOR_ELT(index, j))[0] = int(counters[j]);
        }
        SEXP r = nullptr;
        // elements taken directly only while dots and its vectors are the
        // ones measured at the start (FUN may have replaced or changed them)
        bool same = frameValue(env, dotsSym) == varying;
        for (int j = 0; same && j < m; j++) {
            SEXP a = VECTOR_ELT(varying, j);
            same = a == VECTOR_ELT(orig, j) && !OBJECT(a) && Rf_xlength(a) == lengths[j];
        }
        if (!same) {
            r = R_forceAndCall(fcall, m, env);
        } else {
            // the varying arguments as forced promises, MoreArgs' entries
            // as promises of themselves (R_forceAndCall's promiseArgs)
            SEXP head = PROTECT(consNR(R_NilValue, R_NilValue));
            SEXP tail = head;
            int j = 0;
            for (SEXP a = CDR(fcall); a != R_NilValue; a = CDR(a), j++) {
                SEXP p = mkPromise(CAR(a), env);
                SEXP cell = consNR(p, R_NilValue);
                SETCDR(tail, cell);
                SET_TAG(cell, TAG(a));
                tail = cell;
                if (j < m) {
                    SET_PRVALUE(p, element(VECTOR_ELT(varying, j), counters[j] - 1));
                    SET_PRENV(p, R_NilValue);
                }
            }
            r = applyClosureFromRir(fcall, f, CDR(head), env, tramp);
            UNPROTECT(1);
        }
        if (MAYBE_REFERENCED(r)) r = Rf_lazy_duplicate(r);
        SET_VECTOR_ELT(ans, i, r);
    }
    for (int j = 0; j < m; j++)
        if (counters[j] != lengths[j])
            Rf_warning(_("longer argument not a multiple of length of shorter"));
    UNPROTECT(5);
    return ans;
}

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

SEXP runApplyInternal(SEXP inner, SEXP call, SEXP env, SEXP tramp) {
    setTrampolineExpr(tramp, call);
    SEXP r = applyInternal(inner, env, tramp);
    if (!r) {
        SEXP f = INTERNAL(CAR(inner));
        R_Visible = TRUE;
        const void* vmax = vmaxget();
        r = primFun(f)(inner, f, CDR(inner), env);
        vmaxset(vmax);
        R_Visible = TRUE;
    }
    return r;
}

}  // namespace rir
