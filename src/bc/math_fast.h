// math_fast.h — floor(), sqrt(), cos(), abs() ... of one plain scalar, as
// GNU R's byte code computes them (its MATH1, SQRT and EXP instructions):
// the C function is applied directly, without an argument list.
//
//   before:  call_builtin 1 floor   ->  args = list(x); do_math1(call, floor, args, env)
//   after:   call_builtin 1 floor   ->  x is a plain double: ScalarReal(floor(x))
//
// GNU R's semantics, which differ a little from do_math1's: an integer
// scalar is converted to double (NA to NA_real_); a NaN result keeps a NaN
// argument's payload (NA stays NA); sqrt() and exp() of a non-NA integer
// never warn. A NaN produced from a number (GNU R warns "NaNs produced"),
// vectors and arguments with attributes (Math group dispatch, names) take
// the general path. The compiler drops the argument's name for these
// functions, as GNU R's compiler does (`sqrt(y = 9)` is 3).
//
// log(x) of a plain scalar likewise (GNU R's LOG instruction: log is a
// special, compiled as a builtin call when it is base's, with one or two
// unnamed arguments; see callBuiltin).
//
// And the type predicates is.null(), is.character(), is.function(), ...
// of one argument (GNU R's ISNULL, ISCHARACTER, ... instructions, which
// ignore the argument's name as its compiler does): `is.null(x)` is
// TYPEOF(x) == NILSXP, without do_is's argument list and fresh logical.
// Those that dispatch or look at classes (is.numeric, is.matrix, is.integer
// on an object, S4 objects for is.environment) take the general path.
#pragma once

#include <cmath>

#include "../runtime/rapi.h"

