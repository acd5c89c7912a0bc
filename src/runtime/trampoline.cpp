// trampoline.cpp — construction of trampolines (see trampoline.h).
#include "trampoline.h"

namespace rir {

static SEXP code = nullptr;       // encoded (threaded) instruction vector
static SEXP entryRoutine = nullptr;
static SEXP visibleFlag = nullptr;
static SEXP externalCall = nullptr;
static SEXP exprIndex = nullptr;
static SEXP external2Sym = nullptr;

enum Const { kSource = 0, kExternal2, kEntry, kTarget, kCall, kVisible, kExprIndex, kNConst };

void trampolineInit(SEXP templ, SEXP entry) {
    if (code) return;
    external2Sym = Rf_install(".External2");
    code = R_bcEncode(templ);
    R_PreserveObject(code);
    entryRoutine = entry;
    R_PreserveObject(entryRoutine);
    visibleFlag = Rf_allocVector(LGLSXP, 1);  // not ScalarLogical: that one is shared
    LOGICAL(visibleFlag)[0] = TRUE;
    R_PreserveObject(visibleFlag);
    externalCall = Rf_lang2(external2Sym, Rf_install("rir_entry"));
    R_PreserveObject(externalCall);
    int n = LENGTH(templ);
    exprIndex = Rf_allocVector(INTSXP, n);
    R_PreserveObject(exprIndex);
    for (int i = 0; i < n; i++) INTEGER(exprIndex)[i] = kCall;
    INTEGER(exprIndex)[0] = NA_INTEGER;
    Rf_setAttrib(exprIndex, R_ClassSymbol, Rf_mkString("expressionsIndex"));
}

bool trampolineReady() { return code != nullptr; }

SEXP makeTrampoline(SEXP ast, SEXP target) {
    PROTECT(ast);
    PROTECT(target);
    SEXP consts = PROTECT(Rf_allocVector(VECSXP, kNConst));
    SET_VECTOR_ELT(consts, kSource, ast);
    SET_VECTOR_ELT(consts, kExternal2, external2Sym);
    SET_VECTOR_ELT(consts, kEntry, entryRoutine);
    SET_VECTOR_ELT(consts, kTarget, target);
    SET_VECTOR_ELT(consts, kCall, externalCall);
    SET_VECTOR_ELT(consts, kVisible, visibleFlag);
    SET_VECTOR_ELT(consts, kExprIndex, exprIndex);
    SEXP bc = Rf_cons(code, consts);
    SET_TYPEOF(bc, BCODESXP);
    UNPROTECT(3);
    return bc;
}

bool isTrampoline(SEXP body) {
    if (TYPEOF(body) != BCODESXP) return false;
    SEXP consts = CDR(body);
    return TYPEOF(consts) == VECSXP && LENGTH(consts) == kNConst &&
           VECTOR_ELT(consts, kEntry) == entryRoutine &&
           TYPEOF(VECTOR_ELT(consts, kTarget)) == EXTPTRSXP;
}

SEXP trampolineTarget(SEXP body) {
    if (!isTrampoline(body)) return nullptr;
    return VECTOR_ELT(CDR(body), kTarget);
}

void setTrampolineExpr(SEXP consts, SEXP expr) {
    if (consts && VECTOR_ELT(consts, kCall) != expr) SET_VECTOR_ELT(consts, kCall, expr);
}

void setTrampolineVisible(bool visible) { LOGICAL(visibleFlag)[0] = visible; }

}  // namespace rir
