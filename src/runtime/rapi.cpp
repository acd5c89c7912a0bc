// rapi.cpp — load-time self-test of the GNU R facts in rapi.h. Nothing of
// rir runs before it has passed: on any mismatch rir disables itself.
#include "rapi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace rir {

namespace {

// (plain buffers: R API calls that may jump happen while these are in use)
char problemText[256];
char builtFor[16];
char running[32];

const char* fail(const char* what) {
    std::snprintf(problemText, sizeof(problemText), "%s do not match R %s", what, builtFor);
    return problemText;
}

// The running R's version as "major.minor" into `running`
// (RIR_TEST_R_VERSION pretends to be another one, for the tests of the
// refusal path).
void findRunningVersion() {
    std::snprintf(builtFor, sizeof(builtFor), "%d.%d", kBuiltForMajor, kBuiltForMinor);
    const char* fake = std::getenv("RIR_TEST_R_VERSION");
    if (fake && *fake) {
        std::snprintf(running, sizeof(running), "%s", fake);
        return;
    }
    std::snprintf(running, sizeof(running), "?");
    SEXP rv = Rf_findVarInFrame(R_BaseEnv, Rf_install("R.version"));
    if (TYPEOF(rv) != VECSXP) return;
    SEXP names = Rf_getAttrib(rv, R_NamesSymbol);
    const char *major = "?", *minor = "?";
    for (R_xlen_t i = 0; i < XLENGTH(rv) && TYPEOF(names) == STRSXP; i++) {
        SEXP v = VECTOR_ELT(rv, i);
        if (TYPEOF(v) != STRSXP || XLENGTH(v) != 1) continue;
        if (!std::strcmp(CHAR(STRING_ELT(names, i)), "major")) major = CHAR(STRING_ELT(v, 0));
        if (!std::strcmp(CHAR(STRING_ELT(names, i)), "minor")) minor = CHAR(STRING_ELT(v, 0));
    }
    int minorLen = int(std::strcspn(minor, "."));
    std::snprintf(running, sizeof(running), "%s.%.*s", major, minorLen, minor);
}

const unsigned char kFill = 0xA5;

template <class T>
bool stillFill(const T& field) {
    const unsigned char* p = reinterpret_cast<const unsigned char*>(&field);
    for (size_t i = 0; i < sizeof(T); i++)
        if (p[i] != kFill) return false;
    return true;
}

// Pushes a context with Rf_begincontext into a buffer filled with a pattern
// and checks that GNU R wrote every field rir knows where the mirror has it,
// and nothing after the mirrored end.
const char* contextSelftest() {
    SEXP call = PROTECT(Rf_lang1(Rf_install("rir_probe")));
    SEXP env = PROTECT(R_NewEnv(R_EmptyEnv, FALSE, 0));
    SEXP sysp = PROTECT(R_NewEnv(R_EmptyEnv, FALSE, 0));
    SEXP promargs = PROTECT(Rf_cons(R_NilValue, R_NilValue));
    SEXP callfun = PROTECT(Rf_ScalarInteger(1));
    SEXP depthCall =
        PROTECT(Rf_lang2(Rf_install(".Internal"), Rf_lang1(Rf_install("Cstack_info"))));
    RContext* outer = R_GlobalContext;
    RContext c;
    std::memset(&c, kFill, sizeof(c));
    Rf_begincontext(&c, CTXT_CCODE, call, env, sysp, promargs, callfun);
    const char* bad = nullptr;
    if (R_GlobalContext != &c || c.nextcontext != outer)
        bad = "nextcontext";
    else if (c.callflag != CTXT_CCODE)
        bad = "callflag";
    else if (c.call != call || c.cloenv != env || c.sysparent != sysp || c.promargs != promargs ||
             c.callfun != callfun || c.conexit != R_NilValue)
        bad = "call/cloenv/sysparent/promargs/callfun/conexit";
    else if (c.cstacktop != R_PPStackTop || c.vmax != vmaxget() ||
             c.intsusp != int(R_interrupts_suspended))
        bad = "cstacktop/vmax/intsusp";
    else if (c.cend != nullptr || c.nodestack != R_BCNodeStackTop || c.srcref != R_Srcref)
        bad = "cend/nodestack/srcref";
    else if (c.jumptarget != nullptr || c.jumpmask != 0 || contextReturnValue(&c) != nullptr)
        bad = "returnValue/jumptarget/jumpmask";
    else if (outer && c.browserfinish != outer->browserfinish)
        bad = "browserfinish";
    else if ((c.gcenabled != 0 && c.gcenabled != 1) || (c.bcintactive != 0 && c.bcintactive != 1))
        bad = "gcenabled/bcintactive";
    else if (stillFill(c.evaldepth) || stillFill(c.bcbody) || stillFill(c.bcpc) ||
             stillFill(c.handlerstack) || stillFill(c.restartstack) || stillFill(c.prstack) ||
             stillFill(c.bcprottop))
        bad = "fields begincontext sets";
#if RIR_R_LAYOUT != 42
    else if (stillFill(c.relpc) || stillFill(c.bcframe))
        bad = "relpc/bcframe";
#endif
    for (size_t i = 0; !bad && i < sizeof(c.rirPadding); i++)
        if (c.rirPadding[i] != kFill) bad = "size (GNU R wrote past the mirrored end)";
    if (!bad) {
        // evaldepth is R_EvalDepth: .Internal(Cstack_info()) evaluated from
        // here reports it plus one (its own eval)
        SEXP info = Rf_eval(depthCall, R_BaseEnv);
        if (TYPEOF(info) != INTSXP || XLENGTH(info) < 4 || INTEGER(info)[3] != c.evaldepth + 1)
            bad = "evaldepth";
    }
    if (bad) {
        R_GlobalContext = outer;  // do not let GNU R read a context it does not understand
        UNPROTECT(6);
        char what[128];
        std::snprintf(what, sizeof(what), "RCNTXT layout (%s) does", bad);
        return fail(what);
    }
    Rf_endcontext(&c);
    UNPROTECT(6);
    if (R_GlobalContext != outer) return fail("Rf_endcontext's effects");
    return nullptr;
}

// The node stack: [top, end) is a whole number of 16-byte slots, at most
// R_BCNODESTACKSIZE of them.
const char* nodeStackSelftest() {
    ptrdiff_t bytes =
        reinterpret_cast<char*>(R_BCNodeStackEnd) - reinterpret_cast<char*>(R_BCNodeStackTop);
    if (bytes <= 0 || bytes % sizeof(NodeStackSlot) != 0 ||
        bytes / long(sizeof(NodeStackSlot)) > kNodeStackSlots)
        return fail("R_bcstack_t layout and R_BCNODESTACKSIZE");
    return nullptr;
}

const char* funTabSelftest() {
    SEXP sumfun = Rf_findFun(Rf_install("sum"), R_BaseEnv);
    if (TYPEOF(sumfun) != BUILTINSXP) return fail("base::sum's type does");
    int off = primOffset(sumfun);
    if (off < 0 || off > 2000 || std::strcmp(R_FunTab[off].name, "sum") != 0)
        return fail("R_FunTab's layout does");
    SEXP ifs = SYMVALUE(Rf_install("if"));
    SEXP plus = SYMVALUE(Rf_install("+"));
    SEXP dotCall = SYMVALUE(Rf_install(".Call"));
    if (TYPEOF(ifs) != SPECIALSXP || std::strcmp(primRow(ifs).name, "if") != 0 ||
        primRow(ifs).ppkind != PP_IF || primRow(ifs).rightassoc != 1 ||
        TYPEOF(plus) != BUILTINSXP || std::strcmp(primRow(plus).name, "+") != 0 ||
        primRow(plus).code != 1 || primRow(plus).ppkind != PP_BINARY ||
        TYPEOF(dotCall) != BUILTINSXP || std::strcmp(primRow(dotCall).name, ".Call") != 0 ||
        primRow(dotCall).ppkind != PP_FOREIGN || primRow(dotCall).arity != -1 ||
        primRow(dotCall).eval != 1)
        return fail("R_FunTab rows");
    return nullptr;
}

const char* sexpSelftest() {
    if (sizeof(SexpHeader) != 56) return fail("SEXPREC header size does");
    SEXP ifs = SYMVALUE(Rf_install("if"));
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
    // the collector's mark bit and generation (setListElt's write barrier):
    // a new node is unmarked; one that survived a collection is marked and
    // older than a new one
    SEXP young = PROTECT(Rf_ScalarInteger(1));
    ok = ok && !hdr(young)->mark;
    R_gc();
    SEXP young2 = PROTECT(Rf_ScalarInteger(2));
    ok = ok && hdr(young)->mark && !hdr(young2)->mark;
    SEXP list = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(list, 0, young);
    setListElt(list, 1, young);
    ok = ok && VECTOR_ELT(list, 1) == young && frefcnt(young) == 2;
    setListElt(list, 1, young2);
    ok = ok && frefcnt(young) == 1 && frefcnt(young2) == 1;
    UNPROTECT(6);
    if (!ok) return fail("SEXPREC layout does");
    return nullptr;
}

// The sxpinfo.gp bits rir reads and writes, observed on objects made
// through the API.
const char* gpBitsSelftest() {
    SEXP env = PROTECT(R_NewEnv(R_EmptyEnv, FALSE, 0));
    SEXP a = Rf_install("rir_probe_a"), b = Rf_install("rir_probe_b");
    Rf_defineVar(a, R_NilValue, env);
    SEXP fun = PROTECT(Rf_allocSExp(CLOSXP));
    SET_FORMALS(fun, R_NilValue);
    SET_BODY(fun, R_NilValue);
    SET_CLOENV(fun, R_BaseEnv);
    R_MakeActiveBinding(b, fun, env);
    R_LockBinding(a, env);
    SEXP ca = R_findVarLocInFrame(env, a).cell;
    SEXP cb = R_findVarLocInFrame(env, b).cell;
    bool ok = ca && cb && ca != R_NilValue && cb != R_NilValue;
    ok = ok && (hdr(ca)->gp & kBindingLock) && !(hdr(ca)->gp & kActiveBinding) &&
         (hdr(cb)->gp & kActiveBinding) && !(hdr(cb)->gp & kBindingLock) &&
         (hdr(ca)->gp & kMissingMask) == 0;
    ok = ok && (hdr(Rf_mkChar("rir"))->gp & kAsciiMask) &&
         !(hdr(Rf_mkCharCE("r\xc3\xacr", CE_UTF8))->gp & kAsciiMask);
    // special symbols ("if", "{", ...) carry the bit environments use for
    // NO_SPECIAL_SYMBOLS
    ok = ok && (hdr(Rf_install("if"))->gp & kNoSpecialSymbols) &&
         !(hdr(Rf_install("rir_probe_a"))->gp & kNoSpecialSymbols);
    // where native code reads gp and extra in the header's first word
    uint64_t word;
    std::memcpy(&word, cb, sizeof(word));
    ok = ok && ((word >> kGpShift) & kActiveBinding) &&
         ((word >> kExtraShift) & kExtraMask) == hdr(cb)->extra;
    SEXP probe = PROTECT(Rf_cons(R_NilValue, R_NilValue));
    hdr(probe)->extra = 5;
    std::memcpy(&word, probe, sizeof(word));
    ok = ok && ((word >> kExtraShift) & kExtraMask) == 5;
    hdr(probe)->extra = 0;
    // and the reference count
    incRefcnt(probe);
    incRefcnt(probe);
    std::memcpy(&word, probe, sizeof(word));
    ok = ok && ((word >> kRefcntShift) & kRefcntMask) == uint64_t(frefcnt(probe)) &&
         frefcnt(probe) == 2;
    UNPROTECT(3);
    if (!ok) return fail("sxpinfo gp bits");
    return nullptr;
}

}  // namespace

