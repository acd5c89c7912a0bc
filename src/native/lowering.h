// lowering.h — the state of lowering one optimized PIR function to LLVM IR.
//
// lower.cpp drives it (the instruction switch, the JIT); analyses.cpp holds
// what it computes over the PIR before emitting anything (calls made through
// their RIR call site, counted builtin arguments, unboxed doubles, liveness
// of the frame's node-stack slots); inline_paths.cpp holds the inline fast
// paths (binding cells, forcing, type tests, scalar arithmetic, vector
// elements) with their helper fallbacks. Only compiled with LLVM.
#pragma once
#ifdef RIR_HAVE_LLVM
// LLVM's headers before R's: R's (length, PI, ...) are macros
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../bc/ops.h"
#include "../bc/verifier.h"
#include "../pir/opt/pass.h"
#include "helpers.h"
#include "native.h"

namespace rir {
namespace native {

// masks of a header's first byte: the type and ALTREP bits, with the scalar
// or the object bit
const unsigned kScalarTypeMask = kHeaderTypeMask | kHeaderScalarBit | kHeaderAltBit;
const unsigned kPlainTypeMask = kHeaderTypeMask | kHeaderObjectBit | kHeaderAltBit;

// How native code holds a value: boxed (a SEXP), or unboxed in a machine
// register as an int or a double.
enum class Rep : uint8_t { Boxed, Int, Double };

class Lowering {
  public:
    Lowering(llvm::LLVMContext& c, llvm::Module& m, pir::Function& f, DispatchTable* t)
        : C(c), M(m), B(c), f(f), t(t) {
        sexpT = llvm::Type::getInt8PtrTy(C);
        i32T = llvm::Type::getInt32Ty(C);
        i64T = llvm::Type::getInt64Ty(C);
        i1T = llvm::Type::getInt1Ty(C);
    }

    // "" when lowered into `name`, else why not
    std::string run(const std::string& name);

