// lower.cpp — optimized PIR to LLVM IR, compiled by an ORC LLJIT.
//
// One LLVM function per PIR function, `SEXP f(SEXP env, SEXP tramp)`, run in
// the environment the call made (as the RIR baseline is): MkEnv of the own
// environment is `env`, an argument is read from it. Values are boxed SEXPs
// (tests are i1); every boxed value an instruction makes is also stored in
// one of the frame's node-stack slots, where the collector sees it. Most
// instructions call a runtime helper (helpers.h) that does what the RIR
// interpreter does. Assume branches to its Checkpoint's deoptimization
// block, whose Deopt resumes the baseline code at the frame state's pc with
// its operand stack (rirn_deopt) and returns what the function returns.
//
//   PIR                                  LLVM IR
//     %4 = LdVar x, %2                     %4 = call @rirn_ldvar(x, %env, %tramp)
//                                          store %4 -> slot 1
//     %5 = Force %4                        %5 = call @rirn_force(%4, x, %tramp)
//                                          store %5 -> slot 2
//     %6 = AsTest %5                       %t = call @rirn_astest(%5, <call>)
//                                          %6 = icmp ne %t, 0
//     %7 = Branch %6 -> BB1, BB2           br %6, BB1, BB2
//
// What is not lowered yet (calls, for loops, vectors, ...) makes compile()
// refuse the function with the reason; it keeps running in RIR.
#ifdef RIR_HAVE_LLVM
// LLVM's headers before R's: R's (length, PI, ...) are macros
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>
#endif

#include "native.h"

#ifdef RIR_HAVE_LLVM

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "../bc/ops.h"
#include "../bc/verifier.h"
#include "../pir/opt/pass.h"
#include "../runtime/stats.h"
#include "helpers.h"

namespace rir {
namespace native {

namespace {

struct Jit {
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::string problem;
    unsigned modules = 0;
};

Jit& theJit() {
    static Jit j = [] {
        Jit r;
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        auto made = llvm::orc::LLJITBuilder().create();
        if (made)
            r.jit = std::move(*made);
        else
            r.problem = "LLVM's JIT could not start: " + llvm::toString(made.takeError());
        return r;
    }();
    return j;
}

std::string irText;

bool arithOp(pir::Opcode op, ArithOp* out) {
    using pir::Opcode;
    switch (op) {
        case Opcode::Add:
            *out = ArithOp::Add;
            return true;
        case Opcode::Sub:
            *out = ArithOp::Sub;
            return true;
        case Opcode::Mul:
            *out = ArithOp::Mul;
            return true;
        case Opcode::Div:
            *out = ArithOp::Div;
            return true;
        case Opcode::Pow:
            *out = ArithOp::Pow;
            return true;
        case Opcode::IDiv:
            *out = ArithOp::IDiv;
            return true;
        case Opcode::Mod:
            *out = ArithOp::Mod;
            return true;
        case Opcode::Eq:
            *out = ArithOp::Eq;
            return true;
        case Opcode::Neq:
            *out = ArithOp::Ne;
            return true;
        case Opcode::Lt:
            *out = ArithOp::Lt;
            return true;
        case Opcode::Le:
            *out = ArithOp::Le;
            return true;
        case Opcode::Gt:
            *out = ArithOp::Gt;
            return true;
        case Opcode::Ge:
            *out = ArithOp::Ge;
            return true;
        case Opcode::Minus:
            *out = ArithOp::Neg;
            return true;
        case Opcode::Plus:
            *out = ArithOp::Plus;
            return true;
        case Opcode::Not:
            *out = ArithOp::Not;
            return true;
        default:
            return false;
    }
}

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
    std::string run(const std::string& name) {
        for (auto& b : f.blocks)
            for (pir::Instruction* i : b->insns)
                for (pir::Instruction* a : i->args) users[a].push_back(i);
        std::string problem = check();
        if (!problem.empty()) return problem;
        findSiteCalls();
        problem = findCountedArgs();
        if (problem.empty()) problem = findMissokLoads();
        if (!problem.empty()) return problem;
        findRawValues();
        auto* ft = llvm::FunctionType::get(sexpT, {sexpT, sexpT}, false);
        fn = llvm::Function::Create(ft, llvm::Function::ExternalLinkage, name, M);
        envArg = fn->getArg(0);
        trampArg = fn->getArg(1);
        std::vector<pir::BB*> order = f.rpo();
        for (size_t k = 0; k < order.size(); k++) rpoIndex[order[k]] = int(k);
        llvm::BasicBlock* prologue = llvm::BasicBlock::Create(C, "prologue", fn);
        for (pir::BB* b : order)
            blocks[b] = llvm::BasicBlock::Create(C, "BB" + std::to_string(b->id), fn);
        // node-stack slots: one per boxed value an instruction makes
        int nslots = 0;
        for (pir::BB* b : order)
            for (pir::Instruction* i : b->insns)
                if (boxed(i) && i->op != pir::Opcode::LdConst && i->op != pir::Opcode::MkEnv &&
                    i->op != pir::Opcode::CastType && !siteArgs.count(i) && !missokLoads.count(i))
                    slotOf[i] = nslots++;
        // binding-cell cache slots: one per variable of the own environment
        // loaded or stored
        for (pir::BB* b : order)
            for (pir::Instruction* i : b->insns) {
                pir::Instruction* env = i->op == pir::Opcode::LdVar ||
                                                i->op == pir::Opcode::BindingIs ||
                                                i->op == pir::Opcode::SubassignVar
                                            ? i->args[0]
                                        : i->op == pir::Opcode::StVar ? i->args[1]
                                                                      : nullptr;
                if (env && env == ownEnv && !cellSlot.count(i->symbol))
                    cellSlot[i->symbol] = nslots++;
            }
        B.SetInsertPoint(prologue);
        prologueBlock = prologue;
        dirty = B.CreateAlloca(llvm::Type::getInt8Ty(C));
        B.CreateStore(llvm::ConstantInt::get(llvm::Type::getInt8Ty(C), 0), dirty);
        slots = callHelper(reinterpret_cast<void*>(&rirn_enter), sexpT, {i32T},
                           {llvm::ConstantInt::get(i32T, nslots)});
        B.CreateBr(blocks[f.entry]);
        for (pir::BB* b : order) {
            B.SetInsertPoint(blocks[b]);
            for (pir::Instruction* i : b->insns) {
                problem = lower(i);
                if (!problem.empty()) return problem;
                if (writesEnv(i) && i->op != pir::Opcode::Force &&
                    i->op != pir::Opcode::SubassignVar && i->op != pir::Opcode::LdFun &&
                    i->op != pir::Opcode::CallBuiltin && !i->isTerminator())
                    setDirty(1);
            }
        }
        for (auto& p : pendingPhis) {
            pir::Instruction* i = p.first;
            llvm::PHINode* phi = p.second;
            for (size_t k = 0; k < i->args.size(); k++)
                phi->addIncoming(value(i->args[k]), edgeFrom.at({i->phiFrom[k], i->bb}));
        }
        std::string err;
        llvm::raw_string_ostream os(err);
        if (llvm::verifyFunction(*fn, &os)) return "LLVM verifier: " + os.str();
        return "";
    }

  private:
    llvm::LLVMContext& C;
    llvm::Module& M;
    llvm::IRBuilder<> B;
    pir::Function& f;
    DispatchTable* t;
    llvm::Type *sexpT, *i32T, *i64T, *i1T;
    llvm::Function* fn = nullptr;
    llvm::Value *envArg = nullptr, *trampArg = nullptr, *slots = nullptr;
    std::map<pir::Instruction*, llvm::Value*> vals;
    std::map<pir::Instruction*, int> slotOf;
    std::map<SEXP, int> cellSlot;
    // Stack memory for argument arrays: allocated once, in the prologue (an
    // alloca in a loop would grow the C stack at each iteration).
    llvm::BasicBlock* prologueBlock = nullptr;
    llvm::Value* entryAlloca(llvm::Type* t) {
        llvm::IRBuilder<> at(prologueBlock, prologueBlock->begin());
        return at.CreateAlloca(t);
    }
    // Set (1) after anything that may have written the own environment
    // other than its stores, cleared where a checkpoint confirmed what is
    // known of it: a BindingIs only looks when it is set.
    llvm::Value* dirty = nullptr;
    llvm::BasicBlock* fastConfirm = nullptr;  // (BindingIs: the inline answer's block)
    void setDirty(int v) {
        B.CreateStore(llvm::ConstantInt::get(llvm::Type::getInt8Ty(C), v), dirty);
    }
    bool writesEnv(pir::Instruction* i) {
        if (!(i->writes() & pir::OwnEnv)) return false;
        return !((i->op == pir::Opcode::StVar || i->op == pir::Opcode::StArgDefault) &&
                 i->args[1] == ownEnv);
    }
    llvm::Value* slotAddress(int k) {
        return B.CreateGEP(llvm::Type::getInt8Ty(C), slots,
                           llvm::ConstantInt::get(i64T, int64_t(k) * 16 + 8));
    }
    std::map<pir::BB*, llvm::BasicBlock*> blocks;
    // the LLVM block that branches along each PIR edge (Phi operands)
    std::map<std::pair<pir::BB*, pir::BB*>, llvm::BasicBlock*> edgeFrom;
    std::map<pir::BB*, int> rpoIndex;
    std::vector<std::pair<pir::Instruction*, llvm::PHINode*>> pendingPhis;
    // every instruction's users, one entry per operand it is
    std::map<pir::Instruction*, std::vector<pir::Instruction*>> users;
    size_t useCount(pir::Instruction* v) {
        auto it = users.find(v);
        return it == users.end() ? 0 : it->second.size();
    }
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
    // per frame state: the slot kinds of its stack (kept as long as the code)
    std::map<pir::Instruction*, const unsigned char*> slotKinds;
    static std::vector<std::unique_ptr<unsigned char[]>>& keptKinds() {
        static std::vector<std::unique_ptr<unsigned char[]>> all;
        return all;
    }
    // Calls made through their RIR call site, and the MkArgs only they use
    std::set<pir::Instruction*> siteCalls, siteArgs;

    // Does Call i still pass exactly its call site's arguments?
    static bool matchesSite(const pir::Instruction* i) {
        if (!i->code || i->index < 0 || size_t(i->index) >= i->code->calls.size()) return false;
        const CallSite& cs = i->code->calls[i->index];
        if (i->args.size() != cs.args.size() + 2) return false;
        for (size_t k = 0; k < cs.args.size(); k++) {
            const pir::Instruction* a = i->args[k + 2];
            const CallArg& ca = cs.args[k];
            switch (ca.kind) {
                case ArgKind::Const:
                    if (a->op != pir::Opcode::LdConst || a->constant != i->code->poolAt(ca.pool))
                        return false;
                    break;
                case ArgKind::Missing:
                    if (a->op != pir::Opcode::LdConst || a->constant != R_MissingArg) return false;
                    break;
                case ArgKind::Symbol:
                case ArgKind::Code:
                    if (a->op != pir::Opcode::MkArg || a->index != ca.pool) return false;
                    break;
                case ArgKind::Dots:
                    if (a->op != pir::Opcode::LdVar || a->symbol != R_DotsSymbol) return false;
                    break;
                default:
                    return false;
            }
        }
        return true;
    }

