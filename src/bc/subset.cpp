// subset.cpp — see subset.h: element reads, conditions, `..N`, `e$name`
// and the slow `&&` / `||` for the interpreter.
#include "subset.h"

#include "../runtime/r_messages.h"
#include "../runtime/trampoline.h"
#include "calls.h"
#include "for_loop.h"
#include "promises.h"

namespace rir {

// The condition of if/while, as GNU R's asLogicalNoNA.
bool condition(SEXP s, SEXP call) {
    if (simpleScalar(s, LGLSXP) && fival(s) != NA_LOGICAL) return fival(s);
    if (simpleScalar(s, INTSXP) && fival(s) != NA_INTEGER) return fival(s) != 0;
    int len = Rf_length(s);
    if (len > 1) Rf_errorcall(call, _("the condition has length > 1"));
    int cond = NA_LOGICAL;
    if (len > 0) {
        switch (TYPEOF(s)) {
            case LGLSXP:
                cond = LOGICAL(s)[0];
                break;
            case INTSXP:
                cond = INTEGER(s)[0];
                break;
            default:
                cond = Rf_asLogical(s);
        }
    }
    if (cond == NA_LOGICAL) {
        const char* msg = len ? (Rf_isLogical(s) ? _("missing value where TRUE/FALSE needed")
                                                 : _("argument is not interpretable as logical"))
                              : _("argument is of length zero");
        Rf_errorcall(call, "%s", msg);
    }
    return cond;
}

SEXP subsetDefault(int kind) {
    static SEXP sub1 = nullptr, sub2 = nullptr, op1 = nullptr, op2 = nullptr;
    if (!sub1) {
        sub1 = SYMVALUE(Rf_install(".subset"));
        sub2 = SYMVALUE(Rf_install(".subset2"));
        op1 = SYMVALUE(Rf_install("["));
        op2 = SYMVALUE(Rf_install("[["));
    }
    (void)sub2;
    return kind == 1 ? op1 : op2;
}

CCODE subsetDefaultFun(int kind) {
    static CCODE f1 = nullptr, f2 = nullptr;
    if (!f1) {
        f1 = primFun(SYMVALUE(Rf_install(".subset")));
        f2 = primFun(SYMVALUE(Rf_install(".subset2")));
    }
    return kind == 1 ? f1 : f2;
}

SEXP fastSubset(int kind, SEXP x, SEXP i, SEXP scr) {
    SexpHeader* h = hdr(x);
    if (h->obj) return nullptr;
    // ALTREP vectors (compact sequences, as.double(1:n), wrappers) are read
    // by element, as GNU R's byte code reads them
    if (h->alt && h->type != INTSXP && h->type != REALSXP && h->type != LGLSXP) return nullptr;
    R_xlen_t idx;
    if (simpleScalar(i, INTSXP)) {
        int v = fival(i);
        if (v == NA_INTEGER || v < 1) return nullptr;
        idx = v - 1;
    } else if (simpleScalar(i, REALSXP)) {
        double d = fdval(i);
        if (!(d >= 1) || d >= 4503599627370496.0) return nullptr;
        idx = R_xlen_t(d) - 1;
    } else {
        return nullptr;
    }
    switch (h->type) {
        case INTSXP:
        case REALSXP:
        case LGLSXP:
        case STRSXP:
        case VECSXP:
            break;
        default:
            return nullptr;
    }
    if (idx >= (h->alt ? XLENGTH(x) : flength(x))) return nullptr;
    if (kind == 1 && h->attrib != R_NilValue) return nullptr;
    if (h->type == VECSXP) return kind == 1 ? nullptr : VECTOR_ELT(x, idx);
    return boxElement(x, idx, scr);
}

SEXP dotsElement(SEXP sym, SEXP env, SEXP tramp, bool keepMissing) {
    const char* name = CHAR(PRINTNAME(sym));
    int n = atoi(name + 2);
    SEXP dots = Rf_findVar(R_DotsSymbol, env);
    if (n >= 1 && TYPEOF(dots) == DOTSXP) {
        SEXP d = dots;
        for (int k = 1; k < n && d != R_NilValue; k++) d = CDR(d);
        if (d != R_NilValue) {
            SEXP v = CAR(d);
            if (ftype(v) == PROMSXP) {
                SEXP pv = fprvalue(v);
                if (pv != R_UnboundValue) return pv;
                if (keepMissing && isMissingArgument(sym, env)) return R_MissingArg;
                setTrampolineExpr(tramp, sym);
                PROTECT(v);
                v = forcePromise(v, tramp);
                UNPROTECT(1);
                return v;
            }
            if (v != R_MissingArg || keepMissing) return v;
        }
    }
    // no `...`, too few elements: GNU R's errors, from its lookup
    setTrampolineExpr(tramp, sym);
    SEXP v = Rf_eval(sym, env);
    if (v == R_MissingArg)
        Rf_error(_("argument \"%s\" is missing, with no default"), CHAR(PRINTNAME(sym)));
    return v;
}

SEXP logicSlow(int kind, SEXP call, SEXP first, SEXP second, SEXP env, SEXP tramp) {
    PROTECT(first);
    PROTECT(second);
    SEXP op = SYMVALUE(Rf_install(kind == 1 ? "&&" : "||"));
    SEXP args = PROTECT(Rf_list2(first, second));
    setTrampolineExpr(tramp, call);
    const void* vmax = vmaxget();
    SEXP r = primFun(op)(call, op, args, env);
    vmaxset(vmax);
    UNPROTECT(3);
    return r;
}

SEXP subsetQuick(int kind, SEXP x, SEXP i, SEXP scr) {
    SEXP r = fastSubset(kind, x, i, scr);
    if (r || kind != 2 || hdr(x)->obj) return r;
    int t = ftype(x);
    if (t == ENVSXP && simpleScalar(i, STRSXP) && STRING_ELT(i, 0) != NA_STRING)
        return envMember(x, Rf_installTrChar(STRING_ELT(i, 0)));  // e[["name"]]
    if (!hdr(x)->alt &&
        (t == VECSXP || t == INTSXP || t == REALSXP || t == LGLSXP || t == STRSXP)) {
        R_xlen_t k = nameIndex(x, i);  // x[["name"]]
        if (k >= 0) return t == VECSXP ? VECTOR_ELT(x, k) : elementOf(x, k);
    }
    return nullptr;
}

SEXP dollarDefault(SEXP x, SEXP name, SEXP sym) {
    if (ftype(x) == VECSXP && !fobject(x) && !hdr(x)->alt) {
        R_xlen_t k = namedElement(x, name);
        return k >= 0 ? VECTOR_ELT(x, k) : nullptr;
    }
    if (ftype(x) == ENVSXP && !fobject(x)) return envMember(x, sym);  // GNU R's R_subset3_dflt
    return nullptr;
}

SEXP envMemberPlain(SEXP e, SEXP sym) {
    if (e == R_BaseEnv || e == R_BaseNamespace) return nullptr;
    SEXP cell = R_findVarLocInFrame(e, sym).cell;
    if (!cell || cell == R_NilValue) return R_NilValue;
    // (an immediate binding value is boxed by envMember)
    if (!plainCell(cell)) return nullptr;
    SEXP v = fcar(cell);
    if (v == R_UnboundValue) return R_NilValue;
    return ftype(v) == PROMSXP ? nullptr : v;
}

SEXP dollarPlain(SEXP x, SEXP name, SEXP sym) {
    if (fobject(x)) return nullptr;
    if (ftype(x) == ENVSXP) return envMemberPlain(x, sym);
    if (ftype(x) != VECSXP || hdr(x)->alt) return nullptr;
    R_xlen_t k = namedElement(x, name);
    // (none: GNU R's `$` then matches partially)
    return k >= 0 ? VECTOR_ELT(x, k) : nullptr;
}

SEXP envMember(SEXP e, SEXP sym) {
    SEXP r = Rf_findVarInFrame3(e, sym, TRUE);
    if (ftype(r) == PROMSXP) {
        PROTECT(r);
        r = Rf_eval(r, R_GlobalEnv);
        UNPROTECT(1);
    }
    return r == R_UnboundValue ? R_NilValue : r;
}

}  // namespace rir
