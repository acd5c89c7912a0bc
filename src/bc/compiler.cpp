// compiler.cpp — R AST -> RIR bytecode (see compiler.h for an example).
#include "compiler.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "../runtime/dispatch_table.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "apply_internals.h"
#include "calls.h"
#include "compiler_internal.h"
#include "inline_internals.h"
#include "math_fast.h"
#include "ops.h"
#include "verifier.h"

namespace rir {

namespace {

// R code the compiler runs itself (forcing base's lazy-loaded bindings,
// loading the stats namespace) runs with rir switched off, as GNU R's JIT is
// off while its compiler runs. Otherwise that code enters rir again: the
// R_tryCatchError around it calls base's tryCatch, and when tryCatch is the
// closure being compiled (its first call from rir code), that call compiles
// tryCatch again, which forces the same binding again, and so on until the
// evaluation depth (an error no handler had been set up for yet: it escaped
// the caller's tryCatch) or half the C stack (hundreds of compilations) ran
// out. Errors are caught (an R error must not longjmp over the compiler's
// C++ objects): the result is then R_UnboundValue. rir is switched back on
// however the code is left.
struct RCode {
    SEXP (*body)(void*);
    void* data;
};
SEXP unboundOnError(SEXP, void*) {
    return R_UnboundValue;
}
SEXP runCatchingErrors(void* d) {
    auto* c = static_cast<RCode*>(d);
    return R_tryCatchError(c->body, c->data, unboundOnError, nullptr);
}
void restoreRirEnabled(void* saved, Rboolean) {
    rirEnabled = *static_cast<bool*>(saved);
}
SEXP runRCode(SEXP (*body)(void*), void* data) {
    bool saved = rirEnabled;
    SEXP cont = PROTECT(R_MakeUnwindCont());
    RCode c{body, data};
    rirEnabled = false;
    SEXP r = R_UnwindProtect(runCatchingErrors, &c, restoreRirEnabled, &saved, cont);
    UNPROTECT(1);
    return r;
}

// GNU R's compiler (optimize level 2, the JIT's) inlines these "language"
// functions without a run-time check when no local binding shadows them at
// compile time (a later redefinition, even in the global environment, is not
// seen by compiled code); every other base function it inlines is guarded
// (BASEGUARD) unless the code lives in a namespace.
bool languageFun(SEXP s) {
    static const char* const names[] = {
        "^",    "~",      "<",     "<<-",   "<=",     "<-",    "=",     "==",  ">",        ">=",
        "|",    "||",     "-",     ":",     "!",      "!=",    "/",     "(",   "[",        "[<-",
        "[[",   "[[<-",   "{",     "@",     "$",      "$<-",   "*",     "&",   "&&",       "%/%",
        "%*%",  "%%",     "+",     "::",    ":::",    "@<-",   "break", "for", "function", "if",
        "next", "repeat", "while", "local", "return", "switch"};
    static std::unordered_set<SEXP> set;
    if (set.empty())
        for (const char* n : names) set.insert(Rf_install(n));
    return set.count(s) != 0;
}

bool selfEvaluating(SEXP e) {
    switch (TYPEOF(e)) {
        case SYMSXP:
        case LANGSXP:
        case PROMSXP:
        case BCODESXP:
        case DOTSXP:
            return false;
        default:
            return true;
    }
}

// Symbols bound locally by the function (formals, `<-`, `=`, for variables,
// complex assignment targets). Nested function bodies and quote() are skipped.
void findLocals(SEXP e, std::unordered_set<SEXP>& out, bool& tooDeep) {
    if (TYPEOF(e) != LANGSXP || tooDeep) return;
    if (cStackTooDeep()) {
        tooDeep = true;
        return;
    }
    SEXP fn = CAR(e);
    if (TYPEOF(fn) == SYMSXP) {
        const char* n = CHAR(PRINTNAME(fn));
        if (!strcmp(n, "quote") || !strcmp(n, "function") || !strcmp(n, "~") ||
            !strcmp(n, "expression") || (!strcmp(n, "local") && Rf_length(e) == 2))
            return;
        // assign("x", v) and delayedAssign("x", v) define x (as for GNU R's
        // compiler)
        if ((!strcmp(n, "assign") || !strcmp(n, "delayedAssign")) && Rf_length(e) == 3 &&
            TYPEOF(CADR(e)) == STRSXP && XLENGTH(CADR(e)) == 1)
            out.insert(Rf_installTrChar(STRING_ELT(CADR(e), 0)));
        if ((!strcmp(n, "<-") || !strcmp(n, "=")) && Rf_length(e) == 3) {
            SEXP lhs = CADR(e);
            while (TYPEOF(lhs) == LANGSXP && CDR(lhs) != R_NilValue) lhs = CADR(lhs);
            if (TYPEOF(lhs) == SYMSXP) out.insert(lhs);
            if (TYPEOF(lhs) == STRSXP && XLENGTH(lhs) == 1)
                out.insert(Rf_installTrChar(STRING_ELT(lhs, 0)));
        }
        if (!strcmp(n, "for") && Rf_length(e) == 4 && TYPEOF(CADR(e)) == SYMSXP)
            out.insert(CADR(e));
    }
    for (SEXP a = e; a != R_NilValue; a = CDR(a))
        if (TYPEOF(CAR(a)) == LANGSXP) findLocals(CAR(a), out, tooDeep);
}

// The language functions (see languageFun) called by symbol in e, also in
// nested functions.
void languageCalls(SEXP e, std::unordered_set<SEXP>& out, bool& tooDeep) {
    if (TYPEOF(e) != LANGSXP || tooDeep) return;
    if (cStackTooDeep()) {
        tooDeep = true;
        return;
    }
    if (TYPEOF(CAR(e)) == SYMSXP) {
        if (languageFun(CAR(e))) out.insert(CAR(e));
        if (CAR(e) == Rf_install("quote")) return;
        // x[i] <- v calls `[<-`
        if ((CAR(e) == Rf_install("<-") || CAR(e) == Rf_install("=") ||
             CAR(e) == Rf_install("<<-")) &&
            Rf_length(e) == 3)
            for (SEXP lhs = CADR(e); TYPEOF(lhs) == LANGSXP;
                 lhs = CDR(lhs) == R_NilValue ? R_NilValue : CADR(lhs))
                if (TYPEOF(CAR(lhs)) == SYMSXP) {
                    // only short names can be language setters (no
                    // std::string: Rf_install may longjmp)
                    const char* n = CHAR(PRINTNAME(CAR(lhs)));
                    char buf[8];
                    if (strlen(n) > 3) continue;
                    snprintf(buf, sizeof buf, "%s<-", n);
                    SEXP setter = Rf_install(buf);
                    if (languageFun(setter)) out.insert(setter);
                }
    }
    for (SEXP a = e; a != R_NilValue; a = CDR(a))
        if (TYPEOF(CAR(a)) == LANGSXP) languageCalls(CAR(a), out, tooDeep);
}

// A short label of an expression left to GNU R (for status()), built
// without calling R: the function named by a call, for assignments the
// replacement function of the target (`names<-`, `[<-` nested, ...).
std::string astLabel(SEXP e) {
    if (TYPEOF(e) == SYMSXP) return e == R_MissingArg ? "<missing>" : CHAR(PRINTNAME(e));
    if (TYPEOF(e) != LANGSXP) return std::string("<") + Rf_type2char(TYPEOF(e)) + ">";
    SEXP f = CAR(e);
    if (TYPEOF(f) != SYMSXP) return "<call of a call>";
    std::string name = CHAR(PRINTNAME(f));
    if ((name == "<-" || name == "=" || name == "<<-") && TYPEOF(CADR(e)) == LANGSXP) {
        SEXP lhs = CADR(e);
        int depth = 0;
        std::string target = "?";
        if (TYPEOF(CAR(lhs)) == SYMSXP) target = CHAR(PRINTNAME(CAR(lhs)));
        for (SEXP l = lhs; TYPEOF(l) == LANGSXP && CDR(l) != R_NilValue; l = CADR(l)) depth++;
        return name + " " + target + "<-" + (depth > 1 ? " (nested)" : "");
    }
    return name + "()";
}
}  // namespace

void Compiler::compileBody(SEXP e) {
    expr(e);
    if (depth_ != 1) broken = true;
    emit(Op::ret);
    resolve();
}

// A default argument expression as promise code (pool index), or -1
// when it does not compile consistently. GNU R never byte-compiles a
// default argument: its AST interpreter runs it, so it is compiled in
// that interpreter's flavor (the closures it makes are marked too).
int Compiler::defaultArg(SEXP e) {
    bool wasBroken = broken, wasAst = sh_.astFlavor;
    sh_.astFlavor = true;
    int idx = promise(e);
    sh_.astFlavor = wasAst;
    if (broken && !wasBroken) {
        broken = false;
        return -1;
    }
    return idx;
}

// Peephole: an assignment whose value is dropped (a statement), i.e.
// `dup; stvar s k; invisible; pop`, becomes `stvar s k` (the value's
// visibility is irrelevant: whatever runs next sets its own). Not when a
// label points into the sequence or right after it.
bool Compiler::popAfterStore() {
    std::vector<int32_t>& bc = code_->bc;
    size_t n = bc.size(), k = starts_.size();
    // `push_null; invisible; pop` (the value of a loop): nothing
    if (k >= 2 && starts_[k - 1] == n - 1 && starts_[k - 2] == n - 2 &&
        bc[n - 1] == int32_t(Op::invisible) && bc[n - 2] == int32_t(Op::push_null)) {
        for (int pos : labels_)
            if (pos > int(n - 2) && pos <= int(n)) return false;
        bc.resize(n - 2);
        starts_.resize(k - 2);
        adjust(-1);
        return true;
    }
    // `push c; pop` / `push_null; pop`: nothing to do at all
    if (k >= 1 && starts_[k - 1] < n &&
        ((bc[starts_[k - 1]] == int32_t(Op::push_null) && starts_[k - 1] == n - 1) ||
         (bc[starts_[k - 1]] == int32_t(Op::push) && starts_[k - 1] == n - 2))) {
        size_t at = starts_[k - 1];
        for (int pos : labels_)
            if (pos > int(at) && pos <= int(n)) return false;
        bc.resize(at);
        starts_.pop_back();
        adjust(-1);
        return true;
    }
    if (k < 3 || n < 5 || starts_[k - 1] != n - 1 || starts_[k - 2] != n - 4 ||
        starts_[k - 3] != n - 5)
        return false;
    if (bc[n - 5] != int32_t(Op::dup) || bc[n - 4] != int32_t(Op::stvar) ||
        bc[n - 1] != int32_t(Op::invisible))
        return false;
    for (int pos : labels_)
        if (pos > int(n - 5) && pos <= int(n)) return false;
    int32_t s = bc[n - 3], slot = bc[n - 2];
    bc.resize(n - 5);
    starts_.resize(k - 3);
    // dup(+1) stvar(-1) invisible pop(-1) == stvar(-1)
    emit(Op::stvar, {s, slot});
    return true;
}

void Compiler::resolve() {
    for (auto& p : patches_) code_->bc[p.first] = labels_[p.second];
}

// Leaves e to GNU R's AST interpreter; stats() counts it by `why`.
void Compiler::evalAst(SEXP e, AstReason why) {
    emit(Op::eval_ast, {constant(e), registerAstSite(why, astLabel(e))});
}

// ---- queries --------------------------------------------------------
// The value of `s` in base. Base closures are lazy-loaded: their
// binding is a promise until first used, which is forced here (as GNU
// R's compiler does when it looks base functions up).
// Forcing runs R code (the lazy-load): see runRCode; a binding that
// cannot be forced is treated as not base's function.
SEXP Compiler::forceBody(void* v) {
    return Rf_eval(static_cast<SEXP>(v), R_BaseEnv);
}

SEXP Compiler::baseValue(SEXP s) {
    SEXP v = SYMVALUE(s);
    if (TYPEOF(v) != PROMSXP) return v;
    if (PRVALUE(v) != R_UnboundValue) return PRVALUE(v);
    return runRCode(forceBody, v);
}

SEXP Compiler::statsNamespace(void*) {
    SEXP name = PROTECT(Rf_mkString("stats"));
    SEXP ns = R_FindNamespace(name);  // loads stats if needed
    UNPROTECT(1);
    return ns;
}

// Does `s` name the base function at compile time (not shadowed)?
bool Compiler::isBase(SEXP s) {
    if (sh_.locals.count(s) || sh_.outer.count(s)) return false;
    // a nested function: decided when the enclosing one was compiled
    if (sh_.nested && languageFun(s)) return true;
    auto it = sh_.baseCache.find(s);
    if (it != sh_.baseCache.end()) return it->second;
    SEXP base = baseValue(s);
    bool result = false;
    if (base != R_UnboundValue && Rf_isFunction(base)) {
        result = true;
        for (SEXP rho = sh_.env;
             rho != R_EmptyEnv && rho != R_BaseEnv && rho != R_BaseNamespace && rho != R_NilValue;
             rho = ENCLOS(rho)) {
            if (!R_existsVarInFrame(rho, s)) continue;
            if (R_BindingIsActive(s, rho)) {
                result = false;
                break;
            }
            SEXP v = Rf_findVarInFrame3(rho, s, TRUE);
            if (TYPEOF(v) == PROMSXP) v = PRVALUE(v);
            if (v == base) break;
            if (Rf_isFunction(v) || v == R_UnboundValue) {
                result = false;
                break;
            }
        }
    }
    sh_.baseCache[s] = result;
    return result;
}

// The function `s` names where this code is compiled when it is base's
// (or the stats namespace's) own definition, else nullptr.
SEXP Compiler::definitionOf(SEXP s) {
    if (isBase(s)) return baseValue(s);
    static SEXP statsNs = nullptr;
    if (!statsNs) {
        // loading stats runs R code: see runRCode
        SEXP ns = runRCode(statsNamespace, nullptr);
        if (TYPEOF(ns) != ENVSXP) return nullptr;
        R_PreserveObject(ns);
        statsNs = ns;
    }
    SEXP def = Rf_findVarInFrame3(statsNs, s, TRUE);
    if (TYPEOF(def) != CLOSXP || sh_.locals.count(s)) return nullptr;
    for (SEXP rho = sh_.env; rho != R_EmptyEnv && rho != R_NilValue; rho = ENCLOS(rho)) {
        if (!R_existsVarInFrame(rho, s)) continue;
        // an active binding would run R code (which may fail) here
        if (R_BindingIsActive(s, rho)) return nullptr;
        SEXP v = Rf_findVarInFrame3(rho, s, TRUE);
        if (v == R_UnboundValue) continue;
        if (TYPEOF(v) == PROMSXP) v = PRVALUE(v);
        return v == def ? def : nullptr;
    }
    return nullptr;
}

// A run-time check that `s` still names `def` before code inlined for
// the call e (see guard_fun); returns the label to bind after that
// code, or -1 when GNU R does not guard `s` either.
int Compiler::guard(SEXP s, SEXP def, SEXP e) {
    if (languageFun(s) || (sh_.nsCode && def == baseValue(s))) return -1;
    int l = newLabel();
    starts_.push_back(code_->bc.size());
    code_->bc.push_back(int32_t(Op::guard_fun));
    code_->bc.push_back(sym(s));
    code_->bc.push_back(constant(def));
    code_->bc.push_back(constant(e));
    patches_.push_back({code_->bc.size(), l});
    code_->bc.push_back(-1);
    adjust(1);  // the value of the call when the guard fails
    expectDepth(l, depth_);
    adjust(-1);
    return l;
}

void Compiler::endGuard(int l) {
    if (l >= 0) bind(l);
}

// `[<-` for `[` etc.: the function a complex assignment calls
bool Compiler::isBaseSetter(SEXP getter) {
    char buf[8];
    const char* n = CHAR(PRINTNAME(getter));
    if (strlen(n) > 3) return false;
    snprintf(buf, sizeof buf, "%s<-", n);
    return isBase(Rf_install(buf));
}

bool Compiler::hasNames(SEXP args) {
    for (SEXP a = args; a != R_NilValue; a = CDR(a))
        if (TAG(a) != R_NilValue) return true;
    return false;
}

bool Compiler::hasDots(SEXP args) {
    for (SEXP a = args; a != R_NilValue; a = CDR(a))
        if (CAR(a) == R_DotsSymbol) return true;
    return false;
}

bool Compiler::hasDotsOrMissing(SEXP args) {
    for (SEXP a = args; a != R_NilValue; a = CDR(a))
        if (CAR(a) == R_DotsSymbol || CAR(a) == R_MissingArg) return true;
    return false;
}

// An index expression whose evaluation cannot touch the assigned vector:
// constants, variables and base arithmetic on those (so evaluating it
// before looking the vector up, as x[i] <- v does here, is unobservable).
bool Compiler::simpleIndex(SEXP e) {
    if (selfEvaluating(e)) return true;
    if (cStackTooDeep()) return false;
    if (TYPEOF(e) == SYMSXP) return e != R_DotsSymbol && e != R_MissingArg && !DDVAL(e);
    if (TYPEOF(e) != LANGSXP || TYPEOF(CAR(e)) != SYMSXP || Rf_length(e) != 3) return false;
    const char* n = CHAR(PRINTNAME(CAR(e)));
    if (strcmp(n, "+") && strcmp(n, "-") && strcmp(n, "*") && strcmp(n, "%/%")) return false;
    if (!isBase(CAR(e)) || hasNames(CDR(e))) return false;
    return simpleIndex(CADR(e)) && simpleIndex(CADDR(e));
}

// A binop operand the binop can load itself: a variable (as ldvar) or a
// constant (as push). Fills {kind, x, y}.
bool Compiler::simpleOperand(SEXP e, int32_t* spec) {
    if (TYPEOF(e) == SYMSXP) {
        if (e == R_MissingArg || e == R_DotsSymbol || DDVAL(e)) return false;
        spec[0] = insn::kFromVariable;
        spec[1] = sym(e);
        spec[2] = cache(e);
        return true;
    }
    if (selfEvaluating(e)) {
        spec[0] = insn::kFromConstant;
        spec[1] = constant(e);
        spec[2] = 0;
        return true;
    }
    return false;
}

// ---- expressions ----------------------------------------------------
void Compiler::expr(SEXP e) {
    if (sh_.tooDeep || cStackTooDeep()) {
        sh_.tooDeep = broken = true;
        adjust(1);  // as if the value were pushed; the code is dropped
        return;
    }
    switch (TYPEOF(e)) {
        case SYMSXP:
            if (DDVAL(e) && e != R_DotsSymbol)
                emit(Op::ldddvar, {sym(e)});
            else if (e == R_MissingArg || e == R_DotsSymbol)
                evalAst(e, e == R_MissingArg ? AstReason::MissingArg : AstReason::Dots);
            else if (curCall_ != R_NilValue)
                emit(Op::ldvar_in, {sym(e), cache(e), constant(curCall_)});
            else
                emit(Op::ldvar, {sym(e), cache(e)});
            return;
        case LANGSXP: {
            // only the inlined call's own symbol arguments name it in
            // errors (GNU R compiles a call argument with its own location)
            SEXP outer = curCall_;
            curCall_ = R_NilValue;
            call(e);
            curCall_ = outer;
            return;
        }
        default:
            if (selfEvaluating(e)) {
                emit(Op::push, {constant(e)});  // push makes the result visible
            } else {
                evalAst(e, AstReason::OddConstant);
            }
    }
}

// An index of `[` / `[[` (also in x[i] <- v): a variable is read as GNU R's
// byte code reads one there (GETVAR_MISSOK), so a missing argument is the
// empty index (x[b] is x when b is missing) instead of an error.
void Compiler::index(SEXP e) {
    if (TYPEOF(e) == SYMSXP && e != R_DotsSymbol && e != R_MissingArg) {
        emit(Op::ldvar_missok, {sym(e), DDVAL(e) ? -1 : cache(e)});
        return;
    }
    // an arithmetic index may use a scratch result (refcounts guard any use
    // that outlives the subset or the store)
    binopOperand_ = true;
    expr(e);
    binopOperand_ = false;
}

void Compiler::call(SEXP e) {
    // Set by `x <- a op b`: the binop may reuse x's old value in place.
    int target = assignTarget_;
    assignTarget_ = 0;
    bool stmt = stmtPos_;
    stmtPos_ = false;
    bool operand = binopOperand_;
    binopOperand_ = false;
    SEXP fn = CAR(e);
    if (TYPEOF(fn) == SYMSXP) evalInLoop(fn);
    if (TYPEOF(fn) == SYMSXP && isBase(fn)) {
        Mark m = mark();
        int l = guard(fn, baseValue(fn), e);
        if (inlineBase(e, target, stmt, operand)) {
            endGuard(l);
            return;
        }
        rollback(m);
    }
    // inherits(), identical(), vector(), dnorm(), ... as GNU R's compiler
    // inlines them (see inline_internals.cpp)
    if (TYPEOF(fn) == SYMSXP)
        if (SEXP inl = inlineSimpleInternal(e, &Compiler::definitionOfCb, this)) {
            // GNU R passes f(args) to the internal; errors name the call e
            PROTECT(inl);
            int l = guard(fn, definitionOf(fn), e);
            // its arguments' lookup errors name e, as in GNU R's code
            SEXP outer = curCall_;
            curCall_ = e;
            builtinCall(CADR(inl), CADR(inl), INTERNAL(CAR(CADR(inl))), operand, e);
            curCall_ = outer;
            endGuard(l);
            UNPROTECT(1);
            return;
        }
    genericCall(e);
}

SEXP Compiler::definitionOfCb(SEXP s, void* self) {
    return static_cast<Compiler*>(self)->definitionOf(s);
}

// Code for a call of the base function CAR(e) (not shadowed at compile
// time) inlined as GNU R's compiler does; false (nothing emitted) when
// this call is not inlined.
bool Compiler::inlineBase(SEXP e, int target, bool stmt, bool operand) {
    SEXP fn = CAR(e);
    SEXP args = CDR(e);
    int nargs = Rf_length(args);
    {
        const char* n = CHAR(PRINTNAME(fn));
        bool named = hasNames(args);
        bool plain = !named && !hasDotsOrMissing(args);
        if (!strcmp(n, "{")) return (block(args, stmt, e)), true;
        if (!strcmp(n, "local") && nargs == 1 && plain) {
            // local(expr) as GNU R's compiler inlines it: (function() expr)()
            SEXP fn = PROTECT(Rf_lang4(Rf_install("function"), R_NilValue, CAR(args), R_NilValue));
            SEXP inner = PROTECT(Rf_lcons(fn, R_NilValue));
            constant(inner);  // kept alive by the pool
            UNPROTECT(2);
            genericCall(inner);
            return true;
        }
        if (!strcmp(n, "(") && nargs == 1 && plain) {
            expr(CAR(args));
            emit(Op::visible);
            return true;
        }
        if (!strcmp(n, "if") && (nargs == 2 || nargs == 3) && plain)
            return (ifThenElse(e, stmt)), true;
        if (!strcmp(n, "for") && nargs == 3 && plain && TYPEOF(CAR(args)) == SYMSXP)
            return (forLoop(e)), true;
        if (!strcmp(n, "while") && nargs == 2 && plain) return (whileLoop(e)), true;
        if (!strcmp(n, "repeat") && nargs == 1 && plain) return (repeatLoop(e)), true;
        if ((!strcmp(n, "break") || !strcmp(n, "next")) && nargs == 0)
            if (breakNext(e, n[0] == 'b')) return true;
        if ((!strcmp(n, "<-") || !strcmp(n, "=") || !strcmp(n, "<<-")) && nargs == 2 && !named)
            return (assign(e, n[1] == '<', stmt)), true;
        if (!strcmp(n, "function") && nargs >= 2) return (function(e)), true;
        if (!strcmp(n, "quote") && nargs == 1 && plain) {
            emit(Op::push, {constant(CAR(args))});
            return true;
        }
        if (!strcmp(n, "return") && code_->kind == CodeKind::Function && nargs <= 1 && plain) {
            if (nargs == 0)
                emit(Op::push_null);
            else
                expr(CAR(args));
            emit(Op::ret);
            adjust(1);  // unreachable continuation keeps the depth model
            return true;
        }
        if (!strcmp(n, "UseMethod") && code_->kind == CodeKind::Function && !named &&
            (nargs == 1 || nargs == 2) && TYPEOF(CAR(args)) == STRSXP && XLENGTH(CAR(args)) == 1) {
            // the object, if given, as a variable (GNU R's UseMethod
            // evaluates it again when it has to take over)
            SEXP obj = nargs == 2 ? CADR(args) : R_NilValue;
            if (nargs == 1 || (TYPEOF(obj) == SYMSXP && obj != R_DotsSymbol && !DDVAL(obj) &&
                               obj != R_MissingArg)) {
                if (nargs == 2) emit(Op::ldvar, {sym(obj), cache(obj)});
                emit(Op::use_method, {constant(CAR(args)), nargs - 1, constant(e)});
                return true;
            }
        }
        if ((!strcmp(n, "&&") || !strcmp(n, "||")) && nargs == 2 && plain)
            return (logic2(e, n[0] == '&' ? 1 : 2)), true;
        if (!strcmp(n, "switch") && nargs >= 1 && !hasDots(args))
            if (switchCall(e)) return true;
        ArithOp aop;
        if (plain && nargs == 2 && binaryOp(n, &aop)) {
            // A binop whose value only feeds another binop keeps a scratch
            // result object per activation instead of allocating each time.
            int scratch = operand ? ++code_->nScratch : 0;
            // Variables and constants are loaded by the binop itself
            // (one dispatch instead of three); `a` only if `b` is too.
            int32_t spec[6] = {0, 0, 0, 0, 0, 0};
            bool fuseB = simpleOperand(CADR(args), spec + 3);
            bool fuseA = fuseB && simpleOperand(CAR(args), spec);
            if (!fuseA) {
                spec[0] = insn::kFromStack;
                binopOperand_ = true;
                expr(CAR(args));
            }
            if (!fuseB) {
                binopOperand_ = true;
                expr(CADR(args));
            }
            binopOperand_ = false;
            int32_t tail[6] = {int32_t(aop), constant(SYMVALUE(fn)), constant(e), target, scratch,
                               fb()};
            // Always ld2_binop (operands already on the stack have kind 0):
            // its quick path serves both.
            size_t at = code_->bc.size();
            starts_.push_back(at);
            code_->bc.push_back(int32_t(Op::ld2_binop));
            for (int32_t o : spec) code_->bc.push_back(o);
            for (int32_t o : tail) code_->bc.push_back(o);
            account(at);
            return true;
        }
        if (plain && nargs == 1 && unaryOp(n, &aop)) {
            // -<number literal> folded (as GNU R's compiler folds it)
            SEXP a = CAR(args);
            if (!strcmp(n, "-") && (TYPEOF(a) == REALSXP || TYPEOF(a) == INTSXP) &&
                ATTRIB(a) == R_NilValue && XLENGTH(a) == 1 &&
                (TYPEOF(a) == REALSXP || INTEGER(a)[0] != NA_INTEGER)) {
                SEXP neg = PROTECT(TYPEOF(a) == REALSXP ? Rf_ScalarReal(-REAL(a)[0])
                                                        : Rf_ScalarInteger(-INTEGER(a)[0]));
                emit(Op::push, {constant(neg)});
                UNPROTECT(1);
                return true;
            }
            expr(CAR(args));
            emit(Op::unop, {int32_t(aop), constant(SYMVALUE(fn)), constant(e), fb()});
            return true;
        }
        if ((!strcmp(n, "[") || !strcmp(n, "[[")) && nargs >= 2 && nargs <= 3 &&
            ((TYPEOF(CAR(args)) == SYMSXP && CAR(args) != R_DotsSymbol &&
              CAR(args) != R_MissingArg && !DDVAL(CAR(args))) ||
             TYPEOF(CAR(args)) == LANGSXP) &&
            TAG(args) == R_NilValue)
            if (subset(e, n[1] == '[' ? 2 : 1, operand)) return true;
        if (!strcmp(n, "$") && nargs == 2 && !named && TYPEOF(CAR(args)) == SYMSXP &&
            CAR(args) != R_DotsSymbol && !DDVAL(CAR(args)) &&
            (TYPEOF(CADR(args)) == SYMSXP ||
             (TYPEOF(CADR(args)) == STRSXP && XLENGTH(CADR(args)) == 1)))
            return (dollar(e)), true;
        // log(x), log(x, base) as GNU R's LOG / LOGBASE instructions: the
        // arguments evaluated as a builtin's (a missing one is an error that
        // names it, not log's own "x"), then log's builtin part.
        if (!strcmp(n, "log") && plain && (nargs == 1 || nargs == 2))
            return (builtinCall(e, nullptr, nullptr, operand)), true;
        // Base builtins (as GNU R's compiler does): arguments evaluated
        // inline, no promises, no run-time function lookup.
        if (TYPEOF(SYMVALUE(fn)) == BUILTINSXP && !hasDotsOrMissing(args))
            return (builtinCall(e, nullptr, nullptr, operand)), true;
        // .Internal(lapply(X, FUN)), .Internal(vapply(X, FUN, FUN.VALUE,
        // USE.NAMES)) (base's lapply, vapply): see apply_internals.cpp
        if (!strcmp(n, ".Internal") && nargs == 1 && plain && isApplyInternal(CAR(args))) {
            emit(Op::apply_internal, {constant(CAR(args)), constant(e)});
            return true;
        }
        // .Internal(f(args)) with f a builtin internal: likewise (GNU R's
        // compiler passes f(args) to f; errors without a call name e).
        if (!strcmp(n, ".Internal") && nargs == 1 && plain && TYPEOF(CAR(args)) == LANGSXP &&
            TYPEOF(CAR(CAR(args))) == SYMSXP && TYPEOF(INTERNAL(CAR(CAR(args)))) == BUILTINSXP &&
            !hasDotsOrMissing(CDR(CAR(args))))
            return (builtinCall(CAR(args), CAR(args), INTERNAL(CAR(CAR(args))), false, e)), true;
    }
    return false;
}

// `e` is the call reported in errors; the arguments are those of `inner`
// (e itself unless e is .Internal(inner)), and `fun` the builtin.
void Compiler::builtinCall(SEXP e, SEXP inner, SEXP fun, bool operand, SEXP errExpr) {
    if (!inner) inner = e;
    if (!fun) fun = SYMVALUE(CAR(e));
    CallSite cs;
    cs.ast = constant(e);
    if (errExpr) cs.expr = constant(errExpr);
    // sqrt(x) etc. feeding a binop: a scratch object for the result
    if (operand && isMath1Builtin(fun)) cs.scratch = ++code_->nScratch;
    int n = 0;
    // GNU R's compiler ignores the argument name of floor(), sqrt(), ...,
    // is.null(), is.character(), ...
    bool math1 = Rf_length(CDR(inner)) == 1 && (isMath1Builtin(fun) || isTypeTestBuiltin(fun));
    // While later arguments are evaluated (they can run any code, say force
    // a promise that rebinds a variable whose old value is an earlier
    // argument), the earlier values count as referenced, as in GNU R's byte
    // code: otherwise GNU R's arithmetic may take one for a temporary and
    // overwrite it. Only arguments before the last one that is not a
    // constant need it.
    int lastCode = -1, k = 0;
    for (SEXP a = CDR(inner); a != R_NilValue; a = CDR(a), k++) {
        int t = TYPEOF(CAR(a));
        if (t == SYMSXP || t == LANGSXP || t == PROMSXP || t == BCODESXP) lastCode = k;
    }
    for (SEXP a = CDR(inner); a != R_NilValue; a = CDR(a), n++) {
        // builtins copy or reference-count what they keep of an argument
        binopOperand_ = true;
        expr(CAR(a));
        binopOperand_ = false;
        if (n < lastCode) emit(Op::count_arg);
        cs.args.push_back({ArgKind::Const, 0, math1 ? R_NilValue : TAG(a)});
    }
    code_->calls.push_back(cs);
    emit(Op::call_builtin, {n, int32_t(code_->calls.size() - 1), constant(fun), fb()});
}

// a && b, a || b: inline when a (and b) are logical scalars; otherwise
// GNU R's operator runs with the already evaluated operand(s).
void Compiler::logic2(SEXP e, int kind) {
    SEXP args = CDR(e);
    int lEnd = newLabel(), lSlow = newLabel();
    int call = constant(e);
    expr(CAR(args));
    code_->bc.push_back(int32_t(Op::lgl_first));
    code_->bc.push_back(kind);
    patches_.push_back({code_->bc.size(), lEnd});
    code_->bc.push_back(-1);
    patches_.push_back({code_->bc.size(), lSlow});
    code_->bc.push_back(-1);
    code_->bc.push_back(call);
    expectDepth(lEnd, depth_);
    expectDepth(lSlow, depth_);
    expr(CADR(args));
    emit(Op::lgl_second, {kind, call});
    emitJump(Op::br, lEnd);
    bind(lSlow);
    emit(Op::lgl_slow, {kind, call});
    bind(lEnd);
}

// stmt: the block's value is not used (a loop body, a statement), so its
// last expression is a statement too.
// With source references (keep.source), each statement's srcref is the
// current one while it runs and none after the block, as GNU R's `{`
// does: calls made from it carry it in their contexts (sys.calls(),
// traceback()).
void Compiler::block(SEXP args, bool stmt, SEXP e) {
    if (args == R_NilValue) {
        emit(Op::push_null);
        return;
    }
    SEXP srcrefs = e == R_NilValue ? R_NilValue : Rf_getAttrib(e, Rf_install("srcref"));
    bool withSrcrefs = TYPEOF(srcrefs) == VECSXP && XLENGTH(srcrefs) == Rf_length(args) + 1;
    int i = 1;
    for (SEXP a = args; a != R_NilValue; a = CDR(a), i++) {
        if (withSrcrefs) emit(Op::srcref, {constant(VECTOR_ELT(srcrefs, i))});
        stmtPos_ = CDR(a) != R_NilValue || stmt;
        expr(CAR(a));
        stmtPos_ = false;
        if (CDR(a) != R_NilValue) emit(Op::pop);
    }
    if (withSrcrefs) emit(Op::srcref, {constant(R_NilValue)});
}

void Compiler::ifThenElse(SEXP e, bool stmt) {
    SEXP args = CDR(e);
    int lElse = newLabel(), lEnd = newLabel();
    expr(CAR(args));
    emitJump(Op::brfalse, lElse, {constant(e), fb()});
    stmtPos_ = stmt;
    expr(CADR(args));
    stmtPos_ = false;
    emitJump(Op::br, lEnd);
    adjust(-1);
    bind(lElse);
    if (CDDR(args) != R_NilValue) {
        stmtPos_ = stmt;
        expr(CADDR(args));
        stmtPos_ = false;
    } else {
        emit(Op::push_null);
        emit(Op::invisible);
    }
    bind(lEnd);
}

// switch(EXPR, ...) as GNU R's compiler does it: EXPR, then a table
// dispatch (names matched exactly, fall-through to the next non-empty
// alternative, the unnamed alternative as character default, a numeric
// index else), then the alternatives. Multiple defaults: GNU R's
// switch() reports the error at run time.
//
//   switch(x, a = , b = 1, 2)  =>  <x>; switch_table call ["a","b",""] 3 4
//                                  br Lb; br Lb; br L2;  br Lmiss; br Lb; br L2; br Ldflt
//                                  Lmiss: stop("empty alternative in numeric switch")
//                                  Ldflt: push_null; invisible; br Lend
//                                  Lb: <1>; br Lend   L2: <2>; br Lend   Lend:
bool Compiler::switchCall(SEXP e) {
    SEXP cases = CDDR(e);
    std::vector<SEXP> arms;
    std::vector<std::string> names;
    std::vector<bool> miss;
    bool haveNames = false, anyMiss = false;
    for (SEXP a = cases; a != R_NilValue; a = CDR(a)) {
        arms.push_back(CAR(a));
        if (TAG(a) != R_NilValue) haveNames = true;
        names.push_back(TAG(a) == R_NilValue ? "" : CHAR(PRINTNAME(TAG(a))));
        miss.push_back(CAR(a) == R_MissingArg);
        if (miss.back()) anyMiss = true;
    }
    size_t n = arms.size();
    if (!haveNames && n == 1) haveNames = true;  // switch(x, 1): a character default
    int ndflt = 0;
    for (auto& nm : names) ndflt += nm.empty();
    if (haveNames && ndflt > 1) return false;
    bool haveCharDflt = haveNames && ndflt > 0;

    int lMiss = anyMiss ? newLabel() : -1, lDflt = newLabel(), lEnd = newLabel();
    std::vector<int> armLabel(n);
    for (size_t i = 0; i < n; i++) armLabel[i] = miss[i] ? lMiss : newLabel();
    // the first non-empty alternative at or after the first one named nm
    auto action = [&](const std::string& nm) {
        size_t start = 0;
        while (start < n && names[start] != nm) start++;
        for (size_t j = start; j < n; j++)
            if (!miss[j]) return armLabel[j];
        return lDflt;
    };
    std::vector<std::string> unique;
    std::vector<int> charLabels;
    if (haveNames) {
        for (auto& nm : names)
            if (!nm.empty() && std::find(unique.begin(), unique.end(), nm) == unique.end())
                unique.push_back(nm);
        for (auto& nm : unique) charLabels.push_back(action(nm));
        unique.push_back("");
        charLabels.push_back(haveCharDflt ? action("") : lDflt);
    }
    int namesIdx = -1;
    if (haveNames) {
        SEXP nv = PROTECT(Rf_allocVector(STRSXP, unique.size()));
        for (size_t k = 0; k < unique.size(); k++)
            SET_STRING_ELT(nv, k, Rf_mkChar(unique[k].c_str()));
        namesIdx = constant(nv);
        UNPROTECT(1);
    }
    expr(CADR(e));
    emit(Op::switch_table, {constant(e), namesIdx, int32_t(charLabels.size()), int32_t(n + 1)});
    for (int l : charLabels) emitJump(Op::br, l);
    for (size_t i = 0; i < n; i++) emitJump(Op::br, armLabel[i]);
    emitJump(Op::br, lDflt);
    if (anyMiss) {
        bind(lMiss);
        SEXP stopCall = PROTECT(
            Rf_lang2(Rf_install("stop"), Rf_mkString("empty alternative in numeric switch")));
        expr(stopCall);
        UNPROTECT(1);
        emitJump(Op::br, lEnd);
        adjust(-1);
    }
    bind(lDflt);
    emit(Op::push_null);
    emit(Op::invisible);
    emitJump(Op::br, lEnd);
    adjust(-1);
    for (size_t i = 0; i < n; i++) {
        if (miss[i]) continue;
        bind(armLabel[i]);
        expr(arms[i]);
        emitJump(Op::br, lEnd);
        adjust(-1);
    }
    adjust(1);
    bind(lEnd);
    return true;
}

void Compiler::rollback(const Mark& m) {
    while (!starts_.empty() && starts_.back() >= m.bc) starts_.pop_back();
    code_->bc.resize(m.bc);
    patches_.resize(m.patches);
    depth_ = m.depth;
}

void Compiler::forLoop(SEXP e) {
    SEXP args = CDR(e);
    loop(e, [&](size_t idx) {
        SEXP seq = CADR(args);
        if (TYPEOF(seq) == LANGSXP && CAR(seq) == Rf_install(":") && isBase(CAR(seq)) &&
            Rf_length(seq) == 3 && !hasNames(CDR(seq)) && !hasDotsOrMissing(CDR(seq))) {
            // from:to is not built for an integer range (see for_colon)
            binopOperand_ = true;
            expr(CADR(seq));
            binopOperand_ = true;
            expr(CADDR(seq));
            binopOperand_ = false;
            emit(Op::for_colon, {constant(seq), constant(e)});
        } else {
            expr(seq);
            emit(Op::for_init, {constant(e)});
        }
        // as GNU R's STARTFOR: the variable is NULL once the sequence is
        // accepted (and stays NULL when the loop never runs)
        emit(Op::push_null);
        emit(Op::stvar, {sym(CAR(args)), cache(CAR(args))});
        int lStep = newLabel(), lEnd = newLabel();
        sh_.loops.push_back({false, lEnd, lStep, depth_, false});
        bind(lStep);
        emitJump(Op::for_step, lEnd, {sym(CAR(args)), cache(CAR(args)), fb()});
        loopSlots_ += 3;
        loopBody(CADDR(args), lEnd);
        loopSlots_ -= 3;
        emitJump(Op::br_back, lStep);
        bind(lEnd);
        emit(Op::popn, {3});
        emit(Op::push_null);
        emit(Op::invisible);
    });
}

void Compiler::whileLoop(SEXP e) {
    SEXP args = CDR(e);
    loop(e, [&](size_t idx) {
        int lCond = newLabel(), lEnd = newLabel();
        sh_.loops.push_back({false, lEnd, lCond, depth_, false});
        bind(lCond);
        expr(CAR(args));
        emitJump(Op::brfalse, lEnd, {constant(e), fb()});
        loopBody(CADR(args), lEnd);
        emitJump(Op::br_back, lCond);
        bind(lEnd);
        emit(Op::push_null);
        emit(Op::invisible);
    });
}

void Compiler::repeatLoop(SEXP e) {
    SEXP args = CDR(e);
    loop(e, [&](size_t idx) {
        int lTop = newLabel(), lEnd = newLabel();
        sh_.loops.push_back({false, lEnd, lTop, depth_, false});
        bind(lTop);
        loopBody(CAR(args), lEnd);
        emitJump(Op::br_back, lTop);
        bind(lEnd);
        emit(Op::push_null);
        emit(Op::invisible);
    });
}

// A call named eval, evalq or source may evaluate a break/next of the
// innermost loop around it (`eval(quote(break))`), which only GNU R's loop
// context can receive: GNU R's compiler gives such a loop a context whatever
// the function named so is, and so does rir.
void Compiler::evalInLoop(SEXP fn) {
    static const SEXP names[] = {Rf_install("eval"), Rf_install("evalq"), Rf_install("source")};
    if (fn != names[0] && fn != names[1] && fn != names[2]) return;
    for (size_t i = sh_.loops.size(); i-- > 0;)
        if (!sh_.loops[i].barrier) {
            sh_.loops[i].poisoned = true;
            return;
        }
}

// Returns false when the break/next must go through GNU R.
bool Compiler::breakNext(SEXP e, bool isBreak) {
    for (size_t i = sh_.loops.size(); i-- > 0;) {
        Loop& l = sh_.loops[i];
        if (l.barrier) {
            // Behind a promise/function boundary: the nearest enclosing
            // loop (if any) must run with GNU R's loop contexts.
            for (size_t j = i; j-- > 0;)
                if (!sh_.loops[j].barrier) {
                    sh_.loops[j].poisoned = true;
                    break;
                }
            return false;
        }
        int extra = depth_ - l.depth;
        if (extra > 0) {
            emit(Op::popn, {extra});
        }
        emitJump(isBreak ? Op::br : Op::br_back, isBreak ? l.breakLabel : l.nextLabel);
        depth_ += extra;
        adjust(1);  // the (unreachable) value of the break expression
        return true;
    }
    return false;
}

// `operand`: the value only feeds a binop, so a per-activation scratch
// object may hold the element (as for nested binops).
bool Compiler::subset(SEXP e, int kind, bool operand) {
    SEXP args = CDR(e);
    // index arguments: no dots; names allowed (drop=, exact=)
    for (SEXP a = CDR(args); a != R_NilValue; a = CDR(a))
        if (CAR(a) == R_DotsSymbol) return false;
    CallSite cs;
    cs.ast = constant(e);
    if (operand) cs.scratch = ++code_->nScratch;
    int n = 0;
    for (SEXP a = CDR(args); a != R_NilValue; a = CDR(a), n++)
        cs.args.push_back({ArgKind::Const, 0, TAG(a)});
    int lSlow = newLabel(), lEnd = newLabel();
    bool symX = TYPEOF(CAR(args)) == SYMSXP;
    int csIdx = int(code_->calls.size());
    code_->calls.push_back(cs);
    int fbIdx = fb();
    // v[i] with v and i local variables or constants: first tried by
    // one instruction, which falls through to the general sequence below
    // when any operand is not a plain local value or the fast path does
    // not apply
    auto loadKind = [](bool variable) {
        return int32_t(variable ? insn::kFromVariable : insn::kFromConstant);
    };
    auto simpleIdx = [](SEXP idx) {
        return (TYPEOF(idx) == SYMSXP && idx != R_DotsSymbol && idx != R_MissingArg &&
                !DDVAL(idx)) ||
               (selfEvaluating(idx) && TYPEOF(idx) != SYMSXP);
    };
    bool plainX =
        symX && !DDVAL(CAR(args)) && CAR(args) != R_DotsSymbol && CAR(args) != R_MissingArg;
    SEXP idx = n == 1 ? CAR(CDR(args)) : R_NilValue;
    if (plainX && n == 1 && TAG(CDR(args)) == R_NilValue && simpleIdx(idx)) {
        bool var = TYPEOF(idx) == SYMSXP;
        emitJump(Op::subset_var, lEnd,
                 {sym(CAR(args)), cache(CAR(args)), loadKind(var), var ? sym(idx) : constant(idx),
                  var ? cache(idx) : 0, kind, csIdx, fbIdx});
        adjust(-1);  // falling through: nothing pushed
    }
    // m[i, j] likewise (a plain matrix and scalar indices)
    if (plainX && n == 2 && TAG(CDR(args)) == R_NilValue && TAG(CDDR(args)) == R_NilValue &&
        simpleIdx(CADR(args)) && simpleIdx(CADDR(args))) {
        SEXP i = CADR(args), j = CADDR(args);
        bool vi = TYPEOF(i) == SYMSXP, vj = TYPEOF(j) == SYMSXP;
        emitJump(Op::subset_var2, lEnd,
                 {sym(CAR(args)), cache(CAR(args)), loadKind(vi), vi ? sym(i) : constant(i),
                  vi ? cache(i) : 0, loadKind(vj), vj ? sym(j) : constant(j), vj ? cache(j) : 0,
                  kind, csIdx, fbIdx});
        adjust(-1);  // falling through: nothing pushed
    }
    if (symX) {
        emit(Op::ldvar, {sym(CAR(args)), cache(CAR(args))});
        emitJump(Op::brfalse, lSlow, {-1, fb()});  // -1: "branch if object"
        adjust(1);                                 // object test keeps x
    } else {
        // x is an expression: evaluate it once; objects go to GNU R's
        // operator with x passed as its value.
        expr(CAR(args));
        emitJump(Op::br_obj, lSlow);
    }
    for (SEXP a = CDR(args); a != R_NilValue; a = CDR(a)) {
        if (CAR(a) == R_MissingArg)
            emit(Op::push, {constant(R_MissingArg)});
        else
            index(CAR(a));
    }
    emit(Op::subset, {kind, n, csIdx, fbIdx});
    int after = depth_;  // the result on top
    emitJump(Op::br, lEnd);
    depth_ = symX ? after - 1  // the object test popped x
                  : after;     // br_obj kept x
    bind(lSlow);
    // an object: GNU R's operator (dispatch) with x as an evaluated
    // promise; the object test popped a variable x, which is read again
    if (symX) emit(Op::ldvar, {sym(CAR(args)), cache(CAR(args))});
    emit(Op::subset_obj, {kind, cs.ast});
    bind(lEnd);
    return true;
}

// Names are matched by CHARSXP identity, which is exact for ASCII names.
bool Compiler::asciiName(SEXP nm) {
    for (const char* p = CHAR(nm); *p; p++)
        if ((unsigned char)*p >= 128) return false;
    return nm != NA_STRING;
}

void Compiler::dollar(SEXP e) {
    SEXP args = CDR(e);
    SEXP name = CADR(args);
    SEXP nm = TYPEOF(name) == SYMSXP ? PRINTNAME(name) : STRING_ELT(name, 0);
    if (!asciiName(nm)) return genericCall(e);
    emit(Op::ldvar, {sym(CAR(args)), cache(CAR(args))});
    emit(Op::dollar, {constant(nm), constant(Rf_installTrChar(nm)), constant(e), fb()});
}

void Compiler::function(SEXP e) {
    SEXP args = CDR(e);
    SEXP formals = CAR(args);
    for (SEXP f = formals; f != R_NilValue; f = CDR(f))
        if (TYPEOF(f) != LISTSXP || TYPEOF(TAG(f)) != SYMSXP)
            return evalAst(e, AstReason::OddFunction);
    SEXP body = CADR(args);
    switch (TYPEOF(body)) {
        case CLOSXP:
        case BUILTINSXP:
        case SPECIALSXP:
        case DOTSXP:
        case ANYSXP:
            return evalAst(e, AstReason::OddFunction);
        default:
            break;
    }
    SEXP srcref = CDDR(args) != R_NilValue ? CADDR(args) : R_NilValue;
    SEXP tramp = PROTECT(makeFunctionBody(formals, body, "<anonymous>"));
    // (a closure the AST interpreter makes is one it runs, unless GNU R's
    // JIT would compile it)
    if (sh_.astFlavor && !gnurJitCompiles(body, false))
        DispatchTable::unpack(trampolineTarget(tramp))->astFlavor = true;
    // GNU R compiles a nested function together with the enclosing one:
    // whether a language function it calls is shadowed is decided now
    // (by the enclosing function's locals and this environment), not
    // by what the frame holds when the nested function is first called.
    std::unordered_set<SEXP>& used = sh_.scratchSet;
    used.clear();
    languageCalls(body, used, sh_.tooDeep);
    if (sh_.tooDeep) {
        broken = true;
        UNPROTECT(1);
        return evalAst(e, AstReason::Other);
    }
    int nshadow = 0;
    for (SEXP v : used) nshadow += !isBase(v);
    SEXP list = PROTECT(Rf_allocVector(VECSXP, nshadow));
    int k = 0;
    for (SEXP v : used)
        if (!isBase(v)) SET_VECTOR_ELT(list, k++, v);
    DispatchTable::unpack(trampolineTarget(tramp))->setOuterLocals(list);
    UNPROTECT(1);
    SEXP spec = PROTECT(Rf_allocVector(VECSXP, 3));
    SET_VECTOR_ELT(spec, 0, formals);
    SET_VECTOR_ELT(spec, 1, tramp);
    SET_VECTOR_ELT(spec, 2, srcref);
    int c = code_->addPool(spec);
    UNPROTECT(2);
    emit(Op::mkclosure, {c});
    emit(Op::visible);
}

// A call whose function is resolved at run time.
void Compiler::genericCall(SEXP e) {
    SEXP fn = CAR(e);
    if (TYPEOF(fn) == SYMSXP)
        emit(Op::ldfun, {sym(fn), constant(e)});
    else
        expr(fn);
    CallSite cs;
    cs.ast = constant(e);
    for (SEXP a = CDR(e); a != R_NilValue; a = CDR(a)) cs.args.push_back(callArg(CAR(a), TAG(a)));
    code_->calls.push_back(cs);
    emit(Op::call, {int32_t(code_->calls.size() - 1), fb()});
}

// An argument of a call: a constant, a variable, a promise, `...` or empty.
CallArg Compiler::callArg(SEXP v, SEXP tag) {
    CallArg arg{ArgKind::Const, 0, tag};
    if (v == R_DotsSymbol) {
        arg.kind = ArgKind::Dots;
    } else if (v == R_MissingArg) {
        arg.kind = ArgKind::Missing;
    } else if (selfEvaluating(v)) {
        arg.kind = ArgKind::Const;
        arg.pool = constant(v);
    } else if (TYPEOF(v) == SYMSXP && !DDVAL(v)) {
        arg.kind = ArgKind::Symbol;
        arg.pool = sym(v);
    } else {
        arg.kind = ArgKind::Code;
        arg.pool = promise(v);
    }
    return arg;
}

void Compiler::loopBody(SEXP body, int lEnd) {
    if (!ctxLoop_) {  // inline, its value dropped
        stmtPos_ = true;
        expr(body);
        stmtPos_ = false;
        emit(Op::pop);
        return;
    }
    // Context mode: compiled as promise code (it runs in this environment but in its own
    // interpreter activation): its break/next, direct or not, are GNU R's,
    // and they find the context loop_body pushes for each iteration.
    int idx = promise(body);
    emitJump(Op::loop_body, lEnd, {idx});
}

int Compiler::promise(SEXP ast) {
    Code* child = Code::create(CodeKind::Promise, ast);
    int idx = code_->addPool(child->container);
    sh_.loops.push_back({true, -1, -1, 0, false});
    Compiler sub(child, sh_);
    sub.compileBody(ast);
    if (sub.broken) broken = true;
    sh_.loops.pop_back();
    child->finish();
    child->trampoline = makeTrampoline(ast, child->container);
    child->addPool(child->trampoline);
    stats.promises_compiled++;
    return idx;
}

static Code* compileWith(CodeKind kind, SEXP formals, SEXP body, SEXP env, SEXP outer,
                         bool astFlavor = false) {
    double t0 = nowSeconds();
    Shared sh;
    sh.env = env;
    sh.astFlavor = astFlavor;
    sh.nested = TYPEOF(outer) == VECSXP;
    if (sh.nested)
        for (R_xlen_t i = 0; i < XLENGTH(outer); i++) sh.outer.insert(VECTOR_ELT(outer, i));
    // GNU R's topenv(): the first global, base or namespace environment
    SEXP top = env;
    while (top != R_EmptyEnv && top != R_NilValue && top != R_GlobalEnv && top != R_BaseEnv &&
           top != R_BaseNamespace && !R_IsNamespaceEnv(top))
        top = ENCLOS(top);
    sh.nsCode =
        (top == R_BaseNamespace || (top != R_NilValue && R_IsNamespaceEnv(top))) && top == env;
    for (SEXP f = formals; f != R_NilValue; f = CDR(f)) {
        sh.locals.insert(TAG(f));
        if (TYPEOF(CAR(f)) == LANGSXP) findLocals(CAR(f), sh.locals, sh.tooDeep);
    }
    findLocals(body, sh.locals, sh.tooDeep);
    Code* code = Code::create(kind, body);
    PROTECT(code->container);
    Compiler c(code, sh);
    if (!sh.tooDeep) c.compileBody(body);
    if (!sh.tooDeep && !c.broken && kind == CodeKind::Function) {
        // Default arguments that are calls become rir promise code, so that
        // forcing them does not go through GNU R's AST interpreter (see
        // directCall); others stay ASTs.
        for (SEXP f = formals; f != R_NilValue; f = CDR(f))
            code->defaults.push_back(TYPEOF(CAR(f)) == LANGSXP ? c.defaultArg(CAR(f)) : -1);
    }
    code->finish();
    // RIR_DEBUG=verify: the bytecode verifier checks the code and all its
    // promises; code it rejects is not run (GNU R's evaluator runs the body)
    // Why this body goes to GNU R's evaluator instead, if it does: an
    // expression nested too deeply for the C stack (GNU R's own error
    // "evaluation nested too deeply", as its compiler gives up on it too),
    // an internal inconsistency, or (RIR_DEBUG=verify) code the bytecode
    // verifier rejects.
    static char refusal[360];
    refusal[0] = 0;
    if (sh.tooDeep)
        snprintf(refusal, sizeof refusal, "%s",
                 "expression nested too deeply for rir's compiler; using GNU R's evaluator");
    else if (c.broken)
        snprintf(refusal, sizeof refusal, "%s",
                 "rir compiler stack-model check failed; using GNU R's evaluator");
    else if (debugFlags.verify) {
        stats.verified++;
        std::string e = verifyAll(code);
        if (!e.empty()) {
            snprintf(refusal, sizeof refusal, "bytecode verifier: %s", e.c_str());
            stats.verify_failures++;
            REprintf("rir: %s\n", refusal);
        }
    }
    if (refusal[0]) {
        registerRefused("<body>", refusal);
        UNPROTECT(1);
        code = Code::create(kind, body);
        PROTECT(code->container);
        code->bc = {int32_t(Op::eval_ast), code->addPool(body),
                    registerAstSite(AstReason::Other, "<body: stack-model check failed>"),
                    int32_t(Op::ret)};
        code->maxStack = 1;
        code->finish();
    }
    UNPROTECT(1);
    stats.compile_seconds += nowSeconds() - t0;
    return code;
}

CompiledFunctionHook compiledFunctionHook = nullptr;

Code* compileFunction(DispatchTable* t, SEXP cloenv) {
    SEXP env = t->compileEnv() != R_NilValue ? t->compileEnv() : cloenv;
    Code* code = compileWith(CodeKind::Function, t->formals(), t->body(), env, t->outerLocals(),
                             t->astFlavor);
    if (compiledFunctionHook && (debugFlags.verify || debugFlags.pir)) {
        PROTECT(code->container);
        compiledFunctionHook(code, t->formals());
        UNPROTECT(1);
    }
    return code;
}

Code* compileToplevel(SEXP expr, SEXP env) {
    stats.toplevel_compiled++;
    return compileWith(CodeKind::TopLevel, R_NilValue, expr, env, R_NilValue);
}

SEXP makeFunctionBody(SEXP formals, SEXP body, const char* name, SEXP originalBody) {
    DispatchTable* t = DispatchTable::create(formals, body, name);
    PROTECT(t->container);
    t->keepOriginalBody(originalBody);
    SEXP tramp = makeTrampoline(body, t->container);
    t->setTrampoline(tramp);
    UNPROTECT(1);
    return tramp;
}

}  // namespace rir
