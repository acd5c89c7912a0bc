// entry_points.cpp — .Call entry points of the rir package (registered in ../init.cpp).
// The R functions in R/ are thin wrappers around these.
#include <R_ext/Rdynload.h>

#include <algorithm>
#include <cstring>

#include "../bc/calls.h"
#include "../bc/compiler.h"
#include "../bc/direct_call.h"
#include "../bc/inplace.h"
#include "../bc/interp.h"
#include "../bc/printer.h"
#include "../bc/source_map.h"
#include "../bc/verifier.h"
#include "../native/native.h"
#include "../runtime/dispatch_table.h"
#include "../runtime/eval_depth.h"
#include "../runtime/heap_policy.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "api_util.h"

using namespace rir;

SEXP reasonCounts(const std::map<std::string, double>& counts) {
    // most frequent first (ties by reason), without running R code (stats()
    // counts calls around it); kept off the stack: R calls below may longjmp
    static std::vector<const std::pair<const std::string, double>*> order;
    order.clear();
    for (auto& r : counts) order.push_back(&r);
    std::stable_sort(order.begin(), order.end(),
                     [](auto* a, auto* b) { return a->second > b->second; });
    SEXP out = PROTECT(Rf_allocVector(REALSXP, order.size()));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, order.size()));
    for (size_t k = 0; k < order.size(); k++) {
        REAL(out)[k] = order[k]->second;
        SET_STRING_ELT(names, k, Rf_mkChar(order[k]->first.c_str()));
    }
    Rf_setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(2);
    return out;
}

