// stats.h — process-wide counters reported by rir::stats(), and the registry
// of compiled / refused closures reported by rir::status().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "export.h"

namespace rir {

struct Stats {
    double compiled = 0;            // closures given a DispatchTable
    double refused = 0;             // closures left to GNU R
    double rir_calls = 0;           // closure bodies executed by the RIR interpreter
    double gnur_entries = 0;        // entries into rir from GNU R code (trampolines)
    double native_calls = 0;        // function bodies run as native code
    double deopts = 0;              // deoptimizations (native code resumed in RIR)
    double optimized = 0;           // functions given native code
    double opt_refused = 0;         // functions the optimizing tier refused (status() says why)
    double opt_seconds = 0;         // time R's thread spent in the optimizing tier (PIR, LLVM)
    double opt_thread_seconds = 0;  // time the compile thread spent in LLVM (compile_thread.h)
    double inlined_calls = 0;  // call sites of optimized functions inlined (their callee's body)
    double static_calls = 0;   // call sites of optimized functions made StaticCalls
    double osr_entries = 0;    // loops that went on in native code from the interpreter
    double osr_compiled = 0;   // continuations compiled for them
    double osr_refused = 0;    // loops whose continuation the optimizing tier refused
    // deoptless (RIR_DEOPTLESS): a failed speculation going on in a
    // continuation compiled for the deoptimization's state
    double deoptless_entries = 0;    // deoptimizations that went on in one
    double deoptless_compiled = 0;   // continuations compiled for them
    double deoptless_fallbacks = 0;  // deoptimizations that resumed the interpreter instead
    // R's thread's time making continuations (OSR and deoptless; part of
    // opt_seconds), the compile thread's work it waited for included
    double continuation_seconds = 0;
    double compile_seconds = 0;  // time spent compiling to RIR
    double toplevel_compiled = 0;
    double promises_compiled = 0;
    double ast_evals = 0;        // expressions handed to GNU R's AST interpreter
    double eager_compiled = 0;   // closures compiled before GNU R's JIT offered them
    double verified = 0;         // codes checked by the bytecode verifier (RIR_DEBUG=verify)
    double verify_failures = 0;  // codes it rejected
    // RIR_DEBUG=verify also translates every compiled function body to PIR
    // and runs the PIR verifier on the translation:
    double pir_translated = 0;       // bodies translated
    double pir_untranslated = 0;     // bodies with something not translated
    double pir_verify_failures = 0;  // translations the PIR verifier rejected
};

// RIR_DEBUG / options(rir.debug): a comma-separated list of these flags.
struct DebugFlags {
    bool verify = false;  // "verify": run the bytecode verifier on all compiled code
    bool pir = false;     // "pir": print each function's PIR after translation and each pass
    bool native = false;  // "native": print each optimized function's PIR and LLVM IR
    bool deopt = false;   // "deopt": print where each deoptimization resumes the RIR code
    bool perf = false;    // "perf": native code announced to Linux perf (jitdump files)
};
extern RIR_EXPORT DebugFlags debugFlags;

// RIR_OPT_THRESHOLD / RIR_NATIVE and their options: when a function's body
// is optimized (after `threshold` calls; 0: at the first) and whether the
// optimizing tier runs at all.
// RIR_DEOPT_CHAOS: about one Assume in `chaos` of native code made while
// it is set fails on purpose (0: none), drawn from a generator seeded with
// RIR_DEOPT_CHAOS_SEED.
// RIR_OSR_THRESHOLD: a function body the interpreter runs goes on in native
// code at a loop header once its loops have jumped back more than that
// many times in one call (Inf: never).
// RIR_DEOPTLESS: a deoptimization of a function's own frame goes on in a
// continuation compiled for its state (native/deoptless.cpp) instead of
// resuming the interpreter (off by default: see docs/history.md).
// RIR_COMPILE_THREAD: LLVM's code generation runs on a second thread while
// the interpreter goes on (native/compile_thread.h); off, or with a
// threshold of 0, R's thread waits for it.
struct TieringSettings {
    double threshold = 100;
    double osrThreshold = 10000;
    bool native = false;
    bool compileThread = true;
    bool deoptless = false;
    double chaos = 0;
    uint64_t chaosState = 1;
};
extern RIR_EXPORT TieringSettings tiering;

// Why the RIR compiler left an expression to GNU R's AST interpreter. The
// names (astReasonName) are what stats() and status() report.
enum class AstReason : int {
    Dots,            // `...` / ..N used as a value
    MissingArg,      // the empty symbol as an expression
    OddConstant,     // a constant that does not evaluate to itself
    LoopInPromise,   // break/next crossing a promise or function boundary
    ComplexAssign,   // an assignment form the compiler does not model
    ObjectSubset,    // x[...] on an object, with x a variable
    OddFunction,     // `function` with unusual formals or body
    AssignFallback,  // a compiled element assignment that GNU R finished
    Other,
    Count
};
const char* astReasonName(AstReason r);

// One eval_ast instruction: its reason, a short label and how often it ran.
struct AstSite {
    AstReason reason;
    std::string label;
    double count;
};
extern std::vector<AstSite> astSites;
extern double astByReason[int(AstReason::Count)];
int registerAstSite(AstReason reason, const std::string& label);

extern Stats stats;

struct DispatchTable;

struct Registered {
    std::string name;
    std::string state;   // "compiled" or "refused"
    std::string reason;  // why it was refused
    uint64_t* calls;     // points into the DispatchTable (nullptr if refused)
    bool alive;
    const DispatchTable* table;  // (nullptr if refused or collected)
};

extern std::vector<Registered> registry;

int registerCompiled(const std::string& name, DispatchTable* t);
void registerRefused(const std::string& name, const std::string& reason);

double nowSeconds();

}  // namespace rir
