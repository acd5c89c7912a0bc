// tiering.cpp — when a function gets native code: at the entry that takes
// its invocations past RIR_OPT_THRESHOLD (0: the first), its baseline RIR
// code is translated to PIR, optimized and lowered (native.h). A function
// the tier cannot handle yet keeps running in RIR, with the reason in
// status(); one whose native code keeps deoptimizing loses it and is
// optimized again with the feedback gathered since, at most twice
// (DispatchTable::noteDeopt).
//
//   f <- function(n) { s <- 0; i <- 0; while (i < n) { s <- s + i; i <- i + 1 }; s }
//   call 1..threshold   RIR interpreter (collecting type feedback)
//   next call           rir2pir -> PIR passes -> LLVM -> native entry in
//                       f's DispatchTable; this and later calls run it
#include <map>
#include <set>

#include "../bc/interp.h"
#include "../pir/opt/pass.h"
#include "../pir/printer.h"
#include "../pir/rir2pir.h"
#include "../runtime/stats.h"
#include "native.h"

namespace rir {
namespace native {

std::map<std::string, double> refusalReasons;

namespace {

void optimizeFunction(DispatchTable* t, Context ctx) {
    std::string why;
    optimizeNow(t, ctx, &why);
}

}  // namespace

bool optimizeNow(DispatchTable* t, Context ctx, std::string* whyNot) {
    double t0 = nowSeconds();
    std::string why;
    DispatchTable::NativeEntry entry = nullptr;
    std::string trace;
    if (!available(&why)) {
        // why says it
    } else if (!t->baseline) {
        why = "no baseline code";
    } else {
        pir::Function fn;
        fn.name = t->name;
        // the arguments the context has evaluated, and (beyond the ones it
        // describes) those the feedback never saw lazy
        uint32_t eager = pir::eagerArgs(t) & ~((1u << Context::kMaxArgs) - 1);
        for (int k = 0; k < Context::kMaxArgs; k++)
            if (ctx.has(k, ArgFlag::Eager)) eager |= 1u << k;
        auto translateAndCompile = [&](const std::set<int>& noInline) {
            why = pir::rir2pirOptimized(t->baseline, t->formals(), &fn, debugFlags.verify, nullptr,
                                        eager, ctx, noInline);
            if (why.empty()) {
                size_t n = 0;
                for (auto& b : fn.blocks) n += b->insns.size();
                // (LLVM's time grows faster than the code: a base function
                // like str.default took seconds per version)
                if (n > kMaxNativeInsns)
                    why = "too large for the native tier (more than " +
                          std::to_string(kMaxNativeInsns) + " PIR instructions)";
            }
            if (why.empty()) entry = compile(fn, t, &why);
        };
        translateAndCompile({});
        std::set<int> withContext = pir::contextInlinedSites(fn);
        if (!entry && !withContext.empty()) {
            // (something of an inlined callee's code was refused, or made
            // the function too large: again with those calls made as calls)
            fn.clear();
            translateAndCompile(withContext);
        }
        if (entry) {
            // (call sites of an inlined callee's code are numbered in its
            // code: counted with the frame they are in)
            std::set<std::pair<const pir::Instruction*, int>> sites;
            for (auto& i : fn.insns)
                if (i->inlinedFrom && i->bb) sites.insert({i->frame, i->inlinedFrom});
            stats.inlined_calls += double(sites.size() + pir::contextInlinedSites(fn).size());
            for (auto& i : fn.insns)
                if (i->op == pir::Opcode::StaticCall && i->bb) stats.static_calls++;
        }
        if (debugFlags.native) {
            trace = "rir: native: " + t->name + ": " + (entry ? "compiled" : "refused: " + why) +
                    "\n" + pir::print(fn) + (entry ? lastIR() : "");
        }
    }
    double secs = nowSeconds() - t0;
    t->optSeconds += secs;
    stats.opt_seconds += secs;
    if (entry) {
        t->addNative(ctx, entry);
        t->optState = DispatchTable::OptState::Optimized;
        stats.optimized++;
    } else {
        // (the versions made before stay; no more are tried)
        if (t->natives.empty()) t->optState = DispatchTable::OptState::Refused;
        t->moreVersions = false;
        t->optRefusal = why;
        stats.opt_refused++;
        refusalReasons[why]++;
    }
    // (no R error can happen in REprintf's output of a plain string)
    if (!trace.empty()) REprintf("%s", trace.c_str());
    *whyNot = why;
    return entry != nullptr;
}

void registerTiering() {
    optimizeHook = optimizeFunction;
}

}  // namespace native
}  // namespace rir
