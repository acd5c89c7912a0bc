// code.h — a unit of RIR bytecode: a function body, a promise (call
// argument) or a top-level expression. A Code is owned by an external
// pointer whose protected slot is the constant pool (an R list), so the GC
// keeps every SEXP the code refers to alive, including child Codes.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "../runtime/rapi.h"
#include "insns.h"

namespace rir {

// Stack: a value on the operand stack (complex assignments: pool 0 is the
// target `*tmp*`, pool 1 the `value` argument).
enum class ArgKind : int { Const, Code, Symbol, Missing, Dots, Stack };

struct CallArg {
    ArgKind kind;
    int pool;  // constant, code extptr or symbol (unused for Missing/Dots)
    SEXP tag;  // argument name or R_NilValue (symbols are never collected)
};

struct CallSite {
    int ast;  // pool index of the call expression
    std::vector<CallArg> args;
    int scratch = 0;  // subsets feeding a binop: scratch result slot + 1
    int expr = -1;    // pool index of the expression errors report, if not ast
};

// Type feedback for one instruction. `types` is a bit set of TypeBit.
enum TypeBit : uint32_t {
    TB_LGL = 1,
    TB_INT = 2,
    TB_REAL = 4,
    TB_CPLX = 8,
    TB_STR = 16,
    TB_LIST = 32,
    TB_OTHER = 64,
    TB_VECTOR = 128,  // length != 1
    TB_ATTRIB = 256,  // attributes present
    TB_OBJECT = 512,  // class attribute present
    TB_NA = 1024,     // NA seen in a scalar operand
};

// `types` holds the TypeBits of the value an instruction looked at in its
// low 16 bits (for calls: their results, over the first kResultSamples
// calls); a binop keeps its left operand's there and its right
// operand's in the high 16 bits (kRhsShift), so that the optimizer can
// speculate on each operand.
const int kRhsShift = 16;
// A subassign's feedback keeps its value's types in the low bits and this
// bit once x was not a plain local vector (see plainLocalVector).
const uint32_t kSubassignNotPlain = TB_OBJECT << kRhsShift;
// A subset's (x[i], x[[i]], x[i, j]) feedback keeps x's types in the low
// bits and this bit once its result was not an attribute-free scalar (a
// vector index, a negative one, names): the optimizer speculates on a
// scalar result only without it.
const uint32_t kSubsetNotScalar = TB_VECTOR << kRhsShift;
// dollar (x$name) keeps x's types in the low bits and this bit once
// dollarPlain did not apply; dollar_assign its value's and this bit once
// dollarAssignPlain did not.
const uint32_t kDollarNotPlain = TB_OBJECT << kRhsShift;
// dollar_assign keeps this bit too once neither fast path applied and the
// general complex assignment ran (x shared, an object, no such element):
// the optimizer then branches to it instead of speculating.
const uint32_t kDollarGeneral = TB_VECTOR << kRhsShift;
// A binop's feedback keeps this bit (among its left operand's, unused by
// the TypeBits) once its integer + - * overflowed (NA, with GNU R's
// warning): the optimizer then does not speculate that it cannot.
const uint32_t kArithOverflowed = 1u << 15;
// Calls record their results' types over their first executions only.
const uint32_t kResultSamples = 1000;

struct Feedback {
    uint32_t count = 0;  // executions (calls, loop trips)
    uint32_t taken = 0;  // branches: times the branch was taken
    uint32_t types = 0;  // operand types seen (see kRhsShift)
    uint32_t ncallees = 0;
    // Counts an execution. The counters saturate instead of wrapping: at the
    // top count and taken are halved together (a branch's ratio survives).
    void hit() {
        if (__builtin_expect(++count == 0, 0)) {
            count = 1u << 31;
            taken >>= 1;
        }
    }
};

// The feedback bit of each SEXPTYPE (TB_OTHER for all but the vector types).
inline constexpr uint16_t kTypeBits[32] = {
    TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER,
    TB_OTHER, TB_OTHER, TB_LGL,   TB_OTHER, TB_OTHER, TB_INT,   TB_REAL,  TB_CPLX,
    TB_STR,   TB_OTHER, TB_OTHER, TB_LIST,  TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER,
    TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER, TB_OTHER};

// `shift`: 0, or kRhsShift for a binop's right operand.
inline void recordType(Feedback& f, SEXP x, int shift = 0) {
    SexpHeader* h = hdr(x);
    uint32_t t = kTypeBits[h->type];
    if (t != TB_OTHER) {
        if (h->alt || !h->scalar)  // the scalar bit: a length-1 vector
            t |= TB_VECTOR;
        else if ((t == TB_INT || t == TB_LGL) ? fival(x) == NA_INTEGER
                                              : t == TB_REAL && std::isnan(fdval(x)))
            t |= TB_NA;
    }
    if (h->attrib != R_NilValue) t |= TB_ATTRIB;
    if (h->obj) t |= TB_OBJECT;
    f.types |= t << shift;
}

static const int kMaxCallees = 3;

enum class CodeKind : int { Function, Promise, TopLevel };

struct DispatchTable;

struct Code {
    CodeKind kind;
    SEXP container;  // EXTPTRSXP, tag = rir_code, prot = pool
    std::vector<int32_t> bc;
    std::vector<CallSite> calls;
    std::vector<Feedback> feedback;
    int poolSize = 0;
    int maxStack = 0;
    int nCache = 0;             // binding-cache slots (one per local symbol read/written)
    int nScratch = 0;           // scratch result slots of binops nested in binops
    SEXP trampoline = nullptr;  // BCODESXP calling this code (promises), in pool
    // Function code: per formal, the pool index of its default argument's
    // promise code, or -1 (no default, or not a call: the AST is used).
    std::vector<int32_t> defaults;
    // Load feedback: bit k once a load of the variable of binding-cache slot
    // k (< 64) forced a promise or took the general lookup (a variable not
    // in the frame, missing, active, ...); `entries`: the baseline calls of
    // a function body run so far (the bits mean something after a few).
    uint64_t lazyLoads = 0;
    uint32_t entries = 0;
    // A top-level loop's code whose loop went on in native code: the
    // table that holds its continuations (its container is in the pool).
    DispatchTable* toplevelTable = nullptr;
    static uint64_t slotBit(int k) { return k >= 0 && k < 64 ? uint64_t(1) << k : 0; }

    // (read inline: an EXTPTRSXP's CDR is its protected value, and the
    // pool is a plain list)
    SEXP pool() const { return fcdr(container); }
    SEXP poolAt(int i) const { return static_cast<SEXP*>(fdata(pool()))[i]; }
    SEXP ast() const { return poolAt(0); }
    // Pool slot 1 holds the callee feedback list (kMaxCallees per slot).
    SEXP calleeList() const { return poolAt(1); }

    int addPool(SEXP x);

    static Code* create(CodeKind kind, SEXP ast);
    static Code* unpack(SEXP extptr);  // nullptr if not a live rir code
    void finish();                     // sizes feedback storage
};

// The tag of a Code's external pointer.
inline SEXP codeTag() {
    static SEXP tag = Rf_install("rir_code");
    return tag;
}

// (an EXTPTRSXP's CAR is its address, TAG its tag; read inline: promise
// forcing and calls unpack code at every use)
inline Code* Code::unpack(SEXP x) {
    return ftype(x) == EXTPTRSXP && ftag(x) == codeTag()
               ? static_cast<Code*>(static_cast<void*>(fcar(x)))
               : nullptr;
}

}  // namespace rir
