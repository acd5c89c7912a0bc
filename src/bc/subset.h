// subset.h — reading elements and other small run-time services of the
// interpreter's instructions: the fast paths of `x[i]`, `x[[i]]` and
// `m[i, j]` on plain vectors, GNU R's default `[` / `[[` for everything
// else, if/while conditions, `..N`, `e$name` on environments and GNU R's
// `&&` / `||` for the operands the fast paths do not take.
//
//   x[3]        with x <- c(1.5, 2.5, 3.5)  ->  fastSubset: 3.5, boxed (into
//                                               the instruction's scratch
//                                               scalar when it is free)
//   m[2, 1]     with m a plain matrix       ->  fastMatrixSubset
//   x[c(1, 2)]  (vector index)              ->  nullptr: GNU R's `[`
#pragma once

#include "../runtime/rapi.h"
#include "ops.h"
#include "subassign.h"

namespace rir {

#pragma GCC visibility push(hidden)

// The condition of if/while, as GNU R's asLogicalNoNA (errors name `call`).
bool condition(SEXP s, SEXP call);

// GNU R's `[` (kind 1) or `[[` (kind 2) primitive, and the C function of
// `.subset` / `.subset2` (the default methods without dispatch).
SEXP subsetDefault(int kind);
CCODE subsetDefaultFun(int kind);

// Element k of a plain int/real/logical/string vector as a scalar; int and
// real elements go into `scr` (a scratch result nothing refers to) if given.
inline SEXP boxElement(SEXP x, R_xlen_t k, SEXP scr) {
    bool alt = hdr(x)->alt;  // ALTREP (compact sequences, wrappers): by element
    switch (TYPEOF(x)) {
        case INTSXP: {
            int v = alt ? INTEGER_ELT(x, k) : INTEGER(x)[k];
            if (scr && reusable(scr, INTSXP)) {
                *static_cast<int*>(fdata(scr)) = v;
                return scr;
            }
            return Rf_ScalarInteger(v);
        }
        case REALSXP: {
            double v = alt ? REAL_ELT(x, k) : REAL(x)[k];
            if (scr && reusable(scr, REALSXP)) {
                *static_cast<double*>(fdata(scr)) = v;
                return scr;
            }
            return Rf_ScalarReal(v);
        }
        case LGLSXP:
            return lglScalar(alt ? LOGICAL_ELT(x, k) : LOGICAL(x)[k]);
        case STRSXP:
            return Rf_ScalarString(STRING_ELT(x, k));
        default:
            return nullptr;
    }
}

// x[i] / x[[i]] for plain vectors and a positive in-range scalar index;
// nullptr when GNU R's operator must run.
SEXP fastSubset(int kind, SEXP x, SEXP i, SEXP scr = nullptr);

// m[i, j] / m[[i, j]] on a plain matrix with in-range scalar indices.
inline SEXP fastMatrixSubset(SEXP x, SEXP i, SEXP j, SEXP scr = nullptr) {
    R_xlen_t k = matrixIndex(x, i, j);
    return k < 0 ? nullptr : boxElement(x, k, scr);
}

// The value of ..N (see L_ldddvar). `keepMissing`: as for getVariable (an
// index of [ / [[), a missing element is R_MissingArg instead of an error.
SEXP dotsElement(SEXP sym, SEXP env, SEXP tramp, bool keepMissing = false);

// GNU R's && / || with operands given as (evaluated) promises or ASTs, and
// the original call for its error messages.
SEXP logicSlow(int kind, SEXP call, SEXP first, SEXP second, SEXP env, SEXP tramp);

// e$name / e[["name"]] on an environment, as GNU R does it: the binding in
// that frame only, a promise forced, NULL when unbound.
SEXP envMember(SEXP e, SEXP sym);

// e$name when no R code can run for it: e's binding of sym is an ordinary
// one (not active, not a promise; NULL when unbound); nullptr otherwise
// (envMember then). Not for base's environments.
SEXP envMemberPlain(SEXP e, SEXP sym);

// x$name (name a CHARSXP, sym its symbol) without running R code and
// without error: x a plain list (not an object, not ALTREP) with an element
// of that exact name, or an environment (not an object) whose binding is
// plain (envMemberPlain).
// What the optimizer speculates (see the dollar instruction's feedback,
// kDollarNotPlain); nullptr when it does not apply.
SEXP dollarPlain(SEXP x, SEXP name, SEXP sym);

// && (kind 1) / || (2) of two logical scalars (NA_LOGICAL for NA) whose
// first did not decide: the second, or NA when either is NA and the
// second does not decide.
inline int lglCombine(int kind, int x1, int x2) {
    if (x1 != NA_LOGICAL) return x2;
    bool decides = kind == 1 ? x2 == FALSE : x2 == TRUE;
    return decides ? x2 : NA_LOGICAL;
}

// x[i] / x[[i]] (kind 1 / 2) with one unnamed index, without GNU R's
// primitive: plain vectors (fastSubset, scr as there), e[["name"]] on an
// environment, x[["name"]]; nullptr when GNU R's `[` / `[[` must run.
SEXP subsetQuick(int kind, SEXP x, SEXP i, SEXP scr = nullptr);

// x$name without dispatch: a plain list's element named `name` (a CHARSXP)
// or an environment's member `sym`; nullptr when GNU R must evaluate the
// call (objects, other types, no such element).
SEXP dollarDefault(SEXP x, SEXP name, SEXP sym);

#pragma GCC visibility pop

}  // namespace rir