namespace {
struct OutsideByteCode {
    void (*fn)(void*);
    void* data;
};

SEXP outsideByteCodeEntry(SEXP ptr) {
    auto* r = static_cast<OutsideByteCode*>(R_ExternalPtrAddr(ptr));
    r->fn(r->data);
    return R_NilValue;
}
}  // namespace

SEXP compactIntRangeClass() {
    static SEXP cls = nullptr;
    static bool known = false;
    if (known) return cls;
    known = true;
    SEXP r = PROTECT(
        Rf_eval(Rf_lang3(Rf_install(":"), Rf_ScalarInteger(3), Rf_ScalarInteger(12)), R_BaseEnv));
    SEXP info = hdr(r)->alt ? CAR(r) : R_NilValue;
    bool looks = TYPEOF(r) == INTSXP && hdr(r)->alt && TYPEOF(info) == REALSXP &&
                 XLENGTH(info) == 3 && REAL(info)[0] == 10 && REAL(info)[1] == 3 &&
                 REAL(info)[2] == 1 && CDR(r) == R_NilValue && INTEGER_ELT(r, 4) == 7 &&
                 CDR(r) == R_NilValue;
    if (looks) {
        cls = TAG(r);
        R_PreserveObject(cls);
    }
    UNPROTECT(1);
    return cls;
}