namespace rir {

namespace math1 {
inline CCODE doMath1() {
    static CCODE f = primFun(SYMVALUE(Rf_install("floor")));
    return f;
}
inline CCODE doAbs() {
    static CCODE f = primFun(SYMVALUE(Rf_install("abs")));
    return f;
}
inline CCODE doLog() {
    static CCODE f = primFun(SYMVALUE(Rf_install("log")));
    return f;
}
inline CCODE doIs() {
    static CCODE f = primFun(SYMVALUE(Rf_install("is.null")));
    return f;
}
inline double sign(double x) {
    return x > 0 ? 1 : (x < 0 ? -1 : x);
}
}  // namespace math1

// Is `fun` one of the builtins GNU R's compiler turns into MATH1/SQRT/EXP?
inline bool isMath1Builtin(SEXP fun) {
    if (TYPEOF(fun) != BUILTINSXP || primFun(fun) != math1::doMath1()) return false;
    int code = primRow(fun).code;
    return code != 5;  // trunc is do_trunc anyway
}

inline SEXP realScalar(double v, SEXP scr) {
    if (scr && ftype(scr) == REALSXP && hdr(scr)->scalar && !hdr(scr)->alt && frefcnt(scr) == 0 &&
        fattrib(scr) == R_NilValue) {
        *static_cast<double*>(fdata(scr)) = v;
        return scr;
    }
    return Rf_ScalarReal(v);
}

// is.<type>(x) for do_is's code `code`, or nullptr (see above).
inline SEXP fastIs(int code, SEXP x) {
    int t = ftype(x);
    bool r;
    switch (code) {
        case NILSXP:
        case LGLSXP:
        case REALSXP:
        case CPLXSXP:
        case STRSXP:
        case EXPRSXP:
        case RAWSXP:
            r = t == code;
            break;
        case INTSXP:
            if (fobject(x)) return nullptr;  // !inherits(x, "factor")
            r = t == INTSXP;
            break;
        case SYMSXP:  // is.symbol, is.name: GNU R's ISSYMBOL (no S4 data part)
            r = t == SYMSXP;
            break;
        case ENVSXP:
            if (t == S4SXP) return nullptr;
            r = t == ENVSXP;
            break;
        case VECSXP:
            r = t == VECSXP || t == LISTSXP;
            break;
        case LISTSXP:
            r = t == LISTSXP || t == NILSXP;
            break;
        case 50:  // is.object
            r = fobject(x);
            break;
        case 302:  // is.function
            r = t == CLOSXP || t == BUILTINSXP || t == SPECIALSXP;
            break;
        default:
            return nullptr;
    }
    return lglScalar(r);
}

// Is `fun` one of the type tests GNU R's compiler turns into an instruction
// (ISNULL, ISCHARACTER, ...; their argument name is ignored)?
inline bool isTypeTestBuiltin(SEXP fun) {
    if (TYPEOF(fun) != BUILTINSXP || primFun(fun) != math1::doIs()) return false;
    switch (primRow(fun).code) {
        case NILSXP:
        case LGLSXP:
        case INTSXP:
        case REALSXP:
        case CPLXSXP:
        case STRSXP:
        case SYMSXP:
        case 50:
            return true;
        default:
            return false;
    }
}

// The result of builtin `fun` applied to the one argument `x`, or nullptr.
// `scr`: a scratch result object the value may go into (see compiler).
inline SEXP fastMath1(SEXP fun, SEXP x, SEXP scr = nullptr) {
    CCODE cf = primFun(fun);
    if (cf == math1::doIs()) return fastIs(primRow(fun).code, x);
    if (cf == math1::doAbs()) {
        if (simpleScalar(x, INTSXP)) {
            int v = fival(x);
            return Rf_ScalarInteger(v == NA_INTEGER ? NA_INTEGER : (v < 0 ? -v : v));
        }
        if (simpleScalar(x, REALSXP)) return Rf_ScalarReal(std::fabs(fdval(x)));
        return nullptr;
    }
    if (cf == math1::doLog()) {
        // log(x) (GNU R's LOG instruction; the compiler emits it for base's
        // log with one unnamed argument)
        double a;
        if (simpleScalar(x, REALSXP))
            a = fdval(x);
        else if (simpleScalar(x, INTSXP))
            a = fival(x) == NA_INTEGER ? NA_REAL : double(fival(x));
        else
            return nullptr;
        double r = a > 0 ? std::log(a) : (a == 0 ? R_NegInf : R_NaN);
        if (std::isnan(r)) {
            if (!std::isnan(a)) return nullptr;  // GNU R warns
            r = a;
        }
        return realScalar(r, scr);
    }
    if (cf != math1::doMath1()) return nullptr;
    int code = primRow(fun).code;
    double a;
    if (simpleScalar(x, REALSXP)) {
        a = fdval(x);
    } else if (simpleScalar(x, INTSXP)) {
        int i = fival(x);
        if ((code == 3 || code == 10) && i != NA_INTEGER)
            return realScalar(code == 3 ? std::sqrt(double(i)) : std::exp(double(i)), scr);
        a = i == NA_INTEGER ? NA_REAL : double(i);
    } else {
        return nullptr;
    }
    double r;
    switch (code) {
        case 1:
            r = std::floor(a);
            break;
        case 2:
            r = std::ceil(a);
            break;
        case 3:
            r = std::sqrt(a);
            break;
        case 4:
            r = math1::sign(a);
            break;
        case 10:
            r = std::exp(a);
            break;
        case 11:
            r = std::expm1(a);
            break;
        case 12:
            r = std::log1p(a);
            break;
        case 20:
            r = std::cos(a);
            break;
        case 21:
            r = std::sin(a);
            break;
        case 22:
            r = std::tan(a);
            break;
        case 23:
            r = std::acos(a);
            break;
        case 24:
            r = std::asin(a);
            break;
        case 25:
            r = std::atan(a);
            break;
        case 30:
            r = std::cosh(a);
            break;
        case 31:
            r = std::sinh(a);
            break;
        case 32:
            r = std::tanh(a);
            break;
        case 33:
            r = std::acosh(a);
            break;
        case 34:
            r = std::asinh(a);
            break;
        case 35:
            r = std::atanh(a);
            break;
        default:
            return nullptr;
    }
    if (std::isnan(r)) {
        if (!std::isnan(a)) return nullptr;  // GNU R warns
        r = a;
    }
    return realScalar(r, scr);
}

}  // namespace rir