extern "C" {

SEXP rir_init(SEXP templ) {
    registerPirHooks();
    native::registerTiering();
    const char* problem = rapi_selftest();
    if (*problem) return Rf_mkString(problem);
    initEvalDepth();
    SEXP entry =
        PROTECT(R_MakeExternalPtrFn((DL_FUNC)&rir_entry, Rf_install("native symbol"), R_NilValue));
    trampolineInit(templ, entry);
    initNodeStackFloor();
    UNPROTECT(1);
    return Rf_mkString("");
}

// For the tests: an interrupt as if the user had pressed Ctrl-C (GNU R's
// SIGINT handler sets this flag; evaluation polls it).
SEXP rir_set_interrupt_pending() {
    R_interrupts_pending = 1;
    return R_NilValue;
}

// For the tests: the evaluation depth GNU R would count beyond R_EvalDepth
// (0 whenever no rir call is active).
SEXP rir_extra_depth() {
    return Rf_ScalarInteger(extraDepth);
}

SEXP rir_bc_version(SEXP bc) {
    if (TYPEOF(bc) != BCODESXP) Rf_error("not byte code");
    SEXP code = PROTECT(R_bcDecode(CAR(bc)));
    int v = INTEGER(code)[0];
    UNPROTECT(1);
    return Rf_ScalarInteger(v);
}

SEXP rir_set_enabled(SEXP on) {
    bool old = rirEnabled;
    rirEnabled = Rf_asLogical(on) == TRUE;
    return Rf_ScalarLogical(old);
}

// Fixes glibc's malloc thresholds (runtime/heap_policy.h) when `on`; returns
// whether they are rir's.
SEXP rir_tune_heap(SEXP on) {
    return Rf_ScalarLogical(Rf_asLogical(on) == TRUE && tuneHeap());
}

// Returns a closure like f whose body is a rir trampoline, or a string with
// the reason it was refused.
SEXP rir_compile_closure(SEXP f, SEXP name) {
    if (TYPEOF(f) != CLOSXP) return Rf_mkString("not a closure");
    const char* nm =
        TYPEOF(name) == STRSXP && XLENGTH(name) ? CHAR(STRING_ELT(name, 0)) : "<anonymous>";
    // Called from GNU R's JIT: the closure being compiled has just had its
    // context pushed; name it after the call that invoked it.
    if (!strcmp(nm, "<jit>")) {
        for (RContext* c = R_GlobalContext; c && c->callflag != CTXT_TOPLEVEL; c = c->nextcontext)
            if ((c->callflag & CTXT_FUNCTION) && c->callfun == f) {
                if (TYPEOF(c->call) == LANGSXP && TYPEOF(CAR(c->call)) == SYMSXP)
                    nm = CHAR(PRINTNAME(CAR(c->call)));
                break;
            }
    }
    if (isTrampoline(BODY(f))) return f;
    SEXP copy = PROTECT(Rf_allocSExp(CLOSXP));
    SET_FORMALS(copy, FORMALS(f));
    SET_BODY(copy, BODY(f));
    SET_CLOENV(copy, CLOENV(f));
    DUPLICATE_ATTRIB(copy, f);
    const char* reason;
    if (!compileInPlace(copy, nm, &reason)) {
        UNPROTECT(1);
        return Rf_mkString(reason);
    }
    UNPROTECT(1);
    return copy;
}

SEXP rir_compile_toplevel(SEXP expr, SEXP env) {
    Code* c = compileToplevel(expr, env);
    PROTECT(c->container);
    c->trampoline = makeTrampoline(expr, c->container);
    c->addPool(c->trampoline);
    UNPROTECT(1);
    return c->trampoline;
}

// RIR_OPT_THRESHOLD=0: the closures bound in env's own frame that GNU R's
// JIT has not decided about yet are marked so that it hands them to rir at
// their first call (GNU R's MAYBEJIT: "seen before", which R_CheckJIT
// compiles at once) instead of at their second call or never. Nothing else
// about them changes before they run (print() shows no byte code yet).
// Promises (lazy bindings) and active bindings are left alone. Returns how
// many were marked.
SEXP rir_compile_env(SEXP env) {
    if (TYPEOF(env) != ENVSXP || !rirEnabled) return Rf_ScalarInteger(0);
    SEXP names = PROTECT(R_lsInternal3(env, TRUE, FALSE));
    int n = 0;
    for (R_xlen_t i = 0; i < XLENGTH(names); i++) {
        SEXP sym = Rf_installTrChar(STRING_ELT(names, i));
        if (R_BindingIsActive(sym, env)) continue;
        SEXP f = Rf_findVarInFrame3(env, sym, FALSE);
        if (TYPEOF(f) != CLOSXP || TYPEOF(BODY(f)) == BCODESXP || NOJIT(f) || MAYBEJIT(f)) continue;
        SET_MAYBEJIT(f);
        n++;
        stats.eager_compiled++;
    }
    UNPROTECT(1);
    return Rf_ScalarInteger(n);
}

SEXP rir_is_compiled(SEXP f) {
    return Rf_ScalarLogical(TYPEOF(f) == CLOSXP && isTrampoline(BODY(f)));
}

// f's DispatchTable, or an R error when f is not rir-compiled.
DispatchTable* tableOrError(SEXP f) {
    SEXP target = TYPEOF(f) == CLOSXP ? trampolineTarget(BODY(f)) : nullptr;
    DispatchTable* t = target ? DispatchTable::unpack(target) : nullptr;
    if (!t) Rf_error("not a rir-compiled function");
    return t;
}

SEXP rir_disassemble(SEXP f) {
    DispatchTable* t = tableOrError(f);
    baselineOf(t, CLOENV(f));
    std::vector<std::string> lines = disassemble(t->baseline);
    std::string head = "rir function " + t->name + ": " + std::to_string(t->invocations) +
                       " invocations, " + std::to_string(t->natives.size()) + " native versions";
    for (const auto& v : t->natives) head += " " + v.context.str();
    SEXP out = PROTECT(Rf_allocVector(STRSXP, lines.size() + 1));
    SET_STRING_ELT(out, 0, Rf_mkChar(head.c_str()));
    for (size_t i = 0; i < lines.size(); i++)
        SET_STRING_ELT(out, i + 1, Rf_mkChar(lines[i].c_str()));
    UNPROTECT(1);
    return out;
}

// For the tests: the compile thread's jobs finished and installed.
SEXP rir_finish_compiles() {
    native::finishPending();
    return R_NilValue;
}

SEXP rir_stats() {
    // (what the compile thread finished counts as made)
    installCompiled();
    const char* names[] = {"compiled",
                           "refused",
                           "rir_calls",
                           "gnur_entries",
                           "native_calls",
                           "deopts",
                           "compile_seconds",
                           "toplevel_compiled",
                           "promises_compiled",
                           "ast_evals",
                           "eager_compiled",
                           "verified",
                           "verify_failures",
                           "pir_translated",
                           "pir_untranslated",
                           "pir_verify_failures",
                           "optimized",
                           "opt_refused",
                           "opt_seconds",
                           "opt_thread_seconds",
                           "inlined_calls",
                           "static_calls",
                           "osr_entries",
                           "osr_compiled",
                           "osr_refused",
                           "deoptless_entries",
                           "deoptless_compiled",
                           "deoptless_fallbacks",
                           "continuation_seconds"};
    double vals[] = {stats.compiled,
                     stats.refused,
                     stats.rir_calls,
                     stats.gnur_entries,
                     stats.native_calls,
                     stats.deopts,
                     stats.compile_seconds,
                     stats.toplevel_compiled,
                     stats.promises_compiled,
                     stats.ast_evals,
                     stats.eager_compiled,
                     stats.verified,
                     stats.verify_failures,
                     stats.pir_translated,
                     stats.pir_untranslated,
                     stats.pir_verify_failures,
                     stats.optimized,
                     stats.opt_refused,
                     stats.opt_seconds,
                     stats.opt_thread_seconds,
                     stats.inlined_calls,
                     stats.static_calls,
                     stats.osr_entries,
                     stats.osr_compiled,
                     stats.osr_refused,
                     stats.deoptless_entries,
                     stats.deoptless_compiled,
                     stats.deoptless_fallbacks,
                     stats.continuation_seconds};
    int nfix = sizeof(vals) / sizeof(vals[0]);
    int nreason = int(AstReason::Count);
    int n = nfix + nreason;
    SEXP v = PROTECT(Rf_allocVector(REALSXP, n));
    SEXP nm = PROTECT(Rf_allocVector(STRSXP, n));
    for (int i = 0; i < nfix; i++) {
        REAL(v)[i] = vals[i];
        SET_STRING_ELT(nm, i, Rf_mkChar(names[i]));
    }
    for (int r = 0; r < nreason; r++) {
        REAL(v)[nfix + r] = astByReason[r];
        std::string key = std::string("ast_") + astReasonName(AstReason(r));
        SET_STRING_ELT(nm, nfix + r, Rf_mkChar(key.c_str()));
    }
    Rf_setAttrib(v, R_NamesSymbol, nm);
    UNPROTECT(2);
    return v;
}

SEXP rir_reset_stats() {
    // the verifier's counters cover the whole session (the test runner
    // checks them after tests that reset the others)
    Stats fresh;
    fresh.verified = stats.verified;
    fresh.verify_failures = stats.verify_failures;
    fresh.pir_translated = stats.pir_translated;
    fresh.pir_untranslated = stats.pir_untranslated;
    fresh.pir_verify_failures = stats.pir_verify_failures;
    fresh.optimized = stats.optimized;
    fresh.opt_refused = stats.opt_refused;
    fresh.deopts = stats.deopts;
    fresh.inlined_calls = stats.inlined_calls;
    fresh.static_calls = stats.static_calls;
    stats = fresh;
    registry.clear();
    for (AstSite& a : astSites) a.count = 0;
    for (double& d : astByReason) d = 0;
    return R_NilValue;
}

SEXP rir_status() {
    installCompiled();
    R_xlen_t n = registry.size();
    const int ncol = 11;
    SEXP out = PROTECT(Rf_allocVector(VECSXP, ncol));
    // column k of the result, protected by it
    auto column = [&](int k, SEXPTYPE type) {
        SEXP c = Rf_allocVector(type, n);
        SET_VECTOR_ELT(out, k, c);
        return c;
    };
    SEXP name = column(0, STRSXP), state = column(1, STRSXP), reason = column(2, STRSXP);
    SEXP calls = column(3, REALSXP), tier = column(4, STRSXP), optimizer = column(5, STRSXP);
    SEXP optReason = column(6, STRSXP), optSeconds = column(7, REALSXP),
         deopts = column(8, REALSXP), versions = column(9, STRSXP),
         continuations = column(10, STRSXP);
    auto optStateName = [](DispatchTable::OptState s) -> const char* {
        switch (s) {
            case DispatchTable::OptState::NotTried:
                return "not tried";
            case DispatchTable::OptState::Optimized:
                return "optimized";
            case DispatchTable::OptState::Refused:
                return "refused";
            case DispatchTable::OptState::Retired:
                return "retired";
            case DispatchTable::OptState::RetiredAgain:
                return "retired, again later";
        }
        return nullptr;
    };
    for (R_xlen_t i = 0; i < n; i++) {
        Registered& r = registry[i];
        const DispatchTable* t = r.table;
        SET_STRING_ELT(name, i, Rf_mkChar(r.name.c_str()));
        SET_STRING_ELT(state, i, Rf_mkChar(r.state.c_str()));
        SET_STRING_ELT(reason, i, r.reason.empty() ? NA_STRING : Rf_mkChar(r.reason.c_str()));
        REAL(calls)[i] = r.calls ? double(*r.calls) : NA_REAL;
        // the tier its calls run in now (GNU R for what rir refused; NA
        // once the function was collected)
        const char* tr = r.state != "compiled" ? "gnur"
                         : !t                  ? nullptr
                         : !t->natives.empty() ? "native"
                                               : "rir";
        SET_STRING_ELT(tier, i, tr ? Rf_mkChar(tr) : NA_STRING);
        SET_STRING_ELT(optimizer, i,
                       !t             ? NA_STRING
                       : t->compiling ? Rf_mkChar("compiling")
                                      : Rf_mkChar(optStateName(t->optState)));
        SET_STRING_ELT(optReason, i,
                       t && !t->optRefusal.empty() ? Rf_mkChar(t->optRefusal.c_str()) : NA_STRING);
        REAL(optSeconds)
        [i] = t && t->optState != DispatchTable::OptState::NotTried ? t->optSeconds : NA_REAL;
        REAL(deopts)[i] = t ? double(t->deopts) : NA_REAL;
        // the contexts of its native versions, most specific first
        std::string vs;
        if (t)
            for (const auto& v : t->natives) vs += (vs.empty() ? "" : " ") + v.context.str();
        SET_STRING_ELT(versions, i, t && !vs.empty() ? Rf_mkChar(vs.c_str()) : NA_STRING);
        // its continuations: the loop header (pc) each goes on from; a
        // deoptless one's deoptimization pc and what failed there
        std::string cs;
        if (t)
            for (const auto& c : t->continuations)
                cs += std::string(cs.empty() ? "" : " ") + (c.deoptless ? "deoptless@" : "@") +
                      std::to_string(c.pc) +
                      (c.deoptless ? std::string("(") + c.reason + ")" : std::string()) +
                      (c.entry       ? ""
                       : c.compiling ? " (compiling)"
                       : c.deopts    ? " (dropped)"
                                     : " (refused)");
        SET_STRING_ELT(continuations, i, !cs.empty() ? Rf_mkChar(cs.c_str()) : NA_STRING);
    }
    UNPROTECT(1);
    return out;
}

// The AST-interpreter sites that ran, most frequent first (at most n).
SEXP rir_ast_sites(SEXP nmax) {
    std::vector<int> idx;
    for (size_t i = 0; i < astSites.size(); i++)
        if (astSites[i].count > 0) idx.push_back(int(i));
    std::sort(idx.begin(), idx.end(),
              [](int a, int b) { return astSites[a].count > astSites[b].count; });
    size_t n = std::min(idx.size(), size_t(std::max(0, Rf_asInteger(nmax))));
    SEXP reason = PROTECT(Rf_allocVector(STRSXP, n));
    SEXP label = PROTECT(Rf_allocVector(STRSXP, n));
    SEXP count = PROTECT(Rf_allocVector(REALSXP, n));
    for (size_t k = 0; k < n; k++) {
        const AstSite& a = astSites[idx[k]];
        SET_STRING_ELT(reason, k, Rf_mkChar(astReasonName(a.reason)));
        SET_STRING_ELT(label, k, Rf_mkChar(a.label.c_str()));
        REAL(count)[k] = a.count;
    }
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
    SET_VECTOR_ELT(out, 0, reason);
    SET_VECTOR_ELT(out, 1, label);
    SET_VECTOR_ELT(out, 2, count);
    UNPROTECT(4);
    return out;
}

// ---- Context / DispatchTable unit-test entry points ----------------------
// Contexts travel as doubles (only bits 0..47 are used, exact in a double).

SEXP rir_context_make(SEXP argFlags, SEXP callFlags, SEXP missing) {
    Context c;
    for (R_xlen_t i = 0; i + 1 < XLENGTH(argFlags); i += 2)
        c.set(INTEGER(argFlags)[i], ArgFlag(INTEGER(argFlags)[i + 1]));
    for (R_xlen_t i = 0; i < XLENGTH(callFlags); i++) c.set(CallFlag(INTEGER(callFlags)[i]));
    c.setMissing(Rf_asInteger(missing));
    return Rf_ScalarReal(double(c.bits));
}

SEXP rir_context_smaller(SEXP a, SEXP b) {
    return Rf_ScalarLogical(
        Context(uint64_t(Rf_asReal(a))).smaller(Context(uint64_t(Rf_asReal(b)))));
}

SEXP rir_context_str(SEXP a) {
    return Rf_mkString(Context(uint64_t(Rf_asReal(a))).str().c_str());
}

// Adds a native version for each of `contexts` to a fresh table (entry
// i + 1: a marker, never called) and returns the contexts of its versions
// in their order, then the index (into `contexts`) of the version chosen
// for each of `queries` (0 = none: the baseline).
SEXP rir_table_test(SEXP contexts, SEXP queries) {
    DispatchTable* t = DispatchTable::create(R_NilValue, R_NilValue, "<test>");
    PROTECT(t->container);
    R_xlen_t n = XLENGTH(contexts);
    auto marker = [](R_xlen_t i) {
        return reinterpret_cast<DispatchTable::NativeEntry>(static_cast<uintptr_t>(i + 1));
    };
    for (R_xlen_t i = 0; i < n; i++) t->addNative(Context(uint64_t(REAL(contexts)[i])), marker(i));
    SEXP order = PROTECT(Rf_allocVector(REALSXP, t->natives.size()));
    for (size_t i = 0; i < t->natives.size(); i++)
        REAL(order)[i] = double(t->natives[i].context.bits);
    SEXP chosen = PROTECT(Rf_allocVector(INTSXP, XLENGTH(queries)));
    for (R_xlen_t q = 0; q < XLENGTH(queries); q++) {
        DispatchTable::NativeEntry e = t->nativeFor(Context(uint64_t(REAL(queries)[q])));
        int idx = 0;
        for (R_xlen_t i = 0; i < n; i++)
            if (e == marker(i)) idx = int(i + 1);
        INTEGER(chosen)[q] = idx;
    }
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, order);
    SET_VECTOR_ELT(out, 1, chosen);
    UNPROTECT(4);
    return out;
}

