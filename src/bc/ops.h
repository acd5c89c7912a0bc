// ops.h — arithmetic, comparison and logic operators with fast paths for
// attribute-free scalars. Anything else (vectors, attributes, objects, NA in
// integer arithmetic, overflow) calls the base primitive's C function, i.e.
// exactly what GNU R runs, including S3/S4 group dispatch and warnings.
#pragma once

#include <Rmath.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstring>

#include "../runtime/rapi.h"
#include "arith_op.h"

namespace rir {

inline bool binaryOp(const char* n, ArithOp* op) {
    static const struct {
        const char* name;
        ArithOp op;
    } table[] = {{"+", ArithOp::Add},    {"-", ArithOp::Sub}, {"*", ArithOp::Mul},
                 {"/", ArithOp::Div},    {"^", ArithOp::Pow}, {"%%", ArithOp::Mod},
                 {"%/%", ArithOp::IDiv}, {"==", ArithOp::Eq}, {"!=", ArithOp::Ne},
                 {"<", ArithOp::Lt},     {"<=", ArithOp::Le}, {">", ArithOp::Gt},
                 {">=", ArithOp::Ge},    {"&", ArithOp::And}, {"|", ArithOp::Or}};
    for (auto& e : table)
        if (!strcmp(n, e.name)) {
            *op = e.op;
            return true;
        }
    return false;
}

inline bool unaryOp(const char* n, ArithOp* op) {
    if (!strcmp(n, "-"))
        *op = ArithOp::Neg;
    else if (!strcmp(n, "+"))
        *op = ArithOp::Plus;
    else if (!strcmp(n, "!"))
        *op = ArithOp::Not;
    else
        return false;
    return true;
}

inline const char* opName(ArithOp op) {
    static const char* names[] = {"+", "-",  "*", "/",  "^", "%%", "%/%", "==", "!=",
                                  "<", "<=", ">", ">=", "&", "|",  "-",   "+",  "!"};
    return names[int(op)];
}

// ---- scalar semantics ------------------------------------------------------
// The value of `op` on two non-NA numbers, computed as GNU R's arithmetic
// does; false when GNU R must run (integer overflow gives NA with a warning,
// a modulus that loses all accuracy warns). Logicals count as integers.
struct ScalarValue {
    int type;  // INTSXP, REALSXP or LGLSXP
    int i;
    double d;
};

// Comparisons and & / | of two non-NA numbers (a logical result).
template <typename T>
__attribute__((always_inline)) inline bool logicOp(ArithOp op, T x, T y, ScalarValue* r) {
    bool v;
    switch (op) {
        case ArithOp::Eq:
            v = x == y;
            break;
        case ArithOp::Ne:
            v = x != y;
            break;
        case ArithOp::Lt:
            v = x < y;
            break;
        case ArithOp::Le:
            v = x <= y;
            break;
        case ArithOp::Gt:
            v = x > y;
            break;
        case ArithOp::Ge:
            v = x >= y;
            break;
        case ArithOp::And:
            v = x != 0 && y != 0;
            break;
        case ArithOp::Or:
            v = x != 0 || y != 0;
            break;
        default:
            return false;
    }
    *r = {LGLSXP, v, 0};
    return true;
}

__attribute__((always_inline)) inline bool intOp(ArithOp op, int x, int y, ScalarValue* r) {
    long long v;
    switch (op) {
        case ArithOp::Add:
            v = (long long)x + y;
            break;
        case ArithOp::Sub:
            v = (long long)x - y;
            break;
        case ArithOp::Mul:
            v = (long long)x * y;
            break;
        case ArithOp::Div:
            *r = {REALSXP, 0, double(x) / double(y)};
            return true;
        case ArithOp::Pow:
            *r = {REALSXP, 0, (x == 1 || y == 0) ? 1.0 : R_pow(double(x), double(y))};
            return true;
        case ArithOp::Mod:
            if (y == 0) {
                *r = {INTSXP, NA_INTEGER, 0};
            } else if (x >= 0 && y > 0) {
                *r = {INTSXP, x % y, 0};
            } else {  // floored modulus, exact for int operands
                double q = std::floor(double(x) / double(y));
                *r = {INTSXP, int(double(x) - q * double(y)), 0};
            }
            return true;
        case ArithOp::IDiv:
            *r = {INTSXP, y == 0 ? NA_INTEGER : int(std::floor(double(x) / double(y))), 0};
            return true;
        default:
            return logicOp(op, x, y, r);
    }
    if (v > INT_MAX || v <= INT_MIN) return false;  // NA with a warning
    *r = {INTSXP, int(v), 0};
    return true;
}

__attribute__((always_inline)) inline bool realOp(ArithOp op, double x, double y, ScalarValue* r) {
    const double eps = DBL_EPSILON;
    switch (op) {
        case ArithOp::Add:
            *r = {REALSXP, 0, x + y};
            return true;
        case ArithOp::Sub:
            *r = {REALSXP, 0, x - y};
            return true;
        case ArithOp::Mul:
            *r = {REALSXP, 0, x * y};
            return true;
        case ArithOp::Div:
            *r = {REALSXP, 0, x / y};
            return true;
        case ArithOp::Pow:
            *r = {REALSXP, 0, y == 2.0 ? x * x : R_pow(x, y)};
            return true;
        case ArithOp::Mod: {
            // GNU R's floored modulus (myfmod), computed in long double
            if (y == 0.0) {
                *r = {REALSXP, 0, R_NaN};
                return true;
            }
            if (std::fabs(y) * eps > 1) return false;
            double q = x / y;
            if (std::isfinite(q) && std::fabs(q) * eps > 1) return false;  // warns
            long double t = (long double)x - std::floor(q) * (long double)y;
            *r = {REALSXP, 0, double(t - std::floor(t / y) * y)};
            return true;
        }
        case ArithOp::IDiv: {
            // GNU R's floored division (myfloor)
            double q = x / y;
            if (y == 0.0 || std::fabs(q) * eps > 1 || !std::isfinite(q)) {
                *r = {REALSXP, 0, q};
            } else if (std::fabs(q) < 1) {
                *r = {REALSXP, 0, (q < 0 || (x < 0 && y > 0) || (x > 0 && y < 0)) ? -1.0 : 0.0};
            } else {
                long double t = (long double)x - std::floor(q) * (long double)y;
                *r = {REALSXP, 0, double(std::floor(q) + std::floor(t / y))};
            }
            return true;
        }
        default:
            return logicOp(op, x, y, r);
    }
}

// A value rir may overwrite with a result: a plain scalar of that type that
// nothing refers to (refcount 0: a temporary living only on rir's stack).
inline bool reusable(SEXP x, int type) {
    SexpHeader* h = hdr(x);
    return h->type == (unsigned)type && h->scalar && !h->alt && h->named == 0 &&
           h->attrib == R_NilValue;
}

// Boxes a result: into `reuse` (the old value of the assigned variable) if
// its type fits, else into a reusable operand (nullptr: an operand used
// again, never reused) or the instruction's scratch object, else a new
// scalar (logicals: R's shared TRUE/FALSE/NA).
__attribute__((always_inline)) inline SEXP boxScalar(const ScalarValue& v, SEXP a, SEXP b,
                                                     SEXP reuse, SEXP scratch) {
    if (v.type == LGLSXP) return lglScalar(v.i);
    SEXP r = reuse && ftype(reuse) == (unsigned)v.type ? reuse
             : a && reusable(a, v.type)                ? a
             : b && reusable(b, v.type)                ? b
             : scratch && reusable(scratch, v.type)    ? scratch
                                                       : nullptr;
    if (v.type == REALSXP) {
        if (!r) return Rf_ScalarReal(v.d);
        *static_cast<double*>(fdata(r)) = v.d;
    } else {
        if (!r) return Rf_ScalarInteger(v.i);
        *static_cast<int*>(fdata(r)) = v.i;
    }
    return r;
}

// The first byte of a SEXP's header: type (5 bits), scalar, object, ALTREP.
inline unsigned char headerByte(SEXP x) {
    return *reinterpret_cast<unsigned char*>(x);
}
const unsigned char kScalarBit = 0x20;

// Fast paths; return nullptr when the general primitive must run.
// `reuse` (or nullptr): a scalar that may be overwritten with the result
// when its type matches (the old value of the variable being assigned).
// `scratch` (or nullptr): this instruction's own previous result, which may
// be overwritten when nothing refers to it any more (refcount 0).
// `keep` bit 0 / 1: operand a / b is used again (native code: an SSA value
// with later uses), so it is never overwritten with the result.
SEXP fastBinop(ArithOp op, SEXP a, SEXP b, SEXP reuse = nullptr, SEXP scratch = nullptr,
               int keep = 0);
SEXP fastUnop(ArithOp op, SEXP a, int keep = 0);

}  // namespace rir
