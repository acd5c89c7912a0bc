// ir.h — PIR's data structures: a Function is a control-flow graph of basic
// blocks holding instructions in SSA form. Every instruction is a value
// (void-typed when it produces none); operands point at the instructions
// that define them. What an instruction is (operands, result type, effects)
// comes from the table in insns.h.
//
// Memory: a Function owns its blocks and instructions. R values that
// instructions carry (constants, symbols, closures, the RIR code a frame
// state resumes) are not protected by PIR: they belong to the RIR code the
// function was translated from, which stays alive as long as the function.
//
// Nothing here calls the R API (no R error can unwind through these C++
// objects).
#pragma once
#include <Rinternals.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "../bc/verifier.h"
#include "../runtime/export.h"
#include "insns.h"
#include "type.h"

namespace rir {
struct Code;
struct Feedback;
namespace pir {

struct BB;
struct Function;

struct Instruction {
    Opcode op;
    PirType type;  // of the result (bottom: none)
    std::vector<Instruction*> args;
    BB* bb = nullptr;
    unsigned id = 0;  // unique in the function (printing)

    // carried data (which ones: the table's Has* flags)
    SEXP symbol = nullptr;    // HasSymbol: variable or function name
    SEXP constant = nullptr;  // HasConstant: value, callee, builtin, call
    SEXP call = nullptr;      // HasCall: the call errors name (may be absent)
    PirType carriedType;      // HasType
    // the integer it carries: its meaning by opcode is named in insns.h
    // (PIR_INDEX_NAMES), and it is read and written by that name: arg(),
    // promise(), overflowOp(), lglValue(), rirKind(), site(), pc()
    int index_ = 0;
#define PIR_INDEX_ACCESSOR(n) \
    int& n() {                \
        return index_;        \
    }                         \
    int n() const {           \
        return index_;        \
    }
    PIR_INDEX_ACCESSOR(arg)
    PIR_INDEX_ACCESSOR(promise)
    PIR_INDEX_ACCESSOR(overflowOp)
    PIR_INDEX_ACCESSOR(lglValue)
    PIR_INDEX_ACCESSOR(rirKind)
    PIR_INDEX_ACCESSOR(site)
    PIR_INDEX_ACCESSOR(pc)
#undef PIR_INDEX_ACCESSOR
    // FrameState: the RIR code resumed; Call, CallBuiltin, Extract*: the code
    // of their RIR call site (`index`)
    const Code* code = nullptr;
    std::vector<SEXP> names;  // MkEnv: the names of its bindings; calls: argument names
    bool stub = false;        // MkEnv: a stub environment
    // Add, Sub, Mul: the integer result fits (a NoOverflow of the same
    // operands was assumed right before): no overflow warning
    bool noOverflow = false;
    // Add: advances a for loop's counter (below the sequence's length, it
    // is never NA, and it does not overflow)
    bool loopCounter = false;
    // SetterCall: the target is a binding of the function's own frame
    // (x <- v, not x <<- v)
    bool ownFrame = false;
    // LdVar: a builtin's argument before others, whose uses scope
    // resolution leaves to the load (native code counts that value as
    // referenced from the load to the call)
    bool kept = false;
    // made for the body of a closure called at this RIR call site of the
    // function (index + 1; 0: not inlined code), see rir2pir.cpp
    int inlinedFrom = 0;
    // computes an argument of the call at this RIR call site (index + 1)
    // before the call (see rir2pir.cpp's eagerCall)
    int eagerFor = 0;
    // the environment (MkEnv) of the inlined closure whose code this is, run
    // in the function context its PushContext pushed: helpers take it as
    // the environment they evaluate in (nullptr: the function's own code)
    Instruction* frame = nullptr;
    // FrameState: the caller's state after an inlined call (the outer frame
    // state of the callee's): RIR resumes at the pc after the call with the
    // call's value pushed, so it holds one stack value fewer than the code
    // has there
    bool afterCall = false;
    // Add, Sub, Mul computed where speculation leaves (a NoOverflow failed,
    // or another assumption): the feedback of the RIR binop, in which an
    // overflow is noted (the interpreter resumes after the binop)
    Feedback* noteOverflow = nullptr;
    // StaticCall: the bits of the Context its arguments' types prove (see
    // opt/call_contexts.cpp)
    uint64_t context = 0;
    std::vector<BB*> phiFrom;  // Phi: the predecessor each operand comes from

