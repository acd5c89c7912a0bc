// eval_depth.cpp — see eval_depth.h.
#include "eval_depth.h"

namespace rir {

int extraDepth = 0;
SEXP expressionsCell = nullptr;
SEXP expressionsValue = nullptr;
int expressionsLimit = 5000;

namespace {

bool headroom = false;  // the 500 levels GNU R adds while handling an overflow
SEXP overflowCondition = nullptr;
SEXP signalCall = nullptr;
SEXP stopCall = nullptr;

}  // namespace

int refreshExpressionsLimit() {
    SEXP opts = SYMVALUE(Rf_install(".Options"));
    SEXP sym = Rf_install("expressions");
    expressionsCell = nullptr;
    for (SEXP o = opts; TYPEOF(o) == LISTSXP; o = CDR(o))
        if (TAG(o) == sym) {
            expressionsCell = o;
            break;
        }
    int limit = 5000;  // GNU R's default
    expressionsValue = expressionsCell ? CAR(expressionsCell) : nullptr;
    if (expressionsValue && TYPEOF(expressionsValue) == INTSXP && XLENGTH(expressionsValue) == 1 &&
        INTEGER(expressionsValue)[0] != NA_INTEGER)
        limit = INTEGER(expressionsValue)[0];
    expressionsLimit = limit + (headroom ? 500 : 0);
    return expressionsLimit;
}

void restoreDepth(int saved) {
    extraDepth = saved;
    if (headroom) {
        headroom = false;
        expressionsCell = nullptr;  // re-read the limit without the headroom
    }
}

void initEvalDepth() {
    if (overflowCondition) return;
    // list(message = gettext(msg, domain = "R"), call = NULL) with GNU R's
    // classes (R_InitConditions in errors.c)
    SEXP msg = PROTECT(
        Rf_mkString("evaluation nested too deeply: infinite recursion / options(expressions=)?"));
    SEXP domain = PROTECT(Rf_mkString("R"));
    SEXP tr = PROTECT(Rf_lang3(Rf_install("gettext"), msg, domain));
    SET_TAG(CDDR(tr), Rf_install("domain"));
    msg = PROTECT(Rf_eval(tr, R_BaseEnv));
    SEXP cond = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(cond, 0, msg);
    SET_VECTOR_ELT(cond, 1, R_NilValue);
    SEXP names = PROTECT(Rf_allocVector(STRSXP, 2));
    SET_STRING_ELT(names, 0, Rf_mkChar("message"));
    SET_STRING_ELT(names, 1, Rf_mkChar("call"));
    Rf_setAttrib(cond, R_NamesSymbol, names);
    SEXP klass = PROTECT(Rf_allocVector(STRSXP, 4));
    const char* classes[] = {"expressionStackOverflowError", "stackOverflowError", "error",
                             "condition"};
    for (int i = 0; i < 4; i++) SET_STRING_ELT(klass, i, Rf_mkChar(classes[i]));
    Rf_setAttrib(cond, R_ClassSymbol, klass);
    MARK_NOT_MUTABLE(cond);
    // what R_signalErrorCondition(cond, R_NilValue) does, through the
    // .Internals stop(cond) uses (no closure frame of its own)
    SEXP internal = Rf_install(".Internal");
    SEXP sig = PROTECT(Rf_lang4(Rf_install(".signalCondition"), cond, msg, R_NilValue));
    SEXP signal = PROTECT(Rf_lang2(internal, sig));
    SEXP dflt = PROTECT(Rf_lang3(Rf_install(".dfltStop"), msg, R_NilValue));
    SEXP stop = PROTECT(Rf_lang2(internal, dflt));
    R_PreserveObject(cond);
    R_PreserveObject(signal);
    R_PreserveObject(stop);
    overflowCondition = cond;
    signalCall = signal;
    stopCall = stop;
    UNPROTECT(11);
}

void expressionStackOverflow() {
    // GNU R: R_Expressions = R_Expressions_keep + 500, then the error
    headroom = true;
    expressionsCell = nullptr;
    Rf_eval(signalCall, R_BaseEnv);
    Rf_eval(stopCall, R_BaseEnv);
    Rf_error("unreachable: .dfltStop returned");
}

}  // namespace rir