// rir::optimize(f): f's body as native code now; "" or why not.
SEXP rir_optimize(SEXP f) {
    DispatchTable* t = tableOrError(f);
    baselineOf(t, CLOENV(f));
    static std::string why;
    why.clear();
    {
        std::string w;
        native::optimizeNow(t, Context(), &w);
        why = w;
    }
    return Rf_mkString(why.c_str());
}

// Why functions were refused by the optimizing tier: a count per reason.
SEXP rir_opt_refusals() {
    return reasonCounts(native::refusalReasons);
}

// RIR_OPT_THRESHOLD and RIR_NATIVE (or their options); NULL keeps one.
// Returns the previous values, list(threshold, native, chaos, osr, thread,
// deoptless). `osr`: RIR_OSR_THRESHOLD; `thread`: RIR_COMPILE_THREAD;
// `deoptless`: RIR_DEOPTLESS.
// `chaos`: RIR_DEOPT_CHAOS (one in N, or a probability below 1), `seed` its
// generator's seed.
SEXP rir_set_tiering(SEXP threshold, SEXP native, SEXP chaos, SEXP seed, SEXP osr, SEXP thread,
                     SEXP deoptless) {
    SEXP old = PROTECT(Rf_allocVector(VECSXP, 6));
    SET_VECTOR_ELT(old, 0, Rf_ScalarReal(tiering.threshold));
    SET_VECTOR_ELT(old, 1, Rf_ScalarLogical(tiering.native));
    SET_VECTOR_ELT(old, 2, Rf_ScalarReal(tiering.chaos));
    SET_VECTOR_ELT(old, 3, Rf_ScalarReal(tiering.osrThreshold));
    SET_VECTOR_ELT(old, 4, Rf_ScalarLogical(tiering.compileThread));
    SET_VECTOR_ELT(old, 5, Rf_ScalarLogical(tiering.deoptless));
    if (deoptless != R_NilValue) tiering.deoptless = Rf_asLogical(deoptless) == TRUE;
    if (thread != R_NilValue) tiering.compileThread = Rf_asLogical(thread) == TRUE;
    if (osr != R_NilValue) {
        double o = Rf_asReal(osr);
        tiering.osrThreshold = ISNAN(o) || o < 0 ? 10000 : o;
    }
    if (chaos != R_NilValue) {
        double c = Rf_asReal(chaos);
        tiering.chaos = ISNAN(c) || c <= 0 ? 0 : c < 1 ? 1 / c : c;
    }
    if (seed != R_NilValue) {
        double sd = Rf_asReal(seed);
        tiering.chaosState = ISNAN(sd) || sd < 1 ? 1 : uint64_t(sd);
    }
    if (threshold != R_NilValue) {
        double th = Rf_asReal(threshold);
        tiering.threshold = ISNAN(th) || th < 0 ? 100 : th;
    }
    if (native != R_NilValue) tiering.native = Rf_asLogical(native) == TRUE;
    UNPROTECT(1);
    return old;
}

