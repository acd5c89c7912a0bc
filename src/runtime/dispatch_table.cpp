// dispatch_table.cpp — version management for rir closures.
#include "dispatch_table.h"

#include <algorithm>

#include "stats.h"

namespace rir {

SEXP functionTag() {
    static SEXP tag = Rf_install("rir_function");
    return tag;
}

static void tableFinalizer(SEXP ptr) {
    DispatchTable* t = static_cast<DispatchTable*>(R_ExternalPtrAddr(ptr));
    if (!t) return;
    if (t->registryIndex >= 0 && size_t(t->registryIndex) < registry.size()) {
        registry[t->registryIndex].alive = false;
        registry[t->registryIndex].calls = nullptr;
        registry[t->registryIndex].table = nullptr;
    }
    R_ClearExternalPtr(ptr);
    if (t->jobs)
        t->orphaned = true;
    else
        delete t;
}

DispatchTable* DispatchTable::create(SEXP formals, SEXP body, const std::string& name) {
    SEXP prot = PROTECT(Rf_allocVector(VECSXP, 8));
    SET_VECTOR_ELT(prot, 0, formals);
    SET_VECTOR_ELT(prot, 1, body);
    DispatchTable* t = new DispatchTable();
    t->name = name;
    t->container = R_MakeExternalPtr(t, functionTag(), prot);
    PROTECT(t->container);
    R_RegisterCFinalizerEx(t->container, tableFinalizer, TRUE);
    t->registryIndex = registerCompiled(name, t);
    UNPROTECT(2);
    return t;
}

DispatchTable* DispatchTable::unpack(SEXP x) {
    if (TYPEOF(x) != EXTPTRSXP || R_ExternalPtrTag(x) != functionTag()) return nullptr;
    return static_cast<DispatchTable*>(R_ExternalPtrAddr(x));
}

void DispatchTable::setBaseline(Code* c, SEXP codeContainer) {
    SET_VECTOR_ELT(R_ExternalPtrProtected(container), 2, codeContainer);
    baseline = c;
}

}  // namespace rir
