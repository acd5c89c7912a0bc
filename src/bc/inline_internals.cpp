// inline_internals.cpp — GNU R's compiler replaces calls of a few base and
// stats functions that are thin wrappers around a builtin .Internal by the
// .Internal call itself (its "safe base internals"): no closure call, no
// frame, arguments evaluated eagerly in the order of the internal's
// arguments. rir does the same, so that values, errors, sys.calls() and
// tracebacks agree with GNU R's byte code (and the call is cheap).
//
//   inherits(x, "data.frame")
//     with inherits <- function(x, what, which = FALSE) .Internal(inherits(x, what, which))
//   => .Internal(inherits(x, "data.frame", FALSE))   (compiled as a builtin call)
//
// Conditions (those of GNU R's compiler): no `...` in the formals, defaults
// that are constants, a body `.Internal(f(...))` (possibly in braces) whose
// f is a builtin internal and whose arguments are formals or constants; the
// call has no `...` or empty arguments and matches the formals (match.call).
#include "inline_internals.h"

#include <cstring>

namespace rir {

namespace {

const char* const kSafeBase[] = {"atan2",     "besselY",   "beta",   "choose",    "drop",
                                 "inherits",  "is.vector", "lbeta",  "lchoose",   "nchar",
                                 "polyroot",  "typeof",    "vector", "which.max", "which.min",
                                 "is.loaded", "identical", "match",  "rep.int",   "rep_len"};
const char* const kSafeStats[] = {
    "dbinom",    "dcauchy",  "dgeom",    "dhyper",  "dlnorm", "dlogis",   "dnorm",  "dpois",
    "dunif",     "dweibull", "fft",      "mvfft",   "pbinom", "pcauchy",  "pgeom",  "phyper",
    "plnorm",    "plogis",   "pnorm",    "ppois",   "punif",  "pweibull", "qbinom", "qcauchy",
    "qgeom",     "qhyper",   "qlnorm",   "qlogis",  "qnorm",  "qpois",    "qunif",  "qweibull",
    "rbinom",    "rcauchy",  "rgeom",    "rhyper",  "rlnorm", "rlogis",   "rnorm",  "rpois",
    "rsignrank", "runif",    "rweibull", "rwilcox", "ptukey", "qtukey"};

template <size_t N>
bool listed(const char* const (&names)[N], const char* n) {
    for (const char* x : names)
        if (!strcmp(x, n)) return true;
    return false;
}

bool codeLike(SEXP x) {
    int t = TYPEOF(x);
    return t == SYMSXP || t == LANGSXP || t == PROMSXP || t == BCODESXP;
}

// The `.Internal(f(...))` call of a simple internal wrapper, or nullptr.
SEXP simpleInternalBody(SEXP def) {
    if (TYPEOF(def) != CLOSXP) return nullptr;
    for (SEXP f = FORMALS(def); f != R_NilValue; f = CDR(f)) {
        if (TAG(f) == R_DotsSymbol) return nullptr;
        if (CAR(f) != R_MissingArg && codeLike(CAR(f))) return nullptr;
    }
    SEXP b = R_ClosureExpr(def);
    if (TYPEOF(b) == LANGSXP && CAR(b) == Rf_install("{") && Rf_length(b) == 2) b = CADR(b);
    if (TYPEOF(b) != LANGSXP || CAR(b) != Rf_install(".Internal") || Rf_length(b) != 2)
        return nullptr;
    SEXP icall = CADR(b);
    if (TYPEOF(icall) != LANGSXP || TYPEOF(CAR(icall)) != SYMSXP ||
        TYPEOF(INTERNAL(CAR(icall))) != BUILTINSXP)
        return nullptr;
    for (SEXP a = CDR(icall); a != R_NilValue; a = CDR(a)) {
        SEXP v = CAR(a);
        if (v == R_MissingArg) return nullptr;
        if (TYPEOF(v) == SYMSXP) {
            bool formal = false;
            for (SEXP f = FORMALS(def); f != R_NilValue; f = CDR(f))
                if (TAG(f) == v) formal = true;
            if (!formal) return nullptr;
        } else if (codeLike(v)) {
            return nullptr;
        }
    }
    return b;
}

}  // namespace

SEXP inlineSimpleInternal(SEXP e, SEXP (*definitionOf)(SEXP, void*), void* data) {
    SEXP fn = CAR(e);
    if (TYPEOF(fn) != SYMSXP) return nullptr;
    const char* n = CHAR(PRINTNAME(fn));
    if (!listed(kSafeBase, n) && !listed(kSafeStats, n)) return nullptr;
    for (SEXP a = CDR(e); a != R_NilValue; a = CDR(a))
        if (CAR(a) == R_DotsSymbol || CAR(a) == R_MissingArg) return nullptr;
    SEXP def = definitionOf(fn, data);
    if (!def) return nullptr;
    SEXP body = simpleInternalBody(def);
    if (!body) return nullptr;
    PROTECT(def);
    // match.call(def, quote(e), FALSE), as GNU R's compiler does; a call
    // that does not match is left alone (it fails at run time).
    SEXP q = PROTECT(Rf_lang2(Rf_install("quote"), e));
    SEXP mc = PROTECT(Rf_lang4(Rf_install("match.call"), def, q, Rf_ScalarLogical(FALSE)));
    int err = 0;
    SEXP matched = R_tryEvalSilent(mc, R_BaseEnv, &err);
    if (err || TYPEOF(matched) != LANGSXP) {
        UNPROTECT(3);
        return nullptr;
    }
    PROTECT(matched);
    SEXP icall = CADR(body);
    SEXP args = PROTECT(Rf_duplicate(CDR(icall)));
    for (SEXP a = args; a != R_NilValue; a = CDR(a)) {
        SEXP v = CAR(a);
        if (TYPEOF(v) != SYMSXP) continue;
        SEXP found = nullptr;
        for (SEXP m = CDR(matched); m != R_NilValue; m = CDR(m))
            if (TAG(m) == v) found = CAR(m);
        if (!found)
            for (SEXP f = FORMALS(def); f != R_NilValue; f = CDR(f))
                if (TAG(f) == v) found = CAR(f);
        if (!found || found == R_MissingArg) {  // no default: not inlined
            UNPROTECT(5);
            return nullptr;
        }
        SETCAR(a, found);
    }
    SEXP inner = PROTECT(Rf_lcons(CAR(icall), args));
    SEXP res = Rf_lang2(Rf_install(".Internal"), inner);
    UNPROTECT(6);
    return res;
}

}  // namespace rir