  private:
    llvm::LLVMContext& C;
    llvm::Module& M;
    llvm::IRBuilder<> B;
    pir::Function& f;
    DispatchTable* t;
    llvm::Type *sexpT, *i32T, *i64T, *i1T;
    llvm::Function* fn = nullptr;
    llvm::Value *envArg = nullptr, *trampArg = nullptr, *slots = nullptr;
    llvm::Value* inputsArg = nullptr;  // a continuation's entry values
    std::map<pir::Instruction*, llvm::Value*> vals;
    std::map<pir::Instruction*, int> slotOf;
    std::map<SEXP, int> cellSlot;
    // Stack memory for argument arrays: allocated once, in the prologue (an
    // alloca in a loop would grow the C stack at each iteration).
    llvm::BasicBlock* prologueBlock = nullptr;
    llvm::Value* entryAlloca(llvm::Type* t);
    // The activation's memo of scans of the callers' slots (inplace.h's
    // BelowMemo, as an interpreter activation has one): made in the
    // prologue by the first in-place store that looks below the frame.
    llvm::Value* belowMemo = nullptr;
    llvm::Value* belowMemoArg();
    // Set (1) after anything that may have written the own environment
    // other than its stores, cleared where a checkpoint confirmed what is
    // known of it: a BindingIs only looks when it is set.
    llvm::Value* dirty = nullptr;
    llvm::BasicBlock* fastConfirm = nullptr;  // (BindingIs: the inline answer's block)
    void setDirty(int v);
    // A confirmation looks only when R code may have run: branches to the
    // returned join block when the dirty flag is clear, else continues in a
    // new block (the caller's look, ending with a branch to join).
    llvm::BasicBlock* lookWhenDirty();
    bool writesEnv(pir::Instruction* i);
    llvm::Value* slotAddress(int k);
    std::map<pir::BB*, llvm::BasicBlock*> blocks;
    // the LLVM block that branches along each PIR edge (Phi operands)
    std::map<std::pair<pir::BB*, pir::BB*>, llvm::BasicBlock*> edgeFrom;
    std::map<pir::BB*, int> rpoIndex;
    std::vector<std::pair<pir::Instruction*, llvm::PHINode*>> pendingPhis;
    // every instruction's users, one entry per operand it is
    std::map<pir::Instruction*, std::vector<pir::Instruction*>> users;
    size_t useCount(pir::Instruction* v);
    // Is the value, or what an instruction made of it before `at` (which
    // may be the same object), used again once `at` has used it: by an
    // instruction after `at` in its block, or in a block that can run after
    // `at`'s (its own again, in a loop)? Then no helper may write its result
    // into it; otherwise GNU R's arithmetic may reuse it as GNU R would (an
    // operand nothing refers to).
    bool usedAgain(pir::Instruction* v, pir::Instruction* at);
    // can control go from the end of `from` to `to` (to == from: a loop)?
    bool reaches(pir::BB* from, pir::BB* to);
    std::map<pir::BB*, std::set<pir::BB*>> reachable;
    // Are all of v's users `ok`?
    template <class Pred>
    bool allUsers(pir::Instruction* v, Pred ok) {
        auto it = users.find(v);
        if (it == users.end()) return true;
        for (pir::Instruction* u : it->second)
            if (!ok(u)) return false;
        return true;
    }
    pir::Instruction* ownEnv = nullptr;
    // the environment the instruction being lowered evaluates in: its
    // inlined callee's (Instruction::frame), else the function's
    llvm::Value* rho() { return current && current->frame ? value(current->frame) : envArg; }
    // the RContext (in this frame) of each inlined call's context, by the
    // callee's environment (PushContext's operand 1)
    std::map<pir::Instruction*, llvm::Value*> contexts;
    // the caller's stack after each inlined call (by its frame state), as
    // PushContext boxed it for a landing: a deoptimization in the callee
    // hands over the same boxes (boxing again would replace the node-stack
    // slot's reference to the ones the landing may still use)
    std::map<pir::Instruction*, std::pair<llvm::Value*, int>> afterStacks;
    // A frame state's stack values into an array (the last `extra` slots
    // left for the helper to fill), as rirn_deopt takes them.
    llvm::Value* stackArray(pir::Instruction* fs, int first, int extra, int* n);
    std::string lowerPushContext(pir::Instruction* i);
    std::string lowerDeopt(pir::Instruction* i);
    // per frame state: the slot kinds of its stack (kept as long as the code)
    std::map<pir::Instruction*, const unsigned char*> slotKinds;
    static std::vector<std::unique_ptr<unsigned char[]>>& keptKinds();
    // Calls made through their RIR call site, and the MkArgs only they use
    std::set<pir::Instruction*> siteCalls, siteArgs;

    // Does Call i still pass exactly its call site's arguments?
    static bool matchesSite(const pir::Instruction* i);

    // Builtin arguments counted as referenced from their definition to the
    // call (all but the last, as the interpreter counts them while later
    // ones are computed); "" or why a builtin call cannot be lowered.
    std::set<pir::Instruction*> counted;

    // Is `to` reachable from `from`'s successors without passing `avoid`?
    static bool reaches(pir::BB* from, pir::BB* to, pir::BB* avoid, bool startAtFrom);

    // Can v be counted from its definition until builtin call c releases
    // it? Every path to c passes v's definition (it dominates c), and c
    // cannot run again without v being defined again, so the count is
    // never released twice (it may stay counted: a value defined again
    // before reaching the call).
    bool countsUntil(pir::Instruction* v, pir::Instruction* c);
    std::string findCountedArgs();

    // LdVars only a ForceOrMissing uses (the pair is one lookup that keeps
    // a missing argument), or "" / why not
    std::set<pir::Instruction*> missokLoads;
    std::string findMissokLoads();

    void findSiteCalls();
    // Function lookups only compared with a constant (rir2pir's guard_fun):
    // lowered with their Identical as one stillNames test.
    std::set<pir::Instruction*> guardLoads;
    void findGuardLoads();

