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

inline SEXP cmpResult(ArithOp op, double a, double b) {
    bool r;
    switch (op) {
    case ArithOp::Eq: r = a == b; break;
    case ArithOp::Ne: r = a != b; break;
    case ArithOp::Lt: r = a < b; break;
    case ArithOp::Le: r = a <= b; break;
    case ArithOp::Gt: r = a > b; break;
    case ArithOp::Ge: r = a >= b; break;
    default: return nullptr;
    }
    return Rf_ScalarLogical(r);
}

// A fresh result, or an operand reused in place when nothing else refers to
// it (refcount 0: a temporary that only lives on rir's stack), as GNU R's own
// arithmetic does for unreferenced arguments.
inline bool reusable(SEXP x, int type) {
    SexpHeader* h = hdr(x);
    return h->type == (unsigned)type && h->scalar && !h->alt && h->named == 0 &&
           h->attrib == R_NilValue;
}
inline SEXP realResult(double v, SEXP a, SEXP b, SEXP reuse = nullptr, SEXP scratch = nullptr) {
    SEXP r = reuse && ftype(reuse) == REALSXP ? reuse
             : reusable(a, REALSXP)           ? a
             : reusable(b, REALSXP)           ? b
             : scratch && reusable(scratch, REALSXP) ? scratch
                                                     : nullptr;
    if (!r) return Rf_ScalarReal(v);
    *static_cast<double*>(fdata(r)) = v;
    return r;
}
inline SEXP intResult(int v, SEXP a, SEXP b, SEXP reuse = nullptr, SEXP scratch = nullptr) {
    SEXP r = reuse && ftype(reuse) == INTSXP ? reuse
             : reusable(a, INTSXP)           ? a
             : reusable(b, INTSXP)           ? b
             : scratch && reusable(scratch, INTSXP) ? scratch
                                                    : nullptr;
    if (!r) return Rf_ScalarInteger(v);
    *static_cast<int*>(fdata(r)) = v;
    return r;
}

}  // namespace

SEXP fastBinop(ArithOp op, SEXP a, SEXP b, SEXP reuse, SEXP scratch) {
    int ka, kb, ia, ib;
    double da, db;
    if (!scalarNum(a, &ka, &ia, &da) || !scalarNum(b, &kb, &ib, &db)) {
        if ((op == ArithOp::Eq || op == ArithOp::Ne) && simpleScalar(a, STRSXP) &&
            simpleScalar(b, STRSXP)) {
            SEXP ca = STRING_ELT(a, 0), cb = STRING_ELT(b, 0);
            if (ca == cb && ca != NA_STRING) return Rf_ScalarLogical(op == ArithOp::Eq);
        }
        return nullptr;
    }
    bool ints = ka == 1 && kb == 1;
    switch (op) {
    case ArithOp::Add:
        if (ints) {
            long long r = (long long)ia + ib;
            if (r > INT_MAX || r <= INT_MIN) return nullptr;
            return intResult(int(r), a, b, reuse, scratch);
        }
        return realResult(da + db, a, b, reuse, scratch);
    case ArithOp::Sub:
        if (ints) {
            long long r = (long long)ia - ib;
            if (r > INT_MAX || r <= INT_MIN) return nullptr;
            return intResult(int(r), a, b, reuse, scratch);
        }
        return realResult(da - db, a, b, reuse, scratch);
    case ArithOp::Mul:
        if (ints) {
            long long r = (long long)ia * ib;
            if (r > INT_MAX || r <= INT_MIN) return nullptr;
            return intResult(int(r), a, b, reuse, scratch);
        }
        return realResult(da * db, a, b, reuse, scratch);
    case ArithOp::Div:
        return realResult(da / db, a, b, reuse, scratch);
    case ArithOp::Pow:
        if (ints && (ia == 1 || ib == 0)) return realResult(1.0, a, b, reuse, scratch);
        return realResult(db == 2.0 ? da * da : R_pow(da, db), a, b, reuse, scratch);
    case ArithOp::Mod:
    case ArithOp::IDiv:
        return nullptr;
    case ArithOp::And:
        return Rf_ScalarLogical(da != 0 && db != 0);
    case ArithOp::Or:
        return Rf_ScalarLogical(da != 0 || db != 0);
    default:
        return cmpResult(op, da, db);
    }
}

SEXP fastUnop(ArithOp op, SEXP a) {
    int k, i;
    double d;
    if (!scalarNum(a, &k, &i, &d)) return nullptr;
    switch (op) {
    case ArithOp::Neg:
        if (k == 1) return hdr(a)->type == INTSXP ? intResult(-i, a, a) : Rf_ScalarInteger(-i);
        return realResult(-d, a, a);
    case ArithOp::Not:
        return Rf_ScalarLogical(d == 0);
    default:
        return nullptr;
    }
}

}  // namespace rir
