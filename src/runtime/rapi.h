// rapi.h — the parts of GNU R's internals that rir relies on but that the
// installed headers do not declare: layouts of RCNTXT, R_bcstack_t, FUNTAB
// rows and the SEXPREC header, sxpinfo.gp bits, and symbols that libR
// exports without declaring them. This file is the one definition of these
// facts in rir.
//
// The layouts differ between R releases, so there is one mirror per layout,
// chosen at build time from R_VERSION (Rversion.h). The facts come from
// src/include/Defn.h and src/main/context.c of GNU R at each release:
//
//   R 4.2, 4.3   layout "4.2": tags R-4-2-0, R-4-3-0 and the R-4-2-branch
//                (4.2.3) are identical.
//   R 4.4, 4.5   layout "4.4": from R-4-4-0 the context has `relpc` (after
//                bcpc) and `bcframe` (after bcprottop), and `returnValue`
//                is an R_bcstack_t instead of a SEXP. R 4.5's facts are those
//                of trunk as 4.5.0-devel (r87263; the mirror has no R-4-5-0
//                tag) and of R-devel's Defn.h, both identical to R-4-4-0.
//
// Any other version compiles with a placeholder layout, and rapi_selftest()
// refuses it: rir then disables itself (one startup message) and leaves GNU
// R alone. The self-test also compares the running R's version with the one
// rir was built for and checks every layout empirically (a context pushed by
// Rf_begincontext must have its known fields where the mirror says).
#pragma once

#define R_NO_REMAP
#define USE_RINTERNALS_NOT
#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>
#include <Rversion.h>

#include <csetjmp>
#include <cstddef>
#include <cstdint>

#include "export.h"

#if R_VERSION >= R_Version(4, 2, 0) && R_VERSION < R_Version(4, 4, 0)
#define RIR_R_LAYOUT 42
#elif R_VERSION >= R_Version(4, 4, 0) && R_VERSION < R_Version(4, 6, 0)
#define RIR_R_LAYOUT 44
#else
#define RIR_R_LAYOUT 0  // unknown: compiled with the 4.4 mirror, refused at load
#endif

namespace rir {

// The R version whose internals this build mirrors ("4.2" ...), and whether
// that layout is one rir knows.
const int kBuiltForMajor = R_VERSION >> 16;
const int kBuiltForMinor = (R_VERSION >> 8) & 0xff;
const bool kLayoutKnown = RIR_R_LAYOUT != 0;

// One slot of GNU R's byte-code node stack (R_bcstack_t, the same in 4.2 to
// 4.5). The GC marks slots whose tag is 0 (a SEXP), so rir keeps its
// operand stack there with tag 0 everywhere.
struct NodeStackSlot {
    int tag;
    int flags;
    union {
        int ival;
        double dval;
        SEXP sxpval;
    } u;
};
// (native code addresses slot k's value at k * kSlotSize + kSlotValue)
const size_t kSlotSize = sizeof(NodeStackSlot);
const size_t kSlotValue = offsetof(NodeStackSlot, u);
static_assert(sizeof(NodeStackSlot) == 16, "R_bcstack_t is 16 bytes");
// The tag of a slot that heads a block of raw memory GNU R's byte code keeps
// on the node stack (a loop's RCNTXT, ...): the u.ival slots after it are
// bytes, not slots (GNU R's collector skips them as well).
const int kRawMemTag = 254;
static_assert(offsetof(NodeStackSlot, flags) == 4 && offsetof(NodeStackSlot, u) == 8,
              "R_bcstack_t layout");
// R_BCNODESTACKSIZE: the number of slots of GNU R's node stack.
const long kNodeStackSlots = RIR_R_LAYOUT == 42 ? 200000 : 300000;

// GNU R's evaluation context (RCNTXT in Defn.h), for the layout chosen
// above, followed by padding: every RContext rir allocates is bigger than
// the real RCNTXT, so a layout mistake can never make GNU R write past it.
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
#if RIR_R_LAYOUT != 42
    ptrdiff_t relpc;
#endif
    SEXP handlerstack;
    SEXP restartstack;
    void* prstack;
    NodeStackSlot* nodestack;
    NodeStackSlot* bcprottop;
#if RIR_R_LAYOUT != 42
    void* bcframe;
#endif
    SEXP srcref;
    int browserfinish;
#if RIR_R_LAYOUT == 42
    SEXP returnValue;
#else
    NodeStackSlot returnValue;
#endif
    RContext* jumptarget;
    int jumpmask;
    // not GNU R's: room for fields a future R might add
    alignas(8) unsigned char rirPadding[128];
};