    // Builtin arguments counted as referenced from their definition to the
    // call (all but the last, as the interpreter counts them while later
    // ones are computed); "" or why a builtin call cannot be lowered.
    std::set<pir::Instruction*> counted;

    // Is `to` reachable from `from`'s successors without passing `avoid`?
    static bool reaches(pir::BB* from, pir::BB* to, pir::BB* avoid, bool startAtFrom) {
        std::set<pir::BB*> seen;
        std::vector<pir::BB*> work;
        if (startAtFrom)
            work.push_back(from);
        else
            for (pir::BB* s : from->succ) work.push_back(s);
        while (!work.empty()) {
            pir::BB* b = work.back();
            work.pop_back();
            if (b == avoid || !seen.insert(b).second) continue;
            if (b == to) return true;
            for (pir::BB* s : b->succ) work.push_back(s);
        }
        return false;
    }

    // Can v be counted from its definition until builtin call c releases
    // it? Every path to c passes v's definition (it dominates c), and c
    // cannot run again without v being defined again, so the count is
    // never released twice (it may stay counted: a value defined again
    // before reaching the call).
    bool countsUntil(pir::Instruction* v, pir::Instruction* c) {
        pir::BB* d = v->bb;
        pir::BB* b = c->bb;
        if (d == b) {
            auto& in = b->insns;
            // (each run of the block defines v before the call)
            return std::find(in.begin(), in.end(), v) < std::find(in.begin(), in.end(), c);
        }
        return !reaches(f.entry, b, d, true) && !reaches(b, b, d, false);
    }
    std::string findCountedArgs() {
        for (auto& b : f.blocks)
            for (pir::Instruction* c : b->insns) {
                if (c->op != pir::Opcode::CallBuiltin) continue;
                if (!c->code || c->index < 0 || size_t(c->index) >= c->code->calls.size())
                    return "a builtin call without its call site";
                if (c->args.size() > 31) return "a builtin call with more than 30 arguments";
                for (size_t k = 1; k + 1 < c->args.size(); k++) {
                    pir::Instruction* v = c->args[k];
                    if (v->op == pir::Opcode::LdConst) continue;
                    size_t nonFrameUses = 0;
                    for (pir::Instruction* u : users[v])
                        if (u->op != pir::Opcode::FrameState) nonFrameUses++;
                    if (nonFrameUses != 1 || !countsUntil(v, c) || !boxed(v) ||
                        v->op == pir::Opcode::CastType)
                        return "a builtin argument that is also used elsewhere";
                    counted.insert(v);
                }
            }
        return "";
    }

    // LdVars only a ForceOrMissing uses (the pair is one lookup that keeps
    // a missing argument), or "" / why not
    std::set<pir::Instruction*> missokLoads;
    std::string findMissokLoads() {
        for (auto& b : f.blocks)
            for (pir::Instruction* i : b->insns) {
                if (i->op != pir::Opcode::ForceOrMissing) continue;
                pir::Instruction* v = i->args[0];
                if (v->op != pir::Opcode::LdVar || useCount(v) != 1)
                    return "an index value that is not a variable's";
                missokLoads.insert(v);
            }
        return "";
    }

    void findSiteCalls() {
        for (auto& b : f.blocks)
            for (pir::Instruction* i : b->insns)
                if (i->op == pir::Opcode::Call && matchesSite(i)) siteCalls.insert(i);
        // (a promise or `...` is a call's argument, never its env or callee)
        for (pir::Instruction* c : siteCalls)
            for (size_t k = 2; k < c->args.size(); k++) {
                pir::Instruction* a = c->args[k];
                if ((a->op == pir::Opcode::MkArg ||
                     (a->op == pir::Opcode::LdVar && a->symbol == R_DotsSymbol)) &&
                    allUsers(a, [&](pir::Instruction* u) { return siteCalls.count(u) != 0; }))
                    siteArgs.insert(a);
            }
    }

    static bool boxed(const pir::Instruction* i) {
        pir::Rule r = i->info().result;
        return r != pir::Rule::Void && r != pir::Rule::Test;
    }

    // What the function holds that is not lowered yet, or "".
    std::string check() {
        for (pir::Instruction* i : f.entry->insns)
            if (i->op == pir::Opcode::MkEnv) ownEnv = i;
        const Code* code = t->baseline;
        CodeShape shape;
        if (!code || !verifyCode(code, &shape).empty()) return "no verified baseline code";
        for (auto& b : f.blocks)
            for (pir::Instruction* i : b->insns) {
                switch (i->op) {
                    case pir::Opcode::MkEnv:
                        if (i != ownEnv || i->stub) return "environments other than the function's";
                        break;
                    case pir::Opcode::FrameState: {
                        if (i->code != code) return "frame states of inlined code";
                        if (i->args.size() > 1 && i->args[1]->op == pir::Opcode::FrameState)
                            return "frame states of inlined code";
                        int pc = i->index;
                        if (pc < 0 || size_t(pc) >= shape.height.size() || shape.height[pc] < 0)
                            return "a frame state at no instruction";
                        // loop state (rebuilt by rirn_deopt) below every value
                        bool valueSeen = false;
                        for (SlotKind k : shape.slots[pc]) {
                            if (k == SlotKind::Value)
                                valueSeen = true;
                            else if (valueSeen)
                                return "a for loop's state above other values in a frame state";
                        }
                        if (shape.slots[pc].size() + 1 != i->args.size())
                            return "a frame state whose stack is not the code's";
                        auto kinds = std::make_unique<unsigned char[]>(shape.slots[pc].size() + 1);
                        for (size_t k = 0; k < shape.slots[pc].size(); k++)
                            kinds[k] = (unsigned char)shape.slots[pc][k];
                        slotKinds[i] = kinds.get();
                        keptKinds().push_back(std::move(kinds));
                        for (size_t a = 1; a < i->args.size(); a++)
                            if (!boxed(i->args[a])) return "a test value in a frame state";
                        break;
                    }
                    case pir::Opcode::Phi:
                        if (!boxed(i)) return "a Phi of tests";
                        break;
                    default:
                        break;
                }
                // (an operation without its call is one the translation made
                // that cannot fail: a for loop's counter and its test)
            }
        return "";
    }

    llvm::Value* constant(const void* p) {
        return llvm::ConstantExpr::getIntToPtr(
            llvm::ConstantInt::get(i64T, reinterpret_cast<uint64_t>(p)), sexpT);
    }
    llvm::Value* sexp(SEXP x) { return constant(x ? x : R_NilValue); }
    llvm::Value* i32(int v) { return llvm::ConstantInt::get(i32T, v); }

    llvm::Value* callHelper(void* address, llvm::Type* result, std::vector<llvm::Type*> params,
                            std::vector<llvm::Value*> args) {
        auto* ft = llvm::FunctionType::get(result, params, false);
        llvm::Value* callee = B.CreateIntToPtr(
            llvm::ConstantInt::get(i64T, reinterpret_cast<uint64_t>(address)), ft->getPointerTo());
        return B.CreateCall(ft, callee, args);
    }

    llvm::Value* value(pir::Instruction* i) {
        auto it = vals.find(i);
        return it == vals.end() ? nullptr : it->second;
    }

    void define(pir::Instruction* i, llvm::Value* v) {
        vals[i] = v;
        if (counted.count(i))
            callHelper(reinterpret_cast<void*>(&rirn_count), llvm::Type::getVoidTy(C), {sexpT},
                       {v});
        auto s = slotOf.find(i);
        if (s == slotOf.end()) return;
        llvm::Value* addr = B.CreateGEP(llvm::Type::getInt8Ty(C), slots,
                                        llvm::ConstantInt::get(i64T, s->second * 16 + 8));
        B.CreateStore(v, B.CreateBitCast(addr, sexpT->getPointerTo()));
    }

    void leave() {
        auto* v = llvm::Type::getVoidTy(C);
        callHelper(reinterpret_cast<void*>(&rirn_leave), v, {sexpT}, {slots});
    }

    // the branch to a successor (polls for interrupts on a loop's back edge)
    void jumpTo(pir::BB* from, pir::BB* to) {
        if (rpoIndex.at(to) <= rpoIndex.at(from)) {
            auto* v = llvm::Type::getVoidTy(C);
            callHelper(reinterpret_cast<void*>(&rirn_backedge), v, {}, {});
        }
        edgeFrom[{from, to}] = B.GetInsertBlock();
        B.CreateBr(blocks.at(to));
    }

    // Unboxed doubles: results of scalar arithmetic that no user needs
    // boxed (arithmetic and type tests read the double, a frame state boxes
    // it when deoptimizing) or that a store to the own environment boxes:
    // `x <- a op b` writes into x's value in place when inplace.h allows it,
    // and users the store dominates (a loop's Phi) take the value bound.
    std::set<pir::Instruction*> rawOk;
    std::map<pir::Instruction*, llvm::Value*> rawVals;

