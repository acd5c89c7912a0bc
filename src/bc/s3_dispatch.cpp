// s3_dispatch.cpp — UseMethod() executed by rir.
//
// GNU R's UseMethod finds and calls the method and then leaves the generic
// with a long jump to the generic's context, whose value rir could only read
// back through two more jumps (runtime/unwind.cpp). Done here, the method is
// called like any other closure from rir code and the generic's body simply
// returns its value:
//
//   gen <- function(x, ...) UseMethod("gen")
//   before:  push "gen"; call UseMethod  (do_usemethod -> applyClosure(gen.foo)
//            -> bcEval -> rir; findcontext jump -> returnedValue())
//   after:   use_method "gen"            (class, method lookup as GNU R,
//            gen.foo called directly with .Generic, .Class, ...; ret)
//
// Same steps as GNU R 4.2: the dispatch object is the generic's first
// argument (matched by name exactly, then partially, then the first unnamed
// one), forced; its class is .class2()'s; each class, then "default", is
// looked up from the generic's caller up to its top-level environment, in
// the S3 methods table of the generic's top-level environment, then from
// there on with base right after the global environment; the method runs in
// a CTXT_GENERIC frame of the generic with the generic's call (method name
// substituted), its promises, the S3 variables and the generic's local
// variables that are not formals. Everything unusual — S3 lookup options
// set in the environment, debugging, a primitive method, no method at all
// (the error), argument-matching errors — is left to GNU R's UseMethod.
#include "s3_dispatch.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../runtime/rapi.h"
#include "calls.h"

