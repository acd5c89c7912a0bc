// ops.cpp — scalar fast paths for arithmetic, comparison and logic. Each
// returns nullptr whenever GNU R's primitive could behave differently (NA,
// NaN, overflow, attributes, %% and %/%), so the caller runs the primitive.
#include "ops.h"

#include <Rmath.h>

#include <climits>
#include <cmath>

namespace rir {

namespace {

// Reads an attribute-free scalar as a number. kind: 0 = not numeric,
// 1 = integer-like (int or logical), 2 = real. Returns false on NA/NaN.
inline bool scalarNum(SEXP x, int* kind, int* iv, double* dv) {
    SexpHeader* h = hdr(x);
    if (!h->scalar || h->alt || h->attrib != R_NilValue) return false;
    if (h->type == INTSXP || h->type == LGLSXP) {
        *iv = fival(x);
        if (*iv == NA_INTEGER) return false;
        *kind = 1;
        *dv = *iv;
        return true;
    }
    if (h->type == REALSXP) {
        *dv = fdval(x);
        if (std::isnan(*dv)) return false;
        *kind = 2;
        return true;
    }
    return false;
}

inline SEXP realResult(double v, SEXP a) {
    return boxScalar({REALSXP, 0, v}, a, a, nullptr, nullptr);
}
inline SEXP intResult(int v, SEXP a) {
    return boxScalar({INTSXP, v, 0}, a, a, nullptr, nullptr);
}

}  // namespace

SEXP fastBinop(ArithOp op, SEXP a, SEXP b, SEXP reuse, SEXP scratch, int keep) {
    int ka, kb, ia, ib;
    double da, db;
    if (!scalarNum(a, &ka, &ia, &da) || !scalarNum(b, &kb, &ib, &db)) {
        if ((op == ArithOp::Eq || op == ArithOp::Ne) && simpleScalar(a, STRSXP) &&
            simpleScalar(b, STRSXP)) {
            SEXP ca = STRING_ELT(a, 0), cb = STRING_ELT(b, 0);
            if (ca == cb && ca != NA_STRING) return lglScalar(op == ArithOp::Eq);
        }
        return nullptr;
    }
    ScalarValue v;
    bool ok = ka == 1 && kb == 1 ? intOp(op, ia, ib, &v) : realOp(op, da, db, &v);
    return ok ? boxScalar(v, keep & 1 ? nullptr : a, keep & 2 ? nullptr : b, reuse, scratch)
              : nullptr;
}

SEXP fastUnop(ArithOp op, SEXP a, int keep) {
    int k, i;
    double d;
    if (!scalarNum(a, &k, &i, &d)) return nullptr;
    switch (op) {
        case ArithOp::Neg:
            if (keep) return k == 1 ? Rf_ScalarInteger(-i) : Rf_ScalarReal(-d);
            if (k == 1) return hdr(a)->type == INTSXP ? intResult(-i, a) : Rf_ScalarInteger(-i);
            return realResult(-d, a);
        case ArithOp::Not:
            return lglScalar(d == 0);
        default:
            return nullptr;
    }
}

}  // namespace rir
