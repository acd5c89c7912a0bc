// interp.cpp — the RIR interpreter. See interp.h.
#include "interp.h"

#include <cmath>
#include <cstring>

#include "../runtime/dispatch_table.h"
#include "../runtime/r_messages.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "apply_internals.h"
#include "calls.h"
#include "compiler.h"
#include "direct_call.h"
#include "for_loop.h"
#include "inplace.h"
#include "math_fast.h"
#include "ops.h"
#include "promises.h"
#include "s3_dispatch.h"
#include "subassign.h"
#include "subset.h"
#include "switch.h"

namespace rir {

OptimizeHook optimizeHook = nullptr;
OsrHook osrHook = nullptr;
std::atomic<bool> compiledWaiting{false};
InstallHook installHook = nullptr;
static unsigned backEdges = 0;

namespace {

// Whether the slot below a setter call's own slots (`heldTo`: the
// assignment's value, which the outermost setter gets as `value`) stays
// uncounted while the setter runs: a builtin setter on a target that is not
// an object runs no R code, and GNU R's byte code counts no operand of a
// builtin. Counted, `$<-` and `[[<-` took the value for referenced and
// searched it for a cycle through the target (R_FixupRHS): its whole depth,
// at every level of a recursion that rebuilds a tree of lists.
bool uncountedValueSlot(SEXP fun, SEXP lhs, SEXP rhs, SEXP vexpr, const NodeStackSlot* heldTo) {
    static SEXP vtmpSym = Rf_install("*vtmp*");
    SEXPTYPE t = ftype(fun);
    return (t == SPECIALSXP || t == BUILTINSXP) && vexpr != vtmpSym && !fobject(lhs) &&
           heldTo[-1].tag == 0 && heldTo[-1].u.sxpval == rhs;
}

// The value of a local variable when reading it has no effect: bound in
// env's own frame to a value or an evaluated promise; else nullptr (the
// general instructions then read it, with GNU R's semantics).
inline SEXP peekLocal(NodeStackSlot* cache, int k, SEXP sym, SEXP env);

// The binding cell of `sym` in env's own frame, cached in slot k; nullptr
// when it is not bound there. (The global env's cells too, as GNU R's byte
// code caches them: R's global cache holds the same cell, and a binding
// removed from a frame leaves its cell unbound and locked, which the users
// of a cached cell check.)
inline SEXP cachedCell(NodeStackSlot* cache, int k, SEXP sym, SEXP env, SEXP nil = R_NilValue) {
    SEXP cell = cache[k].u.sxpval;
    if (cell != nil) return cell;
    R_varloc_t loc = R_findVarLocInFrame(env, sym);
    if (!loc.cell || loc.cell == R_NilValue) return nullptr;
    cache[k].u.sxpval = loc.cell;
    return loc.cell;
}

// Binds v to sym in env's own frame: through `cell` (cache slot k) when it is
// an ordinary binding (the value it held is released: see inplace.h), else as
// defineVar does (and the cache slot is cleared), with the operand slots
// [base, hi) counted: an active binding's function runs.
inline void bindLocal(NodeStackSlot* cache, int k, SEXP cell, SEXP sym, SEXP v, SEXP env,
                      NodeStackSlot* base, NodeStackSlot* hi) {
    if (!storeInCell(cell, v)) {
        holdSlots(base, hi);
        Rf_defineVar(sym, v, env);
        releaseSlots(base, hi);
        cache[k].u.sxpval = R_NilValue;
    }
}

inline SEXP peekLocal(NodeStackSlot* cache, int k, SEXP sym, SEXP env) {
    SEXP cell = cachedCell(cache, k, sym, env);
    return cell ? peekCellValue(cell) : nullptr;
}

// Turns n operand slots into an argument list in place (each slot then holds
// the list from that argument on, so everything stays protected). Slot k is
// tagged with tags[k - untagged] (the first `untagged` slots get no tag).
SEXP slotsToArgs(NodeStackSlot* first, int n, const std::vector<CallArg>& tags, int untagged) {
    SEXP args = R_NilValue;
    for (int k = n - 1; k >= 0; k--) {
        args = consNR(first[k].u.sxpval, args);
        if (k >= untagged) SET_TAG(args, tags[k - untagged].tag);
        first[k].u.sxpval = args;
        first[k].flags = kArgListSlot;  // its elements count for inplace.h
    }
    return args;
}

}  // namespace

#ifdef RIR_STACK_CHECK
#define NEXT()                                                                                   \
    do {                                                                                         \
        if (sp < base || sp > base + c->maxStack + 4 || R_BCNodeStackTop < frame)                \
            Rf_error("rir internal error: stack depth %d (max %d) before pc %d", int(sp - base), \
                     c->maxStack, int(pc - start));                                              \
        goto* labels[*pc++];                                                                     \
    } while (0)
#else
#define NEXT() goto* labels[*pc++]
#endif
// The operands of the instruction at pc, by name (insns.h), and pc past them.
#define DECODE(nm)        \
    const insn::nm o(pc); \
    pc += insn::nm::kOperands
// A fresh int/real scalar result nothing refers to becomes the call site's
// scratch object (reused by its next execution).
#define KEEP_SCRATCH(cs, r, scr)                                                 \
    do {                                                                         \
        if ((cs).scratch && (r) != (scr) && frefcnt(r) == 0 && hdr(r)->scalar && \
            (ftype(r) == REALSXP || ftype(r) == INTSXP))                         \
            scratch[(cs).scratch - 1].u.sxpval = (r);                            \
    } while (0)
// The label of a rarely executed instruction: its code is laid out away from
// the hot handlers (fewer instruction-cache misses in the dispatch loop).
#define COLD_INSN(name) L_##name : __attribute__((cold));
// Runs `stmt`, which may run R code (a call, a method, a promise's code, an
// active binding), with this frame's operand slots below `hi` counted
// (holdSlots, inplace.h): that code cannot take a value they hold for
// unshared. A jump out skips the release (which only costs a copy later).
#define WHILE_HELD(hi, stmt)         \
    do {                             \
        NodeStackSlot* held_ = (hi); \
        holdSlots(base, held_);      \
        stmt;                        \
        releaseSlots(base, held_);   \
    } while (0)
// The value is computed before the slot is touched: computing it may run R
// code that uses the node stack above R_BCNodeStackTop (i.e. this slot).
#define PUSH(x)                  \
    do {                         \
        SEXP pushed__ = (x);     \
        sp->tag = 0;             \
        sp->flags = 0;           \
        sp->u.sxpval = pushed__; \
        sp++;                    \
    } while (0)
#define POP() ((--sp)->u.sxpval)
// Pushes the value of variable `sym` (binding-cache slot k), forcing a
// promise; GNU R's errors for missing and unbound variables.
#define DO_LDVAR_X(symExpr, kExpr, exprExpr)                                      \
    do {                                                                          \
        SEXP sym_ = (symExpr);                                                    \
        int k_ = (kExpr);                                                         \
        SEXP v_ = nullptr;                                                        \
        SEXP cell_ = cachedCell(cache, k_, sym_, env, nil);                       \
        if (cell_) {                                                              \
            if (plainCell(cell_)) {                                               \
                SEXP x_ = fcar(cell_);                                            \
                if (x_ == unbound) {                                              \
                    cache[k_].u.sxpval = nil;                                     \
                } else if (ftype(x_) == PROMSXP) {                                \
                    v_ = fprvalue(x_);                                            \
                    if (v_ == unbound) {                                          \
                        c->lazyLoads |= Code::slotBit(k_);                        \
                        /* as in GNU R: visible first, forcing may change it */   \
                        R_Visible = TRUE;                                         \
                        SYNC();                                                   \
                        setTrampolineExpr(tramp, (exprExpr) ? (exprExpr) : sym_); \
                        SEXP fv_;                                                 \
                        WHILE_HELD(sp, fv_ = forcePromise(x_, tramp));            \
                        PUSH(fv_);                                                \
                        break;                                                    \
                    }                                                             \
                } else if (x_ != R_MissingArg) {                                  \
                    v_ = x_;                                                      \
                }                                                                 \
            }                                                                     \
        }                                                                         \
        if (v_) {                                                                 \
            PUSH(v_);                                                             \
            R_Visible = TRUE;                                                     \
        } else {                                                                  \
            /* visible first: forcing a promise can leave its visibility */       \
            /* (withCallingHandlers(expr, ...)) */                                \
            c->lazyLoads |= Code::slotBit(k_);                                    \
            R_Visible = TRUE;                                                     \
            SYNC();                                                               \
            SEXP gv_;                                                             \
            WHILE_HELD(sp, gv_ = getVariable(sym_, env, tramp, exprExpr));        \
            PUSH(gv_);                                                            \
        }                                                                         \
    } while (0)
#define DO_LDVAR(symExpr, kExpr) DO_LDVAR_X(symExpr, kExpr, nullptr)
#define TOP() (sp[-1].u.sxpval)
#define AT(n) (sp[-1 - (n)].u.sxpval)

// Set by interpretFrom for the interpret() call it makes (a global rather
// than a parameter: the entry of every call stays as cheap as it was).
static const ResumePoint* resumeAt = nullptr;

SEXP interpretFrom(Code* c, SEXP env, SEXP tramp, const ResumePoint& at) {
    resumeAt = &at;
    return interpret(c, env, tramp);
}

// Set by interpretBody for the interpret() call it makes (as resumeAt).
static DispatchTable* bodyOf = nullptr;

SEXP interpretBody(DispatchTable* t, Code* c, SEXP env, SEXP tramp) {
    bodyOf = t;
    return interpret(c, env, tramp);
}

SEXP interpret(Code* c, SEXP env, SEXP tramp) {
    // taken before anything can raise an error (a later call must not see it)
    const ResumePoint* resume = resumeAt;
    resumeAt = nullptr;
    // (the function whose body this is, while its loops may still go on in
    // native code; back edges taken, in thousands)
    DispatchTable* osrTable =
        osrHook && tiering.native ? (resume ? resume->table : bodyOf) : nullptr;
    bodyOf = nullptr;
    // (a top-level loop's code may go on natively too: its table is made
    // then)
    bool osr = osrTable || (c->kind == CodeKind::TopLevel && !resume && osrHook && tiering.native);
    double osrTrips = 0;
    int osrWait = -1;  // (the loop header whose continuation is on the way)
    checkCStack();
    NodeStackSlot* frame = R_BCNodeStackTop;
    BelowMemo belowMemo;  // (inplace.h)
    if (frame + c->nCache + c->nScratch + c->maxStack + 16 > R_BCNodeStackEnd)
        Rf_error(_("node stack overflow"));
    // Binding cache: one slot per local symbol, holding the frame's binding
    // cell once found (protected by living on the node stack).
    NodeStackSlot* cache = frame;
    for (int k = 0; k < c->nCache; k++) {
        cache[k].tag = 0;
        cache[k].flags = 0;
        cache[k].u.sxpval = R_NilValue;
    }
    // Scratch results of nested binops (see compiler: binopOperand_).
    NodeStackSlot* scratch = frame + c->nCache;
    for (int k = 0; k < c->nScratch; k++) {
        scratch[k].tag = 0;
        scratch[k].flags = 0;
        scratch[k].u.sxpval = R_NilValue;
    }
    NodeStackSlot* base = scratch + c->nScratch;
    NodeStackSlot* sp = base;
    // The environment was made for this call: see inplace.h.
    // The operand slots above the state of the for loops running at the
    // bottom of this frame's stack: loop state holds counted references
    // (for_init counts the sequence) or integers, so in-place checks need
    // not scan it. Raised when a loop starts on it, lowered by the pops
    // that end loops.
    NodeStackSlot* userBase = base;
    const int32_t* start = c->bc.data();
    const int32_t* pc = start;
    if (__builtin_expect(resume != nullptr, 0)) {
        // a resumed frame: its operand stack as the deoptimization left it
        const ResumePoint& at = *resume;
        std::memmove(sp, at.stack, sizeof(NodeStackSlot) * at.height);
        sp += at.height;
        userBase = base + at.loopSlots;
        pc = start + at.pc;
    }
    R_BCNodeStackTop = sp;
    // The pool does not change while the code runs (compilation is done).
    SEXP* const pool = static_cast<SEXP*>(fdata(c->pool()));
#define POOL(i) (pool[i])
    SEXP res = R_NilValue;
    // R's constants, kept in locals: reading the globals costs two loads
    // each time (after any call the compiler must reload them).
    SEXP const nil = R_NilValue;
    SEXP const unbound = R_UnboundValue;

    static void* labels[] = {
#define RIR_LABEL(name, ops, pop, push, doc) &&L_##name,
        RIR_INSNS(RIR_LABEL)
#undef RIR_LABEL
    };

    // The stack pointer is published before anything that can allocate or
    // call back into R, so the GC marks live operands; SYNC keeps it exact.
#define SYNC() (R_BCNodeStackTop = sp)

    NEXT();

L_push : {
    DECODE(push);
    PUSH(POOL(o.value));
    R_Visible = TRUE;
    NEXT();
}
L_push_null:
    PUSH(R_NilValue);
    R_Visible = TRUE;
    NEXT();
L_ldvar : {
    DECODE(ldvar);
    SEXP sym = POOL(o.sym);
    int k = o.slot;
    DO_LDVAR(sym, k);
    NEXT();
}
L_ldvar_in : {
    DECODE(ldvar_in);
    // a variable read as an argument of an inlined call: GNU R's errors for
    // it (unbound, missing) name that call
    SEXP sym = POOL(o.sym);
    int k = o.slot;
    SEXP in = POOL(o.call);
    DO_LDVAR_X(sym, k, in);
    NEXT();
}
L_ldvar_missok : {
    DECODE(ldvar_missok);
    // an index of [ or [[ (GNU R's GETVAR_MISSOK): a missing argument is the
    // empty index; ..N when k < 0
    SEXP sym = POOL(o.sym);
    int k = o.slot;
    SEXP v = k >= 0 ? peekLocal(cache, k, sym, env) : nullptr;
    R_Visible = TRUE;
    SYNC();
    if (!v) WHILE_HELD(sp, v = getVariable(sym, env, tramp, nullptr, true));
    PUSH(v);
    NEXT();
}
L_ld2_binop : {
    // (the general path continues in binop's handler, at its operands)
    const int32_t* binopAt = pc + insn::kLd2Loads;
    DECODE(ld2_binop);
    // Operand loads fused into a binop: kind 0 = already on the stack,
    // 1 = variable (sym, cache slot), 2 = constant (pool index); then the
    // binop itself, whose operands follow.
    //
    // Quick path: both operands plain double (or plain integer) scalars
    // that are at hand without any effect (a stack slot, a constant, a
    // local variable bound to a value or to an evaluated promise), and the
    // operation computed inline. Nothing is pushed: a comparison feeding
    // `brfalse` branches at once, `x <- a op b` writes into x's old scalar
    // when the in-place rule allows it and skips the `stvar`, anything else
    // pushes the boxed result. Every other case takes the general path
    // below, which does the same with the loads and the binop's checks.
    {
        const int kA = o.kindA, kB = o.kindB;
        const int nStack = (kA == insn::kFromStack) + (kB == insn::kFromStack);
        SEXP a = kA == insn::kFromStack      ? sp[-nStack].u.sxpval
                 : kA == insn::kFromConstant ? POOL(o.a)
                                             : peekLocal(cache, o.slotA, POOL(o.a), env);
        SEXP b = kB == insn::kFromStack      ? sp[-1].u.sxpval
                 : kB == insn::kFromConstant ? POOL(o.b)
                                             : peekLocal(cache, o.slotB, POOL(o.b), env);
        const unsigned char kInt = INTSXP | kScalarBit, kReal = REALSXP | kScalarBit;
        unsigned char ka, kb;
        if (a && b && ((ka = headerByte(a)) == kInt || ka == kReal) &&
            ((kb = headerByte(b)) == kInt || kb == kReal) && fattrib(a) == nil &&
            fattrib(b) == nil) {
            const ArithOp op = ArithOp(o.op);
            const int target = o.target;
            const int sc = o.scratch;
            Feedback& f = c->feedback[o.fb];
            ScalarValue v;
            bool ok = false;
            if (ka == kInt && kb == kInt) {
                int x = fival(a), y = fival(b);
                if (x != NA_INTEGER && y != NA_INTEGER) {
                    f.types |= TB_INT | TB_INT << kRhsShift;
                    ok = intOp(op, x, y, &v);
                    if (!ok) f.types |= kArithOverflowed;
                }
            } else {
                // double, or integer and double: the integer is converted
                // (NA excluded, as in the general path)
                bool na = (ka == kInt && fival(a) == NA_INTEGER) ||
                          (kb == kInt && fival(b) == NA_INTEGER);
                if (!na) {
                    double x = ka == kInt ? double(fival(a)) : fdval(a);
                    double y = kb == kInt ? double(fival(b)) : fdval(b);
                    if (!std::isnan(x) && !std::isnan(y)) {
                        f.types |= (ka == kInt ? TB_INT : TB_REAL) | (kb == kInt ? TB_INT : TB_REAL)
                                                                         << kRhsShift;
                        ok = realOp(op, x, y, &v);
                    }
                }
            }
            if (ok) {
                sp -= nStack;
                R_Visible = TRUE;
                if (v.type == LGLSXP && Op(*pc) == Op::brfalse && insn::brfalse(pc + 1).call >= 0) {
                    const insn::brfalse next(pc + 1);
                    Feedback& bf = c->feedback[next.fb];
                    bf.hit();
                    if (v.i) {
                        pc += 1 + insn::brfalse::kOperands;
                    } else {
                        bf.taken++;
                        pc = start + next.target;
                    }
                    NEXT();
                }
                if (target && v.type != LGLSXP) {
                    SEXP cell = cache[target - 1].u.sxpval;
                    if (cell != nil && plainWritableCell(cell)) {
                        SEXP old = fcar(cell);
                        if (headerByte(old) == (unsigned char)(v.type | kScalarBit) &&
                            fattrib(old) == nil &&
                            mayModifyInPlace(old, inPlaceScope(frame, userBase, &belowMemo, sp))) {
                            if (v.type == REALSXP)
                                *static_cast<double*>(fdata(old)) = v.d;
                            else
                                *static_cast<int*>(fdata(old)) = v.i;
                            // the stvar that follows would store old into
                            // its own binding: done here
                            if (Op(*pc) == Op::stvar && insn::stvar(pc + 1).slot == target - 1) {
                                hdr(cell)->gp &= ~kMissingMask;
                                pc += 1 + insn::stvar::kOperands;
                                NEXT();
                            }
                            PUSH(old);
                            NEXT();
                        }
                    }
                }
                // the operands popped above are still in their slots (and so
                // protected) until the result is pushed
                SYNC();
                sp += nStack;
                SEXP scr = sc ? scratch[sc - 1].u.sxpval : nullptr;
                if (scr == nil) scr = nullptr;
                if (kA == insn::kFromStack) guardOperand(a, userBase, sp - nStack);
                if (kB == insn::kFromStack) guardOperand(b, userBase, sp - nStack);
                SYNC();
                SEXP r = boxScalar(v, kA == insn::kFromStack ? a : nil,
                                   kB == insn::kFromStack ? b : nil, nullptr, scr);
                if (sc && r != nullptr) scratch[sc - 1].u.sxpval = r;
                sp -= nStack;
                PUSH(r);
                NEXT();
            }
        }
    }
    if (o.kindA == insn::kFromVariable) {
        DO_LDVAR(POOL(o.a), o.slotA);
    } else if (o.kindA == insn::kFromConstant) {
        PUSH(POOL(o.a));
    }
    if (o.kindB == insn::kFromVariable) {
        DO_LDVAR(POOL(o.b), o.slotB);
    } else if (o.kindB == insn::kFromConstant) {
        PUSH(POOL(o.b));
    }
    pc = binopAt;
    goto L_binop;
}
    COLD_INSN(ldddvar) {
        DECODE(ldddvar);
        // ..N: element N of `...` (GNU R's ddfindVar); errors (no `...`, too
        // few elements, a missing element) are GNU R's own, from its lookup
        SEXP sym = POOL(o.sym);
        SYNC();
        R_Visible = TRUE;
        SEXP r;
        WHILE_HELD(sp, r = dotsElement(sym, env, tramp));
        PUSH(r);
        NEXT();
    }
L_stvar : {
    DECODE(stvar);
    SEXP sym = POOL(o.sym);
    int k = o.slot;
    SEXP v = TOP();
    SYNC();
    SEXP cell = cachedCell(cache, k, sym, env, nil);
    if (cell && plainWritableCell(cell) && fcar(cell) != unbound) {
        SEXP old = fcar(cell);
        if (old != v) {
            // A plain scalar replacing a plain scalar of the same type that
            // only this binding refers to: the value is copied into the old
            // object (as GNU R's SETVAR does), which keeps constants and
            // scratch results unshared and saves the binding update.
            unsigned char kv = headerByte(v);
            if (kv == headerByte(old) && fattrib(old) == nil && fattrib(v) == nil &&
                (kv == (REALSXP | kScalarBit) || kv == (INTSXP | kScalarBit) ||
                 kv == (LGLSXP | kScalarBit)) &&
                mayModifyInPlace(old, inPlaceScope(frame, userBase, &belowMemo, sp - 1))) {
                if (kv == (REALSXP | kScalarBit))
                    *static_cast<double*>(fdata(old)) = fdval(v);
                else
                    *static_cast<int*>(fdata(old)) = fival(v);
            } else {
                SETCAR(cell, v);
                releasedValue(old);
            }
        }
        hdr(cell)->gp &= ~kMissingMask;  // SET_MISSING(cell, 0), as defineVar does
    } else {
        WHILE_HELD(sp - 1, Rf_defineVar(sym, v, env));  // (an active binding)
        cache[k].u.sxpval = R_NilValue;
    }
    --sp;
    NEXT();
}
    COLD_INSN(stvar_super) {
        DECODE(stvar_super);
        SEXP sym = POOL(o.sym);
        SEXP v = TOP();
        SYNC();
        WHILE_HELD(sp - 1, Rf_setVar(sym, v, ENCLOS(env)));  // (an active binding)
        --sp;
        NEXT();
    }
L_srcref : {
    DECODE(srcref);
    R_Srcref = POOL(o.ref);
    NEXT();
}
L_pop:
    --sp;
    if (sp < userBase) userBase = sp;
    NEXT();
L_popn : {
    DECODE(popn);
    sp -= o.n;
    if (sp < userBase) userBase = sp;
    NEXT();
}
L_dup : {
    SEXP v = TOP();
    PUSH(v);
    NEXT();
}
L_visible:
    R_Visible = TRUE;
    NEXT();
L_invisible:
    R_Visible = FALSE;
    NEXT();
L_br : {
    DECODE(br);
    pc = start + o.target;
    NEXT();
}
L_br_back : {
    // Like GNU R's byte code: poll for interrupts, events and time limits
    // every so many back-edges (and at once when an interrupt is pending).
    if (R_interrupts_pending || ++backEdges > 1000) {
        backEdges = 0;
        SYNC();
        R_CheckUserInterrupt();
    }
    // a function body whose loops run long goes on in native code from
    // the loop header (the stack there is the stack here)
    // (at the header whose continuation is on the way: whether it is
    // there yet, every 256 rounds)
    if (osr && (++osrTrips > tiering.osrThreshold ||
                (insn::br_back(pc).target == osrWait && (int64_t(osrTrips) & 255) == 0))) {
        SYNC();
        const insn::br_back at(pc);
        int later = -1;
        SEXP r = osrHook(osrTable, c, at.target, env, tramp, base, int(sp - base), &later);
        if (r) {
            R_BCNodeStackTop = frame;
            return r;
        }
        // (declined: not again in this call, unless code is on the way)
        if (later >= 0) {
            osrTrips = 0;
            osrWait = later;
        } else {
            osr = false;
        }
    }
    DECODE(br_back);
    pc = start + o.target;
    NEXT();
}
L_brfalse : {
    DECODE(brfalse);
    int target = o.target;
    int callIdx = o.call;
    Feedback& f = c->feedback[o.fb];
    f.hit();
    if (callIdx < 0) {
        // object test used by subsetting: jump (popping x) if x is an object
        SEXP x = TOP();
        if (fobject(x)) {
            f.taken++;
            --sp;
            pc = start + target;
        }
        NEXT();
    }
    SEXP cond = TOP();
    SYNC();
    bool b = condition(cond, POOL(callIdx));
    --sp;
    if (!b) {
        f.taken++;
        pc = start + target;
    }
    NEXT();
}
L_ldfun : {
    DECODE(ldfun);
    SEXP sym = POOL(o.sym);
    SEXP call = POOL(o.call);
    SYNC();
    SEXP fun;
    WHILE_HELD(sp, fun = findFunction(sym, env, call, tramp));  // (a promise's code)
    PUSH(fun);
    NEXT();
}
L_call : {
    DECODE(call);
    CallSite& cs = c->calls[o.site];
    Feedback& f = c->feedback[o.fb];
    SEXP fun = TOP();
    SYNC();
    recordCallee(c, &f - c->feedback.data(), f, fun);
    SEXP r;
    WHILE_HELD(sp - 1, r = doCall(c, cs, fun, env, tramp));
    recordType(f, r);  // the result's type (for the optimizer)
    sp[-1].u.sxpval = r;
    NEXT();
}
    COLD_INSN(mkclosure) {
        DECODE(mkclosure);
        SEXP spec = POOL(o.spec);
        SYNC();
        SEXP clo = Rf_allocSExp(CLOSXP);
        PUSH(clo);
        SET_FORMALS(clo, VECTOR_ELT(spec, 0));
        SET_BODY(clo, VECTOR_ELT(spec, 1));
        SET_CLOENV(clo, env);
        if (VECTOR_ELT(spec, 2) != R_NilValue) {
            SYNC();
            Rf_setAttrib(clo, Rf_install("srcref"), VECTOR_ELT(spec, 2));
        }
        NEXT();
    }
L_binop : {
    DECODE(binop);
    ArithOp op = ArithOp(o.op);
    SEXP prim = POOL(o.prim);
    SEXP call = POOL(o.call);
    int target = o.target;
    int sc = o.scratch;
    Feedback& f = c->feedback[o.fb];
    SEXP a = AT(1), b = TOP();
    SYNC();
    // Plain double or plain integer scalars (no attributes, not NA): the
    // common case, computed inline; everything else below.
    unsigned char ka = headerByte(a), kb = headerByte(b);
    ScalarValue v;
    bool inlineOk = false;
    if (ka == kb && fattrib(a) == nil && fattrib(b) == nil) {
        if (ka == (REALSXP | kScalarBit)) {
            double x = fdval(a), y = fdval(b);
            if (!std::isnan(x) && !std::isnan(y)) {
                f.types |= TB_REAL | TB_REAL << kRhsShift;
                inlineOk = realOp(op, x, y, &v);
            }
        } else if (ka == (INTSXP | kScalarBit)) {
            int x = fival(a), y = fival(b);
            if (x != NA_INTEGER && y != NA_INTEGER) {
                f.types |= TB_INT | TB_INT << kRhsShift;
                inlineOk = intOp(op, x, y, &v);
                if (!inlineOk) f.types |= kArithOverflowed;
            }
        }
    } else if (fattrib(a) == nil && fattrib(b) == nil &&
               ((ka == (INTSXP | kScalarBit) && kb == (REALSXP | kScalarBit)) ||
                (ka == (REALSXP | kScalarBit) && kb == (INTSXP | kScalarBit)))) {
        // integer and double: the integer is converted (NA excluded)
        bool ai = ka == (INTSXP | kScalarBit);
        double x = ai ? double(fival(a)) : fdval(a), y = ai ? fdval(b) : double(fival(b));
        if ((ai ? fival(a) : fival(b)) != NA_INTEGER && !std::isnan(ai ? y : x)) {
            f.types |= ai ? (TB_INT | TB_REAL << kRhsShift) : (TB_REAL | TB_INT << kRhsShift);
            inlineOk = realOp(op, x, y, &v);
        }
    }
    if (!inlineOk) {
        recordType(f, a);
        recordType(f, b, kRhsShift);
    }
    // `x <- a op b` as a statement: x's old scalar may take the result when
    // nothing but the binding refers to it (as GNU R's SETVAR does) and the
    // binding will accept the store. Nothing else can be holding it: the
    // statement started on an empty stack (see compiler: assignTarget_) and
    // any other reference (a promise, another variable, a loop sequence)
    // counts.
    SEXP reuse = nullptr;
    if (target) {
        SEXP cell = cache[target - 1].u.sxpval;
        if (cell != nil && plainWritableCell(cell)) {
            SEXP old = fcar(cell);
            if (hdr(old)->scalar && !hdr(old)->alt && fattrib(old) == nil &&
                mayModifyInPlace(old, inPlaceScope(frame, userBase, &belowMemo, sp - 2)))
                reuse = old;
        }
    }
    // A comparison whose result only feeds the following `brfalse` (an if
    // or while condition): branch at once. The result is a non-NA logical,
    // which the condition accepts as is; the effect is that of the two
    // instructions (the visible flag set, the branch counted).
    if (inlineOk && v.type == LGLSXP && Op(*pc) == Op::brfalse && insn::brfalse(pc + 1).call >= 0) {
        const insn::brfalse next(pc + 1);
        Feedback& bf = c->feedback[next.fb];
        bf.hit();
        sp -= 2;
        R_Visible = TRUE;
        if (v.i) {
            pc += 1 + insn::brfalse::kOperands;
        } else {
            bf.taken++;
            pc = start + next.target;
        }
        NEXT();
    }
    SEXP scr = sc ? scratch[sc - 1].u.sxpval : nullptr;
    if (scr == nil) scr = nullptr;
    // an operand that is also in another slot must not take the result
    guardOperand(a, userBase, sp - 2);
    guardOperand(b, userBase, sp - 2);
    SEXP r = inlineOk ? boxScalar(v, a, b, reuse, scr) : fastBinop(op, a, b, reuse, scr);
    if (sc && r && r != reuse) scratch[sc - 1].u.sxpval = r;
    if (!r) {
        SEXP args = consNR(a, consNR(b, R_NilValue));
        PUSH(args);
        SYNC();
        setTrampolineExpr(tramp, call);
        const void* vmax = vmaxget();
        WHILE_HELD(sp - 3, r = primFun(prim)(call, prim, args, env));  // (a method may run)
        vmaxset(vmax);
        --sp;
    }
    sp -= 2;
    PUSH(r);
    R_Visible = TRUE;
    NEXT();
}
L_unop : {
    DECODE(unop);
    ArithOp op = ArithOp(o.op);
    SEXP prim = POOL(o.prim);
    SEXP call = POOL(o.call);
    Feedback& f = c->feedback[o.fb];
    SEXP a = TOP();
    SYNC();
    recordType(f, a);
    SEXP r = fastUnop(op, a);
    if (!r) {
        SEXP args = consNR(a, R_NilValue);
        PUSH(args);
        SYNC();
        setTrampolineExpr(tramp, call);
        const void* vmax = vmaxget();
        WHILE_HELD(sp - 2, r = primFun(prim)(call, prim, args, env));  // (a method may run)
        vmaxset(vmax);
        --sp;
    }
    sp[-1].u.sxpval = r;
    R_Visible = TRUE;
    NEXT();
}
    COLD_INSN(eval_ast) {
        DECODE(eval_ast);
        SEXP e = POOL(o.expr);
        int site = o.site;
        stats.ast_evals++;
        if (site >= 0) {
            AstSite& as = astSites[site];
            as.count++;
            astByReason[int(as.reason)]++;
        }
        SYNC();
        SEXP r;
        WHILE_HELD(sp, r = Rf_eval(e, env));
        PUSH(r);
        NEXT();
    }
L_for_colon : {
    DECODE(for_colon);
    // for (v in from:to): the sequence is not built when `:` would give an
    // integer range (both ends whole numbers in int range, as seq_colon
    // decides); anything else calls `:` as GNU R's byte code does.
    SEXP colonCall = POOL(o.colonCall);
    NodeStackSlot* loopAt = sp - 2;
    SEXP from = AT(1), to = TOP();
    SYNC();
    unsigned char kf = headerByte(from), kt = headerByte(to);
    bool fast = fattrib(from) == nil && fattrib(to) == nil &&
                (kf == (INTSXP | kScalarBit) || kf == (REALSXP | kScalarBit)) &&
                (kt == (INTSXP | kScalarBit) || kt == (REALSXP | kScalarBit));
    if (fast) {
        double n1 = kf == (INTSXP | kScalarBit)
                        ? (fival(from) == NA_INTEGER ? NAN : double(fival(from)))
                        : fdval(from);
        double n2 = kt == (INTSXP | kScalarBit)
                        ? (fival(to) == NA_INTEGER ? NAN : double(fival(to)))
                        : fdval(to);
        if (n1 == std::floor(n1) && n2 == std::floor(n2) && n1 > INT_MIN && n1 <= INT_MAX &&
            n2 > INT_MIN && n2 <= INT_MAX && std::fabs(n2 - n1) < INT_MAX) {
            sp -= 2;
            PUSH(nil);  // no sequence object
            sp->tag = INTSXP;
            sp->flags = n1 <= n2 ? 1 : -1;  // step
            sp->u.ival = int(std::fabs(n2 - n1)) + 1;
            sp++;
            sp->tag = INTSXP;
            sp->flags = int(n1);  // start
            sp->u.ival = -1;      // counter
            sp++;
            if (loopAt == userBase) userBase = sp;
            NEXT();
        }
    }
    SEXP colon = SYMVALUE(Rf_install(":"));
    SEXP args = consNR(from, consNR(to, R_NilValue));
    PUSH(args);
    SYNC();
    SEXP seq = callBuiltin(colonCall, colon, args, env, tramp);
    sp -= 3;
    PUSH(seq);
    bool ranLoop;
    sp = forInit(sp, POOL(o.forCall), env, &ranLoop, base);
    if (ranLoop) pc = afterLoopStart(pc);
    if (loopAt == userBase) userBase = sp;
    NEXT();
}
L_for_init : {
    DECODE(for_init);
    SEXP call = POOL(o.call);
    NodeStackSlot* loopAt = sp - 1;
    bool ranLoop;
    sp = forInit(sp, call, env, &ranLoop, base);
    if (ranLoop) pc = afterLoopStart(pc);
    if (loopAt == userBase) userBase = sp;
    NEXT();
}
L_for_step : {
    DECODE(for_step);
    int target = o.target;
    SEXP sym = POOL(o.sym);
    int k = o.slot;
    Feedback& f = c->feedback[o.fb];
    int i = ++sp[-1].u.ival;
    if (i >= sp[-2].u.ival) {
        if (sp[-3].u.sxpval != nil) decRefcnt(sp[-3].u.sxpval);
        pc = start + target;
        NEXT();
    }
    f.hit();
    SYNC();
    SEXP seq = sp[-3].u.sxpval;
    int step = sp[-2].flags;
    SEXP cell = cachedCell(cache, k, sym, env);
    if (cell && plainWritableCell(cell)) {
        // Reuse the previous loop value when only this binding refers to it
        // (GNU R's ALLOC_LOOP_VAR does the same).
        SEXP old = fcar(cell);
        InPlaceScope scope = inPlaceScope(frame, userBase, &belowMemo, sp - 3);
        if (step) {
            if (simpleScalar(old, INTSXP) && mayModifyInPlace(old, scope)) {
                *static_cast<int*>(fdata(old)) = sp[-1].flags + i * step;
                hdr(cell)->gp &= ~kMissingMask;
                NEXT();
            }
        } else {
            int t = ftype(seq);
            if ((t == INTSXP || t == REALSXP || t == LGLSXP) && simpleScalar(old, t) &&
                mayModifyInPlace(old, scope)) {
                if (t == REALSXP)
                    *static_cast<double*>(fdata(old)) = REAL_ELT(seq, i);
                else if (t == INTSXP)
                    *static_cast<int*>(fdata(old)) = INTEGER_ELT(seq, i);
                else
                    *static_cast<int*>(fdata(old)) = LOGICAL_ELT(seq, i);
                hdr(cell)->gp &= ~kMissingMask;
                NEXT();
            }
        }
    }
    SEXP v = step ? Rf_ScalarInteger(sp[-1].flags + i * step) : elementOf(seq, i);
    // (a new integer or double; a list's element is not, and a logical may
    // be one of R's shared TRUE/FALSE/NA)
    if (step || ftype(seq) == INTSXP || ftype(seq) == REALSXP) noteFresh(v, belowMemo);
    PUSH(v);
    SYNC();
    bindLocal(cache, k, cell, sym, v, env, base, sp - 1);
    --sp;
    NEXT();
}
L_subset : {
    DECODE(subset);
    int kind = o.kind;
    int n = o.nidx;
    CallSite& cs = c->calls[o.site];
    Feedback& f = c->feedback[o.fb];
    SEXP x = AT(n);
    SYNC();
    recordType(f, x);
    SEXP r = nullptr;
    SEXP scr = cs.scratch ? scratch[cs.scratch - 1].u.sxpval : nullptr;
    if (scr == nil) scr = nullptr;
    if (n == 1 && cs.args[0].tag == R_NilValue) {
        if (ftype(x) == ENVSXP)  // (e[["name"]]: an active binding, a promise)
            WHILE_HELD(sp - n - 1, r = subsetQuick(kind, x, TOP(), scr));
        else
            r = subsetQuick(kind, x, TOP(), scr);
    } else if (n == 2 && cs.args[0].tag == R_NilValue && cs.args[1].tag == R_NilValue)
        r = fastMatrixSubset(x, AT(1), TOP(), scr);
    if (r) KEEP_SCRATCH(cs, r, scr);
    if (!r) {
        // the argument list is protected as GNU R's callers protect it
        SEXP args = PROTECT(slotsToArgs(sp - n - 1, n + 1, cs.args, 1));
        SEXP call = POOL(cs.ast);
        setTrampolineExpr(tramp, call);
        const void* vmax = vmaxget();
        WHILE_HELD(sp - n - 1,  // (a method may run)
                   r = subsetDefaultFun(kind)(call, subsetDefault(kind), args, env));
        vmaxset(vmax);
        UNPROTECT(1);
    }
    if (!simpleScalar(r, REALSXP) && !simpleScalar(r, INTSXP) && !simpleScalar(r, LGLSXP))
        f.types |= kSubsetNotScalar;
    sp -= n + 1;
    PUSH(r);
    R_Visible = TRUE;
    NEXT();
}
L_subset_var : {
    DECODE(subset_var);
    int target = o.target;
    SEXP xsym = POOL(o.xsym);
    int xk = o.xslot;
    int ikind = o.ikind;
    int ia = o.i;
    int ik = o.islot;
    int kind = o.kind;
    CallSite& cs = c->calls[o.site];
    Feedback& f = c->feedback[o.fb];
    SEXP x = peekLocal(cache, xk, xsym, env);
    if (!x || fobject(x)) NEXT();
    SEXP i = ikind == insn::kFromVariable ? peekLocal(cache, ik, POOL(ia), env) : POOL(ia);
    if (!i) NEXT();
    SEXP scr = cs.scratch ? scratch[cs.scratch - 1].u.sxpval : nullptr;
    if (scr == nil) scr = nullptr;
    SEXP r = nullptr;
    SexpHeader* hx = hdr(x);
    if (hx->type == REALSXP && !hx->alt && (kind == 2 || hx->attrib == nil)) {
        // the numeric-loop case inline: a double element of a plain vector
        R_xlen_t idx = scalarIndex(i, flength(x));
        if (idx < 0) NEXT();
        double d = static_cast<double*>(fdata(x))[idx];
        f.types |= TB_REAL | TB_VECTOR;
        if (scr && reusable(scr, REALSXP)) {
            *static_cast<double*>(fdata(scr)) = d;
            r = scr;
        } else {
            SYNC();
            r = Rf_ScalarReal(d);
            if (cs.scratch) scratch[cs.scratch - 1].u.sxpval = r;
        }
        PUSH(r);
        R_Visible = TRUE;
        pc = start + target;
        NEXT();
    }
    r = fastSubset(kind, x, i, scr);
    if (!r) NEXT();
    recordType(f, x);
    KEEP_SCRATCH(cs, r, scr);
    PUSH(r);
    R_Visible = TRUE;
    pc = start + target;
    NEXT();
}
L_subset_var2 : {
    DECODE(subset_var2);
    int target = o.target;
    SEXP xsym = POOL(o.xsym);
    int xk = o.xslot;
    int ik = o.ikind, ia = o.i, islot = o.islot;
    int jk = o.jkind, ja = o.j, jslot = o.jslot;
    CallSite& cs = c->calls[o.site];
    Feedback& f = c->feedback[o.fb];
    SEXP x = peekLocal(cache, xk, xsym, env);
    if (!x) NEXT();
    SEXP i = ik == insn::kFromVariable ? peekLocal(cache, islot, POOL(ia), env) : POOL(ia);
    SEXP j = jk == insn::kFromVariable ? peekLocal(cache, jslot, POOL(ja), env) : POOL(ja);
    if (!i || !j) NEXT();
    R_xlen_t k = matrixIndex(x, i, j);  // (objects excluded)
    if (k < 0) NEXT();
    SEXP scr = cs.scratch ? scratch[cs.scratch - 1].u.sxpval : nullptr;
    if (scr == nil) scr = nullptr;
    SEXP r;
    if (hdr(x)->type == REALSXP && scr && reusable(scr, REALSXP)) {
        // the numeric-loop case inline
        *static_cast<double*>(fdata(scr)) = static_cast<double*>(fdata(x))[k];
        r = scr;
    } else {
        SYNC();
        r = boxElement(x, k, scr);
        if (!r) NEXT();
    }
    recordType(f, x);
    KEEP_SCRATCH(cs, r, scr);
    PUSH(r);
    R_Visible = TRUE;
    pc = start + target;
    NEXT();
}
L_dollar : {
    DECODE(dollar);
    SEXP name = POOL(o.name);
    SEXP nameSym = POOL(o.nameSym);
    SEXP call = POOL(o.call);
    Feedback& f = c->feedback[o.fb];
    SEXP x = TOP();
    recordType(f, x);
    SYNC();
    // (what the optimizer speculates on: see dollarPlain)
    SEXP r = f.types & kDollarNotPlain ? nullptr : dollarPlain(x, name, nameSym);
    if (!r) {
        f.types |= kDollarNotPlain;
        // a promise in an environment, a method
        WHILE_HELD(sp - 1, r = dollarDefault(x, name, nameSym); if (!r) r = Rf_eval(call, env));
    }
    sp[-1].u.sxpval = r;
    R_Visible = TRUE;
    NEXT();
}
L_subassign : {
    DECODE(subassign);
    int kind = o.kind;
    SEXP xsym = POOL(o.xsym);
    int slot = o.xslot;  // binding-cache slot of x
    SEXP call = POOL(o.call);
    int nidx = o.nidx;
    SEXP setter = POOL(o.setter);
    Feedback& f = c->feedback[o.fb];
    bool pushedX = kind & kPushedX;
    SEXP v = AT(nidx + pushedX);
    SEXP i = nidx == 1 ? TOP() : AT(1);
    SEXP j = nidx == 2 ? TOP() : nullptr;
    SYNC();
    recordType(f, v);
    InPlaceScope scope = inPlaceScope(frame, userBase, &belowMemo, sp - (1 + nidx + pushedX));
    // The common case first: a double or integer scalar stored at an in-range
    // scalar index of an unshared plain double/integer vector bound locally
    // (x[i] <- v in numeric loops); everything else below.
    if (!(kind & (kSuperAssign | kPushedX))) {
        SEXP cell = cache[slot].u.sxpval;
        unsigned char kv = headerByte(v);
        if (cell != nil && fattrib(v) == nil &&
            (kv == (REALSXP | kScalarBit) || kv == (INTSXP | kScalarBit)) &&
            storeScalarElement(cell, i, j, kv, kv == (REALSXP | kScalarBit) ? fdval(v) : 0,
                               kv == (INTSXP | kScalarBit) ? fival(v) : 0, scope)) {
            sp -= 1 + nidx;
            NEXT();
        }
    }
    SEXP known = (kind & kSuperAssign) ? nullptr : cachedCell(cache, slot, xsym, env, nil);
    // (what the optimizer speculates on: see plainLocalVector)
    if (!(f.types & kSubassignNotPlain) && (!known || !plainLocalVector(xsym, env, known)))
        f.types |= kSubassignNotPlain;
    WHILE_HELD(sp - (1 + nidx + pushedX),  // (a method, the setter of a class)
               subassignSlow(kind, xsym, env, pushedX ? AT(nidx) : nullptr, i, j, v, setter, tramp,
                             scope, call, known));
    sp -= 1 + nidx + pushedX;
    NEXT();
}
L_dollar_assign : {
    DECODE(dollar_assign);
    int fail = o.fail;
    SEXP xsym = POOL(o.xsym);
    SEXP name = POOL(o.name);
    SEXP nameSym = POOL(o.nameSym);
    SEXP call = POOL(o.call);
    Feedback& f = c->feedback[o.fb];
    SEXP v = TOP();
    SYNC();
    recordType(f, v);
    InPlaceScope scope = inPlaceScope(frame, userBase, &belowMemo, sp - 1);
    // (what the optimizer speculates on: see dollarAssignPlain)
    bool done =
        !(f.types & kDollarNotPlain) && dollarAssignPlain(env, xsym, name, nameSym, v, scope);
    if (!done) {
        f.types |= kDollarNotPlain;
        WHILE_HELD(sp - 1,  // (x a promise)
                   done = dollarAssignLocal(env, xsym, name, nameSym, v, tramp, scope));
    }
    (void)call;
    if (!done) {
        // the general complex assignment at `fail` (v stays on the stack)
        f.types |= kDollarGeneral;
        pc = start + fail;
        NEXT();
    }
    --sp;
    NEXT();
}
L_br_obj : {
    DECODE(br_obj);
    int target = o.target;
    if (fobject(TOP())) pc = start + target;
    NEXT();
}
    COLD_INSN(subset_obj) {
        DECODE(subset_obj);
        int kind = o.kind;
        SEXP call = POOL(o.call);
        SEXP x = TOP();
        SYNC();
        SEXP op = subsetDefault(kind);
        SEXP prom = R_mkEVPROMISE(CADR(call), x);
        PUSH(prom);
        SYNC();
        SEXP args = Rf_cons(prom, CDDR(call));
        PUSH(args);
        SYNC();
        setTrampolineExpr(tramp, call);
        const void* vmax = vmaxget();
        SEXP r;
        WHILE_HELD(sp - 3, r = primFun(op)(call, op, args, env));  // (a method runs)
        vmaxset(vmax);
        sp -= 2;
        sp[-1].u.sxpval = r;
        R_Visible = TRUE;
        NEXT();
    }
    COLD_INSN(env_subassign) {
        DECODE(env_subassign);
        int kind = o.kind;
        SEXP xsym = POOL(o.xsym);
        SEXP nameSym = POOL(o.nameSym);
        SEXP call = POOL(o.call);
        Feedback& f = c->feedback[o.fb];
        SEXP i = TOP(), v = AT(1);
        SYNC();
        recordType(f, v);
        WHILE_HELD(sp - 2, envSubassign(kind, xsym, nameSym, call, v, i, env, tramp,
                                        inPlaceScope(frame, userBase, &belowMemo, sp - 2),
                                        inPlaceScope(frame, userBase, &belowMemo, sp - 2)));
        sp -= 2;
        NEXT();
    }
L_count_arg : {
    incRefcnt(TOP());
    sp[-1].flags = kCountedArg;
    NEXT();
}
L_call_builtin : {
    DECODE(call_builtin);
    int n = o.nargs;
    CallSite& cs = c->calls[o.site];
    SEXP fun = POOL(o.fun);
    Feedback& f = c->feedback[o.fb];
    f.hit();
    SYNC();
    // the arguments counted while later ones were evaluated: released
    // before the call (as GNU R's byte code does)
    for (NodeStackSlot* a = sp - n; a < sp - 1; a++)
        if (a->flags == kCountedArg) {
            a->flags = 0;
            decRefcnt(a->u.sxpval);
        }
    if (n == 1 && cs.args[0].tag == R_NilValue) {
        SEXP scr = cs.scratch ? scratch[cs.scratch - 1].u.sxpval : nullptr;
        SEXP r = fastMath1(fun, TOP(), scr == nil ? nullptr : scr);
        if (r) {
            if (cs.scratch && r != scr && frefcnt(r) == 0 && ftype(r) == REALSXP)
                scratch[cs.scratch - 1].u.sxpval = r;
            sp[-1].u.sxpval = r;
            R_Visible = TRUE;
            NEXT();
        }
    }
    SEXP args = slotsToArgs(sp - n, n, cs.args, 0);
    SEXP r;
    WHILE_HELD(sp - n, r = callBuiltin(POOL(cs.ast), fun, args, env, tramp,
                                       cs.expr >= 0 ? POOL(cs.expr) : nullptr));
    recordType(f, r);
    sp -= n;
    PUSH(r);
    NEXT();
}
L_lgl_first : {
    DECODE(lgl_first);
    int kind = o.kind;
    int lEnd = o.end;
    int lSlow = o.slow;
    SEXP a = TOP();
    if (!simpleScalar(a, LGLSXP)) {
        pc = start + lSlow;
        NEXT();
    }
    int x = fival(a);
    if ((kind == 1 && x == FALSE) || (kind == 2 && x == TRUE)) {
        SYNC();  // values below a may not be published yet
        sp[-1].u.sxpval = lglScalar(x);
        R_Visible = TRUE;
        pc = start + lEnd;
    }
    NEXT();
}
L_lgl_second : {
    DECODE(lgl_second);
    int kind = o.kind;
    SEXP call = POOL(o.call);
    SEXP a = AT(1), b = TOP();
    SEXP r;
    if (simpleScalar(b, LGLSXP)) {
        int ans = lglCombine(kind, fival(a), fival(b));
        // an if/while condition: branch at once (see binop)
        const int32_t* nx = Op(*pc) == Op::br ? start + insn::br(pc + 1).target : pc;
        if (ans != NA_LOGICAL && Op(*nx) == Op::brfalse && insn::brfalse(nx + 1).call >= 0) {
            const insn::brfalse next(nx + 1);
            Feedback& bf = c->feedback[next.fb];
            bf.hit();
            sp -= 2;
            R_Visible = TRUE;
            if (ans) {
                pc = nx + 1 + insn::brfalse::kOperands;
            } else {
                bf.taken++;
                pc = start + next.target;
            }
            NEXT();
        }
        SYNC();
        r = lglScalar(ans);
    } else {
        SYNC();
        // the first promise stays protected while the second is allocated
        SEXP pa = PROTECT(R_mkEVPROMISE(CADR(call), a));
        SEXP pb = R_mkEVPROMISE(CADDR(call), b);
        r = logicSlow(kind, call, pa, pb, env, tramp);
        UNPROTECT(1);
    }
    sp -= 2;
    PUSH(r);
    R_Visible = TRUE;
    NEXT();
}
    COLD_INSN(lgl_slow) {
        DECODE(lgl_slow);
        int kind = o.kind;
        SEXP call = POOL(o.call);
        SEXP a = TOP();
        SYNC();
        // (the second operand's code runs)
        SEXP r;
        WHILE_HELD(sp - 1, r = logicSlow(kind, call, R_mkEVPROMISE(CADR(call), a), CADDR(call), env,
                                         tramp));
        sp[-1].u.sxpval = r;
        R_Visible = TRUE;
        NEXT();
    }
L_start_assign : {
    DECODE(start_assign);
    SEXP xsym = POOL(o.xsym);
    SYNC();
    SEXP x;
    WHILE_HELD(sp, x = startAssign(xsym, env, tramp));  // (x a promise)
    PUSH(x);
    NEXT();
}
L_switch_table : {
    DECODE(switch_table);
    // GNU R's SWITCH instruction (see compiler: switchCall)
    SEXP call = POOL(o.call);
    int namesIdx = o.names;
    SEXP names = namesIdx >= 0 ? POOL(namesIdx) : R_NilValue;
    int nchar = o.nchar;
    int nnum = o.nnum;
    const int32_t* table = pc;  // nchar + nnum `br` instructions
    SEXP value = TOP();
    SYNC();
    // (a warning of the coercion of EXPR names what GNU R's byte code
    // names for the switch: see getCurrentCall)
    setTrampolineExpr(tramp, call);
    int entry = switchEntry(call, names, nchar, nnum, value);
    --sp;
    pc = table + insn::kSwitchEntry * entry;
    NEXT();
}
    COLD_INSN(apply_internal) {
        DECODE(apply_internal);
        SEXP inner = POOL(o.inner);
        SEXP call = POOL(o.call);
        SYNC();
        SEXP r;
        WHILE_HELD(sp, r = runApplyInternal(inner, call, env, tramp));
        PUSH(r);
        NEXT();
    }
L_use_method : {
    DECODE(use_method);
    SEXP generic = POOL(o.generic);
    int nobj = o.nobj;
    SEXP call = POOL(o.call);
    SEXP obj = nobj ? TOP() : nullptr;
    SYNC();
    setTrampolineExpr(tramp, call);
    SEXP r = useMethod(call, generic, obj, env, tramp);
    if (r) {
        // the generic returns the method's value (GNU R jumps to its context)
        R_BCNodeStackTop = frame;
        return r;
    }
    // GNU R's UseMethod: dispatches and leaves the function with a jump,
    // or reports the error
    static SEXP useMethodFun = SYMVALUE(Rf_install("UseMethod"));
    setTrampolineExpr(tramp, call);
    R_Visible = TRUE;
    r = primFun(useMethodFun)(call, useMethodFun, CDR(call), env);
    sp -= nobj;
    PUSH(r);
    NEXT();
}
L_pick : {
    DECODE(pick);
    int k = o.depth;
    SEXP v = sp[-1 - k].u.sxpval;
    PUSH(v);
    NEXT();
}
    COLD_INSN(start_assign_super) {
        DECODE(start_assign_super);
        SEXP xsym = POOL(o.xsym);
        SEXP call = POOL(o.call);
        SYNC();
        SEXP x;
        WHILE_HELD(sp, x = startAssignSuper(xsym, call, env, tramp));
        PUSH(x);
        NEXT();
    }
    COLD_INSN(force_target_ast) {
        DECODE(force_target_ast);
        SYNC();
        WHILE_HELD(sp, forceTargetAst(POOL(o.xsym), POOL(o.call), o.super, env, tramp));
        NEXT();
    }
L_getter_call : {
    DECODE(getter_call);
    CallSite& cs = c->calls[o.site];
    Feedback& f = c->feedback[o.fb];
    SEXP fun = TOP();
    SEXP lhs = AT(1);
    SYNC();
    recordCallee(c, &f - c->feedback.data(), f, fun);
    SEXP r;
    WHILE_HELD(sp - 1, r = doAssignCall(c, cs, fun, env, tramp, lhs, nullptr, nullptr));
    sp[-1].u.sxpval = r;
    NEXT();
}
L_setter_call : {
    DECODE(setter_call);
    CallSite& cs = c->calls[o.site];
    SEXP vexpr = POOL(o.vexpr);
    // slots of this assignment from its target's value up; +kSetterSuper for <<-
    int below = o.below;
    bool super = below & kSetterSuper;
    below &= ~kSetterSuper;
    Feedback& f = c->feedback[o.fb];
    SEXP fun = TOP();
    SEXP rhs = AT(1);
    SEXP lhs = AT(2);
    SYNC();
    recordCallee(c, &f - c->feedback.data(), f, fun);
    // The target is modified in place unless something else refers to it:
    // counted references (GNU R's MAYBE_SHARED) or an operand slot below the
    // assignment (inplace.h); otherwise the setter gets a copy.
    InPlaceScope scope = inPlaceScope(frame, userBase, &belowMemo, sp - below);
    if (frefcnt(lhs) > 1 || scope.heldOnStack(lhs)) {
        lhs = Rf_shallow_duplicate(lhs);
        sp[-3].u.sxpval = lhs;
    }
    // (the slots of this assignment stay uncounted: the target is updated
    // in place when nothing else refers to it)
    NodeStackSlot* heldTo = sp - below;
    if (heldTo > base && uncountedValueSlot(fun, lhs, rhs, vexpr, heldTo)) heldTo--;
    SEXP r;
    WHILE_HELD(heldTo, r = doAssignCall(c, cs, fun, env, tramp, lhs, rhs, vexpr));
    sp -= 2;
    sp[-1].u.sxpval = r;
    NEXT();
}
L_end_assign : {
    DECODE(end_assign);
    SEXP sym = POOL(o.sym);
    int k = o.slot;
    bool super = o.super;
    SEXP v = TOP();
    SYNC();
    if (super) {
        WHILE_HELD(sp - 1, Rf_setVar(sym, v, ENCLOS(env)));  // (an active binding)
    } else {
        bindLocal(cache, k, cachedCell(cache, k, sym, env, nil), sym, v, env, base, sp - 1);
    }
    --sp;
    NEXT();
}
L_guard_fun : {
    DECODE(guard_fun);
    // GNU R's BASEGUARD: the inlined code below assumed that the symbol
    // names this function; if it names another one now, the call runs as
    // an ordinary call (GNU R evaluates the call AST).
    SEXP sym = POOL(o.sym);
    SEXP expected = POOL(o.fun);
    SEXP call = POOL(o.call);
    int label = o.target;
    SYNC();
    bool same;
    WHILE_HELD(sp, same = stillNames(sym, expected, env, call, tramp));  // (a promise's code)
    if (!same) {
        SEXP r;
        WHILE_HELD(sp, r = Rf_eval(call, env));
        PUSH(r);
        pc = start + label;
    }
    NEXT();
}
    COLD_INSN(loop_body) {
        DECODE(loop_body);
        int target = o.target;
        Code* body = Code::unpack(POOL(o.body));
        SYNC();
        // (its own activation holds only its own operands)
        bool ended;
        WHILE_HELD(sp, ended = runLoopBody(body, env, tramp));
        if (ended) pc = start + target;
        NEXT();
    }
L_ret:
    res = TOP();
    R_BCNodeStackTop = frame;
    return res;
}

}  // namespace rir