    static bool boxed(const pir::Instruction* i);

    // What the function holds that is not lowered yet, or "".
    std::string check();

    llvm::Value* constant(const void* p);
    llvm::Value* sexp(SEXP x) { return constant(x ? x : R_NilValue); }
    llvm::Value* i32(int v) { return llvm::ConstantInt::get(i32T, v); }

    // A call of helper `id` (helpers.h's table: its signature from its
    // prototype) with `args`.
    llvm::Value* call(HelperId id, std::vector<llvm::Value*> args);

    // Ends the current block (where b was computed) with a branch to join
    // and continues there with the Phi of a (from aEnd, which branched to
    // join already) and b.
    llvm::Value* mergeAt(llvm::BasicBlock* join, llvm::Value* a, llvm::BasicBlock* aEnd,
                         llvm::Value* b);
    llvm::Value* value(pir::Instruction* i);

    void define(pir::Instruction* i, llvm::Value* v);

    void leave();

    // the branch to a successor (polls for interrupts on a loop's back edge)
    void jumpTo(pir::BB* from, pir::BB* to);

    // Unboxed doubles and ints: results of scalar arithmetic (integer
    // results only where NoOverflow was assumed) that no user needs boxed
    // (arithmetic and type tests read the number, a frame state boxes it
    // when deoptimizing) or that a store to the own environment boxes:
    // `x <- a op b` writes into x's value in place when inplace.h allows it,
    // and users the store dominates (a loop's Phi) take the value bound.
    // The LLVM type tells them apart (double or i32).
    std::set<pir::Instruction*> rawOk;
    std::map<pir::Instruction*, llvm::Value*> rawVals;
    // the boxes stores of an unboxed double made (StVar), usable where the
    // store dominates (value() looks them up for the instruction lowered)
    std::map<pir::Instruction*, std::vector<std::pair<pir::Instruction*, llvm::Value*>>> storeBoxes;
    pir::Instruction* current = nullptr;  // the instruction being lowered
    // a plain Dollar's value, looked up by the IsPlainMember its Assume
    // tests right before it (one lookup for both)
    std::map<pir::Instruction*, llvm::Value*> memberVals;

    // the arithmetic native code computes inline on unboxed scalars: + - * /
    static bool isArith(pir::Opcode op);
    // Will lowerScalar compute u inline?
    bool scalarLowerable(pir::Instruction* u);
    static bool realScalarType(pir::PirType t);
    static bool intScalarType(pir::PirType t);
    // Does u read operand v (an unboxed double, or int: isInt) without its
    // box?
    bool rawUse(pir::Instruction* u, int depth, bool isInt);
    static size_t position(pir::Instruction* i);
    bool rawCandidate(pir::Instruction* i);
    std::unique_ptr<pir::Dominators> dom;
    void findRawValues();

