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
    delete t;
    R_ClearExternalPtr(ptr);
}

DispatchTable* DispatchTable::create(SEXP formals, SEXP body, const std::string& name) {
    SEXP prot = PROTECT(Rf_allocVector(VECSXP, 8));
    SET_VECTOR_ELT(prot, 0, formals);
    SET_VECTOR_ELT(prot, 1, body);
    SET_VECTOR_ELT(prot, 3, Rf_allocVector(VECSXP, kMaxVersions));
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

bool DispatchTable::insert(Context ctx, Code* code, SEXP codeContainer) {
    if (ctx == Context()) return false;
    SEXP keep = VECTOR_ELT(R_ExternalPtrProtected(container), 3);
    for (size_t i = 0; i < versions.size(); i++) {
        if (versions[i].context == ctx) {
            versions[i].code = code;
            // slot i of `keep` mirrors versions[i]
            SET_VECTOR_ELT(keep, i, codeContainer);
            return true;
        }
    }
    if (versions.size() == kMaxVersions) versions.pop_back();  // least specific
    versions.push_back({ctx, code});
    // Keep `keep` in the same order as `versions`.
    std::vector<std::pair<Version, SEXP>> both;
    for (size_t i = 0; i + 1 < versions.size(); i++)
        both.push_back({versions[i], VECTOR_ELT(keep, i)});
    both.push_back({versions.back(), codeContainer});
    std::stable_sort(both.begin(), both.end(), [](const auto& a, const auto& b) {
        return contextBefore(a.first.context, b.first.context);
    });
    PROTECT(codeContainer);
    for (size_t i = 0; i < kMaxVersions; i++)
        SET_VECTOR_ELT(keep, i, i < both.size() ? both[i].second : R_NilValue);
    UNPROTECT(1);
    for (size_t i = 0; i < both.size(); i++) versions[i] = both[i].first;
    return true;
}

Code* DispatchTable::dispatch(Context call) const {
    for (const Version& v : versions)
        if (call.smaller(v.context)) return v.code;
    return baseline;
}

}  // namespace rir