// RIR_DEBUG flags (a comma-separated string; unknown flags are ignored)
SEXP rir_set_debug(SEXP flags) {
    std::string f =
        TYPEOF(flags) == STRSXP && XLENGTH(flags) == 1 ? CHAR(STRING_ELT(flags, 0)) : "";
    std::string item;
    debugFlags = DebugFlags();
    for (size_t i = 0; i <= f.size(); i++) {
        if (i == f.size() || f[i] == ',') {
            if (item == "verify") debugFlags.verify = true;
            if (item == "pir") debugFlags.pir = true;
            if (item == "native") debugFlags.native = true;
            if (item == "deopt") debugFlags.deopt = true;
            if (item == "perf") debugFlags.perf = true;
            item.clear();
        } else if (f[i] != ' ') {
            item += f[i];
        }
    }
    return R_NilValue;
}

// f's baseline code, compiled now if needed.
Code* baselineOrError(SEXP f) {
    return baselineOf(tableOrError(f), CLOENV(f));
}

// f's baseline bytecode as an integer vector (for the verifier's tests).
SEXP rir_bytecode(SEXP f) {
    Code* c = baselineOrError(f);
    SEXP r = Rf_allocVector(INTSXP, c->bc.size());
    for (size_t i = 0; i < c->bc.size(); i++) INTEGER(r)[i] = c->bc[i];
    return r;
}

