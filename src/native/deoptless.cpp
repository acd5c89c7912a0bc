// deoptless.cpp — a failed speculation goes on in native code: instead of
// resuming the interpreter at the frame state's pc, a deoptimization of a
// function's own frame runs a continuation compiled from that pc for the
// state it found (the frame's bindings and the kinds of their values, the
// operand stack's values' kinds), after the observation that failed the
// speculation was written into the baseline's feedback
// (bc/deopt_trigger.h), so that the continuation does not speculate the
// same way again.
//
//   f <- function(v) { s <- 0L; for (x in v) s <- s + x; s }
//   native f, compiled while v held integers: `s + x` assumes integers
//   f(c(1L, 2L, 2.5, 4))   x = 2.5: the Assume fails at `s + x`, stack [s, x]
//     recordDeoptTrigger: `+`'s feedback adds "real"
//     continuation f@<pc of +>(s: int, x: real) compiled (or found), run:
//     the rest of the loop in native code; its value is f's
//
// Continuations are kept in the function's table with the OSR ones
// (DispatchTable::Continuation, `deoptless`), at most kMaxDeoptless of
// them. A state with no continuation of its own gets one compiled while
// there is room (R's thread waits for it); after that, one compiled for
// a state that covers it (DispatchTable::covers) runs it; else the
// interpreter resumes, as without deoptless. Not deoptless:
// - a deoptimization inside inlined code (more than one frame: the
//   callee's frame finishes in the interpreter, then the caller's);
// - one of a deoptless continuation itself (the interpreter resumes: at
//   most one deoptless continuation per frame on the C stack);
// - a frame a continuation cannot take (an active or locked binding, a
//   missing argument: plainFrame);
// - a continuation leaving at a loop that never ran (no speculation
//   failed: see rir2pir's for_step).
// A deoptless continuation that deoptimized is compiled again at its next
// use, with the feedback recorded since (a few times; then it runs as it
// is). Deoptimizations count towards the
// version's limit (DispatchTable::noteDeopt): a version that keeps failing
// is compiled again, from the feedback its deoptless runs recorded.
#include "../bc/deopt_trigger.h"
#include "../bc/verifier.h"
#include "../runtime/stats.h"
#include "continuation.h"
#include "native.h"

namespace rir {
namespace native {

namespace {

// The kind of an operand stack value a continuation is compiled for (a
// promise or a marker: anything).
DispatchTable::EntryType stackEntryType(SEXP v) {
    if (!v || TYPEOF(v) == PROMSXP || v == R_MissingArg || v == R_UnboundValue)
        return DispatchTable::EntryType::Any;
    return DispatchTable::entryType(v);
}

// The index in t->continuations of the deoptless continuation to run for
// this deoptimization, compiled now if needed; -1: none (the interpreter
// resumes). (C++ objects live here: no R call that can fail.)
int deoptlessFor(DispatchTable* t, int pc, SEXP env, const SEXP* stack, int n,
                 const unsigned char* kinds) {
    std::string why;
    if (!available(&why)) return -1;
    DispatchTable::Continuation key;
    key.pc = pc;
    key.deoptless = true;
    if (!plainFrame(env, t->baseline, &key.bindings, &key.types)) return -1;
    key.stack.assign(kinds, kinds + n);
    for (int k = 0; k < n; k++)
        key.stackTypes.push_back(SlotKind(kinds[k]) == SlotKind::Value
                                     ? stackEntryType(stack[k])
                                     : DispatchTable::EntryType::Any);
    int covering = -1, again = -1;
    size_t count = 0;
    for (size_t k = 0; k < t->continuations.size(); k++) {
        const DispatchTable::Continuation& c = t->continuations[k];
        if (!c.deoptless) continue;
        count++;
        if (c.pc != pc || c.stack != key.stack || c.bindings != key.bindings) continue;
        if (c.types == key.types && c.stackTypes == key.stackTypes) {
            // (one that deoptimized is compiled again, with the feedback
            // recorded since, a few times; then it runs as it is)
            if (c.entry && (!c.deopts || c.recompiles >= DispatchTable::kMaxContinuationRecompiles))
                return int(k);
            if (!c.entry) return -1;  // (refused: the interpreter)
            again = int(k);
            break;
        }
        if (covering < 0 && c.entry && DispatchTable::covers(c.types, key.types) &&
            DispatchTable::covers(c.stackTypes, key.stackTypes))
            covering = int(k);
    }
    if (again < 0 && count >= DispatchTable::kMaxDeoptless) return covering;
    // (what failed, recorded where the translation reads it)
    const char* reason = recordDeoptTrigger(t->baseline, pc, env, stack, n);
    if (again < 0) key.reason = reason;
    int k = compileContinuation(t, key, again, true);
    return t->continuations[size_t(k)].entry ? k : covering;
}

}  // namespace

SEXP goOnDeoptless(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp, const SEXP* stack,
                   int n, const unsigned char* kinds) {
    if (!tiering.deoptless || code != t->baseline || t->orphaned) return nullptr;
    // (a continuation leaving at a loop that never ran failed no
    // speculation: the interpreter runs that loop and gathers its
    // feedback, and the continuation is compiled again with it)
    if (Op(code->bc[size_t(pc)]) == Op::for_step &&
        code->feedback[size_t(insn::for_step(&code->bc[size_t(pc) + 1]).fb)].count == 0)
        return nullptr;
    int k = deoptlessFor(t, pc, env, stack, n, kinds);
    if (k < 0) {
        stats.deoptless_fallbacks++;
        return nullptr;
    }
    DispatchTable::ContinuationEntry entry = t->continuations[size_t(k)].entry;
    if (debugFlags.deopt)
        REprintf("rir: deoptless continuation of %s at pc %d (%s)\n", t->name.c_str(), pc,
                 t->continuations[size_t(k)].reason);
    uint32_t deoptsBefore = t->deopts;
    stats.deoptless_entries++;
    t->deoptlessCovered++;
    SEXP r = entry(env, tramp, stack);
    // (one that deoptimized is compiled again at its next use)
    if (t->deopts != deoptsBefore) t->continuations[size_t(k)].deopts++;
    return r;
}

}  // namespace native
}  // namespace rir