    const InsnInfo& info() const {
        return pir::info(op);
    }
    // op is g or a proven variant of it (insns.h)
    bool is(Opcode g) const {
        return generalOf(op) == g;
    }
    bool isTerminator() const {
        return info().flags & Terminator;
    }
    bool has(uint16_t flag) const {
        return info().flags & flag;
    }
    // The heaps read and written, with `Env` resolved from the environment
    // operand (own: a MkEnv of this function; else other environments), and
    // everything for Forces instructions with a lazy operand.
    uint8_t reads() const;
    uint8_t resolveEnv(uint8_t heaps) const;
    RIR_EXPORT uint8_t writes() const;
    RIR_EXPORT bool mayCallR() const;
    // The same, with the operand types an analysis knows better (a load it
    // resolves to a value of known type): `typeOf` gives each operand's.
    using OperandType = PirType (*)(const Instruction* operand, void* analysis);
    uint8_t writes(OperandType typeOf, void* analysis) const;
    bool mayCallR(OperandType typeOf, void* analysis) const;
    // May it signal a warning (whose calling handlers run R code and return
    // to it), given its operands' types? Errors are not counted: after their
    // handlers the function does not go on.
    bool mayWarn(OperandType typeOf = nullptr, void* analysis = nullptr) const;
    // A CallBuiltin of a math function on one plain number (sqrt, exp,
    // abs, floor, ceiling, sign, of a logical, integer or double scalar
    // without attributes): it raises no error, runs no R code and does not
    // look at its environment operand (only sqrt warns: of a negative
    // number, see nonNegative).
    bool scalarMath(OperandType typeOf = nullptr, void* analysis = nullptr) const;
    // The result type the table's rule gives for the current operands.
    PirType ruleType() const;
};

// Is v's value never below zero (a NaN or NA aside), by its definition:
// a constant, x * x, sums, products and quotients of such, sqrt, abs and
// exp?
bool nonNegative(const Instruction* v, int depth = 0);

// The builtins that answer by their one argument's type (is.null,
// is.logical, is.integer, is.double, is.complex, is.character, is.list,
// is.function): no dispatch, no warning, no R code, no look at the
// environment. IsKind computes them. (is.integer is FALSE for a factor, an
// integer vector whose class attribute has "factor". Not here: is.symbol
// and is.environment, which look into an S4 object's data slot.)
struct KindTest {
    const char* name;
    uint16_t sure;   // kinds whose values are TRUE (PirType kinds; objects too unless notFactor)
    uint16_t maybe;  // kinds holding both (is.list: Other has pairlists)
    int types[3];    // the SEXPTYPEs that may be TRUE (-1 ends the list)
    bool notFactor;  // FALSE for a factor
};
// nullptr unless f is one of them
RIR_EXPORT const KindTest* kindTestOf(SEXP f);
// The builtin's answer for x (what GNU R's do_is computes; no R code)
RIR_EXPORT bool kindTestHolds(const KindTest& k, SEXP x);

struct BB {
    unsigned id = 0;
    std::vector<Instruction*> insns;
    std::vector<BB*> succ;   // from the terminator (Branch: true, false)
    std::vector<BB*> preds;  // maintained by Function::computePreds()
    Function* fn = nullptr;
    Instruction* terminator() const {
        return insns.empty() || !insns.back()->isTerminator() ? nullptr : insns.back();
    }
};

struct Function {
    std::string name;
    int nargs = 0;
    // the version's context says the frame binds only the formals at the
    // entry (no S3 dispatch variables: see env_elision.cpp)
    bool onlyFormals = false;
    // A continuation (rir2pirContinuation): the rest of a running RIR
    // frame from a pc on. Its LdArgs read the frame's bindings named by
    // `bindings` (all the frame held at the entry), its LdInputs the
    // operand stack; the frame may have been handed out before the entry.
    bool continuation = false;
    std::vector<SEXP> bindings;
    // their values' types at the entry (the continuation is dispatched on
    // them: DispatchTable::EntryType)
    std::vector<PirType> bindingTypes;
    // (and those whose value is a promise evaluated already: forcing it
    // runs no code)
    std::vector<bool> bindingForced;
    int continuationPc = -1;
    std::vector<SlotKind> continuationStack;
    // A deoptless continuation: entered by a deoptimization at
    // continuationPc (its own deoptimizations resume the interpreter for
    // good), with the types of the operand stack's values (a Value slot's
    // LdInput; empty: any value, as at an OSR entry)
    bool deoptless = false;
    std::vector<PirType> inputTypes;
    // (a deoptless continuation's first translation: a variable's binop
    // feedback that saw integers and doubles is read as the type of the
    // variable's value at the entry, the phase the deoptimization began)
    bool entryPhase = false;
    std::vector<std::unique_ptr<BB>> blocks;
    std::vector<std::unique_ptr<Instruction>> insns;
    BB* entry = nullptr;

    BB* newBB();
    Instruction* newInsn(Opcode op);
    void clear();  // no blocks, no instructions (name and nargs stay)
    void computePreds();
    // blocks in reverse post order from the entry (unreachable ones left out)
    RIR_EXPORT std::vector<BB*> rpo() const;
    // the function's own environment: the MkEnv of the entry block, or
    // nullptr (the function runs in its caller's)
    RIR_EXPORT Instruction* ownEnv() const;
    // Sets every instruction's type to its rule's, to a fixed point (loop
    // Phis start from nothing and grow).
    void inferTypes();
};

// Is i's opcode one of these (exactly: a proven variant is not its general
// opcode here, see Instruction::is)?
inline bool isOp(const Instruction* i, std::initializer_list<Opcode> ops) {
    for (Opcode o : ops)
        if (i->op == o) return true;
    return false;
}

// The type of an R value (reads only: no R call can fail here).
PirType constantType(SEXP x);

}  // namespace pir
}  // namespace rir