    // for() loop variables whose box is reused from one iteration to the
    // next (rirn_forelement_reuse), as GNU R's byte code reuses it: each
    // ForElement whose only Phi is the loop header's (by ForElement), when
    // nothing else can hold the box without counting a reference to it
    // (findLoopVarReuse says which users may).
    std::map<pir::Instruction*, pir::Instruction*> loopVarReuse;
    void findLoopVarReuse();
    // ForElement e written into the previous round's box (phi's value):
    // inline for an unexpanded compact integer range and a box counted by
    // nothing or by the loop variable's binding only, else the helper.
    llvm::Value* reusedLoopElement(pir::Instruction* e, pir::Instruction* phi);
    // for() loops over from:to (ForSeq of a Colon) whose range native code
    // does not build when from and to are whole numbers in int range (as
    // the interpreter's for_colon): the sequence's value is R_NilValue
    // then, and the loop's elements are start + step * i. Where from:to is
    // not such a range, `:` builds it (start 0, step 0, len -1). Only where
    // the sequence is used by the loop's length, elements and end and by
    // frame states of deoptimizations (which build the range:
    // rirn_range_seq), and the Colon by the ForSeq alone.
    struct VirtualRange {
        llvm::Value *seq = nullptr, *start = nullptr, *step = nullptr, *len = nullptr;
    };
    std::map<pir::Instruction*, pir::Instruction*> rangeSeqOf;  // Colon -> its ForSeq
    std::set<pir::Instruction*> rangeSeqs;                      // those ForSeqs
    std::map<pir::Instruction*, VirtualRange> ranges;           // by ForSeq
    void findVirtualRanges();
    // an int or double scalar operand as a double (NA: NaN), or nullptr
    llvm::Value* numberAsDouble(pir::Instruction* v);
    static bool numberType(pir::PirType t);
    void lowerRange(pir::Instruction* colon);
    bool virtualSeq(pir::Instruction* seq) { return rangeSeqs.count(seq) != 0; }
    // seq == R_NilValue (an unbuilt range)
    llvm::Value* unbuilt(pir::Instruction* seq);
    // element idx (0-based) of seq's unbuilt range
    llvm::Value* rangeElement(pir::Instruction* seq, llvm::Value* idx);
    // A box of `value` where seq's range is unbuilt, else what `built()`
    // emits (on the path where it is built).
    template <class Built>
    llvm::Value* boxIfUnbuilt(pir::Instruction* seq, llvm::Value* value, Built built) {
        llvm::BasicBlock* range = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* other = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(unbuilt(seq), range, other);
        B.SetInsertPoint(range);
        llvm::Value* box = call(HelperId::rirn_box_int, {value});
        llvm::BasicBlock* rangeEnd = B.GetInsertBlock();
        B.CreateBr(join);
        B.SetInsertPoint(other);
        return mergeAt(join, box, rangeEnd, built());
    }
    // Does u only read v's value (or bind it, which counts it)?
    bool readsLoopVar(pir::Instruction* u, pir::Instruction* v, int depth);

    // Liveness of the values kept in slots (for the in-place stores and the
    // values held across R code), by block id: live at a block's start and
    // end (pir::solveDataflow, backward); an Assume may enter its
    // checkpoint's deoptimization block.
    std::vector<std::set<pir::Instruction*>> liveIn, liveOut;
    bool livenessDone = false;
    // The instruction whose slot holds a's value (a itself, or what a
    // CastType casts), or nullptr: a value in no slot.
    pir::Instruction* slotHolder(pir::Instruction* a);
    // live at b's end, from its successors' start (the join)
    std::set<pir::Instruction*> liveOutOf(pir::BB* b);
    // live before instruction `from` of b from `live` at its end (the
    // transfer, from 0)
    std::set<pir::Instruction*> liveWalk(pir::BB* b, size_t from, std::set<pir::Instruction*> live);
    // live before instruction `from` of b, once the liveness is computed
    std::set<pir::Instruction*> liveBefore(pir::BB* b, size_t from);
    // does an instruction count the values live across it (rirn_hold)?
    bool holdsAround(pir::Instruction* i);
    // does its helper count them only where it meets an active binding
    // (variable loads and stores: holdLive), given holdList(i)?
    static bool holdsLazily(pir::Instruction* i);
    // is it lowered by inlineForce, which holds the live values forceHeld
    // (forceNHeld of them) only around forcing a promise?
    static bool forcesInline(pir::Instruction* i);
    const int* forceHeld = nullptr;
    int forceNHeld = 0;
    // count the n values of slots `held` as referenced (copied into the
    // held-copy slots), and count them down again
    void emitHold(const int* held, int n);
    void emitRelease(int n);
    llvm::Value* holdList(pir::Instruction* i);
    int heldCopies = 0;  // the first held-copy slot
    void computeLiveness();
    // The slots live after store st (its value's own slot left out: it is
    // written with the value bound), kept as long as the code.
    static std::vector<std::unique_ptr<int[]>>& keptSlotLists();