// The bytecode verifier on f's baseline code: "" when well formed, else
// the problem. With `shape` TRUE, the stack height before each
// instruction (named by bytecode offset) instead. `bc`, when an integer
// vector, replaces the bytecode in a copy of the code (negative tests).
SEXP rir_verify(SEXP f, SEXP shape, SEXP bc) {
    Code* c = baselineOrError(f);
    bool wantShape = Rf_asLogical(shape) == TRUE;
    static char err[400];
    std::vector<int> pcs, heights;
    {
        Code copy = *c;
        if (TYPEOF(bc) == INTSXP) copy.bc.assign(INTEGER(bc), INTEGER(bc) + XLENGTH(bc));
        CodeShape sh;
        std::string e = wantShape || TYPEOF(bc) == INTSXP ? verifyCode(&copy, &sh) : verifyAll(c);
        snprintf(err, sizeof err, "%s", e.c_str());
        for (size_t pc = 0; pc < sh.height.size(); pc++)
            if (sh.height[pc] >= 0) {
                pcs.push_back(int(pc));
                heights.push_back(sh.height[pc]);
            }
    }
    if (!wantShape || err[0]) return Rf_mkString(err);
    SEXP h = PROTECT(Rf_allocVector(INTSXP, heights.size()));
    SEXP nm = PROTECT(Rf_allocVector(STRSXP, pcs.size()));
    for (size_t i = 0; i < pcs.size(); i++) {
        INTEGER(h)[i] = heights[i];
        SET_STRING_ELT(nm, i, Rf_mkChar(std::to_string(pcs[i]).c_str()));
    }
    Rf_setAttrib(h, R_NamesSymbol, nm);
    UNPROTECT(2);
    return h;
}

