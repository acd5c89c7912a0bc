// rapi.h — the parts of GNU R's internals that rir relies on but that the
// installed headers do not declare. Everything here is a fact about R 4.2.x
// (layouts of R_bcstack_t, RCNTXT and FUNTAB, and symbols that libR exports
// without declaring them). rapi_selftest() checks the layout assumptions at
// load time; on a mismatch rir disables itself instead of crashing.
#pragma once

#define R_NO_REMAP
#define USE_RINTERNALS_NOT
#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

#include <csetjmp>
#include <cstdint>

namespace rir {

// One slot of GNU R's byte-code node stack. The GC marks slots whose tag is 0
// (a SEXP), so rir keeps its operand stack there with tag 0 everywhere.
struct NodeStackSlot {
    int tag;
    int flags;
    union {
        int ival;
        double dval;
        SEXP sxpval;
    } u;
};

// GNU R's evaluation context (RCNTXT in Defn.h of R 4.2).
struct RContext {
    RContext* nextcontext;
    int callflag;
    sigjmp_buf cjmpbuf;
    int cstacktop;
    int evaldepth;
    SEXP promargs;
    SEXP callfun;
    SEXP sysparent;
    SEXP call;
    SEXP cloenv;
    SEXP conexit;
    void (*cend)(void*);
    void* cenddata;
    void* vmax;
    int intsusp;
    int gcenabled;
    int bcintactive;
    SEXP bcbody;
    void* bcpc;
    SEXP handlerstack;
    SEXP restartstack;
    void* prstack;
    NodeStackSlot* nodestack;
    NodeStackSlot* bcprottop;
    SEXP srcref;
    int browserfinish;
    SEXP returnValue;
    RContext* jumptarget;
    int jumpmask;
};

enum ContextFlag {
    CTXT_TOPLEVEL = 0,
    CTXT_NEXT = 1,
    CTXT_BREAK = 2,
    CTXT_LOOP = 3,
    CTXT_FUNCTION = 4,
    CTXT_CCODE = 8,
    CTXT_RETURN = 12,
    CTXT_BROWSER = 16,
    CTXT_GENERIC = 20,
    CTXT_RESTART = 32,
    CTXT_BUILTIN = 64,
    CTXT_UNWIND = 128,
};

typedef SEXP (*CCODE)(SEXP, SEXP, SEXP, SEXP);

// One row of R_FunTab (names.c).
struct FunTabRow {
    const char* name;
    CCODE cfun;
    int code;
    int eval;
    int arity;
    int ppkind;
    int ppprec;
    unsigned int rightassoc;
};

// Kinds of PPinfo.kind that matter to rir.
enum { PP_FOREIGN = 9 };

}  // namespace rir

extern "C" {
// GNU R's C stack bounds (Rinterface.h, behind CSTACK_DEFNS)
extern uintptr_t R_CStackLimit;
extern uintptr_t R_CStackStart;
extern int R_CStackDir;
typedef struct {
    SEXP cell;
} R_varloc_t;
R_varloc_t R_findVarLocInFrame(SEXP, SEXP);
R_varloc_t R_findVarLoc(SEXP, SEXP);
extern rir::FunTabRow R_FunTab[];
extern rir::NodeStackSlot* R_BCNodeStackTop;
extern rir::NodeStackSlot* R_BCNodeStackEnd;
extern rir::RContext* R_GlobalContext;
extern Rboolean R_Visible;
extern int R_interrupts_pending;
extern SEXP R_Srcref;
SEXP Rf_applyClosure(SEXP call, SEXP op, SEXP arglist, SEXP rho, SEXP suppliedvars);
void Rf_begincontext(rir::RContext*, int, SEXP, SEXP, SEXP, SEXP, SEXP);
void Rf_endcontext(rir::RContext*);
SEXP Rf_deparse1line(SEXP call, Rboolean abbrev);
SEXP R_bcEncode(SEXP);
SEXP R_bcDecode(SEXP);
SEXP R_mkEVPROMISE(SEXP, SEXP);
SEXP Rf_NewEnvironment(SEXP, SEXP, SEXP);
Rboolean Rf_pmatch(SEXP, SEXP, Rboolean);
void R_CheckStack(void);
void SET_PRCODE(SEXP, SEXP);
void SET_PRENV(SEXP, SEXP);
}

