// interp.h — the RIR interpreter (threaded, computed goto).
//
// The operand stack lives on GNU R's byte-code node stack, so the GC sees
// every value and R's own longjmps (errors, return(), break from promises,
// condition handlers) reset it exactly as for GNU R's byte code.
#pragma once

#include <atomic>

#include "code.h"

namespace rir {

// Runs `code` in `env`. `tramp` is the constant pool of the GNU R trampoline
// whose bcEval is active (its current-expression slot is updated so errors
// raised with Rf_error() name the same call as under GNU R's byte code).
SEXP interpret(Code* code, SEXP env, SEXP tramp);

struct DispatchTable;

// Where a deoptimization resumes a Code: the pc of an instruction and the
// operand stack before it (raw slots, loop state included, bottom first),
// whose shape the bytecode verifier computed (CodeShape) for that pc.
// `loopSlots`: how many slots at the bottom hold the state of running for
// loops (they hold counted references, see inplace.h).
struct ResumePoint {
    int pc;
    const NodeStackSlot* stack;
    int height;
    int loopSlots;
    // the function whose body `code` is, when its loops may go on in native
    // code again (a deoptimization of its own native code)
    DispatchTable* table = nullptr;
};

// Runs `code` in `env` from the middle: as if it had run up to `at.pc` and
// left `at.stack` on its operand stack. The caller has checked `at` against
// the code's shape.
SEXP interpretFrom(Code* code, SEXP env, SEXP tramp, const ResumePoint& at);

// Entry from a trampoline (.External2): runs a function body or a promise.
extern "C" SEXP rir_entry(SEXP call, SEXP op, SEXP args, SEXP env);

// Hook registered by the tiering policy (src/native): called at a function
// entry once its invocations reach the threshold when no native version
// fits the call's context (DispatchTable::natives); it may give the table
// native code for that context.
struct Context;
typedef void (*OptimizeHook)(DispatchTable*, Context);
extern OptimizeHook optimizeHook;

// Runs t's baseline `code` (a function body) in env: interpret(), with the
// function known, so that a loop running long may go on in native code
// (osrHook).
SEXP interpretBody(DispatchTable* t, Code* code, SEXP env, SEXP tramp);

// Hook registered by the tiering policy: asked, with the operand stack
// (`height` slots from `stack`, raw loop state included), to go on running
// t's baseline `code` from `pc` (a loop header) in native code once the
// function body's loops ran long in the interpreter (RIR_OSR_THRESHOLD);
// t is nullptr for a top-level loop's code (CodeKind::TopLevel).
// Returns what the function body returns, or nullptr when it declines (the
// interpreter goes on).
// *later (else left -1): declined for now, a continuation is being compiled
// on the compile thread for the loop header at this pc (`pc`'s, or another
// loop's of the same code): to be asked again there soon, and anywhere
// after as many back edges.
typedef SEXP (*OsrHook)(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp,
                        const NodeStackSlot* stack, int height, int* later);
extern OsrHook osrHook;

// Set by the compile thread when native code it made waits to be installed;
// the interpreter then calls installHook (R's thread) at the next function
// entry, and the tiering policy at a loop's check.
extern std::atomic<bool> compiledWaiting;
typedef void (*InstallHook)();
extern InstallHook installHook;
// Installs what the compile thread finished, if anything waits (R's thread).
inline void installCompiled() {
    if (compiledWaiting.load(std::memory_order_relaxed) && installHook) installHook();
}

// Compiles a closure for rir (the JIT hook and compile()): returns a closure
// with a trampoline body, or R_NilValue with `*reason` set.
SEXP compileClosure(SEXP f, const char* name, const char** reason);

}  // namespace rir
