// calls.cpp — lookup and calls for the RIR interpreter (see calls.h).
#include "calls.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_set>

#include "../runtime/dispatch_table.h"
#include "../runtime/r_messages.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "apply_internals.h"
#include "compiler.h"
#include "direct_call.h"
#include "inplace.h"
#include "interp.h"
#include "promises.h"
#include "subset.h"

namespace rir {

bool rirEnabled = false;
static bool rirCallFlag = false;

bool consumeRirCallFlag() {
    bool f = rirCallFlag;
    rirCallFlag = false;
    return f;
}

// The operands are kept alive on the node stack (cheaper than PROTECT).
// The new cell is the youngest object there is, so storing into it needs no
// write barrier, and as a CONS_NR cell it counts no references.
SEXP consNR(SEXP car, SEXP cdr) {
    NodeStackSlot* top = R_BCNodeStackTop;
    nsPush(car);
    nsPush(cdr);
    SEXP c = Rf_cons(R_NilValue, R_NilValue);
    R_BCNodeStackTop = top;
    untrackRefs(c);
    hdr(c)->f0 = car;
    hdr(c)->f1 = cdr;
    return c;
}

SEXP mkPromise(SEXP code, SEXP env) {
    NodeStackSlot* top = R_BCNodeStackTop;
    nsPush(code);
    nsPush(env);
    SEXP p = Rf_allocSExp(PROMSXP);
    R_BCNodeStackTop = top;
    // p is the youngest object there is: no write barrier; references
    // counted as SET_PRCODE / SET_PRENV count them
    hdr(p)->f0 = R_UnboundValue;
    hdr(p)->f1 = code;
    hdr(p)->f2 = env;
    incRefcnt(code);
    incRefcnt(env);
    return p;
}

SEXP frameValue(SEXP env, SEXP sym) {
    if (TYPEOF(env) != ENVSXP) return nullptr;
    SEXP cell = R_findVarLocInFrame(env, sym).cell;
    if (!cell || cell == R_NilValue || !plainCell(cell)) return nullptr;
    SEXP v = fcar(cell);
    if (ftype(v) == PROMSXP) v = fprvalue(v);
    return v == R_UnboundValue || v == R_MissingArg ? nullptr : v;
}

bool isMissingArgument(SEXP sym, SEXP env) {
    if (sym == R_MissingArg) return true;
    if (TYPEOF(env) != ENVSXP || env == R_BaseEnv || env == R_BaseNamespace) return false;
    R_CheckStack();  // promises of variables can chain deeply
    bool dd = DDVAL(sym);
    SEXP cell = R_findVarLocInFrame(env, dd ? R_DotsSymbol : sym).cell;
    if (!cell || cell == R_NilValue) return false;
    if (dd) {
        // ..N: missing when `...` has fewer elements, else as its element
        SEXP dots = fcar(cell);
        int n = atoi(CHAR(PRINTNAME(sym)) + 2);
        if (dots == R_MissingArg || (TYPEOF(dots) == DOTSXP && Rf_length(dots) < n)) return true;
        if (TYPEOF(dots) != DOTSXP || n < 1) return false;
        cell = Rf_nthcdr(dots, n - 1);
    }
    // bits of the binding: 1 = not supplied (2 = its default, not missing)
    if ((hdr(cell)->gp & kMissingMask) == 1) return true;
    if (!plainCell(cell)) return false;
    SEXP p = fcar(cell);
    if (p == R_MissingArg) return true;
    // an argument passed on through `...` is a promise of the promise
    while (ftype(p) == PROMSXP && ftype(PRCODE(p)) == PROMSXP) p = PRCODE(p);
    if (ftype(p) != PROMSXP || fprvalue(p) != R_UnboundValue) return false;
    SEXP var = R_PromiseExpr(p);
    if (TYPEOF(var) != SYMSXP) return false;
    // a promise met again on the way is a cycle of arguments passed on:
    // missing, as for GNU R (PRSEEN, the promise's gp bits, marks the
    // promises visited, as well as those under evaluation)
    unsigned seen = hdr(p)->gp;
    if (seen == 1) return true;
    hdr(p)->gp = 1;
    bool missing = isMissingArgument(var, PRENV(p));
    hdr(p)->gp = seen;
    return missing;
}

SEXP getVariable(SEXP sym, SEXP env, SEXP tramp, SEXP expr, bool keepMissing) {
    if (!expr) expr = sym;
    if (keepMissing && DDVAL(sym)) return dotsElement(sym, env, tramp, true);
    SEXP v = Rf_findVar(sym, env);
    if (v != R_UnboundValue && v != R_MissingArg) {
        if (ftype(v) != PROMSXP) return v;
        SEXP pv = fprvalue(v);
        if (pv != R_UnboundValue) return pv;
        if (keepMissing && isMissingArgument(sym, env)) return R_MissingArg;
        setTrampolineExpr(tramp, expr);
        return forcePromise(v, tramp);
    }
    if (v == R_MissingArg && keepMissing) return v;
    // Unbound or missing: GNU R's byte code raises these with error(), which
    // names its current expression (the symbol shows as the function's call;
    // an argument of an inlined call names that call)
    setTrampolineExpr(tramp, expr);
    if (v == R_MissingArg)
        Rf_error(_("argument \"%s\" is missing, with no default"), CHAR(PRINTNAME(sym)));
    Rf_error(_("object '%s' not found"), CHAR(PRINTNAME(sym)));
}

static inline bool isFunctionValue(SEXP v) {
    int t = ftype(v);
    return t == CLOSXP || t == BUILTINSXP || t == SPECIALSXP;
}

// GNU R's findFun3 with the call for errors; uses the global cache once the
// search reaches the global environment.
SEXP findFunction(SEXP sym, SEXP env, SEXP call, SEXP tramp, char* forced) {
    SEXP rho = env;
    bool viaGlobal = true;
    while (rho != R_EmptyEnv) {
        SEXP v;
        if (rho == R_GlobalEnv && viaGlobal) {
            v = Rf_findVar(sym, R_GlobalEnv);
            if (v != R_UnboundValue) {
                if (ftype(v) == PROMSXP) {
                    if (forced && fprvalue(v) == R_UnboundValue) *forced = 1;
                    PROTECT(v);
                    v = Rf_eval(v, R_GlobalEnv);
                    UNPROTECT(1);
                }
                if (isFunctionValue(v)) return v;
                // a non-function shadows: search frame by frame from here
                viaGlobal = false;
                continue;
            }
            break;
        }
        v = Rf_findVarInFrame3(rho, sym, TRUE);
        if (v != R_UnboundValue) {
            if (ftype(v) == PROMSXP) {
                if (forced && fprvalue(v) == R_UnboundValue) *forced = 1;
                PROTECT(v);
                v = Rf_eval(v, rho);
                UNPROTECT(1);
            }
            if (isFunctionValue(v)) return v;
            if (v == R_MissingArg) {
                setTrampolineExpr(tramp, sym);
                Rf_error(_("argument \"%s\" is missing, with no default"), CHAR(PRINTNAME(sym)));
            }
        }
        rho = ENCLOS(rho);
    }
    // Reproduce GNU R's error (message and call) by letting it look up too.
    setTrampolineExpr(tramp, call);
    return Rf_findFun(sym, env);
}

namespace {
// Fast: no binding of sym in the frames up to the global environment (plain
// ones scanned here, hashed ones asked, user-defined databases left to the
// slow path), and GNU R's global cache has sym resolved to base's binding
// (its BASE_SYM_CACHED flag: set by a global lookup that found base's
// binding, cleared when a global frame gains or loses a binding of sym)
// whose value is `expected`. (No R code runs; false: not known.)
bool stillNamesFast(SEXP sym, SEXP expected, SEXP env) {
    for (SEXP rho = env; rho != R_GlobalEnv; rho = fcdr(rho)) {  // ENCLOS
        if (ftype(rho) != ENVSXP || rho == R_EmptyEnv || fobject(rho)) return false;
        if (ftag(rho) != R_NilValue) {  // HASHTAB: e.g. S4 generics' environments
            if (R_existsVarInFrame(rho, sym)) return false;
            continue;
        }
        for (SEXP f = fcar(rho); f != R_NilValue; f = fcdr(f))  // FRAME
            if (ftag(f) == sym) return false;
    }
    if (hdr(sym)->gp & kBaseSymCached) {
        SEXP v = fsymvalue(sym);
        if (v == expected || (ftype(v) == PROMSXP && fprvalue(v) == expected)) return true;
    }
    return false;
}
}  // namespace

bool stillNames(SEXP sym, SEXP expected, SEXP env, SEXP call, SEXP tramp, char* forced) {
    return stillNamesFast(sym, expected, env) ||
           findFunction(sym, env, call, tramp, forced) == expected;
}

bool stillNamesWithoutR(SEXP sym, SEXP expected, SEXP env) {
    return stillNamesFast(sym, expected, env) || functionWithoutR(sym, env) == expected;
}

SEXP functionWithoutR(SEXP sym, SEXP env) {
    auto isFunction = [](SEXP v) {
        return ftype(v) == CLOSXP || ftype(v) == BUILTINSXP || ftype(v) == SPECIALSXP;
    };
    // the frames as findFun reads them, a function found or a value
    // skipped, unless finding one would run R code (an unevaluated promise,
    // an active binding, a user-defined database)
    for (SEXP rho = env; rho != R_EmptyEnv; rho = fcdr(rho)) {  // ENCLOS
        if (ftype(rho) != ENVSXP || fobject(rho)) return nullptr;
        if (rho == R_BaseNamespace || rho == R_BaseEnv) {
            // (base's bindings are the symbols' values)
            SEXP v = fsymvalue(sym);
            if (ftype(v) == PROMSXP) v = fprvalue(v);
            return isFunction(v) ? v : nullptr;
        }
        // (the binding's cell, hashed frame or not: no R code runs for an
        // environment that is not an object, such as a user database)
        SEXP cell = R_findVarLocInFrame(rho, sym).cell;
        if (!cell || cell == R_NilValue) continue;
        if (hdr(cell)->gp & kActiveBinding) return nullptr;
        SEXP v = fcar(cell);
        if (v == R_UnboundValue) continue;
        if (ftype(v) == PROMSXP) {
            if (fprvalue(v) == R_UnboundValue) return nullptr;
            v = fprvalue(v);
        }
        if (isFunction(v)) return v;
        // (a missing argument: findFun's error)
        if (v == R_MissingArg) return nullptr;
        // (not a function: findFun looks further)
    }
    return nullptr;
}

void recordCallee(Code* c, long slot, Feedback& f, SEXP fun) {
    f.hit();
    SEXP list = c->calleeList();
    // a plain list: its elements are read in place (stores go through
    // SET_VECTOR_ELT, for the write barrier)
    const SEXP* seen = static_cast<const SEXP*>(fdata(list)) + slot * kMaxCallees;
    for (uint32_t i = 0; i < f.ncallees; i++)
        if (seen[i] == fun) return;
    if (f.ncallees < uint32_t(kMaxCallees)) {
        SET_VECTOR_ELT(list, slot * kMaxCallees + f.ncallees, fun);
        f.ncallees++;
    }
}

// ---- argument lists --------------------------------------------------------

namespace {

// Builds an argument list; the head is kept alive in a node-stack slot.
struct ListBuilder {
    SEXP head = R_NilValue, tail = R_NilValue;
    NodeStackSlot* slot;
    ListBuilder() : slot(R_BCNodeStackTop) {
        nsPush(R_NilValue);
        slot->flags = kArgListSlot;  // its elements count for inplace.h
    }
    // `counted`: each value counts as referenced until done() (GNU R's
    // evalList does the same while it evaluates the later arguments)
    bool counted = false;
    void add(SEXP v, SEXP tag) {
        if (counted) incRefcnt(v);
        SEXP cell = consNR(v, R_NilValue);
        hdr(cell)->f2 = tag;  // a fresh cell, and symbols are never collected
        if (head == R_NilValue) {
            head = tail = cell;
            slot->u.sxpval = head;
        } else {
            SETCDR(tail, cell);
            tail = cell;
        }
    }
    SEXP done() {
        if (counted)
            for (SEXP a = head; a != R_NilValue; a = fcdr(a)) decRefcnt(fcar(a));
        slot->flags = 0;
        R_BCNodeStackTop = slot;
        return head;
    }
};

SEXP dotsValue(SEXP env) {
    return Rf_findVar(R_DotsSymbol, env);
}

// `stackArgs`: the values of ArgKind::Stack arguments (complex assignments);
// for closures `stackExprs` are their promises' expressions.
SEXP eagerArgs(Code* c, CallSite& cs, SEXP call, SEXP env, SEXP tramp,
               const SEXP* stackArgs = nullptr) {
    ListBuilder b;
    b.counted = true;
    int n = 0;
    for (CallArg& a : cs.args) {
        n++;
        switch (a.kind) {
            case ArgKind::Const:
                b.add(c->poolAt(a.pool), a.tag);
                break;
            case ArgKind::Symbol:
                b.add(getVariable(c->poolAt(a.pool), env, tramp), a.tag);
                break;
            case ArgKind::Code: {
                Code* child = Code::unpack(c->poolAt(a.pool));
                b.add(interpret(child, env, tramp), a.tag);
                break;
            }
            case ArgKind::Stack:
                b.add(stackArgs[a.pool], a.tag);
                break;
            case ArgKind::Missing:
                Rf_errorcall(call, _("argument %d is empty"), n);
            case ArgKind::Dots: {
                SEXP h = PROTECT(dotsValue(env));
                if (TYPEOF(h) == DOTSXP || h == R_NilValue) {
                    for (; h != R_NilValue; h = CDR(h)) {
                        SEXP e = CAR(h);
                        b.add(ftype(e) == PROMSXP ? forcePromise(e, tramp) : Rf_eval(e, env),
                              TAG(h));
                    }
                } else if (h != R_MissingArg) {
                    Rf_error(_("'...' used in an incorrect context"));
                }
                UNPROTECT(1);
                break;
            }
        }
    }
    return b.done();
}

SEXP promisedArgs(Code* c, CallSite& cs, SEXP env, const SEXP* stackArgs = nullptr,
                  const SEXP* stackExprs = nullptr, const SEXP* eager = nullptr) {
    ListBuilder b;
    size_t k = 0;
    for (CallArg& a : cs.args) {
        // (a promise whose value the caller computed: evaluated already)
        SEXP known = eager && a.kind == ArgKind::Code ? eager[k] : nullptr;
        k++;
        if (known) {
            b.add(R_mkEVPROMISE(Code::unpack(c->poolAt(a.pool))->trampoline, known), a.tag);
            continue;
        }
        switch (a.kind) {
            case ArgKind::Stack:
                // evaluated promises, as GNU R's setter calls pass them
                b.add(R_mkEVPROMISE(stackExprs[a.pool], stackArgs[a.pool]), a.tag);
                break;
            case ArgKind::Const:
                b.add(c->poolAt(a.pool), a.tag);
                break;
            case ArgKind::Symbol: {
                SEXP p = mkPromise(c->poolAt(a.pool), env);
                markCompiledArg(p);
                b.add(p, a.tag);
                break;
            }
            case ArgKind::Code:
                b.add(mkPromise(Code::unpack(c->poolAt(a.pool))->trampoline, env), a.tag);
                break;
            case ArgKind::Missing:
                b.add(R_MissingArg, a.tag);
                break;
            case ArgKind::Dots: {
                SEXP h = PROTECT(dotsValue(env));
                if (TYPEOF(h) == DOTSXP || h == R_NilValue) {
                    for (; h != R_NilValue; h = CDR(h))
                        b.add(CAR(h) == R_MissingArg ? R_MissingArg : mkPromise(CAR(h), env),
                              TAG(h));
                } else if (h != R_MissingArg) {
                    Rf_error(_("'...' used in an incorrect context"));
                }
                UNPROTECT(1);
                break;
            }
        }
    }
    return b.done();
}

std::unordered_set<SEXP> refusedClosures;

}  // namespace

// GNU R's JIT score of an expression (eval.c's JIT_score, whose `if` counts
// its condition and its consequent): a loop scores kMinJitScore.
static const int kMinJitScore = 50;
static int jitScore(SEXP e) {
    if (TYPEOF(e) != LANGSXP) return 1;
    static SEXP ifSym = Rf_install("if"), forSym = Rf_install("for"),
                whileSym = Rf_install("while"), repeatSym = Rf_install("repeat");
    SEXP fun = CAR(e);
    if (fun == ifSym) return std::max(jitScore(CADR(e)), jitScore(CADDR(e)));
    if (fun == forSym || fun == whileSym || fun == repeatSym) return kMinJitScore;
    int score = 1;
    for (SEXP a = CDR(e); a != R_NilValue && score < kMinJitScore; a = CDR(a))
        score += jitScore(CAR(a));
    return score;
}

bool gnurJitCompiles(SEXP body, bool topLevel) {
    return topLevel || jitScore(body) >= kMinJitScore;
}

// A closure with an expression body (GNU R's AST interpreter made it) that
// GNU R's JIT never compiles: NOJIT, or small and not defined at top level.
static bool gnurLeavesToAst(SEXP f) {
    if (TYPEOF(BODY(f)) == BCODESXP) return false;
    return NOJIT(f) || (!MAYBEJIT(f) && !gnurJitCompiles(BODY(f), CLOENV(f) == R_GlobalEnv));
}

bool compileInPlace(SEXP f, const char* name, const char** reason, bool report) {
    SEXP body = BODY(f);
    if (isTrampoline(body)) return true;
    static SEXP rirNs = nullptr, cmpNs = nullptr;
    if (!rirNs) {
        rirNs = R_FindNamespace(Rf_mkString("rir"));
        cmpNs = R_FindNamespace(Rf_mkString("compiler"));
    }
    *reason = nullptr;
    if (RDEBUG(f) || RTRACE(f))
        *reason = "function is being debugged or traced";
    else if (CLOENV(f) == rirNs || CLOENV(f) == cmpNs)
        *reason = "part of rir or the compiler";
    if (*reason) {
        if (report) registerRefused(name, *reason);
        return false;
    }
    SEXP src = PROTECT(TYPEOF(body) == BCODESXP ? R_BytecodeExpr(body) : body);
    switch (TYPEOF(src)) {
        case CLOSXP:
        case BUILTINSXP:
        case SPECIALSXP:
        case DOTSXP:
        case ANYSXP:
        case BCODESXP:
        case EXTPTRSXP:
        case WEAKREFSXP:
        case ENVSXP:
        case PROMSXP:
            UNPROTECT(1);
            *reason = "body is not an R expression";
            registerRefused(name, *reason);
            return false;
        default:
            break;
    }
    SEXP tramp = PROTECT(makeFunctionBody(FORMALS(f), src, name, body));
    DispatchTable::unpack(trampolineTarget(tramp))->setCompileEnv(CLOENV(f));
    SET_BODY(f, tramp);
    UNPROTECT(2);
    return true;
}

SEXP callBuiltin(SEXP call, SEXP fun, SEXP args, SEXP env, SEXP tramp, SEXP expr) {
    int flag = primPrint(fun);
    if (flag < 2) R_Visible = Rboolean(flag != 1);
    setTrampolineExpr(tramp, expr ? expr : call);
    // the argument list is protected as GNU R's callers protect it, and
    // what the builtin R_alloc()s is released after it (as GNU R does)
    PROTECT(args);
    // log, a special GNU R's byte code calls with evaluated arguments: it
    // evaluates its argument list itself, so values that are not their own
    // value (symbols, calls, promises) go in as evaluated promises
    if (ftype(fun) == SPECIALSXP) {
        for (SEXP a = args; a != R_NilValue; a = CDR(a)) {
            int t = TYPEOF(CAR(a));
            if (t == SYMSXP || t == LANGSXP || t == PROMSXP || t == DOTSXP || t == BCODESXP)
                SETCAR(a, R_mkEVPROMISE(CAR(a), CAR(a)));
        }
    }
    const void* vmax = vmaxget();
    static SEXP mapplyFun = INTERNAL(Rf_install("mapply"));
    SEXP r = fun == mapplyFun ? mapplyInternal(args, env, tramp) : nullptr;
    // (no builtin context for foreign functions: GNU R's byte code pushes
    // none for .Call and friends, only its AST interpreter does)
    if (!r) r = primFun(fun)(call, fun, args, env);
    vmaxset(vmax);
    UNPROTECT(1);
    if (flag < 2) R_Visible = Rboolean(flag != 1);
    return r;
}

SEXP applyClosureFromRir(SEXP call, SEXP fun, SEXP args, SEXP env, SEXP tramp, SEXP suppliedvars) {
    if (!rirEnabled) return Rf_applyClosure(call, fun, args, env, suppliedvars);
    SEXP target = trampolineTargetFast(fbody(fun));
    bool rirBody = target != nullptr;
    if (!rirBody && rirEnabled) {
        // The checks are cheap and always made: a closure refused earlier
        // may have been collected and its address reused. The set only
        // keeps status() from listing the same refusal at every call.
        const char* reason;
        const char* name = TYPEOF(CAR(call)) == SYMSXP ? CHAR(PRINTNAME(CAR(call))) : "<anonymous>";
        bool ast = gnurLeavesToAst(fun);
        rirBody = compileInPlace(fun, name, &reason, !refusedClosures.count(fun));
        if (!rirBody)
            refusedClosures.insert(fun);
        else
            target = trampolineTarget(BODY(fun));
        if (rirBody && ast) DispatchTable::unpack(target)->astFlavor = true;
    }
    if (rirBody) {
        DispatchTable* t = target ? DispatchTable::unpackFast(target) : nullptr;
        SEXP r = t ? directCall(call, fun, t, args, env, tramp, suppliedvars) : nullptr;
        if (r) return r;
    }
    rirCallFlag = rirBody;
    SEXP r = Rf_applyClosure(call, fun, args, env, suppliedvars);
    rirCallFlag = false;
    return r;
}

// A builtin with the site's arguments evaluated, or a closure with them as
// promises (ArgKind::Stack ones from `vals`, see doAssignCall); `expr` is
// what errors without a call name.
static SEXP callWithSiteArgs(Code* c, CallSite& cs, SEXP fun, SEXP call, SEXP expr, SEXP env,
                             SEXP tramp, const SEXP* vals, const SEXP* exprs,
                             const SEXP* eager = nullptr) {
    switch (ftype(fun)) {
        case BUILTINSXP: {
            SEXP args = PROTECT(eagerArgs(c, cs, call, env, tramp, vals));
            SEXP r = callBuiltin(call, fun, args, env, tramp, expr);
            UNPROTECT(1);
            return r;
        }
        case CLOSXP: {
            SEXP args = PROTECT(promisedArgs(c, cs, env, vals, exprs, eager));
            SEXP r = applyClosureFromRir(call, fun, args, env, tramp);
            releaseArgs(args);  // allocates nothing: r needs no protection
            UNPROTECT(1);
            return r;
        }
        default:
            Rf_errorcall(call, _("attempt to apply non-function"));
    }
}

SEXP doCall(Code* c, CallSite& cs, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager) {
    SEXP call = c->poolAt(cs.ast);
    switch (ftype(fun)) {
        case SPECIALSXP: {
            int flag = primPrint(fun);
            setTrampolineExpr(tramp, call);
            R_Visible = Rboolean(flag != 1);
            const void* vmax = vmaxget();
            SEXP r = primFun(fun)(call, fun, CDR(call), env);
            vmaxset(vmax);
            if (flag < 2) R_Visible = Rboolean(flag != 1);
            return r;
        }
        default:
            return callWithSiteArgs(c, cs, fun, call, call, env, tramp, nullptr, nullptr, eager);
    }
}

SEXP staticCall(Code* c, CallSite& cs, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager,
                Context given) {
    SEXP target = rirEnabled && ftype(fun) == CLOSXP ? trampolineTargetFast(fbody(fun)) : nullptr;
    DispatchTable* t = target ? DispatchTable::unpackFast(target) : nullptr;
    if (!t) return doCall(c, cs, fun, env, tramp, eager);
    SEXP call = c->poolAt(cs.ast);
    SEXP args = PROTECT(promisedArgs(c, cs, env, nullptr, nullptr, eager));
    SEXP r = staticDirectCall(call, fun, t, args, env, tramp, given);
    // (debugging, or formals that no longer match: the general way)
    if (!r) r = applyClosureFromRir(call, fun, args, env, tramp);
    releaseArgs(args);  // allocates nothing: r needs no protection
    UNPROTECT(1);
    return r;
}

SEXP doAssignCall(Code* c, CallSite& cs, SEXP fun, SEXP env, SEXP tramp, SEXP lhs, SEXP rhs,
                  SEXP vexpr) {
    static SEXP tmpSym = Rf_install("*tmp*");
    SEXP call = c->poolAt(cs.ast);
    SEXP expr = cs.expr >= 0 ? c->poolAt(cs.expr) : call;
    SEXP vals[2] = {lhs, rhs};
    SEXP exprs[2] = {tmpSym, vexpr};
    switch (ftype(fun)) {
        case SPECIALSXP: {
            // the special gets the call's own arguments, the target and the
            // value as evaluated promises that count no reference (GNU R's
            // byte code does the same): the target stays unshared
            SEXP args = PROTECT(Rf_shallow_duplicate(CDR(call)));
            SETCAR(args, evPromiseUncounted(tmpSym, lhs));
            if (rhs) {
                SEXP last = args;
                while (CDR(last) != R_NilValue) last = CDR(last);
                SETCAR(last, evPromiseUncounted(vexpr, rhs));
            }
            int flag = primPrint(fun);
            setTrampolineExpr(tramp, expr);
            R_Visible = Rboolean(flag != 1);
            const void* vmax = vmaxget();
            SEXP r = primFun(fun)(call, fun, args, env);
            vmaxset(vmax);
            if (flag < 2) R_Visible = Rboolean(flag != 1);
            UNPROTECT(1);
            return r;
        }
        default:
            return callWithSiteArgs(c, cs, fun, call, expr, env, tramp, vals, exprs);
    }
}

}  // namespace rir