void callOutsideByteCode(void (*fn)(void*), void* data) {
    static SEXP entry = nullptr;
    if (!entry) {
        entry = R_MakeExternalPtrFn(reinterpret_cast<DL_FUNC>(&outsideByteCodeEntry),
                                    Rf_install("native symbol"), R_NilValue);
        R_PreserveObject(entry);
    }
    OutsideByteCode r{fn, data};
    SEXP ptr = PROTECT(R_MakeExternalPtr(&r, R_NilValue, R_NilValue));
    SEXP e = PROTECT(Rf_lang3(SYMVALUE(Rf_install(".Call")), entry, ptr));
    Rf_eval(e, R_BaseEnv);
    UNPROTECT(2);
}

const char* rapi_selftest() {
    findRunningVersion();
    if (!kLayoutKnown) {
        std::snprintf(problemText, sizeof(problemText),
                      "rir does not know the internals of R %s (it knows R 4.2 to 4.5); "
                      "GNU R runs without it",
                      builtFor);
        return problemText;
    }
    if (std::strcmp(running, builtFor) != 0) {
        std::snprintf(problemText, sizeof(problemText),
                      "rir was built for R %s but this is R %s, whose internals it does not "
                      "assume; GNU R runs without it (reinstall rir for this R)",
                      builtFor, running);
        return problemText;
    }
    const char* problem = sexpSelftest();
    if (!problem) problem = funTabSelftest();
    if (!problem) problem = nodeStackSelftest();
    if (!problem) problem = gpBitsSelftest();
    if (!problem) problem = contextSelftest();
    return problem ? problem : "";
}

int standardGenericOffset() {
    static int offset = [] {
        for (int k = 0; R_FunTab[k].name; k++)
            if (!std::strcmp(R_FunTab[k].name, "standardGeneric")) return k;
        return -1;
    }();
    return offset;
}

}  // namespace rir