// Runs f's baseline code from bytecode offset `pc` in `env`, with the
// values of the list `stack` on its operand stack (bottom first): the
// resumption a deoptimization does, for tests. The pc must start an
// instruction where the verifier finds exactly that many value slots.
namespace {
// The resume point at `pc` of f's baseline code with the values of the list
// `stack` on the operand stack, checked against the code's shape (R errors).
ResumePoint resumePoint(SEXP f, SEXP pc, SEXP stack) {
    Code* c = baselineOrError(f);
    if (TYPEOF(stack) != VECSXP) Rf_error("'stack' must be a list");
    int at = Rf_asInteger(pc), n = LENGTH(stack);
    int height = -1;
    bool valuesOnly = true;
    static char err[400];
    {
        CodeShape sh;
        std::string e = verifyCode(c, &sh);
        snprintf(err, sizeof err, "%s", e.c_str());
        if (e.empty() && at >= 0 && size_t(at) < sh.height.size()) {
            height = sh.height[at];
            for (SlotKind k : sh.slots[at])
                if (k != SlotKind::Value) valuesOnly = false;
        }
    }
    if (err[0]) Rf_error("bytecode verifier: %s", err);
    if (height < 0) Rf_error("no reachable instruction starts at pc %d", at);
    if (height != n) Rf_error("the stack at pc %d holds %d values, not %d", at, height, n);
    if (!valuesOnly) Rf_error("the stack at pc %d holds loop state", at);
    NodeStackSlot* slots =
        n ? reinterpret_cast<NodeStackSlot*>(R_alloc(n, sizeof(NodeStackSlot))) : nullptr;
    for (int i = 0; i < n; i++) {
        slots[i].tag = 0;
        slots[i].flags = 0;
        slots[i].u.sxpval = VECTOR_ELT(stack, i);
    }
    return ResumePoint{at, slots, n, 0};
}
}  // namespace

