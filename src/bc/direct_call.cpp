// direct_call.cpp — a call from RIR code to a rir closure, done by rir
// itself instead of GNU R's applyClosure -> bcEval -> .External2 -> rir.
//
// For `f(a, n = 2)` with `f <- function(x, n = 1, ...)`, GNU R would match
// the promises to the formals, build the frame, push a function context and
// let bcEval run the trampoline, which calls back into rir. Here:
//
//   before:  promargs (a-promise, n = 2) --Rf_applyClosure--> bcEval -> rir_entry -> interpret
//   after:   promargs --match--> frame (x = a-promise, n = 2, ... = <missing>)
//            --NewEnvironment--> newrho; begincontext(CTXT_RETURN, call, newrho,
//            sysparent, promargs, f); interpret(baseline of f, newrho)
//
// The context is what GNU R pushes (sys.call, sys.function, parent.frame,
// on.exit, UseMethod, Recall and match.call see the same thing); a jump
// aimed at it (return() in a promise, UseMethod, an exiting handler) lands
// at its sigsetjmp and its value is read with returnedValue(). Argument
// matching handles exact names, positions and `...`; anything that would
// need partial matching or raise an argument error is left to GNU R, as are
// functions being debugged. After the call the frame is released as GNU R's
// applyClosure does when the environment did not escape, so values passed
// as arguments do not stay shared.
#include "direct_call.h"

#include <cstdio>
#include <cstring>

#include "../runtime/eval_depth.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "../runtime/unwind.h"
#include "calls.h"
#include "compiler.h"
#include "interp.h"
#include "promises.h"

