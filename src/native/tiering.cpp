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
//
// A call that stays in the interpreter and whose loops jump back more than
// RIR_OSR_THRESHOLD times goes on in native code from the loop header
// (goOnNatively, the interpreter's osrHook): a continuation compiled for
// that pc and the frame's bindings and their types, kept in the table.
//
//   f(1e7)              RIR: s <- 0; i <- 0; while: 10000 rounds
//                       continuation f@<header pc>(env, stack) runs the
//                       rest natively; its value is the call's
#include <algorithm>
#include <map>
#include <set>

#include "../bc/interp.h"
#include "../bc/verifier.h"
#include "../pir/opt/pass.h"
#include "../pir/printer.h"
#include "../pir/rir2pir.h"
#include "../runtime/stats.h"
#include "compile_thread.h"
#include "continuation.h"
#include "native.h"

namespace rir {
namespace native {

std::map<std::string, double> refusalReasons;

namespace {

// Why fn is not lowered because of its size, or "". (LLVM's time grows
// faster than the code: a base function like str.default took seconds per
// version.)
std::string sizeRefusal(const pir::Function& fn) {
    size_t n = 0;
    for (auto& b : fn.blocks) n += b->insns.size();
    size_t most = fn.continuation ? kMaxContinuationInsns : kMaxNativeInsns;
    if (n <= most) return "";
    return "too large for the native tier (more than " + std::to_string(most) +
           " PIR instructions)";
}

// A version or a continuation whose module is with the compile thread:
// what installing it needs.
struct Pending {
    CompileJob job;
    DispatchTable* t = nullptr;
    Context ctx;
    int continuation = -1;  // its index in t->continuations; -1: t's version for ctx
    double inlinedCalls = 0, staticCalls = 0;
    bool waited = false;  // R's thread waited for it (its time is in opt_seconds)
};

// (R's thread's: the jobs not installed yet)
std::vector<Pending*> pending;

// Whether R's thread waits for the code it asks for: RIR_COMPILE_THREAD off,
// RIR_DEBUG=native (which prints the code), or a threshold of 0 (at once:
// the test mode that runs everything optimized).
bool synchronous(bool continuation) {
    return !tiering.compileThread || debugFlags.native ||
           (continuation ? tiering.osrThreshold == 0 : tiering.threshold == 0);
}

void refuse(DispatchTable* t, const std::string& why) {
    // (the versions made before stay; no more are tried)
    if (t->natives.empty()) t->optState = DispatchTable::OptState::Refused;
    t->moreVersions = false;
    t->optRefusal = why;
    stats.opt_refused++;
    refusalReasons[why]++;
}

// R's thread: p's result into its table; deletes p. (No R call.)
void install(Pending* p) {
    DispatchTable* t = p->t;
    t->jobs--;
    stats.opt_thread_seconds += p->job.seconds;
    if (!p->waited) t->optSeconds += p->job.seconds;
    void* entry = p->job.entry;
    if (p->job.cancelled) discard(p->job.lowered);
    if (t->orphaned) {
        // (its closure is gone)
        if (!t->jobs) delete t;
        delete p;
        return;
    }
    if (p->continuation < 0) {
        t->compiling = false;
        if (p->job.cancelled) {
            // (a fork's child: asked again when hot)
        } else if (entry) {
            t->addNative(p->ctx, reinterpret_cast<DispatchTable::NativeEntry>(entry));
            t->optState = DispatchTable::OptState::Optimized;
            stats.optimized++;
            stats.inlined_calls += p->inlinedCalls;
            stats.static_calls += p->staticCalls;
        } else {
            refuse(t, p->job.why);
        }
    } else {
        DispatchTable::Continuation& c = t->continuations[size_t(p->continuation)];
        c.compiling = false;
        c.entry = reinterpret_cast<DispatchTable::ContinuationEntry>(entry);
        if (p->job.cancelled) {
            // (compiled again when its loop asks)
            c.deopts = DispatchTable::kMaxContinuationDeopts;
        } else if (entry) {
            (c.deoptless ? stats.deoptless_compiled : stats.osr_compiled)++;
        } else {
            if (!c.deoptless) stats.osr_refused++;
            refusalReasons["continuation: " + p->job.why]++;
        }
    }
    delete p;
}

// installHook: the jobs the compile thread finished, installed.
void installFinished() {
    compiledWaiting.store(false);
    for (size_t k = 0; k < pending.size();) {
        Pending* p = pending[k];
        if (!p->job.done.load()) {
            k++;
            continue;
        }
        pending.erase(pending.begin() + long(k));
        install(p);
    }
}

// Hands p's module to the compile thread; when `sync`, waits for it and
// installs it (p is gone), else it is installed later (installFinished).
void dispatch(Pending* p, bool sync) {
    p->t->jobs++;
    submit(&p->job, sync || p->continuation >= 0);
    if (!sync) {
        pending.push_back(p);
        return;
    }
    double t0 = nowSeconds();
    waitFor(&p->job);
    double secs = nowSeconds() - t0;
    p->waited = true;
    p->t->optSeconds += secs;
    stats.opt_seconds += secs;
    install(p);
}

// t's baseline for calls in `ctx`: translated to PIR, optimized and
// lowered (a Pending), or nullptr with *why. `trace`: RIR_DEBUG=native's
// PIR text. (C++ objects live here: no R call that can fail.)
Pending* lowerVersion(DispatchTable* t, Context ctx, std::string* why, std::string* trace) {
    if (!available(why)) return nullptr;
    if (!t->baseline) {
        *why = "no baseline code";
        return nullptr;
    }
    pir::Function fn;
    fn.name = t->name;
    // the arguments the context has evaluated, and (beyond the ones it
    // describes) those the feedback never saw lazy
    uint32_t eager = pir::eagerArgs(t) & ~((1u << Context::kMaxArgs) - 1);
    for (int k = 0; k < Context::kMaxArgs; k++)
        if (ctx.has(k, ArgFlag::Eager)) eager |= 1u << k;
    void* lowered = nullptr;
    auto translateAndLower = [&](const std::set<int>& noInline) {
        *why = pir::rir2pirOptimized(t->baseline, t->formals(), &fn, debugFlags.verify, nullptr,
                                     eager, ctx, noInline);
        if (why->empty()) *why = sizeRefusal(fn);
        if (why->empty()) lowered = lower(fn, t, why);
    };
    translateAndLower({});
    std::set<int> withContext = pir::contextInlinedSites(fn);
    if (!lowered && !withContext.empty()) {
        // (something of an inlined callee's code was refused, or made
        // the function too large: again with those calls made as calls)
        fn.clear();
        translateAndLower(withContext);
    }
    if (debugFlags.native) *trace = pir::print(fn);
    if (!lowered) return nullptr;
    Pending* p = new Pending;
    p->job.lowered = lowered;
    p->t = t;
    p->ctx = ctx;
    // (call sites of an inlined callee's code are numbered in its code:
    // counted with the frame they are in)
    std::set<std::pair<const pir::Instruction*, int>> sites;
    for (auto& i : fn.insns)
        if (i->inlinedFrom && i->bb) sites.insert({i->frame, i->inlinedFrom});
    p->inlinedCalls = double(sites.size() + pir::contextInlinedSites(fn).size());
    for (auto& i : fn.insns)
        if (i->op == pir::Opcode::StaticCall && i->bb) p->staticCalls++;
    return p;
}

// A version of t for `ctx`, now (sync) or on the compile thread.
bool optimize(DispatchTable* t, Context ctx, bool sync, std::string* whyNot) {
    double t0 = nowSeconds();
    std::string why, trace;
    Pending* p = lowerVersion(t, ctx, &why, &trace);
    bool lowered = p != nullptr;
    double secs = nowSeconds() - t0;
    t->optSeconds += secs;
    stats.opt_seconds += secs;
    if (!p) {
        refuse(t, why);
    } else {
        t->compiling = true;
        dispatch(p, sync);
        if (sync) {
            bool made = t->hasNative(ctx);
            why = made ? "" : t->optRefusal;
        }
    }
    if (debugFlags.native) {
        // (RIR_DEBUG=native waits for the code: sync)
        bool made = lowered && t->hasNative(ctx);
        trace = "rir: native: " + t->name + ": " + (made ? "compiled" : "refused: " + why) + "\n" +
                trace + (made ? lastIR() : "");
        // (no R error can happen in REprintf's output of a plain string)
        REprintf("%s", trace.c_str());
    }
    *whyNot = why;
    return lowered && sync && t->hasNative(ctx);
}

void optimizeFunction(DispatchTable* t, Context ctx) {
    std::string why;
    optimize(t, ctx, synchronous(false), &why);
}

}  // namespace

void finishPending() {
    for (Pending* p : pending) waitFor(&p->job);
    installFinished();
}

bool optimizeNow(DispatchTable* t, Context ctx, std::string* whyNot) {
    return optimize(t, ctx, true, whyNot);
}

namespace {

// A binding a continuation can take as its own: an ordinary one with a
// value, or an unsupplied argument bound to its default's promise (still
// `missing`: the frame keeps saying so).
bool plainBinding(SEXP b) {
    return plainWritableCell(b) && CAR(b) != R_MissingArg && CAR(b) != R_UnboundValue &&
           (!(hdr(b)->gp & kMissingMask) || TYPEOF(CAR(b)) == PROMSXP);
}

}  // namespace

bool plainFrame(SEXP env, const Code* code, std::vector<SEXP>* names,
                std::vector<DispatchTable::EntryType>* types) {
    SEXP table = HASHTAB(env);
    if (table == R_NilValue) {
        // (a function's frame: every binding)
        for (SEXP b = FRAME(env); b != R_NilValue; b = CDR(b)) {
            if (!plainBinding(b) || names->size() >= 256) return false;
            names->push_back(TAG(b));
            types->push_back(DispatchTable::entryType(CAR(b)));
        }
        return true;
    }
    // A hashed frame (the global environment of a top-level loop): the
    // bindings of the variables the code names, none active, locked or
    // missing; no active binding anywhere in the frame (stores are
    // deferred only in a frame without one). The frame's other bindings
    // are not the continuation's: its loads of them look them up.
    for (R_xlen_t k = 0; k < XLENGTH(table); k++)
        for (SEXP b = VECTOR_ELT(table, k); b != R_NilValue; b = CDR(b))
            if (hdr(b)->gp & kActiveBinding) return false;
    SEXP pool = code->pool();
    for (int k = 0; k < code->poolSize; k++) {
        SEXP sym = VECTOR_ELT(pool, k);
        if (TYPEOF(sym) != SYMSXP || std::find(names->begin(), names->end(), sym) != names->end())
            continue;
        SEXP b = R_findVarLocInFrame(env, sym).cell;
        if (!b || b == R_NilValue) continue;
        if (!plainBinding(b) || names->size() >= 256) return false;
        names->push_back(sym);
        types->push_back(DispatchTable::entryType(CAR(b)));
    }
    return true;
}

namespace {

pir::PirType pirType(DispatchTable::EntryType t) {
    switch (t) {
        case DispatchTable::EntryType::SimpleReal:
            return pir::PirType::scalar(pir::Kind::Real);
        case DispatchTable::EntryType::SimpleInt:
            return pir::PirType::scalar(pir::Kind::Int);
        case DispatchTable::EntryType::RealVector:
        case DispatchTable::EntryType::IntVector:
        case DispatchTable::EntryType::LglVector: {
            pir::Kind k = t == DispatchTable::EntryType::RealVector  ? pir::Kind::Real
                          : t == DispatchTable::EntryType::IntVector ? pir::Kind::Int
                                                                     : pir::Kind::Lgl;
            return pir::PirType::of(k).without(pir::Flag::Attrib).without(pir::Flag::Object);
        }
        case DispatchTable::EntryType::Value:
            return pir::PirType::val();
        default:
            return pir::PirType::any().without(pir::Flag::Missing);
    }
}

}  // namespace

// Compiles the continuation `key` describes (pc, the frame's bindings and
// their types; for a deoptless one the stack's types too) into
// t->continuations[again], or a new entry when again < 0; returns its
// index. `sync`: R's thread waits for the code, else it is installed when
// the compile thread is done (the entry's `compiling` says so).
// (C++ objects live here: no R call that can fail.)
int compileContinuation(DispatchTable* t, const DispatchTable::Continuation& key, int again,
                        bool sync) {
    int pc = key.pc;
    double t0 = nowSeconds();
    std::string why;
    CodeShape shape;
    std::vector<uint8_t> stack;
    Pending* p = nullptr;
    std::string head, trace;  // (RIR_DEBUG=native)
    if (!available(&why)) {
        // why says it
    } else if (!verifyCode(t->baseline, &shape).empty() || size_t(pc) >= shape.slots.size()) {
        why = "no verified baseline code";
    } else {
        pir::Function fn;
        fn.name = t->name + "@" + std::to_string(pc);
        fn.continuation = true;
        fn.deoptless = key.deoptless;
        fn.entryPhase = key.deoptless && again < 0;
        fn.bindings = key.bindings;
        for (DispatchTable::EntryType e : key.types) {
            fn.bindingTypes.push_back(pirType(e));
            fn.bindingForced.push_back(e == DispatchTable::EntryType::ForcedPromise);
        }
        for (DispatchTable::EntryType e : key.stackTypes)
            fn.inputTypes.push_back(e == DispatchTable::EntryType::Any ? pir::PirType::any()
                                                                       : pirType(e));
        fn.continuationPc = pc;
        fn.continuationStack = shape.slots[size_t(pc)];
        for (SlotKind k : fn.continuationStack) stack.push_back(uint8_t(k));
        std::string passes;
        why = pir::rir2pirOptimized(t->baseline, t->formals(), &fn, debugFlags.verify,
                                    debugFlags.pir ? &passes : nullptr);
        if (debugFlags.pir) REprintf("rir: continuation %s\n%s", fn.name.c_str(), passes.c_str());
        if (why.empty()) why = sizeRefusal(fn);
        void* lowered = why.empty() ? lower(fn, t, &why) : nullptr;
        if (lowered) {
            p = new Pending;
            p->job.lowered = lowered;
            p->t = t;
        }
        if (debugFlags.native) {
            std::string frame;
            for (size_t k = 0; k < key.bindings.size(); k++)
                frame += std::string(k ? ", " : "") + CHAR(PRINTNAME(key.bindings[k])) + ":" +
                         std::to_string(int(key.types[k]));
            head = std::string("rir: native: ") + (key.deoptless ? "deoptless " : "") +
                   "continuation " + fn.name + " [" + frame + "]: ";
            trace = pir::print(fn);
        }
    }
    double secs = nowSeconds() - t0;
    t->optSeconds += secs;
    stats.opt_seconds += secs;
    int k = again;
    if (k >= 0) {
        DispatchTable::Continuation& c = t->continuations[size_t(k)];
        c.entry = nullptr;
        c.stack = stack;
        c.deopts = 0;
        c.recompiles++;
    } else {
        t->continuations.push_back(key);
        k = int(t->continuations.size() - 1);
        DispatchTable::Continuation& c = t->continuations.back();
        c.stack = stack;
        c.entry = nullptr;
        c.deopts = 0;
        c.recompiles = 0;
        c.compiling = false;
    }
    bool lowered = p != nullptr;
    if (!p) {
        if (!key.deoptless) stats.osr_refused++;
        refusalReasons["continuation: " + why]++;
    } else {
        p->continuation = k;
        t->continuations[size_t(k)].compiling = true;
        dispatch(p, sync);
    }
    stats.continuation_seconds += nowSeconds() - t0;
    if (!head.empty()) {
        // (RIR_DEBUG=native waits for the code: sync)
        bool made = t->continuations[size_t(k)].entry != nullptr;
        trace = head + (made ? "compiled" : "refused: " + (lowered ? std::string("LLVM") : why)) +
                "\n" + trace + (made ? lastIR() : "");
        REprintf("%s", trace.c_str());
    }
    return k;
}

namespace {

// The index in t->continuations of the continuation from pc for env's
// frame, compiled now if there is none yet; -1 when there is none to run
// (*later: the loop header whose continuation is being compiled on the
// compile thread, this one's or another's of t).
// (C++ objects live here: no R call that can fail.)
int continuationFor(DispatchTable* t, int pc, SEXP env, int* later) {
    DispatchTable::Continuation key;
    key.pc = pc;
    if (!plainFrame(env, t->baseline, &key.bindings, &key.types)) return -1;
    // (one dropped after deoptimizing is compiled again, with the feedback
    // the interpreter gathered since, a few times)
    int again = -1;
    // (one at a time on the compile thread per function: the loop that
    // asked goes on in the interpreter meanwhile, and a loop nested in it
    // would ask for one of its own at its header)
    for (const DispatchTable::Continuation& c : t->continuations)
        if (c.compiling && (c.pc != pc || c.bindings != key.bindings || c.types != key.types)) {
            *later = c.pc;
            return -1;
        }
    for (size_t k = 0; k < t->continuations.size(); k++) {
        const DispatchTable::Continuation& c = t->continuations[k];
        if (c.deoptless || c.pc != pc || c.bindings != key.bindings || c.types != key.types)
            continue;
        if (c.entry) return int(k);
        if (c.compiling) {
            *later = pc;
            return -1;
        }
        if (c.deopts < DispatchTable::kMaxContinuationDeopts ||
            c.recompiles >= DispatchTable::kMaxContinuationRecompiles)
            return -1;
        again = int(k);
    }
    size_t loops = 0;
    for (const DispatchTable::Continuation& c : t->continuations) loops += !c.deoptless;
    if (again < 0 && loops >= DispatchTable::kMaxContinuations) return -1;
    bool sync = synchronous(true);
    int k = compileContinuation(t, key, again, sync);
    if (!sync && t->continuations[size_t(k)].compiling) *later = pc;
    return t->continuations[size_t(k)].entry ? k : -1;
}

// osrHook: the function body goes on from pc in a continuation. (No C++
// object with a destructor lives here: the continuation may jump out.)
SEXP goOnNatively(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp,
                  const NodeStackSlot* stack, int height, int* later) {
    installCompiled();
    if (!t) {
        // a top-level loop's code: a table of its own, made once
        if (code->kind != CodeKind::TopLevel) return nullptr;
        if (!code->toplevelTable) {
            DispatchTable* made =
                DispatchTable::create(R_NilValue, code->ast(), "<top-level loop>");
            PROTECT(made->container);
            made->setBaseline(code, code->container);
            code->addPool(made->container);
            UNPROTECT(1);
            code->toplevelTable = made;
        }
        t = code->toplevelTable;
    }
    if (code != t->baseline) return nullptr;
    int k = continuationFor(t, pc, env, later);
    if (k < 0) return nullptr;
    const std::vector<uint8_t>& kinds = t->continuations[size_t(k)].stack;
    if (kinds.size() != size_t(height)) return nullptr;
    // the operand stack as values: a for loop's length and counter as
    // integer scalars, its integer range (not built by the interpreter)
    // as a compact one, counted as the loop state counts its sequence
    SEXP inputs = PROTECT(Rf_allocVector(VECSXP, height));
    for (int s = 0; s < height; s++) {
        const NodeStackSlot& slot = stack[s];
        SlotKind kind = SlotKind(kinds[size_t(s)]);
        if (kind == SlotKind::Value || kind == SlotKind::LoopSeq) {
            SET_VECTOR_ELT(inputs, s, slot.u.sxpval);
            continue;
        }
        SET_VECTOR_ELT(inputs, s, Rf_ScalarInteger(slot.u.ival));
        if (kind == SlotKind::LoopCtr) continue;
        // (the length: the sequence lies below it, the counter above)
        SEXP seq = stack[s - 1].u.sxpval;
        int step = slot.flags, n = slot.u.ival;
        if (seq == R_NilValue && step != 0 && n > 0) {
            int first = stack[s + 1].flags;
            static SEXP colon = SYMVALUE(Rf_install(":"));
            SEXP from = PROTECT(Rf_ScalarInteger(first));
            SEXP to = PROTECT(Rf_ScalarInteger(first + step * (n - 1)));
            SEXP call = PROTECT(Rf_lang3(colon, from, to));
            seq = Rf_eval(call, R_BaseEnv);
            UNPROTECT(3);
            incRefcnt(seq);
            SET_VECTOR_ELT(inputs, s - 1, seq);
        }
    }
    DispatchTable::ContinuationEntry entry = t->continuations[size_t(k)].entry;
    uint32_t deoptsBefore = t->deopts, deoptlessBefore = t->deoptlessCovered;
    stats.osr_entries++;
    SEXP r = entry(env, tramp, static_cast<const SEXP*>(fdata(inputs)));
    // (a deoptimization a deoptless continuation went on from leaves the
    // continuation as it is: the loop's common case still holds, the
    // deoptless one runs the rest of that call; one that resumed the
    // interpreter drops it, to be compiled again from the feedback since)
    if (t->deopts - deoptsBefore > t->deoptlessCovered - deoptlessBefore) {
        DispatchTable::Continuation& c = t->continuations[size_t(k)];
        if (++c.deopts >= DispatchTable::kMaxContinuationDeopts) c.entry = nullptr;
    }
    UNPROTECT(1);
    return r;
}

}  // namespace

void registerTiering() {
    optimizeHook = optimizeFunction;
    osrHook = goOnNatively;
    installHook = installFinished;
}

}  // namespace native
}  // namespace rir