    static bool isArith(pir::Opcode op) {
        return op == pir::Opcode::Add || op == pir::Opcode::Sub || op == pir::Opcode::Mul ||
               op == pir::Opcode::Div;
    }
    static bool isCompare(pir::Opcode op) {
        using pir::Opcode;
        return op == Opcode::Eq || op == Opcode::Neq || op == Opcode::Lt || op == Opcode::Le ||
               op == Opcode::Gt || op == Opcode::Ge;
    }
    // Will lowerScalar compute u inline?
    bool scalarLowerable(pir::Instruction* u) {
        char ka, kb;
        return inlineKinds(u, &ka, &kb);
    }
    static bool realScalarType(pir::PirType t) {
        return t.kinds() == int(pir::Kind::Real) && t.isSimpleScalar();
    }
    // Does u read operand v (an unboxed double) without its box?
    bool rawUse(pir::Instruction* u, int depth) {
        if (u->op == pir::Opcode::FrameState || u->op == pir::Opcode::BindingIs) return true;
        if (u->op == pir::Opcode::IsType) return realScalarType(u->carriedType);
        if (scalarLowerable(u)) return true;
        if (u->op == pir::Opcode::CastType && depth < 4 && realScalarType(u->carriedType))
            return allUsers(u, [&](pir::Instruction* x) { return rawUse(x, depth + 1); });
        return false;
    }
    static size_t position(pir::Instruction* i) {
        auto& in = i->bb->insns;
        return size_t(std::find(in.begin(), in.end(), i) - in.begin());
    }
    bool rawCandidate(pir::Instruction* i) {
        char ka, kb;
        if (!isArith(i->op) || !inlineKinds(i, &ka, &kb) || counted.count(i)) return false;
        if (ka == 'i' && kb == 'i' && i->op != pir::Opcode::Div)
            return false;  // integer results: boxed (overflow takes GNU R's path)
        pir::Instruction* store = nullptr;
        std::vector<pir::Instruction*> boxedUsers;
        for (pir::Instruction* u : users[i]) {
            if (u->op == pir::Opcode::StVar && u->args[0] == i && u->args[1] == ownEnv &&
                (!store || store == u)) {
                store = u;
                continue;
            }
            // (the value an element store stores: its helper takes the double)
            bool storedValue = u->op == pir::Opcode::SubassignVar && u->args[1] == i &&
                               u->args[2] != i && (u->args.size() < 4 || u->args[3] != i);
            if (!storedValue && !rawUse(u, 0)) boxedUsers.push_back(u);
        }
        for (pir::Instruction* u : boxedUsers) {
            if (!store) return false;
            for (size_t k = 0; k < u->args.size(); k++)
                if (u->args[k] == i && !dom->availableAt(store, u, k)) return false;
        }
        return true;
    }
    std::unique_ptr<pir::Dominators> dom;
    void findRawValues() {
        dom = std::make_unique<pir::Dominators>(f);
        for (auto& b : f.blocks)
            for (pir::Instruction* i : b->insns)
                if (rawCandidate(i)) rawOk.insert(i);
    }

    // Liveness of the values kept in slots (for the in-place stores): live
    // at a block's start; an Assume may enter its checkpoint's
    // deoptimization block.
    std::map<pir::BB*, std::set<pir::Instruction*>> liveIn;
    bool livenessDone = false;
    std::set<pir::Instruction*> liveOutOf(pir::BB* b) {
        std::set<pir::Instruction*> out;
        for (pir::BB* s : b->succ) {
            out.insert(liveIn[s].begin(), liveIn[s].end());
            for (pir::Instruction* p : s->insns) {
                if (p->op != pir::Opcode::Phi) break;
                for (size_t k = 0; k < p->args.size(); k++)
                    if (p->phiFrom[k] == b && slotOf.count(p->args[k])) out.insert(p->args[k]);
            }
        }
        return out;
    }
    // live before instruction `from` of b (all of b's instructions from it on)
    std::set<pir::Instruction*> liveBefore(pir::BB* b, size_t from) {
        std::set<pir::Instruction*> live = liveOutOf(b);
        for (size_t k = b->insns.size(); k-- > from;) {
            pir::Instruction* i = b->insns[k];
            live.erase(i);
            if (i->op != pir::Opcode::Phi)
                for (pir::Instruction* a : i->args)
                    if (slotOf.count(a)) live.insert(a);
            if (i->op == pir::Opcode::Assume) {
                // (it may enter its checkpoint's deoptimization block)
                pir::BB* d = i->args[1]->bb->succ[1];
                live.insert(liveIn[d].begin(), liveIn[d].end());
            }
        }
        return live;
    }
    void computeLiveness() {
        if (livenessDone) return;
        livenessDone = true;
        std::vector<pir::BB*> order = f.rpo();
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t k = order.size(); k-- > 0;) {
                std::set<pir::Instruction*> in = liveBefore(order[k], 0);
                if (in != liveIn[order[k]]) {
                    liveIn[order[k]] = std::move(in);
                    changed = true;
                }
            }
        }
    }
    // The slots live after store st (its value's own slot left out: it is
    // written with the value bound), kept as long as the code.
    static std::vector<std::unique_ptr<int[]>>& keptSlotLists() {
        static std::vector<std::unique_ptr<int[]>> all;
        return all;
    }

    // The slots live after instruction i (`except` left out) whose value
    // may be of a kind of type `kind` (nullptr: any), as a list kept with
    // the code; its length in *n.
    const int* liveSlots(pir::Instruction* i, pir::Instruction* except, const pir::PirType* kind,
                         int* n) {
        computeLiveness();
        std::set<pir::Instruction*> live = liveBefore(i->bb, position(i) + 1);
        live.erase(except);
        auto list = std::make_unique<int[]>(live.size() + 1);
        *n = 0;
        for (pir::Instruction* x : live)
            if (!kind || kind->isBottom() || x->type.isBottom() ||
                (x->type.kinds() & kind->kinds()))
                list[(*n)++] = slotOf.at(x);
        keptSlotLists().push_back(std::move(list));
        return keptSlotLists().back().get();
    }

    // The slot holding i's previous result (a scratch object its helper
    // may reuse, *own; null when it has none) and the other slots live
    // after i.
    const int* scratchOf(pir::Instruction* i, llvm::Value** own, int* n) {
        auto s = slotOf.find(i);
        if (s == slotOf.end() || counted.count(i)) {
            *own = constant(nullptr);
            *n = 0;
            return nullptr;
        }
        *own = slotAddress(s->second);
        // (only values of a kind i's result may have can be that object)
        return liveSlots(i, i, &i->type, n);
    }

    // x <- v for an unboxed v: v's box is the one bound.
    void lowerRawStore(pir::Instruction* st, pir::Instruction* v) {
        int n;
        const pir::PirType real = pir::PirType::of(pir::Kind::Real);
        const int* list = liveSlots(st, v, &real, &n);
        llvm::Value* box =
            callHelper(reinterpret_cast<void*>(&rirn_stvar_real), sexpT,
                       {sexpT, llvm::Type::getDoubleTy(C), sexpT, sexpT, sexpT, sexpT, i32T},
                       {sexp(st->symbol), rawVals.at(v), value(st->args[1]),
                        slotAddress(cellSlot.at(st->symbol)), slots, constant(list), i32(n)});
        if (v->op != pir::Opcode::LdConst) define(v, box);
    }

    // v's box (a new one for an unboxed value: frame states)
    llvm::Value* boxedValue(pir::Instruction* v) {
        auto r = rawVals.find(v);
        if (r == rawVals.end() || value(v)) return value(v);
        auto e = elementBox.find(v);
        if (e != elementBox.end()) {
            // the general path's value, or a box of the element read inline
            llvm::BasicBlock* from = B.GetInsertBlock();
            llvm::BasicBlock* make = llvm::BasicBlock::Create(C, "", fn);
            llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
            B.CreateCondBr(B.CreateICmpEQ(e->second, sexp(R_NilValue)), make, join);
            B.SetInsertPoint(make);
            llvm::Value* made = callHelper(reinterpret_cast<void*>(&rirn_box_real), sexpT,
                                           {llvm::Type::getDoubleTy(C)}, {r->second});
            B.CreateStore(made, B.CreateBitCast(slotAddress(slotOf.at(v)), sexpT->getPointerTo()));
            llvm::BasicBlock* makeEnd = B.GetInsertBlock();
            B.CreateBr(join);
            B.SetInsertPoint(join);
            llvm::PHINode* p = B.CreatePHI(sexpT, 2);
            p->addIncoming(e->second, from);
            p->addIncoming(made, makeEnd);
            return p;
        }
        llvm::Value* box = callHelper(reinterpret_cast<void*>(&rirn_box_real), sexpT,
                                      {llvm::Type::getDoubleTy(C)}, {r->second});
        // (in the slot of v, or of the value a CastType v is of: the
        // collector sees it while the others are boxed)
        pir::Instruction* owner = v;
        while (!slotOf.count(owner) && owner->op == pir::Opcode::CastType) owner = owner->args[0];
        B.CreateStore(box, B.CreateBitCast(slotAddress(slotOf.at(owner)), sexpT->getPointerTo()));
        return box;
    }

