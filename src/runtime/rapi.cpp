// rapi.cpp — load-time self-test of the GNU R layout facts in rapi.h.
#include "rapi.h"

#include <cstring>

namespace rir {

const char* rapi_selftest() {
    if (sizeof(SexpHeader) != 56) return "unexpected SEXPREC header size";
    SEXP sumfun = Rf_findFun(Rf_install("sum"), R_BaseEnv);
    if (TYPEOF(sumfun) != BUILTINSXP) return "base::sum is not a builtin";
    int off = primOffset(sumfun);
    if (off < 0 || off > 2000 || std::strcmp(R_FunTab[off].name, "sum") != 0)
        return "R_FunTab layout does not match R 4.2";
    SEXP ifs = SYMVALUE(Rf_install("if"));
    if (TYPEOF(ifs) != SPECIALSXP || std::strcmp(primRow(ifs).name, "if") != 0)
        return "primitive offset layout does not match";
    SEXP x = PROTECT(Rf_ScalarReal(3.5));
    bool ok = ftype(x) == REALSXP && simpleScalar(x, REALSXP) && fdval(x) == 3.5 &&
              (void*)REAL(x) == fdata(x) && flength(x) == 1;
    SEXP y = PROTECT(Rf_allocVector(INTSXP, 3));
    ok = ok && !simpleScalar(y, INTSXP) && flength(y) == 3 && (void*)INTEGER(y) == fdata(y);
    SEXP c = PROTECT(Rf_cons(x, y));
    SET_TAG(c, R_DotsSymbol);
    ok = ok && fcar(c) == x && fcdr(c) == y && ftag(c) == R_DotsSymbol;
    ok = ok && fsymvalue(Rf_install("if")) == ifs;
    ok = ok && *reinterpret_cast<unsigned char*>(x) == (REALSXP | 0x20);  // type, scalar bit
    UNPROTECT(3);
    if (!ok) return "SEXPREC layout does not match R 4.2";
    RContext* ctx = R_GlobalContext;
    if (!ctx || ctx->callflag < 0 || ctx->callflag > 255) return "RCNTXT layout mismatch";
    if ((ctx->callflag & CTXT_FUNCTION) &&
        (TYPEOF(ctx->cloenv) != ENVSXP || TYPEOF(ctx->callfun) != CLOSXP))
        return "RCNTXT layout mismatch (cloenv/callfun)";
    return "";
}

}  // namespace rir