namespace rir {

namespace {

const int kMaxArgs = 64;
unsigned callsSincePoll = 0;

inline void setMissing(SEXP cell, unsigned v) {
    hdr(cell)->gp = (hdr(cell)->gp & ~kMissingMask) | v;
}

// Is `tag` a proper prefix of one of the first n formal names (GNU R would
// then consider a partial match)?
bool prefixOfFormal(SEXP tag, const SEXP* ftags, int n) {
    const char* t = CHAR(PRINTNAME(tag));
    size_t len = strlen(t);
    for (int f = 0; f < n; f++)
        if (ftags[f] != R_DotsSymbol && !strncmp(CHAR(PRINTNAME(ftags[f])), t, len)) return true;
    return false;
}

// Matches the supplied arguments to the formals like GNU R's matchArgs
// (exact names, then positions, the rest into `...`) and returns the frame
// list, or nullptr when GNU R must do it (partial match, errors).
SEXP matchToFrame(SEXP formals, SEXP supplied) {
    SEXP ftags[kMaxArgs];
    int assigned[kMaxArgs];
    int nf = 0, dotsPos = -1;
    SEXP const nil = R_NilValue, dotsSym = R_DotsSymbol;
    for (SEXP f = formals; f != nil; f = fcdr(f)) {
        if (nf == kMaxArgs) return nullptr;
        SEXP tag = ftag(f);
        if (tag == dotsSym && dotsPos < 0) dotsPos = nf;
        assigned[nf] = -1;
        ftags[nf++] = tag;
    }
    SEXP svals[kMaxArgs], stags[kMaxArgs];
    bool used[kMaxArgs];
    int ns = 0;
    bool tagged = false;
    for (SEXP b = supplied; b != nil; b = fcdr(b)) {
        if (ns == kMaxArgs) return nullptr;
        svals[ns] = fcar(b);
        stags[ns] = ftag(b);
        tagged = tagged || stags[ns] != nil;
        used[ns] = false;
        ns++;
    }

    // exact matches by name
    for (int s = 0; tagged && s < ns; s++) {
        SEXP tag = stags[s];
        if (tag == R_NilValue) continue;
        if (tag == R_DotsSymbol) return nullptr;
        int hit = -1;
        for (int f = 0; f < nf; f++)
            if (ftags[f] == tag) {
                hit = f;
                break;
            }
        if (hit >= 0) {
            if (assigned[hit] >= 0) return nullptr;  // matched by several arguments
            assigned[hit] = s;
            used[s] = true;
        } else if (dotsPos < 0 || prefixOfFormal(tag, ftags, dotsPos)) {
            return nullptr;  // partial match or unused argument: GNU R decides
        }
    }
    // positional matches up to the first `...`
    int s = 0;
    for (int f = 0; f < nf && f != dotsPos; f++) {
        if (assigned[f] >= 0 && svals[assigned[f]] != R_MissingArg) continue;
        while (s < ns && (used[s] || stags[s] != R_NilValue)) s++;
        if (s == ns) break;
        if (assigned[f] >= 0) return nullptr;  // `f(x = , 1)`: leave it to GNU R
        assigned[f] = s;
        used[s] = true;
    }
    int rest = 0;
    for (int k = 0; k < ns; k++)
        if (!used[k]) rest++;
    if (rest && dotsPos < 0) return nullptr;  // unused arguments: GNU R's error

    // Everything built here is kept alive in two node-stack slots.
    NodeStackSlot* top = R_BCNodeStackTop;
    nsPush(R_NilValue);
    nsPush(R_NilValue);
    SEXP dots = R_MissingArg;
    if (rest) {
        dots = Rf_allocList(rest);
        top[0].u.sxpval = dots;
        SET_TYPEOF(dots, DOTSXP);
        SEXP d = dots;
        for (int k = 0; k < ns; k++)
            if (!used[k]) {
                SETCAR(d, svals[k]);
                SET_TAG(d, stags[k]);
                d = CDR(d);
            }
    }
    SEXP frame = R_NilValue;
    for (int f = nf - 1; f >= 0; f--) {
        SEXP v;
        unsigned missing;
        if (f == dotsPos) {
            v = dots;
            missing = 0;
        } else if (assigned[f] >= 0) {
            v = svals[assigned[f]];
            missing = v == R_MissingArg;
        } else {
            v = R_MissingArg;
            missing = 1;
        }
        frame = Rf_cons(v, frame);
        top[1].u.sxpval = frame;
        setMissing(frame, missing);
    }
    R_BCNodeStackTop = top;
    return frame;
}

// The frame of a call whose supplied arguments, none named, match the
// first formals by position (a StaticCall's): the formals after them
// missing, a `...` formal empty. nullptr when they do not (a name, more
// arguments than formals before `...`).
SEXP positionalFrame(SEXP formals, SEXP supplied) {
    SEXP vals[kMaxArgs];
    bool dots[kMaxArgs];
    int nf = 0;
    SEXP s = supplied;
    for (SEXP f = formals; f != R_NilValue; f = fcdr(f)) {
        if (nf == kMaxArgs) return nullptr;
        dots[nf] = ftag(f) == R_DotsSymbol;
        if (dots[nf] || s == R_NilValue) {
            if (dots[nf] && s != R_NilValue) return nullptr;
            vals[nf++] = R_MissingArg;
            continue;
        }
        if (ftag(s) != R_NilValue) return nullptr;
        vals[nf++] = fcar(s);
        s = fcdr(s);
    }
    if (s != R_NilValue) return nullptr;
    // (the values are the supplied list's; cons protects the frame so far)
    SEXP frame = R_NilValue;
    for (int f = nf - 1; f >= 0; f--) {
        frame = Rf_cons(vals[f], frame);
        setMissing(frame, !dots[f] && vals[f] == R_MissingArg);
    }
    return frame;
}

// Promises and closures of the frame that refer back to the frame itself.
int cycleRefs(SEXP rho, SEXP val) {
    int n = 0;
    for (SEXP b = fcar(rho); b != R_NilValue && frefcnt(b) == 1; b = fcdr(b)) {
        if (hdr(b)->extra) continue;
        SEXP v = fcar(b);
        if (v == val) continue;
        switch (ftype(v)) {
            case PROMSXP:
                if (frefcnt(v) == 1 && ftag(v) == rho) n++;
                break;
            case CLOSXP:
                if (frefcnt(v) == 1 && fcloenv(v) == rho) n++;
                break;
            case ENVSXP:
                if (v == rho) n++;
                break;
        }
    }
    return n;
}

// When nothing outside refers to the frame any more, drop its bindings so
// that argument values lose the references the frame held (GNU R does the
// same after each closure call).
void releaseFrame(SEXP rho, SEXP val) {
    if (val == rho) return;
    int refs = frefcnt(rho);
    if (refs > 0) refs -= cycleRefs(rho, val);
    if (refs != 0) return;
    for (SEXP b = fcar(rho); b != R_NilValue && frefcnt(b) == 1; b = fcdr(b)) {
        if (hdr(b)->extra) continue;
        SEXP v = fcar(b);
        if (frefcnt(v) == 1 && v != val) {
            if (ftype(v) == PROMSXP) {
                clearPromise(v);
            } else if (ftype(v) == DOTSXP) {
                for (SEXP d = v; d != R_NilValue && frefcnt(d) == 1; d = fcdr(d)) {
                    SEXP e = fcar(d);
                    if (frefcnt(e) == 1 && ftype(e) == PROMSXP) clearPromise(e);
                    SETCAR(d, R_NilValue);
                }
            }
        }
        SETCAR(b, R_NilValue);
    }
    SET_ENCLOS(rho, R_EmptyEnv);
}

// Puts the variables of `vars` (a fresh tagged list) in front of the frame
// of rho; a variable is dropped when the frame or a later entry of `vars`
// has its name (GNU R's applyClosure does the same with UseMethod's extras).
void addSuppliedVars(SEXP rho, SEXP vars) {
    SEXP last = vars;
    while (CDR(last) != R_NilValue) last = CDR(last);
    SETCDR(last, FRAME(rho));
    SEXP head = vars, prev = R_NilValue;
    for (SEXP v = vars, stop = CDR(last); v != stop;) {
        SEXP next = CDR(v);
        bool shadowed = false;
        SEXP tag = ftag(v);
        for (SEXP w = next; w != R_NilValue && !shadowed; w = fcdr(w)) shadowed = ftag(w) == tag;
        if (shadowed) {
            if (prev == R_NilValue)
                head = next;
            else
                SETCDR(prev, next);
        } else {
            prev = v;
        }
        v = next;
    }
    SET_FRAME(rho, head);
}

}  // namespace

Code* baselineOf(DispatchTable* t, SEXP cloenv) {
    if (!t->baseline) {
        Code* code = compileFunction(t, cloenv);
        PROTECT(code->container);
        code->trampoline = t->trampoline();
        t->setBaseline(code, code->container);
        UNPROTECT(1);
    }
    return t->baseline;
}

SEXP runFunctionBody(DispatchTable* t, SEXP env, SEXP tramp, Context given) {
    t->invocations++;
    // (RIR_DEBUG=verify: what a StaticCall's argument types proved holds)
    if (debugFlags.verify && given.bits && !t->contextOf(env).smaller(given)) {
        static char msg[512];
        snprintf(msg, sizeof msg, "rir: a static call's context %s does not hold (%s)",
                 given.str().c_str(), t->contextOf(env).str().c_str());
        Rf_error("%s", msg);
    }
    Code* code = baselineOf(t, ENCLOS(env));
    if (optimizeHook) {
        installCompiled();
        if (t->optState == DispatchTable::OptState::NotTried ||
            t->optState == DispatchTable::OptState::RetiredAgain)
            t->recordArgs(env);
        // (versions made on request run whatever RIR_NATIVE says; hot:
        // `threshold` calls of the baseline returned)
        bool hot = tiering.native && double(t->completed) >= tiering.threshold && t->mayOptimize();
        if (!t->natives.empty() || hot) {
            Context ctx = t->contextOf(env);
            DispatchTable::NativeEntry e = t->nativeFor(ctx);
            // (a version less specific than the call's context may run it;
            // while versions can be added, the call's own is made)
            if (hot && (!e || !t->hasNative(ctx))) {
                optimizeHook(t, ctx);
                e = t->nativeFor(ctx);
            }
            if (e) {
                stats.native_calls++;
                return e(env, tramp);
            }
        }
    }
    stats.rir_calls++;
    code->entries++;
    SEXP r = interpretBody(t, code, env, tramp);
    t->completed++;
    return r;
}

namespace {

// fun's environment for a call whose matched arguments are `frame`:
// missing arguments with a default bound to promises of it (with the
// baseline's promise code), `suppliedvars` in front, GNU R's no-special-
// symbols bit computed.
SEXP makeFrameEnv(SEXP fun, DispatchTable* t, SEXP frame, SEXP suppliedvars) {
    SEXP formals = fformals(fun);
    SEXP newrho = Rf_NewEnvironment(formals, frame, fcloenv(fun));
    PROTECT(newrho);
    // default arguments: promises evaluated in the new frame, with the
    // baseline's promise code for calls (same formals only: `formals<-`
    // makes closures that share the body)
    Code* base = nullptr;
    size_t k = 0;
    for (SEXP f = formals, a = frame; f != R_NilValue; f = fcdr(f), a = fcdr(a), k++)
        if (fcar(a) == R_MissingArg && fcar(f) != R_MissingArg) {
            SEXP code = fcar(f);
            if (TYPEOF(code) == LANGSXP && formals == t->formals()) {
                if (!base) base = baselineOf(t, fcloenv(fun));
                if (k < base->defaults.size() && base->defaults[k] >= 0)
                    code = Code::unpack(base->poolAt(base->defaults[k]))->trampoline;
            }
            SETCAR(a, mkPromise(code, newrho));
            setMissing(a, 2);
        }
    if (suppliedvars != R_NilValue) addSuppliedVars(newrho, suppliedvars);
    // GNU R's R_envHasNoSpecialSymbols, inline (newrho has no hash table)
    bool noSpecial = true;
    for (SEXP b = fcar(newrho); b != R_NilValue && noSpecial; b = fcdr(b))  // FRAME
        noSpecial = !(hdr(ftag(b))->gp & kNoSpecialSymbols);
    if (noSpecial) hdr(newrho)->gp |= kNoSpecialSymbols;
    UNPROTECT(1);
    return newrho;
}

// What runs in a function context: the body of the call, or the rest of an
// inlined call's body after a deoptimization.
struct ContextBody {
    virtual SEXP run(SEXP newrho) = 0;
};

}  // namespace

void beginFunctionContext(RContext* c, SEXP call, SEXP fun, SEXP newrho, SEXP promargs, SEXP env) {
    SEXP sysparent = R_GlobalContext->callflag == CTXT_GENERIC ? R_GlobalContext->sysparent : env;
    int savedDepth = extraDepth;
    Rf_begincontext(c, CTXT_RETURN, call, newrho, sysparent, promargs, fun);
    // as R_execClosure: the caller's srcref is saved in the context (calls
    // in tracebacks carry it), the function's own is current while it runs
    static SEXP srcrefSym = Rf_install("srcref");
    R_Srcref = plainAttrib(fun, srcrefSym);
    c->cend = markInterruptedFrom;  // promises forced with this context on top
    c->cenddata = frameMark(pendingMark(), savedDepth);
}

void enterFunctionContext(RContext* c) {
    // What GNU R's eval() of the body does first: count one level of
    // evaluation depth and poll for interrupts (bcEval polls every so many
    // calls; rir at once when one is pending).
    enterEval(c->evaldepth);
    if (R_interrupts_pending || ++callsSincePoll > 1000) {
        callsSincePoll = 0;
        R_CheckUserInterrupt();
    }
}

void landedInFunctionContext(RContext* c) {
    markInterruptedFrom(c->cenddata);
    // A jump aimed at this call (return() in a promise, UseMethod, an
    // exiting handler, return() in on.exit code) brings its value; an
    // intermediate one (we have on.exit code to run) continues in
    // endcontext.
    setContextReturnValue(c, c->jumptarget ? nullptr : returnedValue());
}

SEXP endFunctionContext(RContext* c, SEXP newrho) {
    // (on.exit code runs at the caller's depth: the one saved at the start)
    extraDepth = int(uint32_t(reinterpret_cast<uintptr_t>(c->cenddata) >> 32));
    R_Srcref = c->srcref;
    Rf_endcontext(c);
    SEXP val = contextReturnValue(c);
    releaseFrame(newrho, val);  // does not allocate
    return val;
}

namespace {

// Runs `body` in newrho inside the function context GNU R pushes for a
// call of fun (call, promargs) from env, and returns the call's value
// (after on.exit code; a jump aimed at the context brings its value).
// newrho lives in the node-stack slot `slot` (the context restores the node
// stack top to above it after a jump), where the result ends up.
SEXP runInFunctionContext(SEXP call, SEXP fun, SEXP newrho, SEXP promargs, SEXP env,
                          NodeStackSlot* slot, ContextBody& body) {
    RContext cntxt;
    beginFunctionContext(&cntxt, call, fun, newrho, promargs, env);
    if (sigsetjmp(cntxt.cjmpbuf, 0)) {
        landedInFunctionContext(&cntxt);
    } else {
        enterFunctionContext(&cntxt);
        setContextReturnValue(&cntxt, body.run(newrho));
    }
    SEXP val = endFunctionContext(&cntxt, newrho);
    R_BCNodeStackTop = slot;
    return val;
}

// The call of fun with its frame matched already (see directCall).
// `given`: bits of the Context the caller proved (a StaticCall's).
SEXP callWithFrame(SEXP call, SEXP fun, DispatchTable* t, SEXP frame, SEXP promargs, SEXP env,
                   SEXP tramp, SEXP suppliedvars, Context given) {
    // frame, environment and result live in one node-stack slot
    NodeStackSlot* slot = R_BCNodeStackTop;
    nsPush(frame);
    SEXP newrho = makeFrameEnv(fun, t, frame, suppliedvars);
    slot->u.sxpval = newrho;
    struct Body : ContextBody {
        DispatchTable* t;
        SEXP tramp;
        Context given;
        SEXP run(SEXP rho) override { return runFunctionBody(t, rho, tramp, given); }
    } body;
    body.t = t;
    body.tramp = tramp;
    body.given = given;
    // (the callee shares the caller's current-expression slot)
    SEXP expr = tramp ? PROTECT(trampolineExpr(tramp)) : nullptr;
    SEXP r = runInFunctionContext(call, fun, newrho, promargs, env, slot, body);
    if (tramp) {
        setTrampolineExpr(tramp, expr);
        UNPROTECT(1);
    }
    return r;
}

}  // namespace

SEXP directCall(SEXP call, SEXP fun, DispatchTable* t, SEXP promargs, SEXP env, SEXP tramp,
                SEXP suppliedvars) {
    // Debugging (browser, debug(), debugonce(), stepping) is GNU R's business.
    if (hdr(fun)->debug || hdr(fun)->spare || hdr(env)->debug) return nullptr;
    // A getter call of a complex assignment (f(*tmp*)): GNU R duplicates
    // the result in that case; keep it simple and let GNU R do it.
    static SEXP tmpSym = Rf_install("*tmp*");
    if (fcdr(call) != R_NilValue && fcar(fcdr(call)) == tmpSym) return nullptr;

    SEXP frame = matchToFrame(fformals(fun), promargs);
    if (!frame) return nullptr;
    return callWithFrame(call, fun, t, frame, promargs, env, tramp, suppliedvars, Context());
}

SEXP staticDirectCall(SEXP call, SEXP fun, DispatchTable* t, SEXP promargs, SEXP env, SEXP tramp,
                      Context given) {
    if (hdr(fun)->debug || hdr(fun)->spare || hdr(env)->debug) return nullptr;
    SEXP frame = positionalFrame(fformals(fun), promargs);
    if (!frame) return nullptr;
    return callWithFrame(call, fun, t, frame, promargs, env, tramp, R_NilValue, given);
}

SEXP inlinedCallEnv(SEXP fun, SEXP promargs) {
    DispatchTable* t = DispatchTable::unpackFast(trampolineTargetFast(BODY(fun)));
    SEXP frame = t ? positionalFrame(fformals(fun), promargs) : nullptr;
    if (!frame) Rf_error("rir: an inlined call's arguments do not match its function");
    PROTECT(frame);
    SEXP rho = makeFrameEnv(fun, t, frame, R_NilValue);
    UNPROTECT(1);
    return rho;
}

SEXP resumeInlinedCall(SEXP call, SEXP fun, SEXP newrho, SEXP promargs, SEXP env, SEXP tramp,
                       const ResumePoint& at) {
    DispatchTable* t = DispatchTable::unpackFast(trampolineTargetFast(BODY(fun)));
    NodeStackSlot* slot = R_BCNodeStackTop;
    nsPush(newrho);
    struct Body : ContextBody {
        Code* code;
        SEXP tramp;
        const ResumePoint* at;
        SEXP run(SEXP rho) override { return interpretFrom(code, rho, tramp, *at); }
    } body;
    body.code = baselineOf(t, fcloenv(fun));
    body.tramp = tramp;
    body.at = &at;
    return runInFunctionContext(call, fun, newrho, promargs, env, slot, body);
}

}  // namespace rir