    llvm::Value* scalarOperand(pir::Instruction* v, char k) {
        auto r = rawVals.find(v);
        if (r != rawVals.end()) return r->second;
        return loadScalar(value(v), k);
    }

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
                             llvm::BasicBlock* fail) {
        llvm::Type* i8T = llvm::Type::getInt8Ty(C);
        llvm::Type* dT = llvm::Type::getDoubleTy(C);
        auto byteIs = [&](llvm::Value* v, unsigned mask, unsigned want) {
            return B.CreateICmpEQ(
                B.CreateAnd(B.CreateLoad(i8T, v), llvm::ConstantInt::get(i8T, mask)),
                llvm::ConstantInt::get(i8T, want));
        };
        const unsigned typeScalarAlt = 0x1f | kHeaderScalarBit | kHeaderAltBit;
        llvm::Value* idxOk = B.CreateICmpEQ(fieldAt(idx, kAttribOffset, sexpT), sexp(R_NilValue));
        llvm::BasicBlock* intIdx = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* notInt = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* realIdx = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* haveK = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* inRange = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(B.CreateAnd(ok, idxOk), intIdx, fail);
        B.SetInsertPoint(intIdx);
        llvm::Value* isInt = byteIs(idx, typeScalarAlt, INTSXP | kHeaderScalarBit);
        llvm::BasicBlock* intLoad = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(isInt, intLoad, notInt);
        B.SetInsertPoint(intLoad);
        llvm::Value* iv = loadScalar(idx, 'i');
        llvm::Value* kInt = B.CreateSub(B.CreateSExt(iv, i64T), llvm::ConstantInt::get(i64T, 1));
        llvm::Value* intGood = B.CreateICmpSGE(iv, i32(1));  // (NA is the smallest int)
        B.CreateBr(haveK);
        B.SetInsertPoint(notInt);
        B.CreateCondBr(byteIs(idx, typeScalarAlt, REALSXP | kHeaderScalarBit), realIdx, fail);
        B.SetInsertPoint(realIdx);
        llvm::Value* dv = loadScalar(idx, 'd');
        llvm::Value* realGood =
            B.CreateAnd(B.CreateFCmpOGE(dv, llvm::ConstantFP::get(dT, 1.0)),
                        B.CreateFCmpOLT(dv, llvm::ConstantFP::get(dT, 4503599627370496.0)));
        llvm::Value* kReal = B.CreateSub(
            B.CreateFPToSI(B.CreateSelect(realGood, dv, llvm::ConstantFP::get(dT, 1.0)), i64T),
            llvm::ConstantInt::get(i64T, 1));
        B.CreateBr(haveK);
        B.SetInsertPoint(haveK);
        llvm::PHINode* k = B.CreatePHI(i64T, 2);
        k->addIncoming(kInt, intLoad);
        k->addIncoming(kReal, realIdx);
        llvm::PHINode* good = B.CreatePHI(i1T, 2);
        good->addIncoming(intGood, intLoad);
        good->addIncoming(realGood, realIdx);
        B.CreateCondBr(B.CreateAnd(good, B.CreateICmpSLT(k, len)), inRange, fail);
        B.SetInsertPoint(inRange);
        return k;
    }

    // x[i] <- v (one index) for an unboxed double v, inline when x's
    // binding (cached cell) holds a double vector only it counts, in no
    // live slot, and i is an in-range scalar index (storeScalarElement's
    // case); else to `fail`. Continues after the store.
    void inlineElementStore(pir::Instruction* st, llvm::Value* v, const int* live, int nlive,
                            llvm::BasicBlock* fail) {
        llvm::Type* i8T = llvm::Type::getInt8Ty(C);
        llvm::Type* dT = llvm::Type::getDoubleTy(C);
        llvm::Value* cacheP = slotAddress(cellSlot.at(st->symbol));
        llvm::Value* cell = B.CreateLoad(sexpT, B.CreateBitCast(cacheP, sexpT->getPointerTo()));
        llvm::BasicBlock* haveCell = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(B.CreateICmpEQ(cell, sexp(R_NilValue)), fail, haveCell);
        B.SetInsertPoint(haveCell);
        llvm::Value* plainCell = ordinaryCell(cell, true);
        llvm::BasicBlock* haveX = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(plainCell, haveX, fail);
        B.SetInsertPoint(haveX);
        llvm::Value* x = fieldAt(cell, kCarOffset, sexpT);
        llvm::Value* xWord = B.CreateLoad(i64T, B.CreateBitCast(x, i64T->getPointerTo()));
        const unsigned typeAltObj = 0x1f | kHeaderAltBit | kHeaderObjectBit;
        llvm::Value* ok = B.CreateICmpEQ(
            B.CreateAnd(B.CreateTrunc(xWord, i8T), llvm::ConstantInt::get(i8T, typeAltObj)),
            llvm::ConstantInt::get(i8T, REALSXP));
        // counted by the binding only (the header's named field, bits 32-47)
        ok = B.CreateAnd(ok, B.CreateICmpEQ(B.CreateAnd(B.CreateLShr(xWord, 32),
                                                        llvm::ConstantInt::get(i64T, 0xffff)),
                                            llvm::ConstantInt::get(i64T, 1)));
        for (int n = 0; n < nlive; n++)
            ok = B.CreateAnd(
                ok, B.CreateICmpNE(B.CreateLoad(sexpT, B.CreateBitCast(slotAddress(live[n]),
                                                                       sexpT->getPointerTo())),
                                   x));
        llvm::Value* k = scalarIndex(fieldAt(x, kCarOffset, i64T), value(st->args[2]), ok, fail);
        B.CreateStore(
            v, B.CreateGEP(dT,
                           B.CreateBitCast(
                               B.CreateGEP(i8T, x, llvm::ConstantInt::get(i64T, kVectorDataOffset)),
                               dT->getPointerTo()),
                           k));
        // as defineVar: the binding is no longer missing
        llvm::Value* newWord =
            B.CreateAnd(B.CreateLoad(i64T, B.CreateBitCast(cell, i64T->getPointerTo())),
                        llvm::ConstantInt::get(i64T, ~(uint64_t(kMissingMask) << kGpShift)));
        B.CreateStore(newWord, B.CreateBitCast(cell, i64T->getPointerTo()));
    }

    bool inlineExtract(pir::Instruction* i) {
        using pir::Opcode;
        bool two = i->op == Opcode::Extract1_2D || i->op == Opcode::Extract2_2D;
        if (i->op != Opcode::Extract1_1D && i->op != Opcode::Extract2_1D && !two) return false;
        const CallSite& cs = i->code->calls[i->index];
        if (cs.args.size() < (two ? 2u : 1u) || cs.args[0].tag != R_NilValue ||
            (two && cs.args[1].tag != R_NilValue) || counted.count(i))
            return false;
        auto a = [&](pir::Instruction* in, int k) { return value(in->args[k]); };
        if (!value(i->args[1]) || (two && !value(i->args[2]))) return false;
        if (!allUsers(i, [&](pir::Instruction* u) { return rawUse(u, 0); })) return false;
        bool single = i->op == Opcode::Extract1_1D;  // `[` keeps names: x without attributes
        llvm::Type* i8T = llvm::Type::getInt8Ty(C);
        llvm::Type* dT = llvm::Type::getDoubleTy(C);
        auto byteIs = [&](llvm::Value* v, unsigned mask, unsigned want) {
            return B.CreateICmpEQ(
                B.CreateAnd(B.CreateLoad(i8T, v), llvm::ConstantInt::get(i8T, mask)),
                llvm::ConstantInt::get(i8T, want));
        };
        auto nilAttrib = [&](llvm::Value* v) {
            return B.CreateICmpEQ(fieldAt(v, kAttribOffset, sexpT), sexp(R_NilValue));
        };
        llvm::Value* x = a0(i);
        llvm::Value* idx = a1(i);
        const unsigned typeAltObj = 0x1f | kHeaderAltBit | kHeaderObjectBit;
        const unsigned typeScalarAlt = 0x1f | kHeaderScalarBit | kHeaderAltBit;
        llvm::Value* ok = byteIs(x, typeAltObj, REALSXP);
        if (single && !two) ok = B.CreateAnd(ok, nilAttrib(x));
        llvm::BasicBlock* load = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* slowOk = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
        llvm::Value* k;
        if (!two) {
            k = scalarIndex(fieldAt(x, kCarOffset, i64T), idx, ok, slow);
        } else {
            // a plain matrix: its only attribute is dim, two integers
            llvm::Value* attr = fieldAt(x, kAttribOffset, sexpT);
            llvm::BasicBlock* hasAttr = llvm::BasicBlock::Create(C, "", fn);
            llvm::BasicBlock* dimOk = llvm::BasicBlock::Create(C, "", fn);
            B.CreateCondBr(B.CreateAnd(ok, B.CreateICmpNE(attr, sexp(R_NilValue))), hasAttr, slow);
            B.SetInsertPoint(hasAttr);
            llvm::Value* dim = fieldAt(attr, kCarOffset, sexpT);
            llvm::Value* plain =
                B.CreateAnd(B.CreateICmpEQ(fieldAt(attr, kTagOffset, sexpT), sexp(R_DimSymbol)),
                            B.CreateICmpEQ(fieldAt(attr, kCdrOffset, sexpT), sexp(R_NilValue)));
            B.CreateCondBr(plain, dimOk, slow);
            B.SetInsertPoint(dimOk);
            llvm::Value* dimType = byteIs(dim, 0x1f | kHeaderAltBit, INTSXP);
            llvm::Value* two2 =
                B.CreateICmpEQ(fieldAt(dim, kCarOffset, i64T), llvm::ConstantInt::get(i64T, 2));
            llvm::BasicBlock* dimsRead = llvm::BasicBlock::Create(C, "", fn);
            B.CreateCondBr(B.CreateAnd(dimType, two2), dimsRead, slow);
            B.SetInsertPoint(dimsRead);
            llvm::Value* dims = B.CreateBitCast(
                B.CreateGEP(i8T, dim, llvm::ConstantInt::get(i64T, kVectorDataOffset)),
                i32T->getPointerTo());
            llvm::Value* nr = B.CreateSExt(B.CreateLoad(i32T, dims), i64T);
            llvm::Value* nc = B.CreateSExt(
                B.CreateLoad(i32T, B.CreateGEP(i32T, dims, llvm::ConstantInt::get(i64T, 1))), i64T);
            llvm::Value* ki = scalarIndex(nr, idx, llvm::ConstantInt::getTrue(C), slow);
            llvm::Value* kj = scalarIndex(nc, a(i, 2), llvm::ConstantInt::getTrue(C), slow);
            k = B.CreateAdd(ki, B.CreateMul(kj, nr));
        }
        B.CreateBr(load);
        B.SetInsertPoint(load);
        llvm::Value* elt = B.CreateLoad(
            dT,
            B.CreateGEP(dT,
                        B.CreateBitCast(
                            B.CreateGEP(i8T, x, llvm::ConstantInt::get(i64T, kVectorDataOffset)),
                            dT->getPointerTo()),
                        k));
        B.CreateBr(join);
        // anything else: the general path, its value tested and read
        B.SetInsertPoint(slow);
        int kind = i->op == Opcode::Extract2_1D || i->op == Opcode::Extract2_2D ? 2 : 1;
        int nargs = two ? 3 : 2;
        auto* at = llvm::ArrayType::get(sexpT, nargs);
        llvm::Value* arr = entryAlloca(at);
        for (int k = 0; k < nargs; k++)
            B.CreateStore(value(i->args[k]), B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
        llvm::Value* r =
            callHelper(reinterpret_cast<void*>(&rirn_subset), sexpT,
                       {sexpT, i32T, i32T, sexpT, i32T, sexpT, sexpT, sexpT, sexpT, sexpT, i32T},
                       {constant(i->code), i32(i->index), i32(kind), B.CreateBitCast(arr, sexpT),
                        i32(nargs - 1), envArg, trampArg, constant(nullptr), slots,
                        constant(nullptr), i32(0)});
        llvm::Value* rScalar =
            B.CreateAnd(byteIs(r, typeScalarAlt, REALSXP | kHeaderScalarBit), nilAttrib(r));
        llvm::BasicBlock* slowEnd = B.GetInsertBlock();
        B.CreateCondBr(rScalar, slowOk, join);
        B.SetInsertPoint(slowOk);
        llvm::Value* rd = loadScalar(r, 'd');
        B.CreateBr(join);
        B.SetInsertPoint(join);
        llvm::PHINode* raw = B.CreatePHI(dT, 3);
        raw->addIncoming(elt, load);
        raw->addIncoming(llvm::ConstantFP::get(dT, 0.0), slowEnd);
        raw->addIncoming(rd, slowOk);
        llvm::PHINode* flag = B.CreatePHI(i1T, 3);
        flag->addIncoming(llvm::ConstantInt::getTrue(C), load);
        flag->addIncoming(llvm::ConstantInt::getFalse(C), slowEnd);
        flag->addIncoming(llvm::ConstantInt::getTrue(C), slowOk);
        llvm::PHINode* box = B.CreatePHI(sexpT, 3);
        box->addIncoming(sexp(R_NilValue), load);
        box->addIncoming(r, slowEnd);
        box->addIncoming(r, slowOk);
        setVisible();
        rawVals[i] = raw;
        elementOk[i] = flag;
        elementBox[i] = box;
        // (the general path's box in i's slot, where the collector sees it)
        auto s = slotOf.find(i);
        if (s != slotOf.end())
            B.CreateStore(box, B.CreateBitCast(slotAddress(s->second), sexpT->getPointerTo()));
        return true;
    }

    // Comparisons of plain scalars used only as conditions: their truth
    // value, never boxed.
    std::map<pir::Instruction*, llvm::Value*> rawTests;

    // 'd' / 'i': a plain double / integer scalar, never NA (its type says
    // so), which native code reads unboxed; else 0.
    static char scalarKind(const pir::Instruction* v) {
        pir::PirType t = v->type;
        if (t.isBottom() || !t.isSimpleScalar() || t.may(pir::Flag::NA)) return 0;
        if (t.isA(pir::Kind::Real)) return 'd';
        if (t.isA(pir::Kind::Int)) return 'i';
        return 0;
    }
    // As scalarKind, for an operand of + - * /: a double may also be NA
    // (GNU R's double arithmetic is the machine's, NA and NaN included).
    static char arithKind(const pir::Instruction* v) {
        pir::PirType t = v->type;
        if (!t.isBottom() && t.isSimpleScalar() && t.isA(pir::Kind::Real)) return 'd';
        return scalarKind(v);
    }
    // The kinds of the operands of arithmetic or a comparison computed
    // inline, or false.
    static bool inlineKinds(const pir::Instruction* u, char* ka, char* kb) {
        if (u->args.size() != 2) return false;
        bool arith = isArith(u->op);
        *ka = arith ? arithKind(u->args[0]) : scalarKind(u->args[0]);
        *kb = arith ? arithKind(u->args[1]) : scalarKind(u->args[1]);
        return *ka && *kb && (arith || isCompare(u->op));
    }

    llvm::Value* loadScalar(llvm::Value* x, char k) {
        llvm::Value* p = B.CreateGEP(llvm::Type::getInt8Ty(C), x,
                                     llvm::ConstantInt::get(i64T, kVectorDataOffset));
        llvm::Type* t = k == 'd' ? llvm::Type::getDoubleTy(C) : i32T;
        return B.CreateLoad(t, B.CreateBitCast(p, t->getPointerTo()));
    }

    void setVisible() {
        B.CreateStore(i32(1), B.CreateBitCast(constant(&R_Visible), i32T->getPointerTo()));
    }

    // Arithmetic and comparisons of plain non-NA scalars, computed inline
    // (GNU R's arithmetic on such doubles is the machine's; integer
    // overflow, whose NA comes with a warning, takes the helper). False:
    // not such operands.
    bool lowerScalar(pir::Instruction* i) {
        using pir::Opcode;
        char ka, kb;
        if (!inlineKinds(i, &ka, &kb)) return false;
        bool compare = isCompare(i->op);
        bool intOp = ka == 'i' && kb == 'i';
        llvm::Type* dT = llvm::Type::getDoubleTy(C);
        llvm::Value* x = scalarOperand(i->args[0], ka);
        llvm::Value* y = scalarOperand(i->args[1], kb);
        if (compare) {
            llvm::Value* t;
            if (intOp) {
                llvm::CmpInst::Predicate p = i->op == Opcode::Eq    ? llvm::CmpInst::ICMP_EQ
                                             : i->op == Opcode::Neq ? llvm::CmpInst::ICMP_NE
                                             : i->op == Opcode::Lt  ? llvm::CmpInst::ICMP_SLT
                                             : i->op == Opcode::Le  ? llvm::CmpInst::ICMP_SLE
                                             : i->op == Opcode::Gt  ? llvm::CmpInst::ICMP_SGT
                                                                    : llvm::CmpInst::ICMP_SGE;
                t = B.CreateICmp(p, x, y);
            } else {
                if (ka == 'i') x = B.CreateSIToFP(x, dT);
                if (kb == 'i') y = B.CreateSIToFP(y, dT);
                // (an NA-free double is not NaN either: the comparison is
                // ordered)
                llvm::CmpInst::Predicate p = i->op == Opcode::Eq    ? llvm::CmpInst::FCMP_OEQ
                                             : i->op == Opcode::Neq ? llvm::CmpInst::FCMP_ONE
                                             : i->op == Opcode::Lt  ? llvm::CmpInst::FCMP_OLT
                                             : i->op == Opcode::Le  ? llvm::CmpInst::FCMP_OLE
                                             : i->op == Opcode::Gt  ? llvm::CmpInst::FCMP_OGT
                                                                    : llvm::CmpInst::FCMP_OGE;
                t = B.CreateFCmp(p, x, y);
            }
            setVisible();
            rawTests[i] = t;
            // (as a value: GNU R's byte code's shared TRUE / FALSE)
            if (!onlyTests(i)) define(i, B.CreateSelect(t, sexp(R_TrueValue), sexp(R_FalseValue)));
            return true;
        }
        if (!intOp || i->op == Opcode::Div) {
            if (ka == 'i') x = B.CreateSIToFP(x, dT);
            if (kb == 'i') y = B.CreateSIToFP(y, dT);
            llvm::Value* r = i->op == Opcode::Add   ? B.CreateFAdd(x, y)
                             : i->op == Opcode::Sub ? B.CreateFSub(x, y)
                             : i->op == Opcode::Mul ? B.CreateFMul(x, y)
                                                    : B.CreateFDiv(x, y);
            setVisible();
            if (rawOk.count(i))
                rawVals[i] = r;
            else
                define(i, boxInto(i, r, 'd'));
            return true;
        }
        llvm::Intrinsic::ID id = i->op == Opcode::Add   ? llvm::Intrinsic::sadd_with_overflow
                                 : i->op == Opcode::Sub ? llvm::Intrinsic::ssub_with_overflow
                                                        : llvm::Intrinsic::smul_with_overflow;
        llvm::Value* ov = B.CreateBinaryIntrinsic(id, x, y);
        llvm::Value* r = B.CreateExtractValue(ov, 0);
        llvm::Value* bad =
            B.CreateOr(B.CreateExtractValue(ov, 1), B.CreateICmpEQ(r, i32(NA_INTEGER)));
        llvm::BasicBlock* fast = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(bad, slow, fast);
        B.SetInsertPoint(fast);
        setVisible();
        llvm::Value* boxed = boxInto(i, r, 'i');
        llvm::BasicBlock* fastEnd = B.GetInsertBlock();
        B.CreateBr(join);
        B.SetInsertPoint(slow);
        llvm::Value* generic = genericBinopValue(i);
        llvm::BasicBlock* slowEnd = B.GetInsertBlock();
        B.CreateBr(join);
        B.SetInsertPoint(join);
        llvm::PHINode* phi = B.CreatePHI(sexpT, 2);
        phi->addIncoming(boxed, fastEnd);
        phi->addIncoming(generic, slowEnd);
        define(i, phi);
        return true;
    }

    llvm::Value* fieldAt(llvm::Value* x, int offset, llvm::Type* t) {
        llvm::Value* p =
            B.CreateGEP(llvm::Type::getInt8Ty(C), x, llvm::ConstantInt::get(i64T, offset));
        return B.CreateLoad(t, B.CreateBitCast(p, t->getPointerTo()));
    }

    // Is the binding cell an ordinary one (not active, no immediate value;
    // `store`: not locked either), from its header's first word?
    llvm::Value* ordinaryCell(llvm::Value* cell, bool store) {
        llvm::Value* word = B.CreateLoad(i64T, B.CreateBitCast(cell, i64T->getPointerTo()));
        unsigned bits = kActiveBinding | (store ? kBindingLock : 0u);
        llvm::Value* flags =
            B.CreateAnd(word, llvm::ConstantInt::get(i64T, uint64_t(bits) << kGpShift));
        llvm::Value* extra =
            B.CreateAnd(B.CreateLShr(word, kExtraShift), llvm::ConstantInt::get(i64T, kExtraMask));
        return B.CreateICmpEQ(B.CreateOr(flags, extra), llvm::ConstantInt::get(i64T, 0));
    }

    // An own-environment variable's value through its cached binding cell,
    // inline when the cell holds an ordinary value (as the interpreter's
    // binding cache); else rirn_ldvar_cell (finds the cell, GNU R's lookup
    // and errors).
    llvm::Value* cachedLoad(pir::Instruction* i) {
        llvm::Value* slotP = slotAddress(cellSlot.at(i->symbol));
        llvm::Value* cell = B.CreateLoad(sexpT, B.CreateBitCast(slotP, sexpT->getPointerTo()));
        llvm::BasicBlock* check = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(B.CreateICmpEQ(cell, sexp(R_NilValue)), slow, check);
        B.SetInsertPoint(check);
        llvm::Value* bad = B.CreateNot(ordinaryCell(cell, false));
        llvm::Value* x = fieldAt(cell, kCarOffset, sexpT);
        bad = B.CreateOr(bad, B.CreateOr(B.CreateICmpEQ(x, sexp(R_UnboundValue)),
                                         B.CreateICmpEQ(x, sexp(R_MissingArg))));
        B.CreateCondBr(bad, slow, join);
        B.SetInsertPoint(slow);
        llvm::Value* r = callHelper(reinterpret_cast<void*>(&rirn_ldvar_cell), sexpT,
                                    {sexpT, sexpT, sexpT, sexpT, sexpT},
                                    {sexp(i->symbol), value(i->args[0]), trampArg,
                                     i->call ? sexp(i->call) : constant(nullptr), slotP});
        llvm::BasicBlock* slowEnd = B.GetInsertBlock();
        B.CreateBr(join);
        B.SetInsertPoint(join);
        llvm::PHINode* phi = B.CreatePHI(sexpT, 2);
        phi->addIncoming(x, check);
        phi->addIncoming(r, slowEnd);
        return phi;
    }

    // v's value: v itself unless a promise, an evaluated promise's value
    // inline; else rirn_force evaluates it.
    llvm::Value* inlineForce(llvm::Value* v, SEXP sym, bool effects) {
        llvm::Type* i8T = llvm::Type::getInt8Ty(C);
        llvm::BasicBlock* from = B.GetInsertBlock();
        llvm::BasicBlock* prom = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
        llvm::Value* type = B.CreateAnd(B.CreateLoad(i8T, v), llvm::ConstantInt::get(i8T, 0x1f));
        B.CreateCondBr(B.CreateICmpEQ(type, llvm::ConstantInt::get(i8T, PROMSXP)), prom, join);
        B.SetInsertPoint(prom);
        llvm::Value* pv = fieldAt(v, kCarOffset, sexpT);
        B.CreateCondBr(B.CreateICmpEQ(pv, sexp(R_UnboundValue)), slow, join);
        B.SetInsertPoint(slow);
        llvm::Value* r =
            callHelper(reinterpret_cast<void*>(&rirn_force), sexpT, {sexpT, sexpT, sexpT},
                       {v, sym ? sexp(sym) : constant(nullptr), trampArg});
        if (effects) setDirty(1);
        llvm::BasicBlock* slowEnd = B.GetInsertBlock();
        B.CreateBr(join);
        B.SetInsertPoint(join);
        llvm::PHINode* phi = B.CreatePHI(sexpT, 3);
        phi->addIncoming(v, from);
        phi->addIncoming(pv, prom);
        phi->addIncoming(r, slowEnd);
        return phi;
    }

    // Is x a plain scalar of the type (the common speculation), read from
    // its header (as rirn_istype's fast path); nullptr for other types.
    llvm::Value* inlineTypeTest(llvm::Value* x, pir::PirType want) {
        using pir::Flag;
        using pir::Kind;
        const int shape = int(Flag::NotScalar) | int(Flag::Attrib) | int(Flag::Object) |
                          int(Flag::Lazy) | int(Flag::Missing);
        if (want == pir::PirType::any().without(Flag::Object)) {
            // anything but an object (a promise is not one: the test is on
            // values): the header's object bit
            llvm::Type* i8T = llvm::Type::getInt8Ty(C);
            llvm::Value* first = B.CreateLoad(i8T, x);
            return B.CreateICmpEQ(B.CreateAnd(first, llvm::ConstantInt::get(i8T, kHeaderObjectBit)),
                                  llvm::ConstantInt::get(i8T, 0));
        }
        if (want.flags() & shape) return nullptr;
        int k = want.kinds();
        int t = k == int(Kind::Real)  ? REALSXP
                : k == int(Kind::Int) ? INTSXP
                : k == int(Kind::Lgl) ? LGLSXP
                                      : -1;
        if (t < 0) return nullptr;
        llvm::Type* i8T = llvm::Type::getInt8Ty(C);
        llvm::Value* first = B.CreateLoad(i8T, x);
        unsigned mask = 0x1f | kHeaderScalarBit | kHeaderAltBit;
        llvm::Value* ok = B.CreateICmpEQ(B.CreateAnd(first, llvm::ConstantInt::get(i8T, mask)),
                                         llvm::ConstantInt::get(i8T, t | kHeaderScalarBit));
        llvm::Value* attrib = B.CreateLoad(
            sexpT, B.CreateBitCast(B.CreateGEP(i8T, x, llvm::ConstantInt::get(i64T, kAttribOffset)),
                                   sexpT->getPointerTo()));
        ok = B.CreateAnd(ok, B.CreateICmpEQ(attrib, sexp(R_NilValue)));
        if (want.may(Flag::NA)) return ok;
        // not NA: the element, read only once the header said it is there
        llvm::BasicBlock* from = B.GetInsertBlock();
        llvm::BasicBlock* elt = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(ok, elt, join);
        B.SetInsertPoint(elt);
        llvm::Value* notNA;
        if (t == REALSXP) {
            llvm::Value* d = loadScalar(x, 'd');
            notNA = B.CreateFCmpORD(d, d);
        } else {
            notNA = B.CreateICmpNE(loadScalar(x, 'i'), i32(NA_INTEGER));
        }
        llvm::BasicBlock* eltEnd = B.GetInsertBlock();
        B.CreateBr(join);
        B.SetInsertPoint(join);
        llvm::PHINode* r = B.CreatePHI(i1T, 2);
        r->addIncoming(llvm::ConstantInt::getFalse(C), from);
        r->addIncoming(notNA, eltEnd);
        return r;
    }

    // i's result r (a double 'd' or an int 'i') boxed, into i's previous
    // box when nothing refers to it any more
    llvm::Value* boxInto(pir::Instruction* i, llvm::Value* r, char k) {
        llvm::Value* own;
        int n = 0;
        const int* live = scratchOf(i, &own, &n);
        llvm::Type* t = k == 'd' ? llvm::Type::getDoubleTy(C) : i32T;
        void* h = k == 'd' ? reinterpret_cast<void*>(&rirn_box_real_in)
                           : reinterpret_cast<void*>(&rirn_box_int_in);
        return callHelper(h, sexpT, {t, sexpT, sexpT, sexpT, i32T},
                          {r, own, slots, constant(live), i32(n)});
    }

    llvm::Value* a0(pir::Instruction* i) { return value(i->args[0]); }
    llvm::Value* a1(pir::Instruction* i) { return value(i->args[1]); }

    // Is v a plain logical scalar (maybe NA) by its type?
    static bool plainLgl(const pir::Instruction* v) {
        return !v->type.isBottom() && v->type.isSimpleScalar() &&
               v->type.kinds() == int(pir::Kind::Lgl);
    }

    // Is every use of i an AsTest?
    bool onlyTests(pir::Instruction* i) {
        return allUsers(i, [](pir::Instruction* u) { return u->op == pir::Opcode::AsTest; });
    }

    // The operation by the helper (boxed operands), not defined as i's value.
    llvm::Value* genericBinopValue(pir::Instruction* i) {
        ArithOp op;
        arithOp(i->op, &op);
        int keep = (useCount(i->args[0]) > 1 ? 1 : 0) | (useCount(i->args[1]) > 1 ? 2 : 0);
        if (i->args[0] == i->args[1]) keep = 3;
        llvm::Value* own;
        int n = 0;
        const int* live = scratchOf(i, &own, &n);
        return callHelper(
            reinterpret_cast<void*>(&rirn_binop), sexpT,
            {i32T, sexpT, sexpT, sexpT, sexpT, sexpT, i32T, sexpT, sexpT, sexpT, i32T},
            {i32(int(op)), a0(i), a1(i), sexp(i->call), envArg, trampArg, i32(keep), own, slots,
             constant(live), i32(n)});
    }

    std::string lower(pir::Instruction* i) {
        using pir::Opcode;
        auto a = [&](size_t k) { return value(i->args[k]); };
        ArithOp op;
        switch (i->op) {
            case Opcode::LdConst:
                vals[i] = sexp(i->constant);
                // a double constant is also its value: stored into a binding
                // in place (x <- 0), compared by value
                if (simpleScalar(i->constant, REALSXP)) {
                    uint64_t bits;  // (bit for bit: NA is a NaN with its payload)
                    std::memcpy(&bits, fdata(i->constant), sizeof(bits));
                    rawVals[i] = llvm::ConstantExpr::getBitCast(llvm::ConstantInt::get(i64T, bits),
                                                                llvm::Type::getDoubleTy(C));
                }
                return "";
            case Opcode::LdArg: {
                SEXP formal = R_NilValue;
                SEXP fl = t->formals();
                for (int k = 0; k < i->index && fl != R_NilValue; k++) fl = CDR(fl);
                if (fl == R_NilValue) return "an argument beyond the formals";
                formal = TAG(fl);
                define(i, callHelper(reinterpret_cast<void*>(&rirn_ldarg), sexpT, {sexpT, sexpT},
                                     {envArg, sexp(formal)}));
                return "";
            }
            case Opcode::LdFunctionEnv:
                define(i,
                       callHelper(reinterpret_cast<void*>(&rirn_enclos), sexpT, {sexpT}, {envArg}));
                return "";
            case Opcode::MkEnv:
                vals[i] = envArg;
                return "";
            case Opcode::LdVar:
                if (siteArgs.count(i)) return "";     // `...`: its call site expands it
                if (missokLoads.count(i)) return "";  // its ForceOrMissing loads it
                if (i->args[0] == ownEnv) {
                    define(i, cachedLoad(i));
                    return "";
                }
                define(i, callHelper(reinterpret_cast<void*>(&rirn_ldvar), sexpT,
                                     {sexpT, sexpT, sexpT, sexpT},
                                     {sexp(i->symbol), a(0), trampArg,
                                      i->call ? sexp(i->call) : constant(nullptr)}));
                return "";
            case Opcode::StVar:
                if (i->args[1] == ownEnv && rawVals.count(i->args[0])) {
                    lowerRawStore(i, i->args[0]);
                    return "";
                }
                if (i->args[1] == ownEnv) {
                    callHelper(reinterpret_cast<void*>(&rirn_stvar_cell), llvm::Type::getVoidTy(C),
                               {sexpT, sexpT, sexpT, sexpT},
                               {sexp(i->symbol), a(0), a(1), slotAddress(cellSlot.at(i->symbol))});
                    return "";
                }
                [[fallthrough]];
            case Opcode::StArgDefault: {
                void* h = i->op == Opcode::StVar ? reinterpret_cast<void*>(&rirn_stvar)
                                                 : reinterpret_cast<void*>(&rirn_starg_default);
                callHelper(h, llvm::Type::getVoidTy(C), {sexpT, sexpT, sexpT},
                           {sexp(i->symbol), a(0), a(1)});
                return "";
            }
            case Opcode::MkArg: {
                if (siteArgs.count(i)) return "";  // made by its call site
                // the promise code: a pool entry (a symbol, or RIR promise
                // code), else (a default that is not a call) its expression
                SEXP c = i->index >= 0 ? t->baseline->poolAt(i->index) : i->constant;
                Code* pc = Code::unpack(c);
                define(i, callHelper(reinterpret_cast<void*>(&rirn_mkarg), sexpT, {sexpT, sexpT},
                                     {sexp(pc ? pc->trampoline : c), a(1)}));
                return "";
            }
            case Opcode::Force: {
                pir::Instruction* from = i->args[0];
                SEXP sym = from->op != Opcode::LdVar ? nullptr
                           : from->call              ? from->call
                                                     : from->symbol;
                define(i, inlineForce(a(0), sym, writesEnv(i)));
                return "";
            }
            case Opcode::Add:
            case Opcode::Sub:
            case Opcode::Mul:
            case Opcode::Div:
            case Opcode::Pow:
            case Opcode::IDiv:
            case Opcode::Mod:
            case Opcode::Eq:
            case Opcode::Neq:
            case Opcode::Lt:
            case Opcode::Le:
            case Opcode::Gt:
            case Opcode::Ge: {
                if (!lowerScalar(i)) define(i, genericBinopValue(i));
                return "";
            }
            case Opcode::Minus:
            case Opcode::Plus:
            case Opcode::Not: {
                arithOp(i->op, &op);
                int keep = useCount(i->args[0]) > 1 ? 1 : 0;
                define(i, callHelper(
                              reinterpret_cast<void*>(&rirn_unop), sexpT,
                              {i32T, sexpT, sexpT, sexpT, sexpT, i32T},
                              {i32(int(op)), a(0), sexp(i->call), envArg, trampArg, i32(keep)}));
                return "";
            }
            case Opcode::AsTest: {
                auto raw = rawTests.find(i->args[0]);
                if (raw != rawTests.end()) {
                    // a comparison of plain non-NA scalars: its truth value
                    vals[i] = raw->second;
                    return "";
                }
                if (plainLgl(i->args[0])) {
                    // a plain logical scalar: inline unless NA (the error)
                    llvm::Value* x = loadScalar(a(0), 'i');
                    llvm::BasicBlock* from = B.GetInsertBlock();
                    llvm::BasicBlock* na = llvm::BasicBlock::Create(C, "", fn);
                    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
                    B.CreateCondBr(B.CreateICmpEQ(x, i32(NA_LOGICAL)), na, join);
                    B.SetInsertPoint(na);
                    llvm::Value* r = callHelper(reinterpret_cast<void*>(&rirn_astest), i32T,
                                                {sexpT, sexpT}, {a(0), sexp(i->call)});
                    llvm::BasicBlock* naEnd = B.GetInsertBlock();
                    B.CreateBr(join);
                    B.SetInsertPoint(join);
                    llvm::PHINode* phi = B.CreatePHI(i32T, 2);
                    phi->addIncoming(x, from);
                    phi->addIncoming(r, naEnd);
                    vals[i] = B.CreateICmpNE(phi, i32(0));
                    return "";
                }
                llvm::Value* r = callHelper(reinterpret_cast<void*>(&rirn_astest), i32T,
                                            {sexpT, sexpT}, {a(0), sexp(i->call)});
                vals[i] = B.CreateICmpNE(r, i32(0));
                return "";
            }
            case Opcode::IsType: {
                auto raw = rawVals.find(i->args[0]);
                if (raw != rawVals.end()) {
                    // (a plain double by construction, or an element read
                    // inline with its flag: only NA to test)
                    llvm::Value* t = i->carriedType.may(pir::Flag::NA)
                                         ? llvm::ConstantInt::getTrue(C)
                                         : B.CreateFCmpORD(raw->second, raw->second);
                    auto e = elementOk.find(i->args[0]);
                    vals[i] = e == elementOk.end() ? t : B.CreateAnd(e->second, t);
                    return "";
                }
                if (llvm::Value* t = inlineTypeTest(a(0), i->carriedType)) {
                    vals[i] = t;
                    return "";
                }
                llvm::Value* r =
                    callHelper(reinterpret_cast<void*>(&rirn_istype), i32T, {sexpT, i32T, i32T},
                               {a(0), i32(i->carriedType.kinds()), i32(i->carriedType.flags())});
                vals[i] = B.CreateICmpNE(r, i32(0));
                return "";
            }
            case Opcode::SubassignVar: {
                if (i->args[0] != ownEnv) return "a subassign in another environment";
                for (size_t k = 2; k < i->args.size(); k++)
                    if (!value(i->args[k])) return "an element store's index kept unboxed";
                // (any vector the variable may hold: every live boxed value)
                int n;
                const int* live = liveSlots(i, nullptr, nullptr, &n);
                bool two = i->args.size() == 4;
                auto raw = rawVals.find(i->args[1]);
                if (raw != rawVals.end() && i->args[2] != i->args[1] &&
                    (!two || i->args[3] != i->args[1])) {
                    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
                    llvm::BasicBlock* done = llvm::BasicBlock::Create(C, "", fn);
                    if (!two) {
                        inlineElementStore(i, raw->second, live, n, slow);
                        B.CreateBr(done);
                    } else {
                        B.CreateBr(slow);
                    }
                    B.SetInsertPoint(slow);
                    callHelper(reinterpret_cast<void*>(&rirn_subassign_real),
                               llvm::Type::getVoidTy(C),
                               {i32T, sexpT, sexpT, llvm::Type::getDoubleTy(C), sexpT, sexpT, sexpT,
                                sexpT, sexpT, sexpT, sexpT, sexpT, i32T, sexpT},
                               {i32(i->index), sexp(i->symbol), envArg, raw->second, a(2),
                                two ? a(3) : constant(nullptr), sexp(i->constant), sexp(i->call),
                                trampArg, slotAddress(cellSlot.at(i->symbol)), slots,
                                constant(live), i32(n), B.CreateBitCast(dirty, sexpT)});
                    B.CreateBr(done);
                    B.SetInsertPoint(done);
                    return "";
                }
                callHelper(reinterpret_cast<void*>(&rirn_subassign), llvm::Type::getVoidTy(C),
                           {i32T, sexpT, sexpT, sexpT, sexpT, sexpT, sexpT, sexpT, sexpT, sexpT,
                            sexpT, sexpT, i32T, sexpT},
                           {i32(i->index), sexp(i->symbol), envArg, boxedValue(i->args[1]), a(2),
                            two ? a(3) : constant(nullptr), sexp(i->constant), sexp(i->call),
                            trampArg, slotAddress(cellSlot.at(i->symbol)), slots, constant(live),
                            i32(n), B.CreateBitCast(dirty, sexpT)});
                return "";
            }
            case Opcode::BindingIs: {
                if (i->args[0] != ownEnv) return "a binding test of another environment";
                if (!rawVals.count(i->args[1]) && !value(i->args[1]))
                    return "a binding test of a value not made";
                llvm::Value* cache = slotAddress(cellSlot.at(i->symbol));
                auto raw = rawVals.find(i->args[1]);
                llvm::BasicBlock* from = B.GetInsertBlock();
                llvm::BasicBlock* look = llvm::BasicBlock::Create(C, "", fn);
                llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
                llvm::Value* d = B.CreateLoad(llvm::Type::getInt8Ty(C), dirty);
                B.CreateCondBr(B.CreateICmpEQ(d, llvm::ConstantInt::get(d->getType(), 0)), join,
                               look);
                B.SetInsertPoint(look);
                if (raw == rawVals.end()) {
                    // the common answer inline: the cached cell holds the value
                    llvm::Value* cell =
                        B.CreateLoad(sexpT, B.CreateBitCast(cache, sexpT->getPointerTo()));
                    llvm::BasicBlock* check = llvm::BasicBlock::Create(C, "", fn);
                    llvm::BasicBlock* helper = llvm::BasicBlock::Create(C, "", fn);
                    B.CreateCondBr(B.CreateICmpEQ(cell, sexp(R_NilValue)), helper, check);
                    B.SetInsertPoint(check);
                    llvm::Value* plain = ordinaryCell(cell, false);
                    llvm::Value* same =
                        B.CreateAnd(plain, B.CreateICmpEQ(fieldAt(cell, kCarOffset, sexpT), a(1)));
                    B.CreateCondBr(same, join, helper);
                    // (join's Phi gets true from `check`)
                    fastConfirm = B.GetInsertBlock();
                    B.SetInsertPoint(helper);
                }
                llvm::Value* r =
                    raw != rawVals.end()
                        ? callHelper(reinterpret_cast<void*>(&rirn_binding_is_real), i32T,
                                     {sexpT, sexpT, llvm::Type::getDoubleTy(C), sexpT},
                                     {sexp(i->symbol), envArg, raw->second, cache})
                        : callHelper(reinterpret_cast<void*>(&rirn_binding_is), i32T,
                                     {sexpT, sexpT, sexpT, sexpT},
                                     {sexp(i->symbol), envArg, a(1), cache});
                llvm::Value* holds = B.CreateICmpNE(r, i32(0));
                llvm::BasicBlock* lookEnd = B.GetInsertBlock();
                B.CreateBr(join);
                B.SetInsertPoint(join);
                llvm::PHINode* phi = B.CreatePHI(i1T, 3);
                phi->addIncoming(llvm::ConstantInt::getTrue(C), from);
                phi->addIncoming(holds, lookEnd);
                if (fastConfirm) phi->addIncoming(llvm::ConstantInt::getTrue(C), fastConfirm);
                fastConfirm = nullptr;
                vals[i] = phi;
                return "";
            }
            case Opcode::Identical:
                vals[i] = B.CreateICmpEQ(a(0), a(1));
                return "";
            case Opcode::CastType:
                // (an unboxed double's box, when a store dominating here made it)
                if (rawVals.count(i->args[0])) rawVals[i] = rawVals.at(i->args[0]);
                if (a(0)) vals[i] = a(0);
                return "";
            case Opcode::EvalAst:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_eval), sexpT, {sexpT, sexpT},
                                     {sexp(i->constant), a(0)}));
                return "";
            case Opcode::Call: {
                if (!siteCalls.count(i)) return "a call whose arguments are not its call site's";
                define(i, callHelper(reinterpret_cast<void*>(&rirn_call_site), sexpT,
                                     {sexpT, i32T, sexpT, sexpT, sexpT},
                                     {constant(i->code), i32(i->index), a(1), envArg, trampArg}));
                return "";
            }
            case Opcode::CallBuiltin: {
                int n = int(i->args.size()) - 1;
                int mask = 0;
                llvm::Value* args = constant(nullptr);
                if (n > 0) {
                    auto* at = llvm::ArrayType::get(sexpT, n);
                    llvm::Value* arr = entryAlloca(at);
                    for (int k = 0; k < n; k++) {
                        B.CreateStore(a(k + 1), B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
                        if (counted.count(i->args[k + 1])) mask |= 1 << k;
                    }
                    args = B.CreateBitCast(arr, sexpT);
                }
                // (sets the dirty flag when R code may run)
                define(i, callHelper(
                              reinterpret_cast<void*>(&rirn_call_builtin), sexpT,
                              {sexpT, i32T, sexpT, sexpT, sexpT, sexpT, i32T, i32T, sexpT},
                              {constant(i->code), i32(i->index), sexp(i->constant), envArg,
                               trampArg, args, i32(n), i32(mask), B.CreateBitCast(dirty, sexpT)}));
                return "";
            }
            case Opcode::Dollar:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_dollar), sexpT,
                                     {sexpT, sexpT, sexpT, sexpT},
                                     {a(0), sexp(i->symbol), sexp(i->call), envArg}));
                return "";
            case Opcode::MkCls:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_mkcls), sexpT, {sexpT, sexpT},
                                     {sexp(i->constant), a(0)}));
                return "";
            case Opcode::ForceOrMissing:
                define(i, callHelper(
                              reinterpret_cast<void*>(&rirn_ldvar_missok), sexpT,
                              {sexpT, sexpT, sexpT},
                              {sexp(i->args[0]->symbol), value(i->args[0]->args[0]), trampArg}));
                return "";
            case Opcode::LglIs: {
                // (the operand is a plain logical scalar: IsType checked it)
                llvm::Value* p =
                    B.CreateBitCast(B.CreateGEP(llvm::Type::getInt8Ty(C), a(0),
                                                llvm::ConstantInt::get(i64T, kVectorDataOffset)),
                                    i32T->getPointerTo());
                vals[i] = B.CreateICmpEQ(B.CreateLoad(i32T, p), i32(i->index));
                return "";
            }
            case Opcode::LglCombine:
                if (plainLgl(i->args[1])) {
                    // both plain logical scalars: lglCombine inline
                    llvm::Value* x1 = loadScalar(a(0), 'i');
                    auto raw = rawTests.find(i->args[1]);
                    llvm::Value* x2 = raw != rawTests.end() ? B.CreateZExt(raw->second, i32T)
                                                            : loadScalar(a(1), 'i');
                    llvm::Value* decides = B.CreateICmpEQ(x2, i32(i->index == 1 ? FALSE : TRUE));
                    llvm::Value* r =
                        B.CreateSelect(B.CreateOr(B.CreateICmpNE(x1, i32(NA_LOGICAL)), decides), x2,
                                       i32(NA_LOGICAL));
                    llvm::Value* box =
                        B.CreateSelect(B.CreateICmpEQ(r, i32(NA_LOGICAL)), sexp(R_LogicalNAValue),
                                       B.CreateSelect(B.CreateICmpNE(r, i32(0)), sexp(R_TrueValue),
                                                      sexp(R_FalseValue)));
                    setVisible();
                    define(i, box);
                    return "";
                }
                define(i, callHelper(
                              reinterpret_cast<void*>(&rirn_lgl_combine), sexpT,
                              {i32T, sexpT, sexpT, sexpT, sexpT, sexpT},
                              {i32(i->index), a(0), a(1), sexp(i->constant), envArg, trampArg}));
                return "";
            case Opcode::LglSlow:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_lgl_slow), sexpT,
                                     {i32T, sexpT, sexpT, sexpT, sexpT},
                                     {i32(i->index), a(0), sexp(i->constant), a(1), trampArg}));
                return "";
            case Opcode::Extract1_1D:
            case Opcode::Extract2_1D:
            case Opcode::Extract1_2D:
            case Opcode::Extract2_2D: {
                if (!i->code) return "a subset without its call site";
                if (inlineExtract(i)) return "";
                int kind = i->op == Opcode::Extract2_1D || i->op == Opcode::Extract2_2D ? 2 : 1;
                int n = int(i->args.size());
                auto* at = llvm::ArrayType::get(sexpT, n);
                llvm::Value* arr = entryAlloca(at);
                for (int k = 0; k < n; k++)
                    B.CreateStore(a(k), B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
                llvm::Value* own;
                int nlive = 0;
                const int* live = scratchOf(i, &own, &nlive);
                define(i, callHelper(reinterpret_cast<void*>(&rirn_subset), sexpT,
                                     {sexpT, i32T, i32T, sexpT, i32T, sexpT, sexpT, sexpT, sexpT,
                                      sexpT, i32T},
                                     {constant(i->code), i32(i->index), i32(kind),
                                      B.CreateBitCast(arr, sexpT), i32(n - 1), envArg, trampArg,
                                      own, slots, constant(live), i32(nlive)}));
                return "";
            }
            case Opcode::ExtractDispatch:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_subset_obj), sexpT,
                                     {i32T, sexpT, sexpT, sexpT, sexpT},
                                     {i32(i->index), a(0), sexp(i->constant), a(1), trampArg}));
                return "";
            case Opcode::ForSeq:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_forseq), sexpT, {sexpT, sexpT},
                                     {a(0), sexp(i->constant)}));
                return "";
            case Opcode::ForLength:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_forlength), sexpT, {sexpT},
                                     {a(0)}));
                return "";
            case Opcode::ForElement:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_forelement), sexpT,
                                     {sexpT, sexpT}, {a(0), a(1)}));
                return "";
            case Opcode::ForEnd:
                callHelper(reinterpret_cast<void*>(&rirn_forend), llvm::Type::getVoidTy(C), {sexpT},
                           {a(0)});
                return "";
            case Opcode::Colon:
                define(i, callHelper(reinterpret_cast<void*>(&rirn_colon), sexpT,
                                     {sexpT, sexpT, sexpT, sexpT, sexpT},
                                     {a(0), a(1), sexp(i->constant), envArg, trampArg}));
                return "";
            case Opcode::LdFun:
                // (sets the dirty flag when it evaluates a promise)
                define(i, callHelper(reinterpret_cast<void*>(&rirn_ldfun), sexpT,
                                     {sexpT, sexpT, sexpT, sexpT, sexpT},
                                     {sexp(i->symbol), a(0), sexp(i->call), trampArg,
                                      B.CreateBitCast(dirty, sexpT)}));
                return "";
            case Opcode::Visible:
            case Opcode::Invisible:
                B.CreateStore(i32(i->op == Opcode::Visible ? 1 : 0),
                              B.CreateBitCast(constant(&R_Visible), i32T->getPointerTo()));
                return "";
            case Opcode::SetSrcref:
                callHelper(reinterpret_cast<void*>(&rirn_srcref), llvm::Type::getVoidTy(C), {sexpT},
                           {sexp(i->constant)});
                return "";
            case Opcode::Phi: {
                llvm::PHINode* phi = B.CreatePHI(sexpT, unsigned(i->args.size()));
                pendingPhis.push_back({i, phi});
                vals[i] = phi;
                // (its slot is written after the block's last Phi)
                auto next = std::find(i->bb->insns.begin(), i->bb->insns.end(), i) + 1;
                if (next == i->bb->insns.end() || (*next)->op != Opcode::Phi) {
                    for (pir::Instruction* p : i->bb->insns) {
                        if (p->op != Opcode::Phi) break;
                        define(p, vals[p]);
                    }
                }
                return "";
            }
            case Opcode::Jump:
                jumpTo(i->bb, i->bb->succ[0]);
                return "";
            case Opcode::Branch: {
                llvm::BasicBlock* yes = llvm::BasicBlock::Create(C, "", fn);
                llvm::BasicBlock* no = llvm::BasicBlock::Create(C, "", fn);
                B.CreateCondBr(a(0), yes, no);
                B.SetInsertPoint(yes);
                jumpTo(i->bb, i->bb->succ[0]);
                B.SetInsertPoint(no);
                jumpTo(i->bb, i->bb->succ[1]);
                return "";
            }
            case Opcode::Return:
                leave();
                B.CreateRet(a(0));
                return "";
            case Opcode::Checkpoint:
                // the deoptimization block is entered by the Assumes after it
                B.CreateBr(blocks.at(i->bb->succ[0]));
                return "";
            case Opcode::Assume: {
                pir::Instruction* cp = i->args[1];
                llvm::BasicBlock* cont = llvm::BasicBlock::Create(C, "", fn);
                llvm::Value* holds = a(0);
                if (tiering.chaos > 0) {
                    // RIR_DEOPT_CHAOS: fails now and then even when it holds
                    llvm::Value* fail =
                        callHelper(reinterpret_cast<void*>(&rirn_chaos), i32T, {}, {});
                    holds = B.CreateAnd(holds, B.CreateICmpEQ(fail, i32(0)));
                }
                B.CreateCondBr(holds, cont, blocks.at(cp->bb->succ[1]));
                B.SetInsertPoint(cont);
                if (i->args[0]->op == Opcode::BindingIs) {
                    // the last of the checkpoint's confirmations: known again
                    auto& in = i->bb->insns;
                    auto next = std::find(in.begin(), in.end(), i) + 1;
                    if (next == in.end() || (*next)->op != Opcode::BindingIs) setDirty(0);
                }
                return "";
            }
            case Opcode::FrameState:
                return "";
            case Opcode::Deopt: {
                pir::Instruction* fs = i->args[0];
                int n = int(fs->args.size()) - 1;
                llvm::Value* stack = constant(nullptr);
                if (n > 0) {
                    auto* at = llvm::ArrayType::get(sexpT, n);
                    llvm::Value* arr = entryAlloca(at);
                    for (int k = 0; k < n; k++)
                        B.CreateStore(boxedValue(fs->args[k + 1]),
                                      B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
                    stack = B.CreateBitCast(arr, sexpT);
                }
                llvm::Value* r =
                    callHelper(reinterpret_cast<void*>(&rirn_deopt), sexpT,
                               {sexpT, sexpT, i32T, sexpT, sexpT, sexpT, i32T, sexpT},
                               {constant(t), constant(fs->code), i32(fs->index), value(fs->args[0]),
                                trampArg, stack, i32(n), constant(slotKinds.at(fs))});
                leave();
                B.CreateRet(r);
                return "";
            }
            default:
                return std::string("PIR instruction ") + i->info().name + " not lowered yet";
        }
    }
};

}  // namespace

