// helpers.cpp — the runtime helpers of native code (see helpers.h). Each
// reuses the RIR interpreter's own routines for its operation.
#include "helpers.h"

#include <cmath>
#include <cstring>

#include "../bc/apply_internals.h"
#include "../bc/calls.h"
#include "../bc/direct_call.h"
#include "../bc/for_loop.h"
#include "../bc/inplace.h"
#include "../bc/interp.h"
#include "../bc/math_fast.h"
#include "../bc/ops.h"
#include "../bc/promises.h"
#include "../bc/s3_dispatch.h"
#include "../bc/subassign.h"
#include "../bc/subset.h"
#include "../bc/switch.h"
#include "../bc/verifier.h"
#include "../pir/ir.h"
#include "../runtime/dispatch_table.h"
#include "../runtime/r_messages.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "native.h"

namespace rir {
namespace native {

namespace {

// A version that deoptimized this often loses its native code (the RIR
// baseline runs it from then on).

SEXP primitiveOf(ArithOp op) {
    static SEXP prims[int(ArithOp::Not) + 1] = {nullptr};
    SEXP& p = prims[int(op)];
    if (!p) p = SYMVALUE(Rf_install(opName(op)));
    return p;
}

// Makes x count as referenced when it is used again, so that GNU R's
// arithmetic does not take it for a temporary it may overwrite.
void keepOperand(SEXP x, bool keep) {
    if (keep && frefcnt(x) == 0) incRefcnt(x);
}

}  // namespace

extern "C" {

NodeStackSlot* rirn_enter(int n) {
    checkCStack();  // (deep recursion: R's error, as from the interpreter)
    NodeStackSlot* base = R_BCNodeStackTop;
    if (base + n + 16 > R_BCNodeStackEnd) Rf_error(_("node stack overflow"));
    for (int k = 0; k < n; k++) {
        base[k].tag = 0;
        base[k].flags = 0;
        base[k].u.sxpval = R_NilValue;
    }
    R_BCNodeStackTop = base + n;
    return base;
}

void rirn_leave(NodeStackSlot* base) {
    R_BCNodeStackTop = base;
}

SEXP rirn_ldarg(SEXP env, SEXP sym) {
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    return cell && cell != R_NilValue ? CAR(cell) : R_MissingArg;
}

SEXP rirn_enclos(SEXP env) {
    return ENCLOS(env);
}

SEXP rirn_ldvar(SEXP sym, SEXP env, SEXP tramp, SEXP expr, NodeStackSlot* frame, const int* hold) {
    // (an active binding on the way runs R code)
    holdLive(frame, hold);
    SEXP v = Rf_findVar(sym, env);
    releaseLive(frame, hold);
    if (v != R_UnboundValue && v != R_MissingArg) return v;
    // the errors of the RIR interpreter's lookup (getVariable)
    setTrampolineExpr(tramp, expr ? expr : sym);
    if (v == R_MissingArg)
        Rf_error(_("argument \"%s\" is missing, with no default"), CHAR(PRINTNAME(sym)));
    Rf_error(_("object '%s' not found"), CHAR(PRINTNAME(sym)));
}

SEXP rirn_force(SEXP v, SEXP sym, SEXP tramp) {
    if (ftype(v) != PROMSXP) return v;
    SEXP pv = fprvalue(v);
    if (pv != R_UnboundValue) return pv;
    if (sym) setTrampolineExpr(tramp, sym);
    return forcePromise(v, tramp);
}

void rirn_stvar(SEXP sym, SEXP v, SEXP env, NodeStackSlot* frame, const int* hold) {
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    if (!storeInCell(cell == R_NilValue ? nullptr : cell, v)) {
        holdLive(frame, hold);  // (an active binding's function runs)
        Rf_defineVar(sym, v, env);
        releaseLive(frame, hold);
    }
}

// The own-frame binding cell of sym: the cached one, else looked up (the
// caller decides whether to cache it); nullptr when there is none.
static SEXP frameCell(SEXP sym, SEXP env, SEXP* cache) {
    if (*cache != R_NilValue) return *cache;
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    return !cell || cell == R_NilValue ? nullptr : cell;
}

SEXP rirn_ldvar_cell(SEXP sym, SEXP env, SEXP tramp, SEXP expr, SEXP* cache, char* dirty,
                     NodeStackSlot* frame, const int* hold) {
    SEXP cell = frameCell(sym, env, cache);
    if (!cell) return rirn_ldvar(sym, env, tramp, expr, frame, hold);
    *cache = cell;
    if (plainCell(cell)) {
        SEXP x = fcar(cell);
        if (x == R_UnboundValue)
            *cache = R_NilValue;
        else if (x != R_MissingArg)
            return x;
    }
    // (an active binding's function may change the frame, and what the
    // optimizer knows of x is not its value: the next checkpoint looks)
    if (hdr(cell)->gp & kActiveBinding) *dirty = 1;
    return rirn_ldvar(sym, env, tramp, expr, frame, hold);
}

void rirn_stvar_cell(SEXP sym, SEXP v, SEXP env, SEXP* cache, char* dirty, NodeStackSlot* frame,
                     const int* hold) {
    SEXP cell = frameCell(sym, env, cache);
    if (storeInCell(cell, v)) {
        *cache = cell;
        return;
    }
    // (an active binding: its function runs, and x's value is not v)
    if (cell && (hdr(cell)->gp & kActiveBinding)) *dirty = 1;
    holdLive(frame, hold);
    Rf_defineVar(sym, v, env);
    releaseLive(frame, hold);
    *cache = R_NilValue;
}

// The cell of own-environment variable sym (cached), or nullptr when it
// has none or its value is not an ordinary pointer.
static SEXP plainCellOf(SEXP sym, SEXP env, SEXP* cache) {
    SEXP cell = frameCell(sym, env, cache);
    if (!cell) return nullptr;
    *cache = cell;
    if (!plainCell(cell)) return nullptr;
    return cell;
}

int rirn_binding_is(SEXP sym, SEXP env, SEXP v, SEXP* cache) {
    SEXP cell = plainCellOf(sym, env, cache);
    if (!cell) return 0;
    SEXP x = fcar(cell);
    // (a double stored in place of the previous one: an equal value)
    return x == v || (simpleScalar(v, REALSXP) && simpleScalar(x, REALSXP) &&
                      std::memcmp(fdata(x), fdata(v), sizeof(double)) == 0);
}

// Does the frame hold no active binding? (a hashed frame: not known, no)
int rirn_no_active_bindings(SEXP env) {
    // (an environment's frame is its CAR, its hash table its TAG)
    if (ftag(env) != R_NilValue) return 0;
    for (SEXP c = fcar(env); c != R_NilValue; c = fcdr(c))
        if (hdr(c)->gp & kActiveBinding) return 0;
    return 1;
}

int rirn_binding_is_real(SEXP sym, SEXP env, double x, SEXP* cache) {
    SEXP cell = plainCellOf(sym, env, cache);
    if (!cell || !simpleScalar(fcar(cell), REALSXP)) return 0;
    return std::memcmp(fdata(fcar(cell)), &x, sizeof(double)) == 0;
}

int rirn_binding_is_int(SEXP sym, SEXP env, int x, SEXP* cache) {
    SEXP cell = plainCellOf(sym, env, cache);
    return cell && simpleScalar(fcar(cell), INTSXP) && *static_cast<int*>(fdata(fcar(cell))) == x;
}

// The own-environment cell of sym (cached in *cache), or nullptr.
static SEXP ownCell(SEXP sym, SEXP env, SEXP* cache) {
    SEXP cell = frameCell(sym, env, cache);
    if (cell) *cache = cell;
    return cell;
}

int rirn_plain_local(SEXP sym, SEXP env, SEXP* cache) {
    SEXP cell = ownCell(sym, env, cache);
    return cell && plainLocalVector(sym, env, cell);
}

// What in-place updates must leave alone: the values of the frame's live
// slots (inplace.h's rule, with them as the operand stack), copied into the
// calling helper's stack frame (hence a macro: alloca).
#define RIRN_HELD_SLOTS(scope, frame, live, nlive)                                                \
    NodeStackSlot* scope##Held =                                                                  \
        (nlive) ? static_cast<NodeStackSlot*>(alloca((nlive) * sizeof(NodeStackSlot))) : nullptr; \
    for (int k_ = 0; k_ < (nlive); k_++) scope##Held[k_] = (frame)[(live)[k_]];                   \
    InPlaceScope scope {                                                                          \
        scope##Held, scope##Held + (nlive)                                                        \
    }

// Where values of a binding outside the function's own frame can be held
// uncounted: any caller's operand slots (the node stack below this frame's
// slots, which do not change while the frame runs: asked through the
// activation's memo) and this frame's live ones (as the interpreter's scope
// is the node stack below the instruction's operands).
static InPlaceScope othersAndLive(NodeStackSlot* frame, const InPlaceScope& live, BelowMemo* memo) {
    InPlaceScope s{live.lo, live.hi};
    s.below = memo;
    s.belowEnd = frame;
    return s;
}

// x[i] <- v / x[i, j] <- v after the common scalar store did not apply
static void subassignGeneral(int kind, SEXP xsym, SEXP env, SEXP v, SEXP i, SEXP j, SEXP setter,
                             SEXP call, SEXP tramp, SEXP cell, const InPlaceScope& scope,
                             char* dirty) {
    // (R code runs when x is an unevaluated promise or GNU R's `[<-` does it)
    if (!cell || ftype(fcar(cell)) == PROMSXP) *dirty = 1;
    if (fastSubassign(kind, xsym, env, i, j, v, tramp, scope, cell)) return;
    *dirty = 1;
    if (!dfltSubassign(kind, xsym, env, i, j, v, setter, tramp, scope, call))
        assignByGnuR(call, v, j ? 2 : 1, i, j, env);
}

// x's value after an element store: its binding's (an active binding's is
// not read: R_NilValue, and the frame counts as changed, so that the next
// checkpoint's confirmation of x leaves for the interpreter).
static SEXP valueAfter(SEXP xsym, SEXP env, SEXP* cache, char* dirty) {
    // (R code that ran may have removed x's binding and made a new one)
    if (*dirty) *cache = R_NilValue;
    SEXP cell = ownCell(xsym, env, cache);
    if (cell && plainCell(cell)) return fcar(cell);
    *dirty = 1;
    if (!cell || (hdr(cell)->gp & kActiveBinding)) return R_NilValue;
    return Rf_findVarInFrame3(env, xsym, TRUE);
}

SEXP rirn_subassign(int kind, SEXP xsym, SEXP env, SEXP v, SEXP i, SEXP j, SEXP setter, SEXP call,
                    SEXP tramp, SEXP* cache, NodeStackSlot* frame, const int* live, int nlive,
                    char* dirty) {
    RIRN_HELD_SLOTS(scope, frame, live, nlive);
    SEXP cell = ownCell(xsym, env, cache);
    // the common case first (as the interpreter's subassign)
    unsigned char kv = headerByte(v);
    if (cell && fattrib(v) == R_NilValue &&
        (kv == (REALSXP | kScalarBit) || kv == (INTSXP | kScalarBit)) &&
        storeScalarElement(cell, i, j, kv, kv == (REALSXP | kScalarBit) ? fdval(v) : 0,
                           kv == (INTSXP | kScalarBit) ? fival(v) : 0, scope))
        return fcar(cell);
    subassignGeneral(kind, xsym, env, v, i, j, setter, call, tramp, cell, scope, dirty);
    return valueAfter(xsym, env, cache, dirty);
}

SEXP rirn_subassign_real(int kind, SEXP xsym, SEXP env, double v, SEXP i, SEXP j, SEXP setter,
                         SEXP call, SEXP tramp, SEXP* cache, NodeStackSlot* frame, const int* live,
                         int nlive, char* dirty) {
    RIRN_HELD_SLOTS(scope, frame, live, nlive);
    SEXP cell = ownCell(xsym, env, cache);
    if (cell && storeScalarElement(cell, i, j, REALSXP | kScalarBit, v, 0, scope))
        return fcar(cell);
    SEXP boxed = PROTECT(rirn_box_real(v));
    subassignGeneral(kind, xsym, env, boxed, i, j, setter, call, tramp, cell, scope, dirty);
    UNPROTECT(1);
    return valueAfter(xsym, env, cache, dirty);
}

void rirn_starg_default(SEXP sym, SEXP promise, SEXP env) {
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    if (!cell || cell == R_NilValue) {
        Rf_defineVar(sym, promise, env);
        return;
    }
    SETCAR(cell, promise);
    hdr(cell)->gp = (hdr(cell)->gp & ~kMissingMask) | 1;  // still missing(), as GNU R
}

SEXP rirn_mkarg(SEXP code, SEXP env) {
    SEXP p = mkPromise(code, env);
    // (a symbol default's promise is marked too: it is never among a call's
    // arguments, where the mark is read)
    if (TYPEOF(code) == SYMSXP) markCompiledArg(p);
    return p;
}

// GNU R's operator on one or two operands (b: nullptr for unary ones).
static SEXP arithByGnuR(ArithOp o, SEXP a, SEXP b, SEXP call, SEXP env, SEXP tramp, int keep) {
    keepOperand(a, keep & 1);
    if (b) keepOperand(b, keep & 2);
    SEXP prim = primitiveOf(o);
    SEXP args = PROTECT(consNR(a, b ? consNR(b, R_NilValue) : R_NilValue));
    setTrampolineExpr(tramp, call);
    const void* vmax = vmaxget();
    SEXP r = primFun(prim)(call, prim, args, env);
    vmaxset(vmax);
    UNPROTECT(1);
    return r;
}

// Does a live slot of the frame hold x?
static bool heldLive(SEXP x, const NodeStackSlot* frame, const int* live, int nlive) {
    for (int k = 0; k < nlive; k++)
        if (frame[live[k]].u.sxpval == x) return true;
    return false;
}

void rirn_hold(NodeStackSlot* frame, const int* live, int nlive, int copies) {
    NodeStackSlot* copy = frame + copies;
    for (int k = 0; k < nlive; k++) {
        copy[k].u.sxpval = frame[live[k]].u.sxpval;
        countSlot(&copy[k], true);
    }
}

void rirn_release(NodeStackSlot* frame, int nlive, int copies) {
    NodeStackSlot* copy = frame + copies;
    for (int k = 0; k < nlive; k++) {
        countSlot(&copy[k], false);
        copy[k].u.sxpval = R_NilValue;
    }
}

void holdLive(NodeStackSlot* frame, const int* hold) {
    if (hold[0]) rirn_hold(frame, hold + 2, hold[0], hold[1]);
}

void releaseLive(NodeStackSlot* frame, const int* hold) {
    if (hold[0]) rirn_release(frame, hold[0], hold[1]);
}

SEXP rirn_binop(int op, SEXP a, SEXP b, SEXP call, SEXP env, SEXP tramp, int keep, SEXP scratch,
                char* dirty, NodeStackSlot* frame, const int* live, int nlive) {
    if (!(keep & 1) && frefcnt(a) == 0 && heldLive(a, frame, live, nlive)) keep |= 1;
    if (!(keep & 2) && frefcnt(b) == 0 && heldLive(b, frame, live, nlive)) keep |= 2;
    SEXP r = fastBinop(ArithOp(op), a, b, nullptr, scratch, keep);
    if (!r) {
        *dirty = 1;  // (GNU R's arithmetic may dispatch to R code)
        r = arithByGnuR(ArithOp(op), a, b, call, env, tramp, keep);
    }
    R_Visible = TRUE;
    return r;
}

void rirn_note_overflow(SEXP a, SEXP b, SEXP r, Feedback* fb) {
    auto intNA = [](SEXP x) {
        return TYPEOF(x) == INTSXP && XLENGTH(x) == 1 && INTEGER(x)[0] == NA_INTEGER;
    };
    if (intNA(r) && !intNA(a) && !intNA(b)) fb->types |= kArithOverflowed;
}

SEXP rirn_unop(int op, SEXP a, SEXP call, SEXP env, SEXP tramp, int keep, NodeStackSlot* frame,
               const int* live, int nlive) {
    if (!keep && frefcnt(a) == 0 && heldLive(a, frame, live, nlive)) keep = 1;
    SEXP r = fastUnop(ArithOp(op), a, keep);
    if (!r) r = arithByGnuR(ArithOp(op), a, nullptr, call, env, tramp, keep);
    R_Visible = TRUE;
    return r;
}

int rirn_astest(SEXP v, SEXP call) {
    return condition(v, call);
}

int rirn_kind_test(SEXP f, SEXP x) {
    return pir::kindTestHolds(*pir::kindTestOf(f), x);
}

int rirn_istype(SEXP v, int kinds, int flags) {
    // the common speculation: a plain scalar of one type, read from the
    // header (no R call)
    using pir::Flag;
    using pir::Kind;
    const int shape = int(Flag::NotScalar) | int(Flag::Attrib) | int(Flag::Object) |
                      int(Flag::Lazy) | int(Flag::Missing);
    if (!(flags & shape)) {
        int t = kinds == int(Kind::Real)  ? REALSXP
                : kinds == int(Kind::Int) ? INTSXP
                : kinds == int(Kind::Lgl) ? LGLSXP
                                          : -1;
        if (t >= 0) {
            if (!simpleScalar(v, t)) return 0;
            if (flags & int(Flag::NA)) return 1;
            return t == REALSXP ? !std::isnan(fdval(v)) : fival(v) != NA_INTEGER;
        }
    }
    return pir::constantType(v).isSubtypeOf(pir::PirType(uint16_t(kinds), uint8_t(flags)));
}

SEXP rirn_eval(SEXP e, SEXP env) {
    stats.ast_evals++;
    return Rf_eval(e, env);
}

SEXP rirn_ldfun(SEXP sym, SEXP env, SEXP call, SEXP tramp, char* dirty) {
    return findFunction(sym, env, call, tramp, dirty);
}

int rirn_still_names(SEXP sym, SEXP expected, SEXP env, SEXP call, SEXP tramp, char* dirty) {
    return stillNames(sym, expected, env, call, tramp, dirty);
}

int rirn_still_names_without_r(SEXP sym, SEXP expected, SEXP env) {
    return stillNamesWithoutR(sym, expected, env);
}

int rirn_lazy_value(SEXP v) {
    return lazyValue(v);
}

// fun is the closure clo, with the environment it had when the code was
// compiled (env), and not being debugged
int rirn_is_callee(SEXP fun, SEXP clo, SEXP env) {
    return fun == clo && fcloenv(fun) == env && !hdr(fun)->debug && !hdr(fun)->spare;
}

SEXP rirn_call_site(Code* code, int site, SEXP fun, SEXP env, SEXP tramp) {
    return doCall(code, code->calls[site], fun, env, tramp);
}

SEXP rirn_call_site_eager(Code* code, int site, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager) {
    return doCall(code, code->calls[site], fun, env, tramp, eager);
}

SEXP rirn_static_call(Code* code, int site, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager,
                      uint64_t ctx) {
    return staticCall(code, code->calls[site], fun, env, tramp, eager, Context(ctx));
}

int rirn_chaos() {
    if (tiering.chaos <= 0) return 0;
    // xorshift64: deterministic for a seed
    uint64_t x = tiering.chaosState;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    tiering.chaosState = x;
    return double(x % 1000000) < 1000000.0 / tiering.chaos;
}

SEXP rirn_call_builtin(Code* code, int site, SEXP fun, SEXP env, SEXP tramp, const SEXP* args,
                       int n, int counted, char* dirty) {
    const CallSite& cs = code->calls[site];
    // R code runs in a builtin only through dispatch on an object argument,
    // foreign code or S4's standardGeneric
    bool runsCode = primRow(fun).ppkind == PP_FOREIGN || isStandardGeneric(fun);
    for (int k = 0; k < n && !runsCode; k++) runsCode = fobject(args[k]);
    if (runsCode) *dirty = 1;
    for (int k = 0; k < n; k++)
        if (counted & (1 << k)) decRefcnt(args[k]);
    // one unnamed argument: the interpreter's math1 path first (GNU R's
    // byte code computes these without the builtin, e.g. no warning for
    // sqrt(-1L))
    if (n == 1 && cs.args.size() == 1 && cs.args[0].tag == R_NilValue) {
        SEXP r = fastMath1(fun, args[0]);
        if (r) {
            R_Visible = TRUE;
            return r;
        }
    }
    SEXP list = R_NilValue;
    PROTECT_INDEX ipx;
    PROTECT_WITH_INDEX(list, &ipx);
    for (int k = n - 1; k >= 0; k--) {
        REPROTECT(list = consNR(args[k], list), ipx);
        if (size_t(k) < cs.args.size()) SET_TAG(list, cs.args[k].tag);
    }
    SEXP r = callBuiltin(code->poolAt(cs.ast), fun, list, env, tramp,
                         cs.expr >= 0 ? code->poolAt(cs.expr) : nullptr);
    UNPROTECT(1);
    return r;
}

void rirn_count(SEXP v) {
    incRefcnt(v);
}

int rirn_is_plain_member(SEXP x, SEXP name, SEXP nameSym) {
    return dollarPlain(x, name, nameSym) != nullptr;
}

SEXP rirn_plain_member(SEXP x, SEXP name, SEXP nameSym) {
    return dollarPlain(x, name, nameSym);
}

SEXP rirn_dollar_plain(SEXP x, SEXP name, SEXP nameSym) {
    SEXP r = dollarPlain(x, name, nameSym);
    // (IsPlainMember held right before: nothing ran since)
    if (!r) Rf_error("rir: internal error: x$%s was not plain", CHAR(PRINTNAME(nameSym)));
    R_Visible = TRUE;
    return r;
}

SEXP rirn_dollar(SEXP x, SEXP nameSym, SEXP call, SEXP env) {
    SEXP r = dollarDefault(x, PRINTNAME(nameSym), nameSym);
    // anything else: GNU R evaluates x$name (x is a variable: see the
    // compiler's dollar)
    if (!r) r = Rf_eval(call, env);
    R_Visible = TRUE;
    return r;
}

SEXP rirn_mkcls(SEXP spec, SEXP env) {
    SEXP clo = PROTECT(Rf_allocSExp(CLOSXP));
    SET_FORMALS(clo, VECTOR_ELT(spec, 0));
    SET_BODY(clo, VECTOR_ELT(spec, 1));
    SET_CLOENV(clo, env);
    if (VECTOR_ELT(spec, 2) != R_NilValue)
        Rf_setAttrib(clo, Rf_install("srcref"), VECTOR_ELT(spec, 2));
    UNPROTECT(1);
    return clo;
}

SEXP rirn_lgl_combine(int kind, SEXP a, SEXP b, SEXP call, SEXP env, SEXP tramp) {
    SEXP r;
    if (simpleScalar(b, LGLSXP)) {
        r = lglScalar(lglCombine(kind, fival(a), fival(b)));
    } else {
        SEXP pa = PROTECT(R_mkEVPROMISE(CADR(call), a));
        SEXP pb = PROTECT(R_mkEVPROMISE(CADDR(call), b));
        r = logicSlow(kind, call, pa, pb, env, tramp);
        UNPROTECT(2);
    }
    R_Visible = TRUE;
    return r;
}

SEXP rirn_lgl_slow(int kind, SEXP a, SEXP call, SEXP env, SEXP tramp) {
    SEXP pa = PROTECT(R_mkEVPROMISE(CADR(call), a));
    SEXP r = logicSlow(kind, call, pa, CADDR(call), env, tramp);
    UNPROTECT(1);
    R_Visible = TRUE;
    return r;
}

SEXP rirn_subset(Code* code, int site, int kind, const SEXP* args, int n, SEXP env, SEXP tramp,
                 SEXP scr) {
    const CallSite& cs = code->calls[site];
    SEXP x = args[0];
    SEXP r = nullptr;
    if (n == 1 && cs.args[0].tag == R_NilValue) {
        r = subsetQuick(kind, x, args[1], scr);
    } else if (n == 2 && cs.args[0].tag == R_NilValue && cs.args[1].tag == R_NilValue) {
        r = fastMatrixSubset(x, args[1], args[2], scr);
    }
    if (!r) {
        SEXP list = R_NilValue;
        PROTECT_INDEX ipx;
        PROTECT_WITH_INDEX(list, &ipx);
        for (int k = n; k >= 0; k--) {
            REPROTECT(list = consNR(args[k], list), ipx);
            if (k >= 1 && size_t(k - 1) < cs.args.size()) SET_TAG(list, cs.args[k - 1].tag);
        }
        SEXP call = code->poolAt(cs.ast);
        setTrampolineExpr(tramp, call);
        const void* vmax = vmaxget();
        r = subsetDefaultFun(kind)(call, subsetDefault(kind), list, env);
        vmaxset(vmax);
        UNPROTECT(1);
    }
    R_Visible = TRUE;
    return r;
}

SEXP rirn_subset_obj(int kind, SEXP x, SEXP call, SEXP env, SEXP tramp) {
    SEXP op = subsetDefault(kind);
    SEXP prom = PROTECT(R_mkEVPROMISE(CADR(call), x));
    SEXP args = PROTECT(Rf_cons(prom, CDDR(call)));
    setTrampolineExpr(tramp, call);
    const void* vmax = vmaxget();
    SEXP r = primFun(op)(call, op, args, env);
    vmaxset(vmax);
    UNPROTECT(2);
    R_Visible = TRUE;
    return r;
}

SEXP rirn_ldvar_missok(SEXP sym, SEXP env, SEXP tramp, char* dirty, NodeStackSlot* frame,
                       const int* hold) {
    // the common case, no R code: a value or a forced promise in the own frame
    SEXP cell = DDVAL(sym) ? nullptr : R_findVarLocInFrame(env, sym).cell;
    if (cell && cell != R_NilValue && plainCell(cell)) {
        SEXP v = fcar(cell);
        if (ftype(v) == PROMSXP && fprvalue(v) != R_UnboundValue) return fprvalue(v);
        if (ftype(v) != PROMSXP && v != R_MissingArg && v != R_UnboundValue) return v;
    }
    // (a promise forced, an active binding, a variable of another frame)
    *dirty = 1;
    holdLive(frame, hold);
    SEXP v = getVariable(sym, env, tramp, nullptr, true);
    releaseLive(frame, hold);
    return v;
}

SEXP rirn_box_real(double x) {
    SEXP r = Rf_allocVector(REALSXP, 1);
    *static_cast<double*>(fdata(r)) = x;
    return r;
}

SEXP rirn_box_int(int x) {
    SEXP r = Rf_allocVector(INTSXP, 1);
    *static_cast<int*>(fdata(r)) = x;
    return r;
}

// x <- a scalar of `type` computed unboxed (the value's bytes at x).
static SEXP storeUnboxed(SEXP sym, int type, const void* x, SEXP env, SEXP* cache,
                         NodeStackSlot* frame, const int* live, int nlive, char* dirty,
                         const int* hold) {
    size_t size = type == REALSXP ? sizeof(double) : sizeof(int);
    SEXP cell = frameCell(sym, env, cache);
    if (cell && plainWritableCell(cell)) {
        // inplace.h's rule, the frame's live slots being the operand slots
        SEXP old = fcar(cell);
        if (old != R_UnboundValue && simpleScalar(old, type) && frefcnt(old) == 1 &&
            !heldLive(old, frame, live, nlive)) {
            std::memcpy(fdata(old), x, size);
            hdr(cell)->gp &= ~kMissingMask;
            *cache = cell;
            return old;
        }
    }
    SEXP v = PROTECT(Rf_allocVector(type, 1));
    std::memcpy(fdata(v), x, size);
    rirn_stvar_cell(sym, v, env, cache, dirty, frame, hold);
    UNPROTECT(1);
    return v;
}

SEXP rirn_stvar_real(SEXP sym, double x, SEXP env, SEXP* cache, NodeStackSlot* frame,
                     const int* live, int nlive, char* dirty, const int* hold) {
    return storeUnboxed(sym, REALSXP, &x, env, cache, frame, live, nlive, dirty, hold);
}

SEXP rirn_stvar_int(SEXP sym, int x, SEXP env, SEXP* cache, NodeStackSlot* frame, const int* live,
                    int nlive, char* dirty, const int* hold) {
    return storeUnboxed(sym, INTSXP, &x, env, cache, frame, live, nlive, dirty, hold);
}

void rirn_backedge() {
    static unsigned backEdges = 0;
    if (R_interrupts_pending || ++backEdges > 1000) {
        backEdges = 0;
        R_CheckUserInterrupt();
    }
}

void rirn_srcref(SEXP s) {
    R_Srcref = s;
}

int rirn_loop_fits(SEXP v, SEXP b) {
    if (!b) return !longSequence(v);
    // from:to's length as `:` computes it, from two plain numbers
    auto first = [](SEXP x, double* d) {
        if (fobject(x)) return false;
        switch (TYPEOF(x)) {
            case INTSXP:
            case LGLSXP:
                if (XLENGTH(x) < 1) return false;
                *d = INTEGER_ELT(x, 0) == NA_INTEGER ? NAN : INTEGER_ELT(x, 0);
                return true;
            case REALSXP:
                if (XLENGTH(x) < 1) return false;
                *d = REAL_ELT(x, 0);
                return true;
            default:
                return false;
        }
    };
    double from, to;
    if (!first(v, &from) || !first(b, &to)) return 0;
    // (NA, NaN: `:`'s error; an infinite span: its error too)
    if (std::isnan(from) || std::isnan(to)) return 1;
    return std::fabs(to - from) + 1 < double(INT_MAX);
}

SEXP rirn_forseq(SEXP v, SEXP call) {
    SEXP seq = forSequence(v, call);
    // (the translation's LoopFits assumption keeps longer ones out)
    if (longSequence(seq))
        Rf_errorcall(call, "internal error: a long for() sequence in native code");
    // counted while the loop runs (forInit), released by rirn_forend or,
    // after a deoptimization, by the interpreter's for_step
    if (seq != R_NilValue) incRefcnt(seq);
    return seq;
}

void rirn_forend(SEXP seq) {
    if (seq != R_NilValue) decRefcnt(seq);
}

SEXP rirn_range_seq(int start, int step, int len) {
    static SEXP colon = SYMVALUE(Rf_install(":"));
    SEXP from = PROTECT(Rf_ScalarInteger(start));
    SEXP to = PROTECT(Rf_ScalarInteger(start + step * (len - 1)));
    SEXP args = PROTECT(Rf_list2(from, to));
    // (whole numbers in int range: `:` only allocates)
    SEXP seq = primFun(colon)(R_NilValue, colon, args, R_BaseEnv);
    UNPROTECT(3);
    incRefcnt(seq);
    return seq;
}

SEXP rirn_forlength(SEXP seq) {
    return Rf_ScalarInteger(TYPEOF(seq) == NILSXP ? 0 : int(XLENGTH(seq)));
}

SEXP rirn_forelement(SEXP seq, SEXP i) {
    return elementOf(seq, INTEGER(i)[0]);
}

SEXP rirn_forelement_reuse(SEXP seq, int i, SEXP prev, SEXP* cell) {
    int t = TYPEOF(seq);
    // (counted by nothing, or only by the loop variable's binding, which
    // the element is bound to next)
    if (i > 0 && (t == INTSXP || t == REALSXP) && simpleScalar(prev, t) &&
        (frefcnt(prev) == 0 || (frefcnt(prev) == 1 && cell && *cell != R_NilValue &&
                                plainWritableCell(*cell) && fcar(*cell) == prev))) {
        if (t == INTSXP)
            *static_cast<int*>(fdata(prev)) = INTEGER_ELT(seq, i);
        else
            *static_cast<double*>(fdata(prev)) = REAL_ELT(seq, i);
        return prev;
    }
    return elementOf(seq, i);
}

SEXP rirn_use_method(SEXP generic, SEXP call, SEXP obj, SEXP env, SEXP tramp) {
    setTrampolineExpr(tramp, call);
    SEXP r = useMethod(call, generic, obj, env, tramp);
    if (r) return r;
    // GNU R's UseMethod: dispatches and leaves the function with a jump, or
    // reports the error
    static SEXP useMethodFun = SYMVALUE(Rf_install("UseMethod"));
    setTrampolineExpr(tramp, call);
    R_Visible = TRUE;
    return primFun(useMethodFun)(call, useMethodFun, CDR(call), env);
}

int rirn_dollar_assign(Code* code, int pc, SEXP v, SEXP env, SEXP tramp, NodeStackSlot* frame,
                       const int* live, int nlive, int plain) {
    const insn::dollar_assign o(&code->bc[pc + 1]);
    RIRN_HELD_SLOTS(scope, frame, live, nlive);
    SEXP xsym = code->poolAt(o.xsym), name = code->poolAt(o.name);
    SEXP nameSym = code->poolAt(o.nameSym);
    if (plain) return dollarAssignPlain(env, xsym, name, nameSym, v, scope);
    return dollarAssignLocal(env, xsym, name, nameSym, v, tramp, scope);
}

void rirn_subassign_general(int kind, SEXP xsym, SEXP env, SEXP v, SEXP xv, SEXP i, SEXP j,
                            SEXP setter, SEXP call, SEXP tramp, NodeStackSlot* frame,
                            const int* live, int nlive, BelowMemo* memo) {
    RIRN_HELD_SLOTS(own, frame, live, nlive);
    // (with <<- any frame's slots may hold x's value, as in the interpreter;
    // this frame's slots are on R's node stack too)
    InPlaceScope scope = (kind & kSuperAssign) ? othersAndLive(frame, own, memo) : own;
    SEXP known = nullptr;
    if (!(kind & kSuperAssign)) {
        known = R_findVarLocInFrame(env, xsym).cell;
        if (known == R_NilValue) known = nullptr;
    }
    subassignSlow(kind, xsym, env, xv, i, j, v, setter, tramp, scope, call, known);
}

SEXP rirn_apply_internal(SEXP inner, SEXP call, SEXP env, SEXP tramp) {
    return runApplyInternal(inner, call, env, tramp);
}

int rirn_loop_body(SEXP body, SEXP env, SEXP tramp) {
    return runLoopBody(Code::unpack(body), env, tramp) ? 1 : 0;
}

SEXP rirn_ldddvar(SEXP sym, SEXP env, SEXP tramp) {
    R_Visible = TRUE;
    return dotsElement(sym, env, tramp);
}

void rirn_env_subassign(int kind, SEXP xsym, SEXP nameSym, SEXP call, SEXP v, SEXP i, SEXP env,
                        SEXP tramp, NodeStackSlot* frame, const int* live, int nlive,
                        BelowMemo* memo) {
    RIRN_HELD_SLOTS(local, frame, live, nlive);
    envSubassign(kind, xsym, nameSym, call, v, i, env, tramp, local,
                 othersAndLive(frame, local, memo));
}

SEXP rirn_start_assign(SEXP sym, SEXP call, SEXP env, SEXP tramp) {
    (void)call;  // (GNU R's lookup names the variable, not the assignment)
    return startAssign(sym, env, tramp);
}

SEXP rirn_start_assign_super(SEXP sym, SEXP call, SEXP env, SEXP tramp) {
    return startAssignSuper(sym, call, env, tramp);
}

void rirn_force_target_ast(SEXP sym, SEXP call, int super, SEXP env, SEXP tramp) {
    forceTargetAst(sym, call, super != 0, env, tramp);
}

SEXP rirn_getter_call(Code* code, int site, SEXP fun, SEXP lhs, SEXP env, SEXP tramp) {
    PROTECT(fun);
    PROTECT(lhs);
    SEXP r = doAssignCall(code, code->calls[site], fun, env, tramp, lhs, nullptr, nullptr);
    UNPROTECT(2);
    return r;
}

SEXP rirn_setter_call(Code* code, int site, SEXP vexpr, SEXP fun, SEXP rhs, SEXP lhs, SEXP env,
                      SEXP tramp, NodeStackSlot* frame, const int* live, int nlive, int own,
                      BelowMemo* memo) {
    RIRN_HELD_SLOTS(local, frame, live, nlive);
    // (the interpreter's rule, inplace.h; the value passed is an operand
    // slot there; with <<- the callers' slots may hold the target too)
    InPlaceScope scope = own ? local : othersAndLive(frame, local, memo);
    if (lhs == rhs || !mayModifyInPlace(lhs, scope)) lhs = Rf_shallow_duplicate(lhs);
    PROTECT(lhs);
    PROTECT(fun);
    PROTECT(rhs);
    SEXP r = doAssignCall(code, code->calls[site], fun, env, tramp, lhs, rhs, vexpr);
    UNPROTECT(3);
    return r;
}

void rirn_stvar_super(SEXP sym, SEXP v, SEXP env) {
    Rf_setVar(sym, v, fcdr(env));  // (ENCLOS)
}

SEXP rirn_switch_index(Code* code, int pc, SEXP value, SEXP tramp) {
    const insn::switch_table o(&code->bc[pc + 1]);
    SEXP names = o.names >= 0 ? code->poolAt(o.names) : R_NilValue;
    setTrampolineExpr(tramp, code->poolAt(o.call));  // (as the interpreter)
    return Rf_ScalarInteger(switchEntry(code->poolAt(o.call), names, o.nchar, o.nnum, value));
}

SEXP rirn_colon(SEXP from, SEXP to, SEXP call, SEXP env, SEXP tramp) {
    static SEXP colon = SYMVALUE(Rf_install(":"));
    SEXP args = PROTECT(consNR(from, consNR(to, R_NilValue)));
    SEXP r = callBuiltin(call, colon, args, env, tramp);
    UNPROTECT(1);
    return r;
}

}  // extern "C"

namespace {

// RIR code resumed at pc with the frame state's stack (see rirn_deopt).
// (t: the function whose own code deoptimized, whose loops may go on in
// native code again)
SEXP resumeAt(Code* code, int pc, SEXP env, SEXP tramp, const SEXP* stack, int n,
              const unsigned char* kinds, DispatchTable* t = nullptr) {
    NodeStackSlot* slots =
        n ? static_cast<NodeStackSlot*>(alloca(n * sizeof(NodeStackSlot))) : nullptr;
    int loopSlots = 0;
    for (int k = 0; k < n; k++) {
        slots[k].tag = 0;
        slots[k].flags = 0;
        slots[k].u.sxpval = stack[k];
        switch (SlotKind(kinds[k])) {
            case SlotKind::Value:
                break;
            case SlotKind::LoopSeq:
                // (counted by rirn_forseq; the interpreter releases it)
                loopSlots = k + 1;
                break;
            case SlotKind::LoopLen:
            case SlotKind::LoopCtr: {
                // raw integers (the length, the counter) whose flags hold
                // the step / first value of a compact range (forInit)
                bool len = SlotKind(kinds[k]) == SlotKind::LoopLen;
                int step, first;
                loopRange(stack[k - (len ? 1 : 2)], &step, &first);
                slots[k].tag = INTSXP;
                slots[k].flags = len ? step : first;
                slots[k].u.ival = INTEGER(stack[k])[0];
                loopSlots = k + 1;
                break;
            }
        }
    }
    return interpretFrom(
        code, env, tramp,
        ResumePoint{pc, slots, n, loopSlots, t && t->baseline == code ? t : nullptr});
}

// Counts (or releases) a frame state's stack values (not a loop's raw
// length and counter).
void holdValues(const SEXP* stack, int n, const unsigned char* kinds, bool hold) {
    for (int k = 0; k < n; k++) {
        SlotKind kind = SlotKind(kinds[k]);
        if ((kind == SlotKind::Value || kind == SlotKind::LoopSeq) && stack[k] &&
            stack[k] != R_NilValue)
            hold ? incRefcnt(stack[k]) : decRefcnt(stack[k]);
    }
}

void noteDeopt(DispatchTable* t, int pc) {
    stats.deopts++;
    if (debugFlags.deopt) REprintf("rir: deoptimization of %s to pc %d\n", t->name.c_str(), pc);
    t->noteDeopt();
}

}  // namespace

extern "C" {

SEXP rirn_deopt(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp, const SEXP* stack,
                int n, const unsigned char* kinds, int continuation) {
    noteDeopt(t, pc);
    if (continuation != 2)
        if (SEXP r = goOnDeoptless(t, code, pc, env, tramp, stack, n, kinds)) return r;
    return resumeAt(code, pc, env, tramp, stack, n, kinds, continuation ? nullptr : t);
}

// The arguments of an inlined call as a call's promargs list, of cells
// that count no references (consNR), as the interpreter builds a call's:
// counted, the list would keep each argument promise referenced after the
// call, so the callee's frame release could not clear it and its value
// stayed referenced (GNU R's arithmetic then did not reuse it: a
// zero-length sum lost the attributes GNU R gives it).
static SEXP argList(const SEXP* args, int n) {
    SEXP list = R_NilValue;
    for (int k = n - 1; k >= 0; k--) list = consNR(args[k], list);
    return list;
}

// Ends an inlined call's function context as a call from the interpreter
// ends: the frame released, then the argument promises nothing else
// counts (releaseArgs, GNU R's unpromiseArgs).
static SEXP endInlinedContext(RContext* c, SEXP newrho) {
    SEXP val = endFunctionContext(c, newrho);
    releaseArgs(c->promargs);  // does not allocate
    return val;
}

SEXP rirn_inlined_env(SEXP fun, const SEXP* args, int n) {
    SEXP promargs = PROTECT(argList(args, n));
    SEXP rho = inlinedCallEnv(fun, promargs);
    UNPROTECT(1);
    return rho;
}

void rirn_push_context(RContext* c, SEXP call, SEXP fun, SEXP newrho, SEXP env, const SEXP* args,
                       int n) {
    SEXP promargs = PROTECT(argList(args, n));
    // (unprotected before the context saves the protection stack's top, to
    // which a jump landing in it returns; the context then holds the list)
    UNPROTECT(1);
    beginFunctionContext(c, call, fun, newrho, promargs, env);
}

void rirn_enter_context(RContext* c) {
    enterFunctionContext(c);
}

SEXP rirn_pop_context(RContext* c, SEXP value, SEXP newrho) {
    setContextReturnValue(c, value);
    return endInlinedContext(c, newrho);
}

SEXP rirn_context_landed(RContext* c, SEXP newrho, Code* code, int pc, SEXP env, SEXP tramp,
                         SEXP* stack, int n, const unsigned char* kinds) {
    landedInFunctionContext(c);
    stack[n - 1] = endInlinedContext(c, newrho);
    // (not a failed speculation: no deoptimization counted)
    return resumeAt(code, pc, env, tramp, stack, n, kinds);
}

SEXP rirn_deopt_inlined(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp,
                        const SEXP* stack, int n, const unsigned char* kinds, RContext* c,
                        Code* callerCode, int callerPc, SEXP callerEnv, SEXP* callerStack,
                        int callerN, const unsigned char* callerKinds) {
    noteDeopt(t, pc);
    // (not deoptless: the callee's frame and the caller's resume the
    // interpreter, one after the other)
    if (tiering.deoptless) stats.deoptless_fallbacks++;
    // the caller's operands (all but the call's value, the last) count as
    // referenced while the callee's code runs (inplace.h's holdSlots)
    holdValues(callerStack, callerN - 1, callerKinds, true);
    SEXP v = resumeAt(code, pc, env, tramp, stack, n, kinds);
    holdValues(callerStack, callerN - 1, callerKinds, false);
    callerStack[callerN - 1] = rirn_pop_context(c, v, env);
    return resumeAt(callerCode, callerPc, callerEnv, tramp, callerStack, callerN, callerKinds);
}

}  // extern "C"

const std::vector<Helper>& helpers() {
    static const std::vector<Helper> all = {
#define RIRN_HELPER(name, effects) {#name, reinterpret_cast<void*>(&name), effects},
        RIRN_HELPERS(RIRN_HELPER)
#undef RIRN_HELPER
    };
    return all;
}

}  // namespace native
}  // namespace rir
