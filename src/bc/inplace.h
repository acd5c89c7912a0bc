// inplace.h — THE rule for modifying an R object in place. Every path of the
// interpreter that overwrites an existing object instead of allocating a new
// one (a scalar binding reused by `x <- v`, `x <- a op b` or a for loop
// variable; an element stored into a vector or list by `x[i] <- v`,
// `x[[i]] <- v`, `x$f <- v`, appends, GNU R's `[<-` called on x's value)
// asks this file first.
//
// An object that a binding holds may be modified in place only when nothing
// else can observe the change. The references that exist are:
//   - counted ones: bindings, list elements, attributes, promise values,
//     closure environments ... (GNU R's reference count, `frefcnt`); the
//     binding that is being assigned accounts for exactly one;
//   - uncounted ones: operand-stack slots of rir (and of GNU R's byte code)
//     on R's node stack, and argument lists rir builds with consNR from
//     those slots before a builtin runs (their slots are flagged
//     kArgListSlot and their elements scanned too: `c(b, {b[1] <- 0; b})`
//     has b's old value in the list being built when b is assigned).
// So: refcount == 1 AND no live operand slot holds the object. Operands of the
// instruction doing the store are consumed by it and do not count.
//
// Which slots can hold the object? When the binding lives in the frame of the
// function body being run (its environment was made for this call), only
// that frame's operand stack can: callers cannot have read a variable of an
// environment that did not exist yet (values passed in are counted by the
// binding of the argument as well). Any other environment (promise code
// running in its caller's frame, `<<-` targets, top-level code, environments
// reached through `$`) may have values on any frame's stack, so the whole
// node stack is scanned. The scan only compares pointers: a false match
// (a raw GNU R slot that happens to hold the same bits) only costs a copy.
//
//   x <- a * 2; list(x, {x <- x + 1; x})   # x's old 2 is on the stack: the
//                                          # + result is a new object
//   x + (x <- 10)                          # idem for the constant store
//   x[[3]] <- x                            # the value is x itself: copied
#pragma once

#include "../runtime/rapi.h"