bool available(std::string* why) {
    Jit& j = theJit();
    if (!j.jit && why) *why = j.problem;
    return j.jit != nullptr;
}

const std::string& lastIR() {
    return irText;
}

DispatchTable::NativeEntry compile(pir::Function& f, DispatchTable* t, std::string* why) {
    Jit& j = theJit();
    if (!j.jit) {
        *why = j.problem;
        return nullptr;
    }
    auto ctx = std::make_unique<llvm::LLVMContext>();
    auto mod = std::make_unique<llvm::Module>("rir" + std::to_string(j.modules), *ctx);
    std::string name = "rirn_fun" + std::to_string(j.modules++);
    std::string problem;
    {
        // (the lowering makes no R call; a lookup it did not expect to fail
        // is a refusal, not a crash)
        try {
            Lowering l(*ctx, *mod, f, t);
            problem = l.run(name);
        } catch (const std::exception& e) {
            problem = std::string("internal error in the lowering: ") + e.what();
        }
    }
    if (!problem.empty()) {
        *why = problem;
        return nullptr;
    }
    // a short cleanup: the dirty flag into registers, repeated header and
    // slot loads merged, constant branches folded
    {
        llvm::PassBuilder pb;
        llvm::LoopAnalysisManager lam;
        llvm::FunctionAnalysisManager fam;
        llvm::CGSCCAnalysisManager cam;
        llvm::ModuleAnalysisManager mam;
        pb.registerModuleAnalyses(mam);
        pb.registerCGSCCAnalyses(cam);
        pb.registerFunctionAnalyses(fam);
        pb.registerLoopAnalyses(lam);
        pb.crossRegisterProxies(lam, fam, cam, mam);
        llvm::FunctionPassManager fpm;
        fpm.addPass(llvm::PromotePass());
        fpm.addPass(llvm::EarlyCSEPass());
        fpm.addPass(llvm::InstCombinePass());
        fpm.addPass(llvm::SimplifyCFGPass());
        for (llvm::Function& fn : *mod)
            if (!fn.isDeclaration()) fpm.run(fn, fam);
    }
    irText.clear();
    llvm::raw_string_ostream os(irText);
    mod->print(os, nullptr);
    os.flush();
    if (auto err =
            j.jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx)))) {
        *why = "LLVM: " + llvm::toString(std::move(err));
        return nullptr;
    }
    auto sym = j.jit->lookup(name);
    if (!sym) {
        *why = "LLVM: " + llvm::toString(sym.takeError());
        return nullptr;
    }
    return reinterpret_cast<DispatchTable::NativeEntry>(sym->getAddress());
}

}  // namespace native
}  // namespace rir

#else  // no LLVM

namespace rir {
namespace native {

bool available(std::string* why) {
    if (why) *why = "built without LLVM (configure found no llvm-config >= 14)";
    return false;
}

const std::string& lastIR() {
    static std::string none;
    return none;
}

DispatchTable::NativeEntry compile(pir::Function&, DispatchTable*, std::string* why) {
    available(why);
    return nullptr;
}

}  // namespace native
}  // namespace rir

#endif