namespace rir {

namespace {

// Any of GNU R's S3 lookup switches set: GNU R decides.
bool lookupOptionsSet() {
    static int set = -1;
    if (set < 0)
        set = getenv("_R_S3_METHOD_LOOKUP_USE_TOPENV_AS_DEFENV_") ||
              getenv("_R_S3_METHOD_LOOKUP_BASEENV_AFTER_GLOBALENV_") ||
              getenv("_R_S3_METHOD_LOOKUP_REPORT_SEARCH_PATH_USES_");
    return set;
}

bool isFun(SEXP x) {
    int t = TYPEOF(x);
    return t == CLOSXP || t == BUILTINSXP || t == SPECIALSXP;
}

// The value of `sym` as a function in the first frame from `rho` on that
// binds it to one, visiting at most up to `last` (or all frames, with base
// searched right after the global environment, when last is nullptr).
SEXP findFunFrom(SEXP sym, SEXP rho, SEXP last) {
    while (rho != R_EmptyEnv) {
        SEXP v = Rf_findVarInFrame3(rho, sym, TRUE);
        if (v != R_UnboundValue) {
            if (TYPEOF(v) == PROMSXP) {
                PROTECT(v);
                v = Rf_eval(v, rho);
                UNPROTECT(1);
            }
            if (isFun(v)) return v;
        }
        if (last) {
            if (rho == last) return R_UnboundValue;
            rho = ENCLOS(rho);
        } else {
            rho = rho == R_GlobalEnv ? R_BaseEnv : ENCLOS(rho);
        }
    }
    return R_UnboundValue;
}

// GNU R's S3 method lookup (default settings).
SEXP lookupMethod(SEXP method, SEXP rho, SEXP callrho, SEXP defrho) {
    static SEXP tableSym = Rf_install(".__S3MethodsTable__.");
    if (defrho == R_BaseEnv) defrho = R_BaseNamespace;
    SEXP top = PROTECT(Rf_topenv(R_NilValue, callrho));
    SEXP val = findFunFrom(method, callrho, top);
    if (val != R_UnboundValue) {
        UNPROTECT(1);
        return val;
    }
    SEXP table = Rf_findVarInFrame3(defrho, tableSym, TRUE);
    if (TYPEOF(table) == PROMSXP) {
        PROTECT(table);
        table = Rf_eval(table, R_BaseEnv);
        UNPROTECT(1);
    }
    if (TYPEOF(table) == ENVSXP) {
        PROTECT(table);
        val = Rf_findVarInFrame3(table, method, TRUE);
        UNPROTECT(1);
        if (TYPEOF(val) == PROMSXP) {
            PROTECT(val);
            val = Rf_eval(val, rho);
            UNPROTECT(1);
        }
        if (val != R_UnboundValue) {
            UNPROTECT(1);
            return val;
        }
    }
    val = findFunFrom(method, top == R_GlobalEnv ? R_BaseEnv : ENCLOS(top), nullptr);
    UNPROTECT(1);
    return val;
}

// The promise (or value) of the generic's first argument, or nullptr when
// matching it would be an error (GNU R reports it).
SEXP dispatchArgument(RContext* cptr) {
    SEXP formals = FORMALS(cptr->callfun);
    SEXP tag = TAG(formals);
    SEXP args = cptr->promargs;
    if (tag == R_NilValue || tag == R_DotsSymbol) return CAR(args);
    for (int exact = 1; exact >= 0; exact--) {
        SEXP s = nullptr;
        for (SEXP b = args; b != R_NilValue; b = CDR(b))
            if (TAG(b) != R_NilValue && Rf_pmatch(tag, TAG(b), Rboolean(exact))) {
                if (s) return nullptr;
                s = CAR(b);
            }
        if (s) return s;
    }
    for (SEXP b = args; b != R_NilValue; b = CDR(b))
        if (TAG(b) == R_NilValue) return CAR(b);
    return CAR(args);
}

// The symbol generic.class (GNU R's method name; nullptr if too long).
SEXP makeSymbol(const char* a, const char* b) {
    char buf[512];
    size_t na = strlen(a), nb = strlen(b);
    if (na + nb + 2 > sizeof buf) return nullptr;
    memcpy(buf, a, na);
    buf[na] = '.';
    memcpy(buf + na + 1, b, nb + 1);
    return Rf_install(buf);
}

// makeSymbol for a generic and a class given as cached CHARSXPs, memoized
// (symbols live forever; CHARSXPs in the cache are unique).
SEXP methodSymbol(SEXP generic, SEXP klass) {
    if (!(hdr(generic)->gp & kAsciiMask) || !(hdr(klass)->gp & kAsciiMask))
        return makeSymbol(Rf_translateChar(generic), Rf_translateChar(klass));
    struct Entry {
        SEXP generic, klass, sym;
    };
    static Entry cache[256];
    size_t h = ((uintptr_t(generic) >> 4) * 31 + (uintptr_t(klass) >> 4)) & 255;
    Entry& e = cache[h];
    if (e.generic == generic && e.klass == klass) return e.sym;
    SEXP sym = makeSymbol(CHAR(generic), CHAR(klass));
    if (sym) {
        R_PreserveObject(generic);
        R_PreserveObject(klass);
        if (e.generic) {
            R_ReleaseObject(e.generic);
            R_ReleaseObject(e.klass);
        }
        e = {generic, klass, sym};
    }
    return sym;
}

// The S3 variables of the method's frame, behind the generic's own local
// variables that are not formals (GNU R's dispatchMethod).
SEXP methodVars(RContext* cptr, SEXP generic, SEXP dotClass, SEXP method, SEXP callrho,
                SEXP defrho) {
    static SEXP sGeneric = Rf_install(".Generic"), sClass = Rf_install(".Class"),
                sMethod = Rf_install(".Method"), sGroup = Rf_install(".Group"),
                sCallEnv = Rf_install(".GenericCallEnv"), sDefEnv = Rf_install(".GenericDefEnv");
    SEXP v = PROTECT(Rf_cons(defrho, R_NilValue));
    SET_TAG(v, sDefEnv);
    const std::pair<SEXP, SEXP> vars[] = {{sCallEnv, callrho},
                                          {sGroup, R_BlankScalarString},
                                          {sMethod, R_NilValue},
                                          {sClass, dotClass},
                                          {sGeneric, R_NilValue}};
    for (auto& p : vars) {
        SEXP val = p.second;
        if (p.first == sMethod) val = Rf_ScalarString(PRINTNAME(method));
        if (p.first == sGeneric) {
            SEXP g = STRING_ELT(generic, 0);
            val = (hdr(g)->gp & kAsciiMask) ? Rf_ScalarString(g) : Rf_mkString(Rf_translateChar(g));
        }
        PROTECT(val);
        v = Rf_cons(val, v);
        UNPROTECT(2);
        PROTECT(v);
        SET_TAG(v, p.first);
    }
    SEXP formals = FORMALS(cptr->callfun);
    for (SEXP s = FRAME(cptr->cloenv); s != R_NilValue; s = CDR(s)) {
        bool formal = false;
        for (SEXP t = formals; t != R_NilValue && !formal; t = CDR(t)) formal = TAG(t) == TAG(s);
        if (!formal) {
            v = Rf_cons(CAR(s), v);
            UNPROTECT(1);
            PROTECT(v);
            SET_TAG(v, TAG(s));
        }
    }
    UNPROTECT(1);
    return v;
}

}  // namespace

SEXP useMethod(SEXP call, SEXP generic, SEXP obj, SEXP env, SEXP tramp) {
    if (lookupOptionsSet()) return nullptr;
    if (TYPEOF(generic) != STRSXP || XLENGTH(generic) != 1) return nullptr;
    RContext* cptr = R_GlobalContext;
    if (!(cptr->callflag & CTXT_FUNCTION) || cptr->cloenv != env) return nullptr;
    SEXP op = cptr->callfun;
    if (TYPEOF(op) != CLOSXP || hdr(op)->debug || hdr(op)->spare || hdr(env)->debug) return nullptr;
    SEXP callrho = cptr->sysparent;
    if (TYPEOF(callrho) != ENVSXP) return nullptr;
    SEXP defrho = PROTECT(Rf_topenv(R_NilValue, env));
    if (!obj) {
        obj = dispatchArgument(cptr);
        if (!obj) {
            UNPROTECT(1);
            return nullptr;
        }
        if (TYPEOF(obj) == PROMSXP)
            obj = PRVALUE(obj) == R_UnboundValue ? Rf_eval(obj, R_BaseEnv) : PRVALUE(obj);
    }
    PROTECT(obj);
    static SEXP class2 = SYMVALUE(Rf_install(".class2"));
    SEXP class2Args = PROTECT(consNR(obj, R_NilValue));
    SEXP klass = primFun(class2)(call, class2, class2Args, env);
    UNPROTECT(1);
    PROTECT(klass);
    static SEXP sortList = Rf_install("sort.list");
    static SEXP previous = Rf_install("previous");
    static SEXP dflt = nullptr;
    if (!dflt) R_PreserveObject(dflt = Rf_mkChar("default"));
    int nclass = Rf_length(klass);
    SEXP method = nullptr, fun = R_UnboundValue, dotClass = R_NilValue;
    for (int i = 0; i <= nclass; i++) {
        method = methodSymbol(STRING_ELT(generic, 0), i < nclass ? STRING_ELT(klass, i) : dflt);
        if (!method) break;
        fun = lookupMethod(method, env, callrho, defrho);
        if (!isFun(fun)) continue;
        if (i < nclass && method == sortList && CLOENV(fun) == R_BaseNamespace) continue;
        if (TYPEOF(fun) != CLOSXP) break;
        PROTECT(fun);
        if (i == nclass) {
            dotClass = R_NilValue;
        } else if (i == 0) {
            dotClass = klass;
        } else {
            dotClass = Rf_allocVector(STRSXP, nclass - i);
            PROTECT(dotClass);
            for (int k = i; k < nclass; k++) SET_STRING_ELT(dotClass, k - i, STRING_ELT(klass, k));
            Rf_setAttrib(dotClass, previous, klass);
            UNPROTECT(1);
        }
        break;
    }
    // no method (GNU R's error), or one that is not a closure: GNU R
    if (!method || TYPEOF(fun) != CLOSXP) {
        UNPROTECT(3);
        return nullptr;
    }
    PROTECT(dotClass);
    SEXP vars = PROTECT(methodVars(cptr, generic, dotClass, method, callrho, defrho));
    SEXP newcall = PROTECT(Rf_shallow_duplicate(cptr->call));
    SETCAR(newcall, method);
    cptr->callflag = CTXT_GENERIC;
    SEXP ans = applyClosureFromRir(newcall, fun, cptr->promargs, env, tramp, vars);
    cptr->callflag = CTXT_RETURN;
    UNPROTECT(7);
    return ans;
}

}  // namespace rir