    // The slots live after instruction i (`except` left out) whose value
    // may be of a kind of type `kind` (nullptr: any), as a list kept with
    // the code; its length in *n.
    const int* liveSlots(pir::Instruction* i, pir::Instruction* except, const pir::PirType* kind,
                         int* n);

    // i's previous result (*own, from its slot) and whether nothing refers
    // to it any more (*free: not counted, in none of the slots live after i
    // whose value may be of its kind: the interpreter's scratch rule,
    // inplace.h), tested inline; false when i has no such object.
    bool scratchTest(pir::Instruction* i, llvm::Value** own, llvm::Value** free);
    // The value x of own-environment variable sym when it may be written in
    // place (inplace.h): its cached cell is an ordinary unlocked binding, x
    // a vector of `type` (or of orType, when not 0; `scalar`: a scalar of
    // `type` without attributes) that only the binding counts (*ok also:
    // held in none of the slots live[0..nlive)); branches to `fail` where x
    // cannot be read, else continues with *ok to test.
    llvm::Value* bindingValue(SEXP sym, bool scalar, const int* live, int nlive,
                              llvm::BasicBlock* fail, llvm::Value** cell, llvm::Value** ok,
                              unsigned type = REALSXP, unsigned orType = 0);
    // Is x in none of the slots live[0..nlive)?
    llvm::Value* notHeld(llvm::Value* x, const int* live, int nlive);
    // A binding written: no longer missing (as defineVar).
    void clearMissing(llvm::Value* cell);
    // The same as one value: the object when free, else null.
    llvm::Value* scratchOrNull(pir::Instruction* i);

    // x <- v for an unboxed v (a double, or an int): v's box is the one
    // bound.
    void lowerRawStore(pir::Instruction* st, pir::Instruction* v);

    // v's box (a new one for an unboxed value: frame states)
    llvm::Value* boxedValue(pir::Instruction* v);

    llvm::Value* scalarOperand(pir::Instruction* v, Rep k);

    // Elements of double vectors read inline (x[i] / x[[i]] speculated to be
    // a double scalar, every user reading it unboxed or deoptimizing): the
    // double (rawVals), whether the value is a plain double scalar (its
    // type test), and the box the general path made (R_NilValue when the
    // inline path read it).
    std::map<pir::Instruction*, llvm::Value*> elementOk, elementBox;

    // The 0-based offset of scalar index idx into a vector of length len
    // (i64) (as scalarIndex: an int or double scalar without attributes,
    // >= 1 and at most len), computed when `ok`; else (or out of range) to
    // `fail`. Continues in a new block where the offset is valid.
    llvm::Value* scalarIndex(llvm::Value* len, llvm::Value* idx, llvm::Value* ok,
                             llvm::BasicBlock* fail);

    // The 0-based offset of element [i, j] (scalar indices as scalarIndex)
    // of x when `ok` and x is a plain matrix (double, int or logical: its
    // only attribute dim, two integers); else to `fail`.
    llvm::Value* matrixOffset(llvm::Value* x, llvm::Value* ok, llvm::Value* i, llvm::Value* j,
                              llvm::BasicBlock* fail);
    // x[i] <- v / x[i, j] <- v for an unboxed v (a double, or an int of
    // an integer or logical: `type`), inline when x's binding (cached cell)
    // holds a vector (a plain matrix for two indices) of that type (or a
    // double one for an integer, converted) that only it counts, in no live
    // slot, and the indices are in-range scalars (storeScalarElement's
    // case); else to `fail`. Continues after the store; x.
    llvm::Value* inlineElementStore(pir::Instruction* st, llvm::Value* v, unsigned type,
                                    const int* live, int nlive, llvm::BasicBlock* fail);

    bool inlineExtract(pir::Instruction* i);
    // sqrt(x) of a plain non-negative double scalar, inline (a builtin call
    // the guard confirmed); false for other calls.
    bool inlineMath(pir::Instruction* i);

    // Comparisons of plain scalars used only as conditions: their truth
    // value, never boxed.
    std::map<pir::Instruction*, llvm::Value*> rawTests;

