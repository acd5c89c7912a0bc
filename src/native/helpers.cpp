// helpers.cpp — the runtime helpers of native code (see helpers.h). Each
// reuses the RIR interpreter's own routines for its operation.
#include "helpers.h"

#include "../bc/calls.h"
#include "../bc/inplace.h"
#include "../bc/interp.h"
#include "../bc/ops.h"
#include "../bc/promises.h"
#include "../bc/subset.h"
#include "../pir/ir.h"
#include "../runtime/dispatch_table.h"
#include "../runtime/r_messages.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"

namespace rir {
namespace native {

namespace {

// A version that deoptimized this often loses its native code (the RIR
// baseline runs it from then on).
const uint32_t kMaxDeopts = 8;

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

SEXP rirn_ldvar(SEXP sym, SEXP env, SEXP tramp) {
    SEXP v = Rf_findVar(sym, env);
    if (v != R_UnboundValue && v != R_MissingArg) return v;
    // the errors of the RIR interpreter's lookup (getVariable)
    setTrampolineExpr(tramp, sym);
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

void rirn_stvar(SEXP sym, SEXP v, SEXP env) {
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    if (cell && cell != R_NilValue && !(hdr(cell)->gp & (kActiveBinding | kBindingLock)) &&
        hdr(cell)->extra == 0 && fcar(cell) != R_UnboundValue) {
        SEXP old = fcar(cell);
        if (old != v) {
            SETCAR(cell, v);
            releasedValue(old);
        }
        hdr(cell)->gp &= ~kMissingMask;  // as defineVar: no longer missing
    } else {
        Rf_defineVar(sym, v, env);
    }
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
    return mkPromise(code, env);
}

SEXP rirn_binop(int op, SEXP a, SEXP b, SEXP call, SEXP env, SEXP tramp, int keep) {
    ArithOp o = ArithOp(op);
    SEXP r = fastBinop(o, a, b);
    if (!r) {
        keepOperand(a, keep & 1);
        keepOperand(b, keep & 2);
        SEXP prim = primitiveOf(o);
        SEXP args = PROTECT(consNR(a, consNR(b, R_NilValue)));
        setTrampolineExpr(tramp, call);
        const void* vmax = vmaxget();
        r = primFun(prim)(call, prim, args, env);
        vmaxset(vmax);
        UNPROTECT(1);
    }
    R_Visible = TRUE;
    return r;
}

SEXP rirn_unop(int op, SEXP a, SEXP call, SEXP env, SEXP tramp, int keep) {
    ArithOp o = ArithOp(op);
    SEXP r = fastUnop(o, a);
    if (!r) {
        keepOperand(a, keep & 1);
        SEXP prim = primitiveOf(o);
        SEXP args = PROTECT(consNR(a, R_NilValue));
        setTrampolineExpr(tramp, call);
        const void* vmax = vmaxget();
        r = primFun(prim)(call, prim, args, env);
        vmaxset(vmax);
        UNPROTECT(1);
    }
    R_Visible = TRUE;
    return r;
}

int rirn_astest(SEXP v, SEXP call) {
    return condition(v, call);
}

int rirn_istype(SEXP v, int kinds, int flags) {
    return pir::constantType(v).isSubtypeOf(pir::PirType(uint16_t(kinds), uint8_t(flags)));
}

SEXP rirn_eval(SEXP e, SEXP env) {
    stats.ast_evals++;
    return Rf_eval(e, env);
}

SEXP rirn_ldfun(SEXP sym, SEXP env, SEXP call, SEXP tramp) {
    return findFunction(sym, env, call, tramp);
}

SEXP rirn_call_site(Code* code, int site, SEXP fun, SEXP env, SEXP tramp) {
    return doCall(code, code->calls[site], fun, env, tramp);
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

SEXP rirn_deopt(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp, const SEXP* stack,
                int n) {
    stats.deopts++;
    if (++t->deopts >= kMaxDeopts && t->native) {
        t->native = nullptr;
        t->optState = 3;
    }
    NodeStackSlot* slots =
        n ? static_cast<NodeStackSlot*>(alloca(n * sizeof(NodeStackSlot))) : nullptr;
    for (int k = 0; k < n; k++) {
        slots[k].tag = 0;
        slots[k].flags = 0;
        slots[k].u.sxpval = stack[k];
    }
    return interpretFrom(code, env, tramp, ResumePoint{pc, slots, n, 0});
}

}  // extern "C"

const std::vector<Helper>& helpers() {
    static const std::vector<Helper> all = {
#define RIRN_HELPER(name) {#name, reinterpret_cast<void*>(&name)}
        RIRN_HELPER(rirn_enter),     RIRN_HELPER(rirn_leave),         RIRN_HELPER(rirn_ldarg),
        RIRN_HELPER(rirn_enclos),    RIRN_HELPER(rirn_ldvar),         RIRN_HELPER(rirn_force),
        RIRN_HELPER(rirn_stvar),     RIRN_HELPER(rirn_starg_default), RIRN_HELPER(rirn_mkarg),
        RIRN_HELPER(rirn_binop),     RIRN_HELPER(rirn_unop),          RIRN_HELPER(rirn_astest),
        RIRN_HELPER(rirn_istype),    RIRN_HELPER(rirn_eval),          RIRN_HELPER(rirn_ldfun),
        RIRN_HELPER(rirn_srcref),    RIRN_HELPER(rirn_deopt),         RIRN_HELPER(rirn_backedge),
        RIRN_HELPER(rirn_call_site), RIRN_HELPER(rirn_chaos),
#undef RIRN_HELPER
    };
    return all;
}

}  // namespace native
}  // namespace rir
