// trampoline.cpp — construction of trampolines (see trampoline.h).
#include "trampoline.h"

#include <R_ext/Altrep.h>

namespace rir {

static SEXP code = nullptr;  // encoded (threaded) instruction vector
SEXP trampolineEntryRoutine = nullptr;
static SEXP visibleFlag = nullptr;
static SEXP externalCall = nullptr;
static SEXP exprIndex = nullptr;
static SEXP external2Sym = nullptr;

// Serialization (saveRDS, PSOCK workers) keeps external pointers but drops
// their addresses, so a deserialized trampoline would name a NULL routine and
// GNU R would fail before rir sees the call. The entry routine's pointer
// therefore carries, in its protected slot, a tiny ALTREP object whose
// serialized state refers back to the pointer; unserializing it (which makes
// R load rir) writes the routine's address back into the pointer.
static R_altrep_class_t relinkClass;
static DL_FUNC entryFn = nullptr;

static R_xlen_t relinkLength(SEXP) {
    return 0;
}
static SEXP relinkState(SEXP x) {
    return R_altrep_data1(x);
}
static SEXP relinkUnserialize(SEXP cls, SEXP state) {
    if (TYPEOF(state) == VECSXP && XLENGTH(state) >= 1) {
        SEXP ptr = VECTOR_ELT(state, 0);
        if (TYPEOF(ptr) == EXTPTRSXP && R_ExternalPtrAddr(ptr) == nullptr && entryFn)
            R_SetExternalPtrAddr(ptr, (void*)entryFn);
    }
    return R_new_altrep(relinkClass, state, R_NilValue);
}
static void* relinkDataptr(SEXP, Rboolean) {
    return nullptr;
}
static const void* relinkDataptrOrNull(SEXP) {
    return nullptr;
}

void trampolineRegisterClasses(DllInfo* dll) {
    relinkClass = R_make_altinteger_class("rir_relink", "rir", dll);
    R_set_altrep_Length_method(relinkClass, relinkLength);
    R_set_altrep_Serialized_state_method(relinkClass, relinkState);
    R_set_altrep_Unserialize_method(relinkClass, relinkUnserialize);
    R_set_altvec_Dataptr_method(relinkClass, relinkDataptr);
    R_set_altvec_Dataptr_or_null_method(relinkClass, relinkDataptrOrNull);
}

void trampolineInit(SEXP templ, SEXP entry) {
    if (code) return;
    entryFn = R_ExternalPtrAddrFn(entry);
    {
        SEXP state = PROTECT(Rf_allocVector(VECSXP, 1));
        SET_VECTOR_ELT(state, 0, entry);
        SEXP marker = R_new_altrep(relinkClass, state, R_NilValue);
        R_SetExternalPtrProtected(entry, marker);
        UNPROTECT(1);
    }
    external2Sym = Rf_install(".External2");
    code = R_bcEncode(templ);
    R_PreserveObject(code);
    trampolineEntryRoutine = entry;
    R_PreserveObject(trampolineEntryRoutine);
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

bool trampolineReady() {
    return code != nullptr;
}

SEXP makeTrampoline(SEXP ast, SEXP target) {
    PROTECT(ast);
    PROTECT(target);
    SEXP consts = PROTECT(Rf_allocVector(VECSXP, kNConst));
    SET_VECTOR_ELT(consts, kSource, ast);
    SET_VECTOR_ELT(consts, kExternal2, external2Sym);
    SET_VECTOR_ELT(consts, kEntry, trampolineEntryRoutine);
    SET_VECTOR_ELT(consts, kTarget, target);
    SET_VECTOR_ELT(consts, kCall, externalCall);
    SET_VECTOR_ELT(consts, kVisible, visibleFlag);
    SET_VECTOR_ELT(consts, kExprIndex, exprIndex);
    SEXP bc = Rf_cons(code, consts);
    SET_TYPEOF(bc, BCODESXP);
    UNPROTECT(3);
    return bc;
}

bool isEntryRoutine(SEXP e) {
    return e == trampolineEntryRoutine ||
           (TYPEOF(e) == EXTPTRSXP && entryFn && R_ExternalPtrAddrFn(e) == entryFn);
}

bool isTrampoline(SEXP body) {
    if (TYPEOF(body) != BCODESXP) return false;
    SEXP consts = CDR(body);
    return TYPEOF(consts) == VECSXP && LENGTH(consts) == kNConst &&
           isEntryRoutine(VECTOR_ELT(consts, kEntry)) &&
           TYPEOF(VECTOR_ELT(consts, kTarget)) == EXTPTRSXP;
}

SEXP trampolineTarget(SEXP body) {
    if (!isTrampoline(body)) return nullptr;
    return VECTOR_ELT(CDR(body), kTarget);
}

void setTrampolineExpr(SEXP consts, SEXP expr) {
    if (consts && VECTOR_ELT(consts, kCall) != expr) SET_VECTOR_ELT(consts, kCall, expr);
}

void setTrampolineVisible(bool visible) {
    LOGICAL(visibleFlag)[0] = visible;
}

}  // namespace rir
