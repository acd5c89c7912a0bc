// llvm_loader.cpp — the native tier's LLVM half, loaded when first needed.
//
// LLVM is large: loading it costs 25 MB (linked statically, the components
// the tier uses) to 55 MB (the shared libLLVM) of resident memory, which a
// session that never optimizes a function should not pay. So the lowering
// and the JIT (lower.cpp, analyses.cpp, inline_paths.cpp) are a second
// shared object, rirllvm.so, installed next to rir.so and linked against
// it (its DT_NEEDED names rir.so, whose SONAME it is, so it binds to the
// copy R already loaded). rir.so opens it at the first question to the
// tier (available(), compile(), lastIR()):
//
//   rir.so                                 rirllvm.so (+ LLVM)
//     native::lower(f, t, &why)    --dlopen-->  rir_llvm_lower(f, t, &why)
//     native::emit(lowered, &why)               rir_llvm_emit(lowered, &why)
//     native::discard(lowered)                  rir_llvm_discard(lowered)
//
// Without LLVM at build time the file is not built and the tier says why.
#include <dlfcn.h>

#include <string>

#include "native.h"

namespace rir {
namespace native {

namespace {

struct LlvmHalf {
    bool (*available)(std::string*) = nullptr;
    void* (*lower)(pir::Function&, DispatchTable*, std::string*) = nullptr;
    void* (*emit)(void*, std::string*) = nullptr;
    void (*discard)(void*) = nullptr;
    const std::string& (*lastIR)() = nullptr;
    std::string problem;
};

// (the directory of this shared object: rirllvm.so is installed beside it)
std::string ownDirectory() {
    Dl_info info;
    if (!dladdr(reinterpret_cast<void*>(&ownDirectory), &info) || !info.dli_fname) return "";
    std::string path = info.dli_fname;
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
}

LlvmHalf& half() {
    static LlvmHalf h = [] {
        LlvmHalf r;
#ifndef RIR_HAVE_LLVM
        r.problem = "built without LLVM (configure found no llvm-config >= 14)";
#else
        std::string path = ownDirectory() + "/rirllvm.so";
        void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!lib) {
            const char* e = dlerror();
            r.problem = std::string("the native tier could not be loaded: ") + (e ? e : path);
            return r;
        }
        r.available = reinterpret_cast<bool (*)(std::string*)>(dlsym(lib, "rir_llvm_available"));
        r.lower = reinterpret_cast<void* (*)(pir::Function&, DispatchTable*, std::string*)>(
            dlsym(lib, "rir_llvm_lower"));
        r.emit = reinterpret_cast<void* (*)(void*, std::string*)>(dlsym(lib, "rir_llvm_emit"));
        r.discard = reinterpret_cast<void (*)(void*)>(dlsym(lib, "rir_llvm_discard"));
        r.lastIR = reinterpret_cast<const std::string& (*)()>(dlsym(lib, "rir_llvm_last_ir"));
        if (!r.available || !r.lower || !r.emit || !r.discard || !r.lastIR) {
            r.available = nullptr;
            r.problem = "the native tier's library " + path + " lacks its entry points";
        }
#endif
        return r;
    }();
    return h;
}

}  // namespace

bool available(std::string* why) {
    LlvmHalf& h = half();
    if (!h.available) {
        if (why) *why = h.problem;
        return false;
    }
    return h.available(why);
}

const std::string& lastIR() {
    static std::string none;
    LlvmHalf& h = half();
    return h.available ? h.lastIR() : none;
}

void* lower(pir::Function& f, DispatchTable* t, std::string* why) {
    LlvmHalf& h = half();
    if (!h.available) {
        *why = h.problem;
        return nullptr;
    }
    return h.lower(f, t, why);
}

// (only for what lower() made: the half is loaded)
void* emit(void* lowered, std::string* why) {
    return half().emit(lowered, why);
}

void discard(void* lowered) {
    half().discard(lowered);
}

}  // namespace native
}  // namespace rir