SEXP rir_resume(SEXP f, SEXP env, SEXP pc, SEXP stack) {
    Code* c = baselineOrError(f);
    if (TYPEOF(env) != ENVSXP) Rf_error("'env' must be an environment");
    ResumePoint at = resumePoint(f, pc, stack);
    return interpretFrom(c, env, trampolineConsts(tableOrError(f)->trampoline()), at);
}

// What a deoptimization inside an inlined call of f does: f's environment
// made from the arguments `args` (a list, positional) with the variables of
// the named list `vars` bound in it, f's function context for `call` from
// `env` pushed, f's code run from pc with `stack`; the call's value.
SEXP rir_resume_inlined(SEXP f, SEXP call, SEXP args, SEXP env, SEXP pc, SEXP stack, SEXP vars) {
    tableOrError(f);
    if (TYPEOF(env) != ENVSXP) Rf_error("'env' must be an environment");
    if (TYPEOF(args) != VECSXP || TYPEOF(vars) != VECSXP)
        Rf_error("'args' and 'vars' must be lists");
    ResumePoint at = resumePoint(f, pc, stack);
    SEXP promargs = PROTECT(Rf_allocList(LENGTH(args)));
    SEXP a = promargs;
    for (int i = 0; i < LENGTH(args); i++, a = CDR(a)) SETCAR(a, VECTOR_ELT(args, i));
    SEXP rho = PROTECT(inlinedCallEnv(f, promargs));
    SEXP names = Rf_getAttrib(vars, R_NamesSymbol);
    for (int i = 0; i < LENGTH(vars); i++)
        Rf_defineVar(Rf_installTrChar(STRING_ELT(names, i)), VECTOR_ELT(vars, i), rho);
    SEXP r = resumeInlinedCall(call, f, rho, promargs, env,
                               trampolineConsts(tableOrError(f)->trampoline()), at);
    UNPROTECT(2);
    return r;
}

