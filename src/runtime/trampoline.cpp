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

// Serialization (saveRDS, save(), PSOCK workers). GNU R writes a BCODESXP
// as its decoded instructions (R_bcDecode: LENGTH, then the words through
// INTEGER(), the version word copied as is) followed by its constants, and it
// reads one back whose version is outside [R_bcMinVersion, R_bcVersion] as
// its constant 0, the source. Every trampoline shares one instruction vector,
// an ALTREP integer vector over the encoded code: asking for its length (which
// bcEval never does; R_bcDecode does, right before it reads the words) sets
// the version word to 2, so what gets written is outdated byte code and the
// closure reads back as a plain R closure, in any session, without rir. The
// read of the words after the one that follows the length (the next bcEval
// of a trampoline) restores the version. GNU R runs no R code in between
// (finalizers run at safe points of eval, not inside allocations). If the
// length is asked without a read following (identical() of codes of
// different lengths, .Internal(inspect())), the next bcEval of a trampoline
// sees version 2 and GNU R evaluates that one call's source with its AST
// interpreter: slower, same semantics.
//
// A trampoline's target (the DispatchTable/Code pointer, whose protected
// list holds rir's compiled state) is wrapped in a second ALTREP class
// without a serialized state, so it is written as integer(0): nothing of
// rir's state, and no reference to rir, ends up in the stream.
static R_altrep_class_t codeClass;
static R_altrep_class_t targetClass;
SEXP trampolineTargetClass = nullptr;
static SEXP liveCode = nullptr;  // encoded instructions (data1 of `code`)
static int liveVersion = 0;
static constexpr int kDeadVersion = 2;
enum class VersionPatch { None, Armed, Read };
static VersionPatch versionPatch = VersionPatch::None;

static R_xlen_t codeLength(SEXP) {
    static_cast<int*>(fdata(liveCode))[0] = kDeadVersion;
    versionPatch = VersionPatch::Armed;
    return flength(liveCode);
}
static void* codeDataptr(SEXP, Rboolean) {
    if (versionPatch != VersionPatch::None) {
        if (versionPatch == VersionPatch::Armed) {
            versionPatch = VersionPatch::Read;
        } else {
            static_cast<int*>(fdata(liveCode))[0] = liveVersion;
            versionPatch = VersionPatch::None;
        }
    }
    return fdata(liveCode);
}
static const void* codeDataptrOrNull(SEXP x) {
    return codeDataptr(x, FALSE);
}

static R_xlen_t targetLength(SEXP) {
    return 0;
}
static void* targetDataptr(SEXP, Rboolean) {
    static int none = 0;
    return &none;
}
static const void* targetDataptrOrNull(SEXP x) {
    return targetDataptr(x, FALSE);
}

void trampolineRegisterClasses(DllInfo* dll) {
    codeClass = R_make_altinteger_class("rir_trampoline_code", "rir", dll);
    R_set_altrep_Length_method(codeClass, codeLength);
    R_set_altvec_Dataptr_method(codeClass, codeDataptr);
    R_set_altvec_Dataptr_or_null_method(codeClass, codeDataptrOrNull);
    targetClass = R_make_altinteger_class("rir_trampoline_target", "rir", dll);
    R_set_altrep_Length_method(targetClass, targetLength);
    R_set_altvec_Dataptr_method(targetClass, targetDataptr);
    R_set_altvec_Dataptr_or_null_method(targetClass, targetDataptrOrNull);
    trampolineTargetClass = targetClass.ptr;
}

SEXP trampolineTargetSlow(SEXP wrapper) {
    return TYPEOF(wrapper) == INTSXP ? unwrapTarget(wrapper) : nullptr;
}

void trampolineInit(SEXP templ, SEXP entry) {
    if (code) return;
    external2Sym = Rf_install(".External2");
    liveCode = R_bcEncode(templ);
    R_PreserveObject(liveCode);
    liveVersion = INTEGER(liveCode)[0];
    code = R_new_altrep(codeClass, liveCode, R_NilValue);
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
    SET_VECTOR_ELT(consts, kTarget, R_new_altrep(targetClass, target, R_NilValue));
    SET_VECTOR_ELT(consts, kCall, externalCall);
    SET_VECTOR_ELT(consts, kVisible, visibleFlag);
    SET_VECTOR_ELT(consts, kExprIndex, exprIndex);
    SEXP bc = Rf_cons(code, consts);
    SET_TYPEOF(bc, BCODESXP);
    UNPROTECT(3);
    return bc;
}

bool isTrampoline(SEXP body) {
    return trampolineTarget(body) != nullptr;
}

SEXP trampolineTarget(SEXP body) {
    if (TYPEOF(body) != BCODESXP) return nullptr;
    SEXP consts = CDR(body);
    if (TYPEOF(consts) != VECSXP || ALTREP(consts) || LENGTH(consts) != kNConst ||
        VECTOR_ELT(consts, kEntry) != trampolineEntryRoutine)
        return nullptr;
    SEXP target = trampolineTargetSlow(VECTOR_ELT(consts, kTarget));
    return target && TYPEOF(target) == EXTPTRSXP ? target : nullptr;
}

void setTrampolineExpr(SEXP consts, SEXP expr) {
    if (consts) setListElt(consts, kCall, expr);
}

SEXP trampolineExpr(SEXP consts) {
    return consts ? VECTOR_ELT(consts, kCall) : nullptr;
}

void setTrampolineVisible(bool visible) {
    LOGICAL(visibleFlag)[0] = visible;
}

}  // namespace rir