// The size of the real RCNTXT (everything before the padding).
const size_t kRContextSize = offsetof(RContext, rirPadding);

#if defined(__x86_64__) && defined(__GLIBC__)
// Offsets on x86-64 Linux (sigjmp_buf is 200 bytes), worked out by hand from
// the declarations in Defn.h.
static_assert(sizeof(sigjmp_buf) == 200, "glibc sigjmp_buf");
static_assert(offsetof(RContext, cjmpbuf) == 16 && offsetof(RContext, cstacktop) == 216 &&
                  offsetof(RContext, evaldepth) == 220 && offsetof(RContext, promargs) == 224 &&
                  offsetof(RContext, cend) == 272 && offsetof(RContext, bcpc) == 320,
              "RCNTXT layout up to bcpc (all versions)");
#if RIR_R_LAYOUT == 42
static_assert(offsetof(RContext, handlerstack) == 328 && offsetof(RContext, nodestack) == 352 &&
                  offsetof(RContext, srcref) == 368 && offsetof(RContext, returnValue) == 384 &&
                  offsetof(RContext, jumptarget) == 392 && offsetof(RContext, jumpmask) == 400 &&
                  kRContextSize == 408,
              "RCNTXT layout of R 4.2 and 4.3");
#else
static_assert(offsetof(RContext, relpc) == 328 && offsetof(RContext, handlerstack) == 336 &&
                  offsetof(RContext, nodestack) == 360 && offsetof(RContext, bcframe) == 376 &&
                  offsetof(RContext, srcref) == 384 && offsetof(RContext, returnValue) == 400 &&
                  offsetof(RContext, jumptarget) == 416 && offsetof(RContext, jumpmask) == 424 &&
                  kRContextSize == 432,
              "RCNTXT layout of R 4.4 and 4.5");
#endif
#endif

// The value a function context returns (set before Rf_endcontext so that
// returnValue() in on.exit code sees it): a SEXP up to R 4.3, an
// R_bcstack_t with tag 0 from R 4.4.
inline void setContextReturnValue(RContext* c, SEXP v) {
#if RIR_R_LAYOUT == 42
    c->returnValue = v;
#else
    c->returnValue.tag = 0;
    c->returnValue.flags = 0;
    c->returnValue.u.sxpval = v;
#endif
}
inline SEXP contextReturnValue(const RContext* c) {
#if RIR_R_LAYOUT == 42
    return c->returnValue;
#else
    return c->returnValue.tag == 0 ? c->returnValue.u.sxpval : nullptr;
#endif
}

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

// One row of R_FunTab (FUNTAB in Defn.h; the same in 4.2 to 4.5): name,
// cfun, code, eval, arity and PPinfo {kind, precedence, rightassoc}.
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
static_assert(sizeof(void*) != 8 || sizeof(FunTabRow) == 40, "FUNTAB row is 40 bytes");
static_assert(offsetof(FunTabRow, eval) == 2 * sizeof(void*) + 4 &&
                  offsetof(FunTabRow, ppkind) == 2 * sizeof(void*) + 12,
              "FUNTAB row layout");

// PPkind values (Defn.h) the self-test checks.
enum { PP_BINARY = 3, PP_IF = 10, PP_FOREIGN = 19 };

// Bits of sxpinfo.gp (Defn.h; the same in 4.2 to 4.5).
const unsigned kMissingMask = 15;             // MISSING_MASK: binding cells of a frame
const unsigned kGrowable = 1u << 5;           // GROWABLE_MASK: vectors
const unsigned kAsciiMask = 1u << 6;          // ASCII_MASK: CHARSXPs
const unsigned kAssignmentCall = 1u << 11;    // ASSIGNMENT_PENDING_MASK (MARK_ASSIGNMENT_CALL):
                                              // a setter call made for a complex assignment
