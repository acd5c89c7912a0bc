// native.h — the native tier: optimized PIR lowered to LLVM IR and compiled
// by an ORC LLJIT (lower.cpp), and the tiering policy that decides when a
// function gets native code (tiering.cpp).
#pragma once

#include <map>
#include <string>

#include "../pir/ir.h"
#include "../runtime/dispatch_table.h"

namespace rir {
namespace native {

// Functions whose optimized PIR has more instructions are left to RIR: LLVM's
// compile time grows faster than the code (measured 2026-11-26: a base
// function of about 3,900 instructions took 1-8 s per version, one of 600
// about 0.1 s; GNU R's reg-tests-1d in chaos mode spent 126 s compiling
// without a limit, 54 s with this one), and such functions are rarely where
// a program's time goes. (1000 refused shootout/nbody's advance_steps, about
// 1,040 instructions: its module and 15 small ones took 1.8 s, 2026-11-27.)
const size_t kMaxNativeInsns = 1500;
// A continuation is compiled for a loop that has run long already (its
// frame's loop crossed RIR_OSR_THRESHOLD), on the compile thread while
// the interpreter goes on: it may be larger. (shootout/nbody's
// advance_steps: its continuations have about 1,650 instructions, 0.8 s
// of LLVM each; refused, the benchmark ran in the interpreter.)
const size_t kMaxContinuationInsns = 3000;

// Whether this build has the native tier (LLVM found by configure and
// initialized); else why not.
bool available(std::string* why);

// Native code for `f`, the optimized PIR of table t's baseline code, is made
// in two halves. lower() (R's thread) makes an LLVM module of it, or
// returns nullptr with *why when it holds something not lowered yet; it
// makes no R call that can fail (C++ objects are alive). emit() (the
// compile thread, compile_thread.h) runs LLVM's passes and code generation
// and returns the entry, or nullptr with *why; it consumes the module, as
// discard() does.
void* lower(pir::Function& f, DispatchTable* t, std::string* why);
void* emit(void* lowered, std::string* why);
void discard(void* lowered);

// Why functions were refused by the optimizing tier, with counts (since
// the package was loaded).
extern std::map<std::string, double> refusalReasons;

// Optimizes t's baseline to native code now (whatever RIR_NATIVE says: an
// explicit request); false with *why when the tier refuses it.
// `ctx`: the calls the version is for (Context(): any call).
bool optimizeNow(DispatchTable* t, Context ctx, std::string* why);

// Deoptless (deoptless.cpp): a deoptimization of t's own frame at pc (its
// baseline `code`, the frame state's env and operand stack of n values with
// their SlotKinds) goes on in a continuation compiled for that state; its
// value is the function's. nullptr: none runs (RIR_DEOPTLESS off, the state
// not taken, the table full): the interpreter resumes the frame.
SEXP goOnDeoptless(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp, const SEXP* stack,
                   int n, const unsigned char* kinds);

// Registers the tiering policy with the interpreter (optimizeHook).
void registerTiering();

// Waits for every job on the compile thread and installs what it made (for
// the tests: counters read before and after an explicit compilation must
// not count a version an earlier call left on the thread).
void finishPending();

// The LLVM IR of the last function compiled, kept only under
// RIR_DEBUG=native (which prints it).
const std::string& lastIR();

}  // namespace native
}  // namespace rir