    // Rep::Double / Rep::Int: a plain double / integer scalar, never NA (its type says
    // so), which native code reads unboxed; else 0.
    static Rep scalarKind(const pir::Instruction* v);
    // As scalarKind, for an operand of + - * /: a double may also be NA
    // (GNU R's double arithmetic is the machine's, NA and NaN included).
    static Rep arithKind(const pir::Instruction* v);
    // The kinds of the operands of arithmetic or a comparison computed
    // inline, or false.
    static bool inlineKinds(const pir::Instruction* u, Rep* ka, Rep* kb);

    llvm::Value* loadScalar(llvm::Value* x, Rep k);

    void setVisible();

    // Arithmetic and comparisons of plain non-NA scalars, computed inline
    // (GNU R's arithmetic on such doubles is the machine's; integer
    // overflow, whose NA comes with a warning, takes the helper). False:
    // not such operands.
    bool lowerScalar(pir::Instruction* i);

    // Is (the first byte of x's header & mask) == want? (rapi.h's bits)
    llvm::Value* headerByteIs(llvm::Value* x, unsigned mask, unsigned want);
    // Has x no attributes?
    llvm::Value* noAttrib(llvm::Value* x);
    llvm::Value* fieldAt(llvm::Value* x, int offset, llvm::Type* t);

    // Is the binding cell an ordinary one (not active, no immediate value;
    // `store`: not locked either), from its header's first word?
    llvm::Value* ordinaryCell(llvm::Value* cell, bool store);

    // An own-environment variable's value through its cached binding cell,
    // inline when the cell holds an ordinary value (as the interpreter's
    // binding cache); else rirn_ldvar_cell (finds the cell, GNU R's lookup
    // and errors).
    llvm::Value* cachedLoad(pir::Instruction* i);

    // v's value: v itself unless a promise, an evaluated promise's value
    // inline; else rirn_force evaluates it.
    llvm::Value* inlineForce(llvm::Value* v, SEXP sym, bool effects);

    // Is x a plain scalar of the type (the common speculation), read from
    // its header (as rirn_istype's fast path); nullptr for other types.
    llvm::Value* inlineTypeTest(llvm::Value* x, pir::PirType want);

    // i's result r (a double or an int, as k says) boxed, into i's previous
    // box when nothing refers to it any more
    llvm::Value* boxInto(pir::Instruction* i, llvm::Value* r, Rep k);

    // operand k's box (made now for an unboxed value without one)
    llvm::Value* operand(pir::Instruction* i, size_t k) {
        llvm::Value* v = value(i->args[k]);
        return v ? v : boxedValue(i->args[k]);
    }
    llvm::Value* a0(pir::Instruction* i) { return operand(i, 0); }
    llvm::Value* a1(pir::Instruction* i) { return operand(i, 1); }
    // Is u in a block that deoptimizes, and one of the instructions such
    // a block computes the resumed state with (stores, arithmetic, type
    // tests, the frame state), which take a box where they need one?
    static bool deoptUse(pir::Instruction* u);
    // Does the block end in a Deopt?
    static bool deoptimizes(const pir::BB* b);
    // Loads the binding cell cached at cellP and branches to `yes` when it
    // is an ordinary writable binding whose value is v, else to `no`
    // (also when none is cached); the cell.
    llvm::Value* branchOnCellHolding(llvm::Value* cellP, llvm::Value* v, llvm::BasicBlock* yes,
                                     llvm::BasicBlock* no);

    // Is v a plain logical scalar (maybe NA) by its type?
    static bool plainLgl(const pir::Instruction* v);

    // Is every use of i an AsTest?
    bool onlyTests(pir::Instruction* i);

    // The operation by the helper (boxed operands), not defined as i's value.
    llvm::Value* genericBinopValue(pir::Instruction* i);

    std::string lower(pir::Instruction* i);
};

}  // namespace native
}  // namespace rir

#endif  // RIR_HAVE_LLVM