namespace rir {

// The offset of a primitive into R_FunTab is the first int of the SEXPREC
// payload (after sxpinfo, attrib, and the two GC links).
inline int primOffset(SEXP prim) {
    return *reinterpret_cast<int*>(reinterpret_cast<char*>(prim) + 32);
}
inline FunTabRow& primRow(SEXP prim) {
    return R_FunTab[primOffset(prim)];
}
inline CCODE primFun(SEXP prim) {
    return primRow(prim).cfun;
}
inline int primPrint(SEXP prim) {
    return (primRow(prim).eval / 100) % 10;
}
inline bool primForeign(SEXP prim) {
    return primRow(prim).ppkind == PP_FOREIGN;
}

// Node stack helpers (the GC marks [base, top) for tag 0 slots).
inline void nsPush(SEXP x) {
    if (R_BCNodeStackTop >= R_BCNodeStackEnd) Rf_error("node stack overflow");
    R_BCNodeStackTop->tag = 0;
    R_BCNodeStackTop->flags = 0;
    R_BCNodeStackTop->u.sxpval = x;
    R_BCNodeStackTop++;
}

// Inline accessors for hot paths. The installed headers only offer function
// calls; these read the R 4.2 SEXPREC layout directly (checked by the
// self-test): a 64-bit sxpinfo word, attrib, two GC links, then the payload.
struct SexpHeader {
    unsigned int type : 5;
    unsigned int scalar : 1;
    unsigned int obj : 1;
    unsigned int alt : 1;
    unsigned int gp : 16;
    unsigned int mark : 1;
    unsigned int debug : 1;
    unsigned int trace : 1;
    unsigned int spare : 1;
    unsigned int gcgen : 1;
    unsigned int gccls : 3;
    unsigned int named : 16;
    unsigned int extra : 13;
    SEXP attrib;
    SEXP next;
    SEXP prev;
    SEXP f0;  // CAR / PRVALUE / vector length
    SEXP f1;  // CDR / PRCODE / truelength
    SEXP f2;  // TAG / PRENV
};
inline SexpHeader* hdr(SEXP x) {
    return reinterpret_cast<SexpHeader*>(x);
}
inline int ftype(SEXP x) {
    return hdr(x)->type;
}
inline SEXP fattrib(SEXP x) {
    return hdr(x)->attrib;
}
inline bool fobject(SEXP x) {
    return hdr(x)->obj;
}
// A plain (non-ALTREP) length-1 vector without attributes.
inline bool simpleScalar(SEXP x, int type) {
    SexpHeader* h = hdr(x);
    return h->type == (unsigned)type && h->scalar && !h->alt && h->attrib == R_NilValue;
}
inline void* fdata(SEXP x) {
    return reinterpret_cast<char*>(x) + 48;
}
inline double fdval(SEXP x) {
    return *static_cast<double*>(fdata(x));
}
inline int fival(SEXP x) {
    return *static_cast<int*>(fdata(x));
}
inline SEXP fcar(SEXP x) {
    return hdr(x)->f0;
}
inline SEXP fcdr(SEXP x) {
    return hdr(x)->f1;
}
inline SEXP ftag(SEXP x) {
    return hdr(x)->f2;
}
inline SEXP fprvalue(SEXP x) {
    return hdr(x)->f0;
}
inline SEXP fsymvalue(SEXP x) {
    return hdr(x)->f1;
}  // symsxp: pname, value, internal
inline R_xlen_t flength(SEXP x) {
    return reinterpret_cast<R_xlen_t*>(&hdr(x)->f0)[0];
}
inline int frefcnt(SEXP x) {
    return hdr(x)->named;
}
// GNU R's INCREMENT_REFCNT (saturating at REFCNTMAX).
inline void incRefcnt(SEXP x) {
    if (hdr(x)->named < 0xFFFFu) hdr(x)->named++;
}

// True when the C stack is so deep that a recursive walk of R code (the
// compiler, the disassembler) must stop instead of recursing further:
// beyond `fraction` of GNU R's limit, which R_CheckStack() enforces at 95%
// with an error (a longjmp, not allowed while C++ objects are alive). The
// walk then gives up in an orderly way (the compiler leaves the body to GNU
// R's evaluator, which reports its own, catchable, error).
inline bool cStackTooDeep(double fraction = 0.5) {
    char here;
    if (R_CStackLimit == uintptr_t(-1)) return false;
    intptr_t usage = intptr_t(R_CStackStart - uintptr_t(&here)) * R_CStackDir;
    return usage > intptr_t(double(R_CStackLimit) * fraction);
}

// Returns an empty string when the layout assumptions hold, else a reason.
const char* rapi_selftest();

}  // namespace rir
