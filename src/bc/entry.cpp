// entry.cpp — the entry from GNU R into rir: a trampoline's .External2
// call (rir_entry, see interp.h) runs a function body or a promise, or the
// original code when rir is disabled or the native state is gone.
#include "../runtime/dispatch_table.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "calls.h"
#include "direct_call.h"
#include "interp.h"

namespace rir {

extern "C" SEXP rir_entry(SEXP call, SEXP op, SEXP args, SEXP env) {
    // While R profiles (Rprof), GNU R wraps the trampoline's .External2 call
    // in a builtin context of its own, on top of the closure's: UseMethod,
    // NextMethod, parent.frame() and friends, which look for the closure's
    // context on top, would fail or answer wrongly (in rir code and in the
    // original code alike). What runs here runs with that context out of
    // the chain, as an AST body would (it has no exit code and is never a
    // jump target: a longjmp resets R_GlobalContext itself); it is put back
    // before GNU R ends it.
    RContext* builtinCtx = R_GlobalContext;
    if (builtinCtx->callflag == CTXT_BUILTIN && builtinCtx->nextcontext &&
        (builtinCtx->nextcontext->callflag & CTXT_FUNCTION) &&
        builtinCtx->nextcontext->cloenv == env)
        R_GlobalContext = builtinCtx->nextcontext;
    else
        builtinCtx = nullptr;
    SEXP target = unwrapTarget(fcar(fcdr(args)));
    SEXP res;
    DispatchTable* t = target ? DispatchTable::unpackFast(target) : nullptr;
    Code* c = t || !target ? nullptr : Code::unpack(target);
    // What GNU R's evaluator runs instead of rir code: the original code
    // under rir::disable(); also when the native state is gone (R runs the
    // finalizers registered with onexit = TRUE when it exits, and R code,
    // other exit finalizers, may still call rir closures afterwards).
    SEXP gnur = nullptr;
    if (t || c) {
        if (!rirEnabled) gnur = t ? t->originalBody() : c->ast();
    } else if (target && TYPEOF(target) == EXTPTRSXP) {
        SEXP tag = R_ExternalPtrTag(target);
        if (tag == functionTag())
            gnur = DispatchTable::originalBodyOf(target);
        else if (tag == codeTag())
            gnur = VECTOR_ELT(R_ExternalPtrProtected(target), 0);  // the AST
    }
    if (gnur) {
        consumeRirCallFlag();
        res = Rf_eval(gnur, env);
    } else if (t) {
        if (!consumeRirCallFlag()) stats.gnur_entries++;
        // GNU R's bcEval made R_Srcref "in the byte-code interpreter", which
        // calls from here would record in their contexts (and find no
        // srcref table in a trampoline): the function's own srcref instead,
        // as for an AST body (bcEval restores R_Srcref when this returns).
        RContext* ctx = R_GlobalContext;
        if ((ctx->callflag & CTXT_FUNCTION) && ctx->cloenv == env) {
            static SEXP srcrefSym = Rf_install("srcref");
            SEXP fun = ctx->callfun;
            R_Srcref = plainAttrib(fun, srcrefSym);
        }
        // (another activation of the same trampoline may be running)
        SEXP consts = trampolineConsts(t->trampoline());
        SEXP expr = PROTECT(trampolineExpr(consts));
        res = runFunctionBody(t, env, consts);
        setTrampolineExpr(consts, expr);
        UNPROTECT(1);
    } else if (c) {
        res = interpret(c, env, trampolineConsts(c->trampoline));
    } else {
        Rf_error("rir: invalid trampoline target");
    }
    if (builtinCtx) R_GlobalContext = builtinCtx;
    setTrampolineVisible(R_Visible);
    return res;
}

}  // namespace rir