namespace rir {

// The lowest node-stack slot (the stack's base), found at load time.
extern NodeStackSlot* nodeStackFloor;
void initNodeStackFloor();

// The flags of a node-stack slot that holds an argument list rir is
// building or has built from operand slots (consNR cells: their elements
// are not counted): the elements are references too.
const int kArgListSlot = 0x41524753;

// The flags of an operand slot holding an argument of a builtin call whose
// later arguments are still being evaluated: its value's reference count
// was raised by count_arg (as GNU R's byte code counts the arguments it
// pushes), so that code run by those arguments cannot take it for a
// temporary; call_builtin lowers it again before the call.
const int kCountedArg = 0x434e5441;

inline bool argListHolds(SEXP list, SEXP x) {
    for (SEXP a = list; a != R_NilValue && ftype(a) == LISTSXP; a = fcdr(a))
        if (fcar(a) == x) return true;
    return false;
}

// Does a slot in [lo, hi) hold x (itself, or in an argument list)? Blocks
// of raw memory that GNU R keeps on the stack are skipped: their bytes can
// look like a slot flagged kArgListSlot (stale flags under a loop context
// GNU R's byte code wrote there) holding a pointer that is none.
inline bool heldBySlot(SEXP x, const NodeStackSlot* lo, const NodeStackSlot* hi) {
    for (const NodeStackSlot* p = lo; p < hi; p++) {
        if (p->tag == kRawMemTag) {
            p += p->u.ival;
            continue;
        }
        if (p->u.sxpval == x ||
            (p->flags == kArgListSlot && p->tag == 0 && argListHolds(p->u.sxpval, x)))
            return true;
    }
    return false;
}

// The answers of an interpreter activation's scans below its own slots:
// the slots under a running activation belong to suspended frames and do
// not change while it runs, so whether they hold an object is asked once
// per object (a loop updating its variables scans the callers' slots once
// per variable, not at every store). An answer stays right even if the
// object dies and its address is reused: the slots below hold only live
// objects. 16 sets of 2 entries by a hash of the address (a loop's dozen
// scalars, often allocated next to each other, rarely need a rescan; a
// direct-mapped table let pairs evict each other at every store: nbody),
// cleared only when first used: an activation that stores nothing in place
// pays for one flag. (Its size counts: it lives in every activation's C
// frame, and deep recursion must meet R's expression limit before the C
// stack's.)
struct BelowMemo {
    static constexpr int kSets = 16;
    bool ready = false;
    unsigned char victim[kSets];  // the entry of each set replaced next
    SEXP x[2 * kSets];
    bool held[2 * kSets];
    static int set(SEXP x) {
        // (Fibonacci hashing: nearby small vectors spread over the sets)
        uint64_t p = reinterpret_cast<uintptr_t>(x);
        return int((p * 0x9E3779B97F4A7C15ull) >> 60);
    }
};

inline void memoReady(BelowMemo& m) {
    if (!m.ready) {
        for (int k = 0; k < 2 * BelowMemo::kSets; k++) m.x[k] = nullptr;
        for (int k = 0; k < BelowMemo::kSets; k++) m.victim[k] = 0;
        m.ready = true;
    }
}

inline void memoPut(SEXP x, bool held, BelowMemo& m) {
    int s = BelowMemo::set(x);
    int e = 2 * s + m.victim[s];
    m.victim[s] ^= 1;
    m.x[e] = x;
    m.held[e] = held;
}

inline bool heldBelow(SEXP x, const NodeStackSlot* base, BelowMemo& m) {
    memoReady(m);
    int k = 2 * BelowMemo::set(x);
    if (m.x[k] == x) return m.held[k];
    if (m.x[k + 1] == x) return m.held[k + 1];
    bool h = heldBySlot(x, nodeStackFloor, base);
    memoPut(x, h, m);
    return h;
}

// x was allocated while the activation runs: the slots below it, frozen
// since it started, cannot hold x (nor a dead object at its address: they
// hold live ones), and the next in-place check of x needs no scan. (A
// loop's variable is a new object at the first round of every start of
// the loop, the binding being NULL before it: an inner loop of five rounds
// scanned the callers' slots once every five rounds.)
inline void noteFresh(SEXP x, BelowMemo& m) {
    memoReady(m);
    int k = 2 * BelowMemo::set(x);
    if (m.x[k] == x || m.x[k + 1] == x) return;
    memoPut(x, false, m);
}

// Where uncounted references to values of `target`'s bindings can be.
struct InPlaceScope {
    const NodeStackSlot* lo;  // first slot to scan
    const NodeStackSlot* hi;  // end: the operands of the current instruction excluded
    // a second range, or none: native code's scope for a binding outside
    // its own frame is the callers' slots plus its frame's live ones
    const NodeStackSlot* lo2 = nullptr;
    const NodeStackSlot* hi2 = nullptr;
    // when set: the slots below belowEnd too, through the activation's memo
    BelowMemo* below = nullptr;
    const NodeStackSlot* belowEnd = nullptr;
    bool heldOnStack(SEXP x) const {
        return heldBySlot(x, lo, hi) || (lo2 && heldBySlot(x, lo2, hi2)) ||
               (below && heldBelow(x, belowEnd, *below));
    }
};

// The scope of an in-place update in the interpreter activation whose slots
// start at `frame`, whose instruction's operands start at `hi`: every
// operand slot below, the callers' included (those through the memo). Even
// a binding of the function's own frame may hold a value a caller's operand
// slot holds too, uncounted: `x + k()` where k copies x (`y <- x`), rebinds
// x (`x <<- 0`) and updates its copy (`y[1] <- 99`), which then looks
// unshared; holdSlots counts such operands around calls, but R code can
// also run where nothing counted them (a condition handler, a finalizer).
// The activation's own slots below `userBase` are not references: its
// binding cache holds cells, its scratch slots results that a site reuses
// only while nothing counts them, its loops' state a counted sequence and
// integers.
inline InPlaceScope inPlaceScope(const NodeStackSlot* frame, const NodeStackSlot* userBase,
                                 BelowMemo* memo, const NodeStackSlot* hi) {
    return InPlaceScope{userBase, hi, nullptr, nullptr, memo, frame};
}

// May the value x of a binding be overwritten or stored into?
inline bool mayModifyInPlace(SEXP x, const InPlaceScope& s) {
    return frefcnt(x) == 1 && !s.heldOnStack(x);
}

// An unreferenced scalar (reference count 0) is a temporary that an
// instruction may reuse for its result (boxScalar). That is only right when
// the operand slot being consumed is its only holder. Two ways break it, and
// both are closed here: a binding that lets go of its value while that value
// is still an operand (x + (x <- 10) drops the old x to 0 while the stack
// holds it), and the same temporary sitting in two operand slots.
//
// After a binding replaced `old`: mark it referenced if nothing counts it
// any more, so it is never taken for a temporary (it is garbage otherwise,
// and the collector does not look at reference counts). Only a scalar: the
// temporaries rir reuses are scalars (boxScalar, scratch slots). A longer
// vector is left at GNU R's count, since GNU R's own arithmetic reuses an
// unreferenced operand (R_allocOrReuseVector) and that choice shows in a
// zero-length result, which keeps the reused operand's attributes: `b +
// (b <- b[b > 0])` with `b` an empty vector carrying an attribute gives the
// old `b`'s attribute in GNU R (fuzz seed 31018072); marked, the operand
// looked shared and the sum came out bare. That operand held in a second
// slot of the same frame is still marked, by guardOperand at the binop.
// Not a promise: no instruction reuses one, and a call's argument promise
// that nothing counts after the call is cleared (releaseArgs, GNU R's
// unpromiseArgs), which lets go of its value; marked, it kept the value
// counted for good (`x; x <- 1` in the callee left the caller's vector
// shared: GNU R moves a list's elements when `[<-` enlarges an unshared
// one, seed 30032447).
inline void releasedValue(SEXP old) {
    if (frefcnt(old) == 0 && hdr(old)->scalar && ftype(old) != PROMSXP) incRefcnt(old);
}

// Binds v through frame cell `cell` when it is an ordinary binding (the
// value it held is released, see above; the binding no longer missing, as
// defineVar leaves it): true; false when the caller must use defineVar
// (no cell, active or locked binding, unbound).
inline bool storeInCell(SEXP cell, SEXP v) {
    if (!cell || !plainWritableCell(cell) || fcar(cell) == R_UnboundValue) return false;
    SEXP old = fcar(cell);
    if (old != v) {
        SETCAR(cell, v);
        releasedValue(old);
    }
    hdr(cell)->gp &= ~kMissingMask;
    return true;
}

// While code that may run R code runs (a call, a promise's code, a builtin
// that may call back), a frame's operand slots [lo, hi) below it hold their
// values uncounted, and that code cannot see them: a value it loads from a
// binding and the binding then lets go of looks unshared (reference count
// 1, or 0: a temporary) although the frame still holds it, so an in-place
// update or an arithmetic result reusing it would change the frame's
// operand too (`x + k()` where k updates a copy of x after rebinding x;
// `G + h()` where h rebinds G and G's old value is reused for a sum). GNU
// R's byte code counts its stack's references before calls; rir counts a
// frame's operands for the time of such code (holdSlots before,
// releaseSlots after, with the same slots unchanged in between). A jump
// out of the code skips the release: the values stay counted once more,
// which only costs a copy. Argument lists being built count their elements.
inline void countSlot(const NodeStackSlot* p, bool hold) {
    if (p->tag != 0) return;  // (a loop's raw counters)
    SEXP v = p->u.sxpval;
    if (p->flags == kArgListSlot) {
        for (SEXP a = v; a != R_NilValue && ftype(a) == LISTSXP; a = fcdr(a))
            hold ? incRefcnt(fcar(a)) : decRefcnt(fcar(a));
    } else if (v != R_NilValue) {
        hold ? incRefcnt(v) : decRefcnt(v);
    }
}
inline void countSlots(NodeStackSlot* lo, NodeStackSlot* hi, bool hold) {
    for (NodeStackSlot* p = lo; p < hi; p++) countSlot(p, hold);
}
inline void holdSlots(NodeStackSlot* lo, NodeStackSlot* hi) {
    if (lo < hi) countSlots(lo, hi, true);
}
inline void releaseSlots(NodeStackSlot* lo, NodeStackSlot* hi) {
    if (lo < hi) countSlots(lo, hi, false);
}

// Before an instruction reuses operand x as its result: x must not also be
// in another operand slot of the frame (those below its own operands).
inline void guardOperand(SEXP x, const NodeStackSlot* lo, const NodeStackSlot* hi) {
    if (frefcnt(x) == 0 && heldBySlot(x, lo, hi)) incRefcnt(x);
}

}  // namespace rir
