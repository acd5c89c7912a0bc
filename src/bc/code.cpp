// code.cpp — allocation and ownership of RIR Code objects.
#include "code.h"

namespace rir {

static void codeFinalizer(SEXP ptr) {
    Code* c = static_cast<Code*>(R_ExternalPtrAddr(ptr));
    if (c) {
        delete c;
        R_ClearExternalPtr(ptr);
    }
}

Code* Code::create(CodeKind kind, SEXP ast) {
    SEXP pool = PROTECT(Rf_allocVector(VECSXP, 8));
    Code* c = new Code();
    c->kind = kind;
    c->container = R_MakeExternalPtr(c, codeTag(), pool);
    PROTECT(c->container);
    R_RegisterCFinalizerEx(c->container, codeFinalizer, TRUE);
    c->addPool(ast);
    c->addPool(R_NilValue);  // callee feedback, sized in finish()
    UNPROTECT(2);
    return c;
}

int Code::addPool(SEXP x) {
    PROTECT(x);
    SEXP p = pool();
    if (poolSize == LENGTH(p)) {
        SEXP np = PROTECT(Rf_allocVector(VECSXP, poolSize * 2));
        for (int i = 0; i < poolSize; i++) SET_VECTOR_ELT(np, i, VECTOR_ELT(p, i));
        R_SetExternalPtrProtected(container, np);
        UNPROTECT(1);
        p = np;
    }
    SET_VECTOR_ELT(p, poolSize, x);
    UNPROTECT(1);
    return poolSize++;
}

// The callee feedback list does not count its elements (it keeps them
// alive): counted, it would keep a returning call's frame from being
// released when a local function of the frame had been called there, since
// releaseFrame (GNU R's R_CleanupEnvir) counts a closure of the frame as
// the frame's own only when nothing else counts it; the frame's values then
// stayed referenced (GNU R's arithmetic did not reuse them). A recorded
// closure nothing else counts may have its environment replaced in place
// (`environment(f) <- e`): code inlined from it checks the environment too
// (rirn_is_callee).
void Code::finish() {
    SEXP cl = Rf_allocVector(VECSXP, feedback.size() * kMaxCallees);
    untrackRefs(cl);
    SET_VECTOR_ELT(pool(), 1, cl);
}

}  // namespace rir