// The call the instruction at `pc` of f's baseline code reports in errors
// (NULL if none): the pc -> source map.
SEXP rir_source_at(SEXP f, SEXP pc) {
    SEXP s = sourceAt(baselineOrError(f), Rf_asInteger(pc));
    return s ? s : R_NilValue;
}

SEXP rir_insn_table() {
    int n = int(Op::num_ops);
    SEXP name = PROTECT(Rf_allocVector(STRSXP, n));
    SEXP ops = PROTECT(Rf_allocVector(INTSXP, n));
    SEXP pops = PROTECT(Rf_allocVector(INTSXP, n));
    SEXP pushes = PROTECT(Rf_allocVector(INTSXP, n));
    SEXP doc = PROTECT(Rf_allocVector(STRSXP, n));
    for (int i = 0; i < n; i++) {
        SET_STRING_ELT(name, i, Rf_mkChar(insnInfo[i].name));
        INTEGER(ops)[i] = insnInfo[i].operands;
        INTEGER(pops)[i] = insnInfo[i].pops;
        INTEGER(pushes)[i] = insnInfo[i].pushes;
        SET_STRING_ELT(doc, i, Rf_mkChar(insnInfo[i].doc));
    }
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 5));
    SET_VECTOR_ELT(out, 0, name);
    SET_VECTOR_ELT(out, 1, ops);
    SET_VECTOR_ELT(out, 2, pops);
    SET_VECTOR_ELT(out, 3, pushes);
    SET_VECTOR_ELT(out, 4, doc);
    UNPROTECT(6);
    return out;
}

}  // extern "C"
