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

void Code::finish() {
    SEXP cl = Rf_allocVector(VECSXP, feedback.size() * kMaxCallees);
    SET_VECTOR_ELT(pool(), 1, cl);
}

}  // namespace rir
