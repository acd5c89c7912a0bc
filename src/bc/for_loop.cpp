// for_loop.cpp — the for() loop's sequence at run time, as GNU R's
// STARTFOR / STEPFOR treat it: checking and converting it (a factor
// becomes its labels, a pairlist a list) and taking its elements.
//
//   for (i in 1:n)          compact integer range: forInit records first
//                           and step, the loop computes i without elementOf
//   for (s in c("a", "b"))  elementOf(seq, k) makes each s a new scalar
//
// The for instructions of interp.cpp's dispatch loop call in here, and
// loop_body for loops whose break/next sit behind a promise:
//
//   for (i in 1:3) g(if (i > 1) break)   # the body is promise code run by
//                                        # loop_body in a CTXT_LOOP context;
//                                        # GNU R's break, forced inside g,
//                                        # jumps back to it: the loop ends
#include "for_loop.h"

#include <climits>

#include "../runtime/r_messages.h"
#include "inplace.h"
#include "interp.h"

namespace rir {

// The ALTREP class of R's compact integer sequences (1:n, seq_len(n)),
// taken from an instance: their elements are first + i * step, step +-1.
static SEXP compactIntseqClass() {
    static SEXP cls = nullptr;
    if (!cls) {
        SEXP call = PROTECT(Rf_lang2(Rf_install("seq_len"), Rf_ScalarInteger(2)));
        SEXP probe = Rf_eval(call, R_BaseEnv);
        cls = ALTREP(probe) ? ftag(probe) : R_NilValue;  // registered classes stay alive
        UNPROTECT(1);
    }
    return cls;
}

SEXP elementOf(SEXP seq, R_xlen_t i) {
    switch (TYPEOF(seq)) {
        case VECSXP:
        case EXPRSXP:
            return VECTOR_ELT(seq, i);
        case INTSXP:
            return Rf_ScalarInteger(INTEGER_ELT(seq, i));
        case REALSXP:
            return Rf_ScalarReal(REAL_ELT(seq, i));
        case LGLSXP:
            return Rf_ScalarLogical(LOGICAL_ELT(seq, i));
        case CPLXSXP: {
            SEXP r = Rf_allocVector(CPLXSXP, 1);
            COMPLEX(r)[0] = COMPLEX_ELT(seq, i);
            return r;
        }
        case STRSXP:
            return Rf_ScalarString(STRING_ELT(seq, i));
        case RAWSXP:
            return Rf_ScalarRaw(RAW_ELT(seq, i));
    }
    return R_NilValue;
}

// for(): checks and converts the sequence on top of the stack (GNU R's
// STARTFOR) and pushes the loop state: two INTSXP-tagged node-stack slots,
// which GNU R's GC and link counting skip, holding the length (flags: the
// step of a compact integer range, else 0) and the counter (flags: the
// range's first value).
SEXP forSequence(SEXP seq, SEXP call) {
    if (fobject(seq) && Rf_inherits(seq, "factor")) seq = Rf_asCharacterFactor(seq);
    switch (TYPEOF(seq)) {
        case LGLSXP:
        case INTSXP:
        case REALSXP:
        case CPLXSXP:
        case STRSXP:
        case RAWSXP:
        case VECSXP:
        case EXPRSXP:
        case NILSXP:
            break;
        case LISTSXP:
            seq = Rf_coerceVector(seq, VECSXP);
            break;
        default:
            Rf_errorcall(call, _("invalid for() loop sequence"));
    }
    return seq;
}

bool longSequence(SEXP seq) {
    return Rf_isVector(seq) && XLENGTH(seq) > INT_MAX;
}

void loopRange(SEXP seq, int* step, int* first) {
    R_xlen_t n = TYPEOF(seq) == NILSXP ? 0 : XLENGTH(seq);
    *step = *first = 0;
    if (n > 0 && ALTREP(seq) && ftag(seq) == compactIntseqClass()) {
        *first = INTEGER_ELT(seq, 0);
        *step = n > 1 ? INTEGER_ELT(seq, 1) - *first : 1;
        if (*step != 1 && *step != -1) *step = 0;
    }
}

NodeStackSlot* forInit(NodeStackSlot* sp, SEXP call, SEXP env, bool* ranLoop, NodeStackSlot* base) {
    *ranLoop = false;
    R_BCNodeStackTop = sp;
    SEXP seq = forSequence(sp[-1].u.sxpval, call);
    sp[-1].u.sxpval = seq;
    if (longSequence(seq)) {
        // more elements than the loop state counts: GNU R's for() runs
        // the loop, over the value (its variable, its body, in env; break
        // and next are its own), and no iteration is left here
        // (`for` itself as the function, not its symbol: GNU R's for()
        // offers a top-level loop named by the symbol to the JIT, rir)
        SEXP loop = Rf_lang4(SYMVALUE(Rf_install("for")), CADR(call), seq, CADDDR(call));
        sp[-1].u.sxpval = loop;
        // (the frame's operands below count meanwhile: see holdSlots)
        holdSlots(base, sp - 1);
        Rf_eval(loop, env);
        releaseSlots(base, sp - 1);
        seq = sp[-1].u.sxpval = R_NilValue;
        *ranLoop = true;
    }
    R_xlen_t n = TYPEOF(seq) == NILSXP ? 0 : XLENGTH(seq);
    if (seq != R_NilValue) incRefcnt(seq);
    int step, first;
    loopRange(seq, &step, &first);
    sp->tag = INTSXP;
    sp->flags = step;
    sp->u.ival = int(n);
    sp++;
    sp->tag = INTSXP;
    sp->flags = first;
    sp->u.ival = -1;
    sp++;
    return sp;
}

const int32_t* afterLoopStart(const int32_t* pc) {
    // (Compiler::forLoop: push_null, stvar after for_init / for_colon)
    if (Op(pc[0]) != Op::push_null || Op(pc[1]) != Op::stvar)
        Rf_error("rir internal error: a for() loop's start is not what the compiler emits");
    return pc + 1 + 1 + rir::info(Op::stvar).operands;
}

// No C++ object with a destructor lives here: the context is jumped to.
bool runLoopBody(Code* body, SEXP env, SEXP tramp) {
    RContext cntxt;
    Rf_begincontext(&cntxt, CTXT_LOOP, R_NilValue, env, R_BaseEnv, R_NilValue, R_NilValue);
    // GNU R's break/next land here with their mask; the node stack and the
    // evaluation depth are restored by the jump
    int jumped = sigsetjmp(cntxt.cjmpbuf, 0);
    if (!jumped) interpret(body, env, tramp);
    Rf_endcontext(&cntxt);
    return jumped == CTXT_BREAK;
}

}  // namespace rir
