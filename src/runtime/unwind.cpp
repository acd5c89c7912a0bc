// unwind.cpp — see unwind.h.
//
// R_UnwindProtect (exported) is the one piece of libR that copies
// R_ReturnedValue somewhere readable: when a jump lands in its unwind
// context it stores the value in the continuation token's CAR. And
// endcontext() (exported) continues an intermediate jump by calling
// R_jumpctxt(ctx->jumptarget, ..., R_ReturnedValue), i.e. it re-jumps with
// the current value. So, to read the value:
//
//   1. R_UnwindProtect(bounce, ...) pushes unwind context U;
//   2. bounce pushes a plain context Y whose jumptarget is U and ends it:
//      endcontext(Y) jumps to U passing R_ReturnedValue unchanged;
//   3. U's landing stores it in CAR(cont), ends U and calls our cleanup
//      function with jump = TRUE, which leaves with a C longjmp to step 4
//      (R_ContinueUnwind would follow U's empty jump target);
//   4. the value is CAR(cont). R's globals are as U restored them, i.e. as
//      they were when this function started.
#include "unwind.h"

#include <csetjmp>

namespace rir {

namespace {

struct Escape {
    sigjmp_buf buf;
};

SEXP bounce(void*) {
    RContext y;
    RContext* u = R_GlobalContext;  // the unwind context R_UnwindProtect pushed
    Rf_begincontext(&y, CTXT_TOPLEVEL, R_NilValue, R_NilValue, R_BaseEnv, R_NilValue, R_NilValue);
    y.jumptarget = u;
    y.jumpmask = CTXT_FUNCTION;
    Rf_endcontext(&y);  // jumps to u with R_ReturnedValue; does not return
    return R_NilValue;
}

void escape(void* data, Rboolean jump) {
    if (jump) siglongjmp(static_cast<Escape*>(data)->buf, 1);
}

}  // namespace

SEXP returnedValue() {
    SEXP cont = PROTECT(R_MakeUnwindCont());
    Escape e;
    if (!sigsetjmp(e.buf, 0)) R_UnwindProtect(bounce, nullptr, escape, &e, cont);
    SEXP v = CAR(cont);
    UNPROTECT(1);
    return v;
}

}  // namespace rir