const unsigned kNoSpecialSymbols = 1u << 12;  // SPECIAL_SYMBOL_MASK: symbols, environments
const unsigned kBaseSymCached = 1u << 13;     // BASE_SYM_CACHED_MASK: symbols whose global
                                              // cache entry is base's binding
const unsigned kBindingLock = 1u << 14;       // BINDING_LOCK_MASK: binding cells
const unsigned kActiveBinding = 1u << 15;     // ACTIVE_BINDING_MASK: binding cells
const unsigned kGlobalFrame = 1u << 15;       // GLOBAL_FRAME_MASK (envir.c): environments
                                              // whose bindings the global cache holds

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
extern Rboolean R_interrupts_suspended;
extern int R_PPStackTop;
extern SEXP R_Srcref;
// the shared logical scalars (Defn.h; Rf_ScalarLogical returns them)
extern SEXP R_TrueValue;
extern SEXP R_FalseValue;
extern SEXP R_LogicalNAValue;
SEXP Rf_applyClosure(SEXP call, SEXP op, SEXP arglist, SEXP rho, SEXP suppliedvars);
void Rf_begincontext(rir::RContext*, int, SEXP, SEXP, SEXP, SEXP, SEXP);
void Rf_endcontext(rir::RContext*);
SEXP Rf_deparse1line(SEXP call, Rboolean abbrev);
SEXP R_bcEncode(SEXP);
SEXP R_bcDecode(SEXP);
SEXP R_mkEVPROMISE(SEXP, SEXP);
// GNU R's JIT flags of a closure (exported as functions): NOJIT, never
// compile; MAYBEJIT, seen once, compile at the next call.
int(MAYBEJIT)(SEXP x);
int(NOJIT)(SEXP x);
void(SET_MAYBEJIT)(SEXP x);
SEXP Rf_NewEnvironment(SEXP, SEXP, SEXP);
Rboolean Rf_pmatch(SEXP, SEXP, Rboolean);
void R_CheckStack(void);
void SET_PRCODE(SEXP, SEXP);
void SET_PRENV(SEXP, SEXP);
}

namespace rir {

// GNU R's shared logical scalars, as Rf_ScalarLogical returns them (read
// inline: no call on hot paths).
inline SEXP lglScalar(int x) {
    return x == NA_LOGICAL ? R_LogicalNAValue : x ? R_TrueValue : R_FalseValue;
}

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
// S4's standardGeneric, the builtin that runs R code without a foreign
// call or an object argument: its R_FunTab offset, looked up once.
int standardGenericOffset();
inline bool isStandardGeneric(SEXP prim) {
    return primOffset(prim) == standardGenericOffset();
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

// A binding cell (a frame's cons cell) whose CAR is the variable's value as
// an ordinary SEXP: not an active binding (its CAR is the function) and not
// an immediate, unboxed value (sxpinfo.extra, GNU R's BNDCELL_TAG).
inline bool plainCell(SEXP cell) {
    return !(hdr(cell)->gp & kActiveBinding) && hdr(cell)->extra == 0;
}
// ... and not locked: storing into its CAR is the assignment itself.
inline bool plainWritableCell(SEXP cell) {
    return plainCell(cell) && !(hdr(cell)->gp & kBindingLock);
}

// rir's mark on a promise it made for a symbol argument of a call in code it
// compiled (sxpinfo.extra: GNU R uses it on binding cells only). GNU R's byte
// code compiles such an argument with the call as its current expression, so
// forcing it when the variable is missing or unbound names that call; a
// symbol promise without the mark comes from GNU R's AST interpreter
// (on.exit code, eval(), a closure GNU R never compiled), whose error names
// the innermost function context's call instead.
inline void markCompiledArg(SEXP promise) {
    hdr(promise)->extra = 1;
}
inline bool isCompiledArg(SEXP promise) {
    return hdr(promise)->extra == 1;
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
// The header's first byte: type (bits 0-4), scalar (5), object (6), ALTREP
// (7); native code tests it directly (simpleScalar's test), and the
// attribute pointer after the first 8 bytes.
const unsigned kHeaderScalarBit = 1u << 5;
const unsigned kHeaderObjectBit = 1u << 6;
const unsigned kHeaderAltBit = 1u << 7;
const unsigned kHeaderTypeMask = 0x1f;
const int kAttribOffset = 8;
static_assert(offsetof(SexpHeader, attrib) == kAttribOffset, "attrib after the 8 header bytes");
// In the header's first 64-bit word: gp from bit 8, extra (immediate
// binding values' type) in the 13 bits from bit 48; CAR / PRVALUE at byte 32.
const int kGpShift = 8;
const int kExtraShift = 48;
const uint64_t kExtraMask = 0x1fff;
// the reference count (REFCNT, the `named` field): 16 bits from bit 32
const int kRefcntShift = 32;
const uint64_t kRefcntMask = 0xffff;
const int kCarOffset = 32;
static_assert(offsetof(SexpHeader, f0) == kCarOffset, "CAR after the header and 3 pointers");
const int kCdrOffset = 40;
const int kTagOffset = 48;
static_assert(offsetof(SexpHeader, f1) == kCdrOffset && offsetof(SexpHeader, f2) == kTagOffset,
              "CDR and TAG after CAR");
// A plain (non-ALTREP) length-1 vector without attributes.
inline bool simpleScalar(SEXP x, int type) {
    SexpHeader* h = hdr(x);
    return h->type == (unsigned)type && h->scalar && !h->alt && h->attrib == R_NilValue;
}
// Where a (non-ALTREP) vector's elements start (the header, then the
// length and true length): also used by native code.
const int kVectorDataOffset = 48;
inline void* fdata(SEXP x) {
    return reinterpret_cast<char*>(x) + kVectorDataOffset;
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
// closxp: formals, body, env
inline SEXP fformals(SEXP x) {
    return hdr(x)->f0;
}
inline SEXP fbody(SEXP x) {
    return hdr(x)->f1;
}
inline SEXP fcloenv(SEXP x) {
    return hdr(x)->f2;
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
// GNU R's INCREMENT_REFCNT / DECREMENT_REFCNT (saturating at REFCNTMAX).
inline void incRefcnt(SEXP x) {
    if (hdr(x)->named < 0xFFFFu) hdr(x)->named++;
}
inline void decRefcnt(SEXP x) {
    if (hdr(x)->named > 0 && hdr(x)->named < 0xFFFFu) hdr(x)->named--;
}

// The value of a binding cell when reading it runs no R code: an ordinary
// cell's value, or its evaluated promise's; else nullptr.
inline SEXP peekCellValue(SEXP cell) {
    if (!plainCell(cell)) return nullptr;
    SEXP x = fcar(cell);
    if (ftype(x) == PROMSXP) x = fprvalue(x);
    return x == R_UnboundValue || x == R_MissingArg ? nullptr : x;
}

// Rf_getAttrib(x, name) for a name without special handling (not names,
// dim, dimnames, row.names, class...), inline: the value of the attribute
// tagged `name`, marked not mutable as getAttrib marks it, else R_NilValue.
inline SEXP plainAttrib(SEXP x, SEXP name) {
    for (SEXP a = fattrib(x); a != R_NilValue; a = fcdr(a))
        if (ftag(a) == name) {
            SEXP v = fcar(a);
            hdr(v)->named = 0xFFFFu;  // MARK_NOT_MUTABLE
            return v;
        }
    return R_NilValue;
}

// The names attribute of vector x (not a pairlist) as Rf_getAttrib(x,
// R_NamesSymbol) finds it, for reading only (not marked not mutable), or
// nullptr when x has a dim attribute (a one-dimensional array's names are
// its dimnames: left to Rf_getAttrib).
inline SEXP readNames(SEXP x) {
    SEXP names = R_NilValue;
    for (SEXP a = fattrib(x); a != R_NilValue; a = fcdr(a)) {
        if (ftag(a) == R_DimSymbol) return nullptr;
        if (ftag(a) == R_NamesSymbol) names = fcar(a);
    }
    return names;
}

// Stores into R objects as GNU R's setters make them (memory.c), inline for
// hot paths. Reference counts as FIX_REFCNT keeps them (nothing when the
// object does not track references: sxpinfo.spare); when x is older than v
// (x marked, v unmarked or of a younger generation: NODE_IS_OLDER) the
// write barrier's old-to-new bookkeeping is needed, and the store is left
// to GNU R's own setter. (mark and gcgen: checked by the self-test)
inline bool olderThan(SEXP x, SEXP v) {
    SexpHeader *hx = hdr(x), *hv = hdr(v);
    return hx->mark && (!hv->mark || hx->gcgen > hv->gcgen);
}
// DISABLE_REFCNT: the elements of list or cons cell x count no references
// (sxpinfo.spare; not for a closure, whose spare bit is RSTEP).
inline void untrackRefs(SEXP x) {
    hdr(x)->spare = 1;
}
inline void storeCounted(SEXP x, SEXP* field, SEXP v) {
    SEXP old = *field;
    if (old == v) return;
    if (!hdr(x)->spare) {
        if (old) decRefcnt(old);
        incRefcnt(v);
    }
    *field = v;
}
// SET_VECTOR_ELT of a plain (non-ALTREP) list
inline void setListElt(SEXP x, R_xlen_t i, SEXP v) {
    if (olderThan(x, v))
        SET_VECTOR_ELT(x, i, v);
    else
        storeCounted(x, static_cast<SEXP*>(fdata(x)) + i, v);
}
// SET_PRVALUE, SET_PRCODE, SET_PRENV
inline void setPrvalue(SEXP p, SEXP v) {
    if (olderThan(p, v))
        SET_PRVALUE(p, v);
    else
        storeCounted(p, &hdr(p)->f0, v);
}
inline void setPrcode(SEXP p, SEXP v) {
    if (olderThan(p, v))
        SET_PRCODE(p, v);
    else
        storeCounted(p, &hdr(p)->f1, v);
}
inline void setPrenv(SEXP p, SEXP v) {
    if (olderThan(p, v))
        SET_PRENV(p, v);
    else
        storeCounted(p, &hdr(p)->f2, v);
}

// R_mkEVPROMISE_NR (memory.c, not exported): an evaluated promise that does
// not count its value as a reference, for an argument the callee cannot
// keep (the target and the value GNU R's byte code hands a special setter
// such as `[<-`). A counted one would leave the target shared for good (no
// count is taken back when the promise dies), and every later assignment
// into it would copy it.
inline SEXP evPromiseUncounted(SEXP expr, SEXP val) {
    SEXP p = R_mkEVPROMISE(expr, R_NilValue);
    untrackRefs(p);
    setPrvalue(p, val);
    return p;
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

// R_CheckStack() with its test inline (errors.c: usage beyond
// R_CStackLimit raises the C stack overflow error): GNU R is only called
// when it will raise the error.
inline void checkCStack() {
    char here;
    intptr_t usage = intptr_t(R_CStackStart - uintptr_t(&here)) * R_CStackDir;
    if (R_CStackLimit != uintptr_t(-1) && usage > intptr_t(R_CStackLimit)) R_CheckStack();
}

// GNU R's compact integer ranges (altclasses.c: `from:to`, seq_len,
// seq_along): an ALTREP vector whose class is its TAG, whose data1 (CAR)
// is a double vector (length, first, increment) and whose data2 (CDR) is
// NULL until it is expanded; element i is then first + increment * i.
// The class, or nullptr when a range made at load time does not look like
// that (code reading ranges inline then takes GNU R's accessors).
RIR_EXPORT SEXP compactIntRangeClass();

// Calls fn(data) with GNU R's byte code marked inactive (R_BCIntActive,
// not exported, 0), as its eval() of a call leaves it: error() and
// warning() inside then name the innermost context's call, never the
// current expression of a byte-code (or trampoline) frame further out.
// Goes through Rf_eval of `.Call(<native symbol>, <pointer>)`, whose
// builtin context getCurrentCall() skips. fn may raise R errors; it must
// hold no C++ objects with destructors across them.
void callOutsideByteCode(void (*fn)(void*), void* data);

// Returns an empty string when the layout assumptions hold, else a reason.
const char* rapi_selftest();

}  // namespace rir
