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
// An instruction the lowering cannot handle makes rir_llvm_lower() return
// nullptr with the reason, which the tiering policy counts as a refusal.
// The lowering runs on R's thread; LLVM's passes and code generation
// (rir_llvm_emit) on the compile thread (compile_thread.h).
//
// This file, analyses.cpp and inline_paths.cpp are built into rirllvm.so,
// which rir.so loads the first time the native tier is asked for
// (llvm_loader.cpp); they call rir.so's runtime directly.
#ifdef RIR_HAVE_LLVM
// LLVM's headers before R's: R's (length, PI, ...) are macros
#include <llvm/ExecutionEngine/JITEventListener.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>

#include "lowering.h"
#endif

#include "native.h"

#ifdef RIR_HAVE_LLVM

#include <algorithm>
#include <cctype>
#include <cstring>

#include "../bc/subassign.h"
#include "../runtime/stats.h"

namespace rir {
namespace native {

namespace {

struct Jit {
    std::unique_ptr<llvm::orc::LLJIT> jit;
    std::string problem;
    unsigned modules = 0;
};

// (never destroyed: the compile thread may be in it while the process exits)
Jit& theJit() {
    static Jit& j = *[] {
        Jit* out = new Jit;
        Jit& r = *out;
        llvm::InitializeNativeTarget();
        llvm::InitializeNativeTargetAsmPrinter();
        auto made = llvm::orc::LLJITBuilder().create();
        if (made)
            r.jit = std::move(*made);
        else
            r.problem = "LLVM's JIT could not start: " + llvm::toString(made.takeError());
        // RIR_DEBUG=perf: each function's code announced in jitdump files
        // (`perf record -k 1`, then `perf inject --jit` names the symbols)
        if (r.jit && debugFlags.perf) {
            auto* layer =
                llvm::dyn_cast<llvm::orc::RTDyldObjectLinkingLayer>(&r.jit->getObjLinkingLayer());
            llvm::JITEventListener* perf = llvm::JITEventListener::createPerfJITEventListener();
            if (layer && perf) layer->registerJITEventListener(*perf);
        }
        return out;
    }();
    return j;
}

std::string irText;

}  // namespace

std::string Lowering::run(const std::string& name) {
    for (auto& b : f.blocks)
        for (pir::Instruction* i : b->insns)
            for (pir::Instruction* a : i->args) users[a].push_back(i);
    std::string problem = check();
    if (!problem.empty()) return problem;
    findSiteCalls();
    findGuardLoads();
    problem = findCountedArgs();
    if (problem.empty()) problem = findMissokLoads();
    if (!problem.empty()) return problem;
    findRawValues();
    findLoopVarReuse();
    findVirtualRanges();
    // (a continuation takes its entry values too: ContinuationEntry)
    std::vector<llvm::Type*> params = {sexpT, sexpT};
    if (f.continuation) params.push_back(sexpT->getPointerTo());
    auto* ft = llvm::FunctionType::get(sexpT, params, false);
    fn = llvm::Function::Create(ft, llvm::Function::ExternalLinkage, name, M);
    envArg = fn->getArg(0);
    trampArg = fn->getArg(1);
    if (f.continuation) inputsArg = fn->getArg(2);
    std::vector<pir::BB*> order = f.rpo();
    for (size_t k = 0; k < order.size(); k++) rpoIndex[order[k]] = int(k);
    llvm::BasicBlock* prologue = llvm::BasicBlock::Create(C, "prologue", fn);
    for (pir::BB* b : order)
        blocks[b] = llvm::BasicBlock::Create(C, "BB" + std::to_string(b->id), fn);
    // node-stack slots: one per boxed value an instruction makes
    int nslots = 0;
    for (pir::BB* b : order)
        for (pir::Instruction* i : b->insns)
            if (boxed(i) && i->op != pir::Opcode::LdConst && i != ownEnv &&
                i->op != pir::Opcode::CastType && !siteArgs.count(i) && !missokLoads.count(i) &&
                !guardLoads.count(i))
                slotOf[i] = nslots++;
    // binding-cell cache slots: one per variable of the own environment
    // loaded or stored
    for (pir::BB* b : order)
        for (pir::Instruction* i : b->insns) {
            pir::Instruction* env = i->is(pir::Opcode::LdVar) || i->op == pir::Opcode::BindingIs ||
                                            i->op == pir::Opcode::IsPlainLocal ||
                                            i->is(pir::Opcode::SubassignVar)
                                        ? i->args[0]
                                    : i->op == pir::Opcode::StVar ? i->args[1]
                                                                  : nullptr;
            if (env && env == ownEnv && !cellSlot.count(i->symbol)) cellSlot[i->symbol] = nslots++;
        }
    // the held values' copies (rirn_hold): as many slots as the most values
    // live across one instruction that may run R code
    size_t maxHeld = 0;
    for (pir::BB* b : order)
        for (pir::Instruction* i : b->insns)
            if (holdsAround(i) || holdsLazily(i)) {
                std::set<pir::Instruction*> live = liveBefore(i->bb, position(i) + 1);
                live.erase(i);
                maxHeld = std::max(maxHeld, live.size());
            }
    heldCopies = nslots;
    nslots += int(maxHeld);
    B.SetInsertPoint(prologue);
    prologueBlock = prologue;
    dirty = B.CreateAlloca(llvm::Type::getInt8Ty(C));
    B.CreateStore(llvm::ConstantInt::get(llvm::Type::getInt8Ty(C), 0), dirty);
    slots = call(HelperId::rirn_enter, {llvm::ConstantInt::get(i32T, nslots)});
    B.CreateBr(blocks[f.entry]);
    for (pir::BB* b : order) {
        B.SetInsertPoint(blocks[b]);
        for (pir::Instruction* i : b->insns) {
            current = i;
            // the values live across an instruction that may run R code
            // count as referenced meanwhile (inplace.h's holdSlots)
            // (the objects counted are copied into the frame's held-copy
            // slots: lowering i may box a raw operand into its slot, and
            // the release must count down what the hold counted up)
            // (a Force holds only on its path that forces a promise:
            // inlineForce; its fast paths run no R code)
            int nheld = 0;
            if (holdsAround(i) && !virtualSeq(i)) {
                const int* held = liveSlots(i, i, nullptr, &nheld);
                if (forcesInline(i) || rangeSeqOf.count(i)) {
                    // (held on the path that runs R code only)
                    forceHeld = held;
                    forceNHeld = nheld;
                    nheld = 0;
                } else if (nheld) {
                    emitHold(held, nheld);
                }
            }
            problem = lower(i);
            forceHeld = nullptr;
            forceNHeld = 0;
            if (!problem.empty()) return problem;
            if (nheld && !B.GetInsertBlock()->getTerminator()) emitRelease(nheld);
            // (those whose helpers set the flag when R code may have run)
            if (writesEnv(i) && !i->is(pir::Opcode::Force) &&
                i->op != pir::Opcode::ForceOrMissing && !i->is(pir::Opcode::SubassignVar) &&
                !i->is(pir::Opcode::LdFun) && i->op != pir::Opcode::CallBuiltin &&
                !rangeSeqOf.count(i) && !virtualSeq(i) && !pir::isBinaryOperator(i->op) &&
                !i->isTerminator())
                setDirty(1);
        }
    }
    for (auto& p : pendingPhis) {
        pir::Instruction* i = p.first;
        llvm::PHINode* phi = p.second;
        for (size_t k = 0; k < i->args.size(); k++) {
            // (the value at the end of the predecessor)
            current = i->phiFrom[k]->insns.back();
            phi->addIncoming(value(i->args[k]), edgeFrom.at({i->phiFrom[k], i->bb}));
        }
    }
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyFunction(*fn, &os)) return "LLVM verifier: " + os.str();
    return "";
}

llvm::Value* Lowering::entryAlloca(llvm::Type* t) {
    llvm::IRBuilder<> at(prologueBlock, prologueBlock->begin());
    return at.CreateAlloca(t);
}

llvm::Value* Lowering::belowMemoArg() {
    if (belowMemo) return belowMemo;
    llvm::IRBuilder<> at(prologueBlock, prologueBlock->begin());
    llvm::AllocaInst* m =
        at.CreateAlloca(llvm::ArrayType::get(llvm::Type::getInt8Ty(C), sizeof(BelowMemo)));
    m->setAlignment(llvm::Align(alignof(BelowMemo)));
    // (not ready: cleared at its first use)
    llvm::Value* ready = at.CreateGEP(llvm::Type::getInt8Ty(C), at.CreateBitCast(m, sexpT),
                                      llvm::ConstantInt::get(i64T, offsetof(BelowMemo, ready)));
    at.CreateStore(llvm::ConstantInt::get(llvm::Type::getInt8Ty(C), 0), ready);
    belowMemo = at.CreateBitCast(m, sexpT);
    return belowMemo;
}

llvm::BasicBlock* Lowering::lookWhenDirty() {
    llvm::BasicBlock* look = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    llvm::Value* d = B.CreateLoad(llvm::Type::getInt8Ty(C), dirty);
    B.CreateCondBr(B.CreateICmpEQ(d, llvm::ConstantInt::get(d->getType(), 0)), join, look);
    B.SetInsertPoint(look);
    return join;
}

void Lowering::setDirty(int v) {
    B.CreateStore(llvm::ConstantInt::get(llvm::Type::getInt8Ty(C), v), dirty);
}

bool Lowering::holdsAround(pir::Instruction* i) {
    return !i->isTerminator() && i->op != pir::Opcode::Phi && i->mayCallR();
}

bool Lowering::forcesInline(pir::Instruction* i) {
    return i->is(pir::Opcode::Force) ||
           (i->op == pir::Opcode::ForceOrMissing && i->args[0]->op == pir::Opcode::LdArg);
}

bool Lowering::holdsLazily(pir::Instruction* i) {
    return i->is(pir::Opcode::LdVar) || i->op == pir::Opcode::StVar ||
           i->op == pir::Opcode::ForceOrMissing;
}

void Lowering::emitHold(const int* held, int n) {
    call(HelperId::rirn_hold, {slots, constant(held), i32(n), i32(heldCopies)});
}

void Lowering::emitRelease(int n) {
    call(HelperId::rirn_release, {slots, i32(n), i32(heldCopies)});
}

llvm::Value* Lowering::holdList(pir::Instruction* i) {
    // (none when the instruction holds around itself: the copies are taken)
    int n = 0;
    const int* live = holdsAround(i) ? nullptr : liveSlots(i, i, nullptr, &n);
    auto list = std::make_unique<int[]>(n + 2);
    list[0] = n;
    list[1] = heldCopies;
    for (int k = 0; k < n; k++) list[k + 2] = live[k];
    keptSlotLists().push_back(std::move(list));
    return constant(keptSlotLists().back().get());
}

bool Lowering::writesEnv(pir::Instruction* i) {
    if (!(i->writes() & pir::OwnEnv)) return false;
    return !((i->op == pir::Opcode::StVar || i->op == pir::Opcode::StArgDefault) &&
             i->args[1] == ownEnv);
}

llvm::Value* Lowering::slotAddress(int k) {
    return B.CreateGEP(llvm::Type::getInt8Ty(C), slots,
                       llvm::ConstantInt::get(i64T, int64_t(k * kSlotSize + kSlotValue)));
}

size_t Lowering::useCount(pir::Instruction* v) {
    auto it = users.find(v);
    return it == users.end() ? 0 : it->second.size();
}

bool Lowering::reaches(pir::BB* from, pir::BB* to) {
    auto it = reachable.find(from);
    if (it == reachable.end()) {
        std::set<pir::BB*> seen;
        std::vector<pir::BB*> work(from->succ.begin(), from->succ.end());
        while (!work.empty()) {
            pir::BB* b = work.back();
            work.pop_back();
            if (!seen.insert(b).second) continue;
            for (pir::BB* s : b->succ) work.push_back(s);
        }
        it = reachable.emplace(from, std::move(seen)).first;
    }
    return it->second.count(to) != 0;
}

bool Lowering::usedAgain(pir::Instruction* v, pir::Instruction* at) {
    // Every user's result is taken to may be v itself (a CastType, a Phi, a
    // Force of a value, a call or a method returning its argument), so the
    // users of users count too; and v may be what its own operands are (a
    // CastType, a Force, a Phi), whose users count as well. `at` using v
    // twice does not: GNU R computes `x + x` into x when nothing refers to x.
    const size_t atPos = position(at);
    const bool atInLoop = reaches(at->bb, at->bb);
    std::set<pir::Instruction*> seen;
    std::vector<pir::Instruction*> work;
    std::vector<pir::Instruction*> back = {v};
    while (!back.empty()) {
        pir::Instruction* x = back.back();
        back.pop_back();
        if (!seen.insert(x).second) continue;
        work.push_back(x);
        if (x->op == pir::Opcode::CastType || x->is(pir::Opcode::Force) ||
            x->op == pir::Opcode::Phi)
            for (pir::Instruction* a : x->args) back.push_back(a);
    }
    // in a loop, `at` runs again on the same value unless each round
    // computes it anew (v and what it may be)
    if (atInLoop)
        for (pir::Instruction* x : work)
            if (x->bb != at->bb || position(x) > atPos) return true;
    while (!work.empty()) {
        pir::Instruction* x = work.back();
        work.pop_back();
        auto it = users.find(x);
        if (it == users.end()) continue;
        for (pir::Instruction* u : it->second) {
            // (tests of identity read no contents and make no alias)
            if (u == at || u->op == pir::Opcode::BindingIs || u->op == pir::Opcode::Identical ||
                u->op == pir::Opcode::IsCallee)
                continue;
            bool after = u->bb != at->bb ? reaches(at->bb, u->bb) : position(u) > atPos;
            if (after) return true;
            // (u ran before `at`, or never runs with it)
            if (!after && seen.insert(u).second) work.push_back(u);
        }
    }
    return false;
}

std::vector<std::unique_ptr<unsigned char[]>>& Lowering::keptKinds() {
    static std::vector<std::unique_ptr<unsigned char[]>> all;
    return all;
}

llvm::Value* Lowering::constant(const void* p) {
    return llvm::ConstantExpr::getIntToPtr(
        llvm::ConstantInt::get(i64T, reinterpret_cast<uint64_t>(p)), sexpT);
}

namespace {

// The LLVM type native code passes a helper's C++ parameter or result as:
// every pointer as sexpT (an opaque pointer), int as i32, and so on.
template <typename T>
llvm::Type* llvmTypeOf(llvm::LLVMContext& C, llvm::Type* sexpT) {
    if constexpr (std::is_void_v<T>)
        return llvm::Type::getVoidTy(C);
    else if constexpr (std::is_pointer_v<T>)
        return sexpT;
    else if constexpr (std::is_same_v<T, double>)
        return llvm::Type::getDoubleTy(C);
    else if constexpr (std::is_integral_v<T> && sizeof(T) == 4)
        return llvm::Type::getInt32Ty(C);
    else if constexpr (std::is_integral_v<T> && sizeof(T) == 8)
        return llvm::Type::getInt64Ty(C);
    else
        static_assert(sizeof(T) == 0, "a helper type native code does not pass");
}

template <typename R, typename... A>
llvm::FunctionType* signatureOf(R (*)(A...), llvm::LLVMContext& C, llvm::Type* sexpT) {
    return llvm::FunctionType::get(llvmTypeOf<R>(C, sexpT), {llvmTypeOf<A>(C, sexpT)...}, false);
}

// Each helper's signature, from its prototype (helpers.h), in the table's order.
using SignatureFn = llvm::FunctionType* (*)(llvm::LLVMContext&, llvm::Type*);
const SignatureFn kSignatures[] = {
#define RIRN_SIGNATURE(name, effects) \
    [](llvm::LLVMContext& C, llvm::Type* sexpT) { return signatureOf(&name, C, sexpT); },
    RIRN_HELPERS(RIRN_SIGNATURE)
#undef RIRN_SIGNATURE
};

}  // namespace

llvm::Value* Lowering::call(HelperId id, std::vector<llvm::Value*> args) {
    const Helper& h = helpers()[size_t(id)];
    llvm::FunctionType* ft = kSignatures[size_t(id)](C, sexpT);
    llvm::Value* callee = B.CreateIntToPtr(
        llvm::ConstantInt::get(i64T, reinterpret_cast<uint64_t>(h.address)), ft->getPointerTo());
    llvm::CallInst* c = B.CreateCall(ft, callee, args);
    // (RIR_DEBUG=native: the IR printed names each helper's result)
    if (debugFlags.native && !ft->getReturnType()->isVoidTy()) c->setName(h.name);
    return c;
}

llvm::Value* Lowering::mergeAt(llvm::BasicBlock* join, llvm::Value* a, llvm::BasicBlock* aEnd,
                               llvm::Value* b) {
    llvm::BasicBlock* bEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(join);
    llvm::PHINode* phi = B.CreatePHI(a->getType(), 2);
    phi->addIncoming(a, aEnd);
    phi->addIncoming(b, bEnd);
    return phi;
}

llvm::Value* Lowering::value(pir::Instruction* i) {
    auto it = vals.find(i);
    if (it != vals.end()) return it->second;
    auto boxes = storeBoxes.find(i);
    if (boxes == storeBoxes.end() || !current) return nullptr;
    for (auto& sb : boxes->second) {
        pir::Instruction* st = sb.first;
        bool before = st->bb != current->bb ? dom->dominates(st->bb, current->bb)
                                            : position(st) < position(current);
        if (before) return sb.second;
    }
    return nullptr;
}

void Lowering::define(pir::Instruction* i, llvm::Value* v) {
    vals[i] = v;
    if (counted.count(i)) call(HelperId::rirn_count, {v});
    auto s = slotOf.find(i);
    if (s == slotOf.end()) return;
    llvm::Value* addr =
        B.CreateGEP(llvm::Type::getInt8Ty(C), slots,
                    llvm::ConstantInt::get(i64T, int64_t(s->second * kSlotSize + kSlotValue)));
    B.CreateStore(v, B.CreateBitCast(addr, sexpT->getPointerTo()));
}

void Lowering::leave() {
    auto* v = llvm::Type::getVoidTy(C);
    call(HelperId::rirn_leave, {slots});
}

void Lowering::jumpTo(pir::BB* from, pir::BB* to) {
    if (rpoIndex.at(to) <= rpoIndex.at(from)) {
        auto* v = llvm::Type::getVoidTy(C);
        call(HelperId::rirn_backedge, {});
    }
    edgeFrom[{from, to}] = B.GetInsertBlock();
    B.CreateBr(blocks.at(to));
}

void Lowering::setVisible() {
    B.CreateStore(i32(1), B.CreateBitCast(constant(&R_Visible), i32T->getPointerTo()));
}

std::string Lowering::lower(pir::Instruction* i) {
    using pir::Opcode;
    auto a = [&](size_t k) { return value(i->args[k]); };
    if (pir::isBinaryOperator(i->op)) {
        if (!lowerScalar(i)) define(i, genericBinopValue(i));
        return "";
    }
    if (pir::isUnaryOperator(i->op)) {
        int keep = usedAgain(i->args[0], i) ? 1 : 0;
        int n = 0;
        const int* live = liveSlots(i, i, nullptr, &n);
        define(i,
               call(HelperId::rirn_unop, {i32(int(pir::arithOf(i->op))), a(0), sexp(i->call), rho(),
                                          trampArg, i32(keep), slots, constant(live), i32(n)}));
        return "";
    }
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
            if (f.continuation) {
                // (a binding of the frame the continuation goes on in)
                if (size_t(i->arg()) >= f.bindings.size()) return "a binding beyond the frame's";
                formal = f.bindings[size_t(i->arg())];
            } else {
                SEXP fl = t->formals();
                for (int k = 0; k < i->arg() && fl != R_NilValue; k++) fl = CDR(fl);
                if (fl == R_NilValue) return "an argument beyond the formals";
                formal = TAG(fl);
            }
            define(i, call(HelperId::rirn_ldarg, {envArg, sexp(formal)}));
            return "";
        }
        case Opcode::LdInput:
            if (!inputsArg) return "an entry value outside a continuation";
            define(i,
                   B.CreateLoad(sexpT, B.CreateConstGEP1_32(sexpT, inputsArg, unsigned(i->arg()))));
            return "";
        case Opcode::LdFunctionEnv:
            define(i, call(HelperId::rirn_enclos, {envArg}));
            return "";
        case Opcode::MkEnv: {
            if (i == ownEnv) {
                vals[i] = envArg;
                return "";
            }
            // an inlined call's environment (its arguments, then the parent)
            int n = int(i->args.size()) - 1;
            auto* at = llvm::ArrayType::get(sexpT, std::max(n, 1));
            llvm::Value* arr = entryAlloca(at);
            for (int k = 0; k < n; k++)
                B.CreateStore(a(k), B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
            define(i, call(HelperId::rirn_inlined_env,
                           {sexp(i->constant), B.CreateBitCast(arr, sexpT), i32(n)}));
            return "";
        }
        case Opcode::PushContext:
            return lowerPushContext(i);
        case Opcode::PopContext:
            define(i, call(HelperId::rirn_pop_context, {contexts.at(i->args[1]), a(0), a(1)}));
            return "";
        case Opcode::LdVar:
        case Opcode::LdVarBound:
            if (siteArgs.count(i)) return "";     // `...`: its call site expands it
            if (missokLoads.count(i)) return "";  // its ForceOrMissing loads it
            if (i->args[0] == ownEnv) {
                define(i, cachedLoad(i));
                return "";
            }
            define(i, call(HelperId::rirn_ldvar,
                           {sexp(i->symbol), a(0), trampArg,
                            i->call ? sexp(i->call) : constant(nullptr), slots, holdList(i)}));
            return "";
        case Opcode::StVar:
            if (i->args[1] == ownEnv && rawVals.count(i->args[0])) {
                lowerRawStore(i, i->args[0]);
                return "";
            }
            if (i->args[1] == ownEnv) {
                llvm::BasicBlock* join = nullptr;
                if (loopVarReuse.count(i->args[0])) {
                    // a loop variable whose box the element was written
                    // into: bound to it already (an ordinary binding's
                    // value), nothing to do but what a store clears
                    llvm::Value* cellP =
                        B.CreateBitCast(slotAddress(cellSlot.at(i->symbol)), sexpT->getPointerTo());
                    llvm::BasicBlock* same = llvm::BasicBlock::Create(C, "", fn);
                    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
                    join = llvm::BasicBlock::Create(C, "", fn);
                    llvm::Value* cell = branchOnCellHolding(cellP, a(0), same, slow);
                    B.SetInsertPoint(same);
                    clearMissing(cell);
                    B.CreateBr(join);
                    B.SetInsertPoint(slow);
                }
                call(HelperId::rirn_stvar_cell,
                     {sexp(i->symbol), a(0), a(1), slotAddress(cellSlot.at(i->symbol)),
                      B.CreateBitCast(dirty, sexpT), slots, holdList(i)});
                if (join) {
                    B.CreateBr(join);
                    B.SetInsertPoint(join);
                }
                return "";
            }
            [[fallthrough]];
        case Opcode::StArgDefault: {
            if (i->op == Opcode::StVar)
                call(HelperId::rirn_stvar, {sexp(i->symbol), a(0), a(1), slots, holdList(i)});
            else
                call(HelperId::rirn_starg_default, {sexp(i->symbol), a(0), a(1)});
            return "";
        }
        case Opcode::MkArg: {
            if (siteArgs.count(i)) return "";  // made by its call site
            // the promise code: a pool entry (a symbol, or RIR promise
            // code), else (a default that is not a call) its expression
            SEXP c = i->promise() < 0 ? i->constant
                     : i->code        ? i->code->poolAt(i->promise())
                                      : t->baseline->poolAt(i->promise());
            Code* pc = Code::unpack(c);
            define(i, call(HelperId::rirn_mkarg, {sexp(pc ? pc->trampoline : c), a(1)}));
            return "";
        }
        case Opcode::Force:
        case Opcode::ForceForced: {
            pir::Instruction* from = i->args[0];
            SEXP sym = !from->is(Opcode::LdVar) ? nullptr : from->call ? from->call : from->symbol;
            define(i, inlineForce(a(0), sym, writesEnv(i)));
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
                llvm::Value* x = loadScalar(a(0), Rep::Int);
                llvm::BasicBlock* from = B.GetInsertBlock();
                llvm::BasicBlock* na = llvm::BasicBlock::Create(C, "", fn);
                llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
                B.CreateCondBr(B.CreateICmpEQ(x, i32(NA_LOGICAL)), na, join);
                B.SetInsertPoint(na);
                llvm::Value* r = call(HelperId::rirn_astest, {a(0), sexp(i->call)});
                llvm::Value* phi = mergeAt(join, x, from, r);
                vals[i] = B.CreateICmpNE(phi, i32(0));
                return "";
            }
            llvm::Value* r = call(HelperId::rirn_astest, {a(0), sexp(i->call)});
            vals[i] = B.CreateICmpNE(r, i32(0));
            return "";
        }
        case Opcode::IsType: {
            auto raw = rawVals.find(i->args[0]);
            if (raw != rawVals.end()) {
                // (a plain double or int by construction, or an element
                // read inline with its flag: only NA to test, which an
                // int result never is: it cannot overflow)
                llvm::Value* t =
                    i->carriedType.may(pir::Flag::NA) || raw->second->getType()->isIntegerTy()
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
            llvm::Value* r = call(HelperId::rirn_istype,
                                  {a(0), i32(i->carriedType.kinds()), i32(i->carriedType.flags())});
            vals[i] = B.CreateICmpNE(r, i32(0));
            return "";
        }
        case Opcode::SubassignVar:
        case Opcode::SubassignVarLocal: {
            if (i->args[0] != ownEnv) return "a subassign in another environment";
            for (size_t k = 2; k < i->args.size(); k++)
                if (!value(i->args[k])) return "an element store's index kept unboxed";
            // (any vector the variable may hold: every live boxed value but
            // the instruction's previous result, which is x's value)
            int n;
            const int* live = liveSlots(i, i, nullptr, &n);
            bool two = i->args.size() == 4;
            // the value stored unboxed: a double computed so, or a plain
            // logical, int or double scalar read from its box
            pir::Instruction* v = i->args[1];
            auto raw = rawVals.find(v);
            llvm::Value* stored = nullptr;
            unsigned type = REALSXP;
            if (raw != rawVals.end() && raw->second->getType()->isDoubleTy()) {
                stored = raw->second;
            } else if (value(v) && v->type.isSimpleScalar()) {
                int kinds = v->type.kinds();
                type = kinds == int(pir::Kind::Real)  ? REALSXP
                       : kinds == int(pir::Kind::Int) ? INTSXP
                       : kinds == int(pir::Kind::Lgl) ? LGLSXP
                                                      : 0;
                if (type) stored = loadScalar(value(v), type == REALSXP ? Rep::Double : Rep::Int);
            }
            if (stored && i->args[2] != v && (!two || i->args[3] != v)) {
                llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
                llvm::BasicBlock* done = llvm::BasicBlock::Create(C, "", fn);
                llvm::Value* x = inlineElementStore(i, stored, type, live, n, slow);
                llvm::BasicBlock* fastEnd = B.GetInsertBlock();
                B.CreateBr(done);
                B.SetInsertPoint(slow);
                llvm::Value* r =
                    value(v) ? call(HelperId::rirn_subassign,
                                    {i32(i->rirKind()), sexp(i->symbol), envArg, value(v), a(2),
                                     two ? a(3) : constant(nullptr), sexp(i->constant),
                                     sexp(i->call), trampArg, slotAddress(cellSlot.at(i->symbol)),
                                     slots, constant(live), i32(n), B.CreateBitCast(dirty, sexpT)})
                             : call(HelperId::rirn_subassign_real,
                                    {i32(i->rirKind()), sexp(i->symbol), envArg, stored, a(2),
                                     two ? a(3) : constant(nullptr), sexp(i->constant),
                                     sexp(i->call), trampArg, slotAddress(cellSlot.at(i->symbol)),
                                     slots, constant(live), i32(n), B.CreateBitCast(dirty, sexpT)});
                llvm::BasicBlock* slowEnd = B.GetInsertBlock();
                B.CreateBr(done);
                B.SetInsertPoint(done);
                llvm::PHINode* phi = B.CreatePHI(sexpT, 2);
                phi->addIncoming(x, fastEnd);
                phi->addIncoming(r, slowEnd);
                define(i, phi);
                return "";
            }
            define(i, call(HelperId::rirn_subassign,
                           {i32(i->rirKind()), sexp(i->symbol), envArg, boxedValue(i->args[1]),
                            a(2), two ? a(3) : constant(nullptr), sexp(i->constant), sexp(i->call),
                            trampArg, slotAddress(cellSlot.at(i->symbol)), slots, constant(live),
                            i32(n), B.CreateBitCast(dirty, sexpT)}));
            return "";
        }
        case Opcode::IsPlainLocal:
            if (i->args[0] != ownEnv) return "a plain-variable test of another environment";
            vals[i] =
                B.CreateICmpNE(call(HelperId::rirn_plain_local,
                                    {sexp(i->symbol), envArg, slotAddress(cellSlot.at(i->symbol))}),
                               i32(0));
            return "";
        case Opcode::NoActiveBindings: {
            if (i->args[0] != ownEnv) return "an active-binding test of another environment";
            // only R code that ran (the dirty flag) can have made one
            llvm::BasicBlock* from = B.GetInsertBlock();
            llvm::BasicBlock* join = lookWhenDirty();
            llvm::Value* r = call(HelperId::rirn_no_active_bindings, {envArg});
            llvm::Value* none = B.CreateICmpNE(r, i32(0));
            llvm::BasicBlock* lookEnd = B.GetInsertBlock();
            B.CreateBr(join);
            B.SetInsertPoint(join);
            llvm::PHINode* phi = B.CreatePHI(i1T, 2);
            phi->addIncoming(llvm::ConstantInt::getTrue(C), from);
            phi->addIncoming(none, lookEnd);
            vals[i] = phi;
            return "";
        }
        case Opcode::BindingIs: {
            if (i->args[0] != ownEnv) return "a binding test of another environment";
            if (!rawVals.count(i->args[1]) && !value(i->args[1]))
                return "a binding test of a value not made";
            llvm::Value* cache = slotAddress(cellSlot.at(i->symbol));
            auto raw = rawVals.find(i->args[1]);
            llvm::BasicBlock* from = B.GetInsertBlock();
            llvm::BasicBlock* join = lookWhenDirty();
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
            HelperId isRaw = raw != rawVals.end() && raw->second->getType()->isIntegerTy()
                                 ? HelperId::rirn_binding_is_int
                                 : HelperId::rirn_binding_is_real;
            llvm::Value* r =
                raw != rawVals.end()
                    ? call(isRaw, {sexp(i->symbol), envArg, raw->second, cache})
                    : call(HelperId::rirn_binding_is, {sexp(i->symbol), envArg, a(1), cache});
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
        case Opcode::IsCallee: {
            // (the closure's environment now: inlined code was made with it)
            llvm::Value* r = call(HelperId::rirn_is_callee,
                                  {a(0), sexp(i->constant), sexp(CLOENV(i->constant))});
            vals[i] = B.CreateICmpNE(r, i32(0));
            return "";
        }
        case Opcode::IsForced: {
            if (rawVals.count(i->args[0])) {
                vals[i] = llvm::ConstantInt::getTrue(C);
                return "";
            }
            // a promise with its value (or of a constant: lazyValue), or
            // a value other than the missing marker
            llvm::Value* v = a(0);
            llvm::BasicBlock* from = B.GetInsertBlock();
            llvm::BasicBlock* prom = llvm::BasicBlock::Create(C, "", fn);
            llvm::BasicBlock* unevaluated = llvm::BasicBlock::Create(C, "", fn);
            llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
            llvm::Value* notMissing = B.CreateICmpNE(v, sexp(R_MissingArg));
            B.CreateCondBr(headerByteIs(v, kHeaderTypeMask, PROMSXP), prom, join);
            B.SetInsertPoint(prom);
            B.CreateCondBr(B.CreateICmpNE(fieldAt(v, kCarOffset, sexpT), sexp(R_UnboundValue)),
                           join, unevaluated);
            B.SetInsertPoint(unevaluated);
            llvm::Value* harmless = B.CreateICmpEQ(call(HelperId::rirn_lazy_value, {v}), i32(0));
            B.CreateBr(join);
            B.SetInsertPoint(join);
            llvm::PHINode* phi = B.CreatePHI(llvm::Type::getInt1Ty(C), 3);
            phi->addIncoming(notMissing, from);
            phi->addIncoming(llvm::ConstantInt::getTrue(C), prom);
            phi->addIncoming(harmless, unevaluated);
            vals[i] = phi;
            return "";
        }
        case Opcode::IsKind: {
            // (the type bits of the header: is.integer(x) and kin)
            const pir::KindTest* k = pir::kindTestOf(i->constant);
            if (!k) return "a kind test of an unknown builtin";
            llvm::Value* x = a(0);
            llvm::Value* t = llvm::ConstantInt::getFalse(C);
            for (int type : k->types)
                if (type >= 0) t = B.CreateOr(t, headerByteIs(x, kHeaderTypeMask, unsigned(type)));
            if (k->notFactor) {
                // (an object of the type: the helper asks its class)
                llvm::Value* object = B.CreateNot(headerByteIs(x, kHeaderObjectBit, 0));
                llvm::BasicBlock* from = B.GetInsertBlock();
                llvm::BasicBlock* ask = llvm::BasicBlock::Create(C, "", fn);
                llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
                B.CreateCondBr(B.CreateAnd(t, object), ask, join);
                B.SetInsertPoint(ask);
                llvm::Value* r = call(HelperId::rirn_kind_test, {sexp(i->constant), x});
                t = mergeAt(join, t, from, B.CreateICmpNE(r, i32(0)));
            }
            rawTests[i] = t;
            if (!onlyTests(i)) define(i, B.CreateSelect(t, sexp(R_TrueValue), sexp(R_FalseValue)));
            return "";
        }
        case Opcode::Identical:
            if (guardLoads.count(i->args[0])) {
                // a function lookup only compared with the function the
                // bytecode inlined (its guard): the interpreter's test
                pir::Instruction* ld = i->args[0];
                if (ld->op == Opcode::LdFunGuard) {
                    llvm::Value* r =
                        call(HelperId::rirn_still_names_without_r,
                             {sexp(ld->symbol), sexp(i->args[1]->constant), value(ld->args[0])});
                    vals[i] = B.CreateICmpNE(r, i32(0));
                    return "";
                }
                llvm::Value* r =
                    call(HelperId::rirn_still_names,
                         {sexp(ld->symbol), sexp(i->args[1]->constant), value(ld->args[0]),
                          sexp(ld->call), trampArg, B.CreateBitCast(dirty, sexpT)});
                vals[i] = B.CreateICmpNE(r, i32(0));
                return "";
            }
            vals[i] = B.CreateICmpEQ(a(0), a(1));
            return "";
        case Opcode::CastType:
            // (an unboxed double's box, when a store dominating here made it)
            if (rawVals.count(i->args[0])) rawVals[i] = rawVals.at(i->args[0]);
            if (a(0)) vals[i] = a(0);
            return "";
        case Opcode::EvalAst:
            define(i, call(HelperId::rirn_eval, {sexp(i->constant), a(0)}));
            return "";
        case Opcode::Call:
        case Opcode::StaticCall: {
            if (!siteCalls.count(i)) return "a call whose arguments are not its call site's";
            // promises whose value the function computed (eagerCall)
            int n = int(i->args.size()) - 2;
            bool anyEager = false;
            auto eagerOf = [&](int k) -> pir::Instruction* {
                pir::Instruction* m = i->args[k + 2];
                if (m->op != pir::Opcode::MkArg) return nullptr;
                pir::Instruction* v = m->args[0];
                return v->op == pir::Opcode::LdConst && v->constant == R_MissingArg ? nullptr : v;
            };
            for (int k = 0; k < n; k++) anyEager = anyEager || eagerOf(k);
            llvm::Value* eagerArr = constant(nullptr);
            if (anyEager) {
                auto* at = llvm::ArrayType::get(sexpT, n);
                llvm::Value* arr = entryAlloca(at);
                for (int k = 0; k < n; k++) {
                    pir::Instruction* v = eagerOf(k);
                    B.CreateStore(v ? boxedValue(v) : constant(nullptr),
                                  B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
                }
                eagerArr = B.CreateBitCast(arr, sexpT);
            }
            if (i->op == Opcode::StaticCall) {
                define(i, call(HelperId::rirn_static_call,
                               {constant(i->code), i32(i->site()), a(1), rho(), trampArg, eagerArr,
                                llvm::ConstantInt::get(i64T, i->context)}));
                return "";
            }
            if (!anyEager) {
                define(i, call(HelperId::rirn_call_site,
                               {constant(i->code), i32(i->site()), a(1), rho(), trampArg}));
                return "";
            }
            define(i, call(HelperId::rirn_call_site_eager,
                           {constant(i->code), i32(i->site()), a(1), rho(), trampArg, eagerArr}));
            return "";
        }
        case Opcode::CallBuiltin: {
            if (inlineMath(i)) return "";
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
            define(i, call(HelperId::rirn_call_builtin,
                           {constant(i->code), i32(i->site()), sexp(i->constant), rho(), trampArg,
                            args, i32(n), i32(mask), B.CreateBitCast(dirty, sexpT)}));
            return "";
        }
        case Opcode::Dollar:
        case Opcode::DollarPlain:
            if (memberVals.count(i)) {
                // (the result of x$name is visible)
                setVisible();
                define(i, memberVals.at(i));
                return "";
            }
            if (i->op == Opcode::DollarPlain) {
                define(i, call(HelperId::rirn_dollar_plain,
                               {a(0), sexp(i->constant), sexp(i->symbol)}));
                return "";
            }
            define(i, call(HelperId::rirn_dollar, {a(0), sexp(i->symbol), sexp(i->call), rho()}));
            return "";
        case Opcode::IsPlainMember: {
            // x$name right after the Assume of this test: its value is the
            // member this looks up (nothing runs in between)
            auto& in = i->bb->insns;
            auto at = std::find(in.begin(), in.end(), i);
            pir::Instruction* d = nullptr;
            if (at + 2 < in.end() && at[1]->op == Opcode::Assume && at[1]->args[0] == i &&
                at[2]->op == Opcode::DollarPlain && at[2]->args[0] == i->args[0] &&
                at[2]->symbol == i->symbol && at[2]->constant == i->constant)
                d = at[2];
            if (d) {
                llvm::Value* v =
                    call(HelperId::rirn_plain_member, {a(0), sexp(i->constant), sexp(i->symbol)});
                memberVals[d] = v;
                vals[i] = B.CreateICmpNE(v, constant(nullptr));
                return "";
            }
            vals[i] = B.CreateICmpNE(
                call(HelperId::rirn_is_plain_member, {a(0), sexp(i->constant), sexp(i->symbol)}),
                i32(0));
            return "";
        }
        case Opcode::MkCls:
            define(i, call(HelperId::rirn_mkcls, {sexp(i->constant), a(0)}));
            return "";
        case Opcode::ForceOrMissing:
            if (i->args[0]->op == Opcode::LdArg) {  // (see findMissokLoads)
                define(i, inlineForce(a(0), nullptr, writesEnv(i)));
                return "";
            }
            define(i, call(HelperId::rirn_ldvar_missok,
                           {sexp(i->args[0]->symbol), value(i->args[0]->args[0]), trampArg,
                            B.CreateBitCast(dirty, sexpT), slots, holdList(i)}));
            return "";
        case Opcode::LglIs: {
            // (the operand is a plain logical scalar: IsType checked it)
            llvm::Value* p =
                B.CreateBitCast(B.CreateGEP(llvm::Type::getInt8Ty(C), a(0),
                                            llvm::ConstantInt::get(i64T, kVectorDataOffset)),
                                i32T->getPointerTo());
            vals[i] = B.CreateICmpEQ(B.CreateLoad(i32T, p), i32(i->lglValue()));
            return "";
        }
        case Opcode::NoOverflow: {
            // (plain integer or logical scalars: IsType checked them; an
            // NA operand, which the Assumes rule out, counts as not fitting)
            llvm::Value* x = scalarOperand(i->args[0], Rep::Int);
            llvm::Value* y = scalarOperand(i->args[1], Rep::Int);
            llvm::Intrinsic::ID id = i->overflowOp() == 0   ? llvm::Intrinsic::sadd_with_overflow
                                     : i->overflowOp() == 1 ? llvm::Intrinsic::ssub_with_overflow
                                                            : llvm::Intrinsic::smul_with_overflow;
            llvm::Value* ov = B.CreateBinaryIntrinsic(id, x, y);
            llvm::Value* na = i32(NA_INTEGER);
            llvm::Value* bad =
                B.CreateOr(B.CreateOr(B.CreateExtractValue(ov, 1),
                                      B.CreateICmpEQ(B.CreateExtractValue(ov, 0), na)),
                           B.CreateOr(B.CreateICmpEQ(x, na), B.CreateICmpEQ(y, na)));
            vals[i] = B.CreateNot(bad);
            return "";
        }
        case Opcode::LglCombine:
            if (plainLgl(i->args[1])) {
                // both plain logical scalars: lglCombine inline
                llvm::Value* x1 = loadScalar(a(0), Rep::Int);
                auto raw = rawTests.find(i->args[1]);
                llvm::Value* x2 = raw != rawTests.end() ? B.CreateZExt(raw->second, i32T)
                                                        : loadScalar(a(1), Rep::Int);
                llvm::Value* decides = B.CreateICmpEQ(x2, i32(i->rirKind() == 1 ? FALSE : TRUE));
                llvm::Value* r = B.CreateSelect(
                    B.CreateOr(B.CreateICmpNE(x1, i32(NA_LOGICAL)), decides), x2, i32(NA_LOGICAL));
                llvm::Value* box =
                    B.CreateSelect(B.CreateICmpEQ(r, i32(NA_LOGICAL)), sexp(R_LogicalNAValue),
                                   B.CreateSelect(B.CreateICmpNE(r, i32(0)), sexp(R_TrueValue),
                                                  sexp(R_FalseValue)));
                setVisible();
                define(i, box);
                return "";
            }
            define(i, call(HelperId::rirn_lgl_combine,
                           {i32(i->rirKind()), a(0), a(1), sexp(i->constant), rho(), trampArg}));
            return "";
        case Opcode::LglSlow:
            define(i, call(HelperId::rirn_lgl_slow,
                           {i32(i->rirKind()), a(0), sexp(i->constant), a(1), trampArg}));
            return "";
        case Opcode::Extract1_1D:
        case Opcode::Extract2_1D:
        case Opcode::Extract1_2D:
        case Opcode::Extract2_2D:
        case Opcode::Extract1_ND:
        case Opcode::Extract2_ND: {
            if (!i->code) return "a subset without its call site";
            bool nd = i->op == Opcode::Extract1_ND || i->op == Opcode::Extract2_ND;
            if (!nd && inlineExtract(i)) return "";
            int kind = i->op == Opcode::Extract2_1D || i->op == Opcode::Extract2_2D ||
                               i->op == Opcode::Extract2_ND
                           ? 2
                           : 1;
            int n = int(i->args.size());
            auto* at = llvm::ArrayType::get(sexpT, n);
            llvm::Value* arr = entryAlloca(at);
            for (int k = 0; k < n; k++)
                B.CreateStore(a(k), B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
            define(i, call(HelperId::rirn_subset, {constant(i->code), i32(i->site()), i32(kind),
                                                   B.CreateBitCast(arr, sexpT), i32(n - 1), rho(),
                                                   trampArg, scratchOrNull(i)}));
            return "";
        }
        case Opcode::ExtractDispatch:
            define(i, call(HelperId::rirn_subset_obj,
                           {i32(i->rirKind()), a(0), sexp(i->constant), a(1), trampArg}));
            return "";
        case Opcode::LoopFits: {
            llvm::Value* b = i->args.size() > 1 ? a(1) : constant(nullptr);
            llvm::Value* r = call(HelperId::rirn_loop_fits, {a(0), b});
            vals[i] = B.CreateICmpNE(r, i32(0));
            return "";
        }
        case Opcode::ForSeq:
            if (virtualSeq(i)) {
                define(i, ranges.at(i).seq);
                return "";
            }
            define(i, call(HelperId::rirn_forseq, {a(0), sexp(i->constant)}));
            return "";
        case Opcode::ForLength:
            if (virtualSeq(i->args[0])) {
                const VirtualRange& r = ranges.at(i->args[0]);
                define(i, boxIfUnbuilt(i->args[0], r.len,
                                       [&] { return call(HelperId::rirn_forlength, {r.seq}); }));
                return "";
            }
            define(i, call(HelperId::rirn_forlength, {a(0)}));
            return "";
        case Opcode::ForElement: {
            auto reuse = loopVarReuse.find(i);
            if (reuse != loopVarReuse.end()) {
                define(i, reusedLoopElement(i, reuse->second));
            } else if (virtualSeq(i->args[0])) {
                llvm::Value* idx = scalarOperand(i->args[1], Rep::Int);
                define(i, boxIfUnbuilt(i->args[0], rangeElement(i->args[0], idx), [&] {
                           return call(HelperId::rirn_forelement, {a(0), a(1)});
                       }));
            } else
                define(i, call(HelperId::rirn_forelement, {a(0), a(1)}));
            return "";
        }
        case Opcode::ForEnd:
            call(HelperId::rirn_forend, {a(0)});
            return "";
        case Opcode::DollarAssignVar:
        case Opcode::DollarAssignVarPlain: {
            // (any list the variable may hold: every live boxed value)
            int n;
            const int* live = liveSlots(i, nullptr, nullptr, &n);
            llvm::Value* r =
                call(HelperId::rirn_dollar_assign,
                     {constant(i->code), i32(i->pc()), a(1), a(0), trampArg, slots, constant(live),
                      i32(n), i32(i->op == Opcode::DollarAssignVarPlain)});
            vals[i] = B.CreateICmpNE(r, i32(0));
            return "";
        }
        case Opcode::SubassignGeneral: {
            if (i->args[0] != ownEnv) return "a subassign in another environment";
            bool pushed = i->rirKind() & kPushedX;
            size_t first = pushed ? 3 : 2;
            size_t nidx = i->args.size() - first;
            // (the live boxed values after it: its operands are consumed)
            int n;
            const int* live = liveSlots(i, nullptr, nullptr, &n);
            call(HelperId::rirn_subassign_general,
                 {i32(i->rirKind()), sexp(i->symbol), a(0), boxedValue(i->args[1]),
                  pushed ? boxedValue(i->args[2]) : constant(nullptr), boxedValue(i->args[first]),
                  nidx == 2 ? boxedValue(i->args[first + 1]) : constant(nullptr), sexp(i->constant),
                  sexp(i->call), trampArg, slots, constant(live), i32(n), belowMemoArg()});
            return "";
        }
        case Opcode::ApplyInternal:
            define(i, call(HelperId::rirn_apply_internal,
                           {sexp(i->constant), sexp(i->call), a(0), trampArg}));
            return "";
        case Opcode::LoopBody: {
            if (i->args[0] != ownEnv) return "a loop body in another environment";
            llvm::Value* r = call(HelperId::rirn_loop_body, {sexp(i->constant), a(0), trampArg});
            vals[i] = B.CreateICmpNE(r, i32(0));
            return "";
        }
        case Opcode::LdDotsElement:
            define(i, call(HelperId::rirn_ldddvar, {sexp(i->symbol), a(0), trampArg}));
            return "";
        case Opcode::EnvSubassign: {
            if (i->args[0] != ownEnv) return "a subassign in another environment";
            int n;
            const int* live = liveSlots(i, nullptr, nullptr, &n);
            call(HelperId::rirn_env_subassign,
                 {i32(i->rirKind()), sexp(i->symbol), sexp(i->constant), sexp(i->call),
                  boxedValue(i->args[1]), boxedValue(i->args[2]), a(0), trampArg, slots,
                  constant(live), i32(n), belowMemoArg()});
            return "";
        }
        case Opcode::StartAssign:
        case Opcode::StartAssignSuper: {
            if (i->args[0] != ownEnv) return "a complex assignment in another environment";
            HelperId h = i->op == Opcode::StartAssign ? HelperId::rirn_start_assign
                                                      : HelperId::rirn_start_assign_super;
            define(i, call(h, {sexp(i->symbol), sexp(i->call), a(0), trampArg}));
            return "";
        }
        case Opcode::ForceTargetAst:
            if (i->args[0] != ownEnv) return "a complex assignment in another environment";
            call(HelperId::rirn_force_target_ast,
                 {sexp(i->symbol), sexp(i->call), i32(i->rirKind()), a(0), trampArg});
            return "";
        case Opcode::GetterCall:
            if (i->code != t->baseline || i->args[0] != ownEnv)
                return "a complex assignment of inlined code";
            define(i, call(HelperId::rirn_getter_call,
                           {constant(i->code), i32(i->site()), boxedValue(i->args[1]),
                            boxedValue(i->args[2]), a(0), trampArg}));
            return "";
        case Opcode::SetterCall: {
            if (i->code != t->baseline || i->args[0] != ownEnv)
                return "a complex assignment of inlined code";
            // (the live boxed values after it but its own result, whose
            // slot still holds the previous one's)
            int n;
            const int* live = liveSlots(i, i, nullptr, &n);
            define(i, call(HelperId::rirn_setter_call,
                           {constant(i->code), i32(i->site()), sexp(i->constant),
                            boxedValue(i->args[1]), boxedValue(i->args[2]), boxedValue(i->args[3]),
                            a(0), trampArg, slots, constant(live), i32(n), i32(i->ownFrame),
                            belowMemoArg()}));
            return "";
        }
        case Opcode::UseMethod:
            define(i, call(HelperId::rirn_use_method,
                           {sexp(i->constant), sexp(i->call),
                            i->args.size() > 1 ? a(1) : constant(nullptr), a(0), trampArg}));
            return "";
        case Opcode::StVarSuper:
            // (sets the dirty flag after it: it may run R code)
            call(HelperId::rirn_stvar_super, {sexp(i->symbol), a(0), a(1)});
            return "";
        case Opcode::SwitchIndex:
            define(i, call(HelperId::rirn_switch_index,
                           {constant(i->code), i32(i->pc()), a(0), trampArg}));
            return "";
        case Opcode::Colon:
            if (rangeSeqOf.count(i)) {
                lowerRange(i);
                return "";
            }
            define(i, call(HelperId::rirn_colon, {a(0), a(1), sexp(i->constant), rho(), trampArg}));
            return "";
        case Opcode::LdFun:
        case Opcode::LdFunGuard:
            if (guardLoads.count(i)) return "";  // its Identical tests it
            if (i->op == Opcode::LdFunGuard) return "a guard's function lookup used elsewhere";
            // (sets the dirty flag when it evaluates a promise)
            define(i, call(HelperId::rirn_ldfun, {sexp(i->symbol), a(0), sexp(i->call), trampArg,
                                                  B.CreateBitCast(dirty, sexpT)}));
            return "";
        case Opcode::Visible:
        case Opcode::Invisible:
            B.CreateStore(i32(i->op == Opcode::Visible ? 1 : 0),
                          B.CreateBitCast(constant(&R_Visible), i32T->getPointerTo()));
            return "";
        case Opcode::SetSrcref:
            call(HelperId::rirn_srcref, {sexp(i->constant)});
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
            // (a test the passes decided is a logical constant)
            pir::Instruction* t = i->args[0];
            llvm::Value* holds = t->op == Opcode::LdConst
                                     ? llvm::ConstantInt::get(i1T, TYPEOF(t->constant) == LGLSXP &&
                                                                       XLENGTH(t->constant) == 1 &&
                                                                       LOGICAL(t->constant)[0] == 1)
                                     : a(0);
            if (tiering.chaos > 0) {
                // RIR_DEOPT_CHAOS: fails now and then even when it holds
                llvm::Value* fail = call(HelperId::rirn_chaos, {});
                holds = B.CreateAnd(holds, B.CreateICmpEQ(fail, i32(0)));
            }
            B.CreateCondBr(holds, cont, blocks.at(cp->bb->succ[1]));
            B.SetInsertPoint(cont);
            auto confirms = [](pir::Instruction* x) {
                return x->op == Opcode::BindingIs || x->op == Opcode::NoActiveBindings;
            };
            if (confirms(i->args[0])) {
                // the last of the checkpoint's confirmations: known again
                auto& in = i->bb->insns;
                auto next = std::find(in.begin(), in.end(), i) + 1;
                if (next == in.end() || !confirms(*next)) setDirty(0);
            }
            return "";
        }
        case Opcode::FrameState:
            return "";
        case Opcode::Deopt:
            return lowerDeopt(i);
        default:
            return std::string("PIR instruction ") + i->info().name + " not lowered yet";
    }
}

llvm::Value* Lowering::stackArray(pir::Instruction* fs, int first, int extra, int* n) {
    int values = int(fs->args.size()) - first;
    *n = values + extra;
    if (*n == 0) return constant(nullptr);
    auto* at = llvm::ArrayType::get(sexpT, *n);
    llvm::Value* arr = entryAlloca(at);
    for (int k = 0; k < values; k++) {
        pir::Instruction* v = fs->args[first + k];
        llvm::Value* box = boxedValue(v);
        if (virtualSeq(v)) {
            // (the interpreter's loop state: the range built)
            const VirtualRange& r = ranges.at(v);
            llvm::BasicBlock* from = B.GetInsertBlock();
            llvm::BasicBlock* build = llvm::BasicBlock::Create(C, "", fn);
            llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
            B.CreateCondBr(unbuilt(v), build, join);
            B.SetInsertPoint(build);
            llvm::Value* made = call(HelperId::rirn_range_seq, {r.start, r.step, r.len});
            B.CreateStore(made, B.CreateBitCast(slotAddress(slotOf.at(v)), sexpT->getPointerTo()));
            box = mergeAt(join, box, from, made);
        }
        B.CreateStore(box, B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
    }
    for (int k = values; k < *n; k++)
        B.CreateStore(constant(nullptr), B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
    return B.CreateBitCast(arr, sexpT);
}

// A Deopt resumes the frame state's RIR code (rirn_deopt); one in an
// inlined callee's code (its frame state has the caller's after the call
// as outer one) finishes the callee in its context first
// (rirn_deopt_inlined).
std::string Lowering::lowerDeopt(pir::Instruction* i) {
    pir::Instruction* fs = i->args[0];
    bool inlined = fs->args.size() > 1 && fs->args[1]->op == pir::Opcode::FrameState;
    int n;
    llvm::Value* stack = stackArray(fs, inlined ? 2 : 1, 0, &n);
    llvm::Value* r;
    if (!inlined) {
        r = call(HelperId::rirn_deopt,
                 {constant(t), constant(fs->code), i32(fs->pc()), value(fs->args[0]), trampArg,
                  stack, i32(n), constant(slotKinds.at(fs)),
                  i32(f.deoptless      ? 2
                      : f.continuation ? 1
                                       : 0)});
    } else {
        pir::Instruction* outer = fs->args[1];
        auto known = afterStacks.find(outer);
        if (known == afterStacks.end()) return "a frame state after a call not inlined here";
        llvm::Value* outerStack = known->second.first;
        int outerN = known->second.second;
        r = call(HelperId::rirn_deopt_inlined,
                 {constant(t), constant(fs->code), i32(fs->pc()), value(fs->args[0]), trampArg,
                  stack, i32(n), constant(slotKinds.at(fs)), contexts.at(fs->args[0]),
                  constant(outer->code), i32(outer->pc()), value(outer->args[0]), outerStack,
                  i32(outerN), constant(slotKinds.at(outer))});
    }
    leave();
    B.CreateRet(r);
    return "";
}

// PushContext: the RContext lives in this frame; sigsetjmp is called here
// (a jump aimed at the context must find this frame alive), returns_twice
// for LLVM. When a jump lands, the context is popped and the caller's RIR
// code goes on after the call (the frame state operand) with its value.
std::string Lowering::lowerPushContext(pir::Instruction* i) {
    pir::Instruction* calleeEnv = i->args[1];
    pir::Instruction* after = i->args[3];
    auto* ctxT = llvm::ArrayType::get(llvm::Type::getInt64Ty(C), (sizeof(RContext) + 7) / 8);
    llvm::Value* ctx = B.CreateBitCast(entryAlloca(ctxT), sexpT);
    contexts[calleeEnv] = ctx;
    int n = int(i->args.size()) - 4;
    llvm::Value* args = constant(nullptr);
    if (n > 0) {
        auto* at = llvm::ArrayType::get(sexpT, n);
        llvm::Value* arr = entryAlloca(at);
        for (int k = 0; k < n; k++)
            B.CreateStore(value(i->args[4 + k]), B.CreateConstGEP2_32(at, arr, 0, unsigned(k)));
        args = B.CreateBitCast(arr, sexpT);
    }
    auto* v = llvm::Type::getVoidTy(C);
    call(HelperId::rirn_push_context, {ctx, sexp(i->constant), value(i->args[2]), value(calleeEnv),
                                       value(i->args[0]), args, i32(n)});
    // (the frame state's values are boxed before: the landing reads them)
    int outerN;
    llvm::Value* outerStack = stackArray(after, 1, 1, &outerN);
    afterStacks[after] = {outerStack, outerN};
    llvm::Value* jb = B.CreateGEP(llvm::Type::getInt8Ty(C), ctx,
                                  llvm::ConstantInt::get(i64T, offsetof(RContext, cjmpbuf)));
    auto* sjT = llvm::FunctionType::get(i32T, {sexpT, i32T}, false);
    llvm::Value* sj =
        B.CreateIntToPtr(llvm::ConstantInt::get(i64T, reinterpret_cast<uint64_t>(&__sigsetjmp)),
                         sjT->getPointerTo());
    llvm::CallInst* r = B.CreateCall(sjT, sj, {B.CreateBitCast(jb, sexpT), i32(0)});
    r->addFnAttr(llvm::Attribute::ReturnsTwice);
    llvm::BasicBlock* landed = llvm::BasicBlock::Create(C, "landed", fn);
    llvm::BasicBlock* go = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(B.CreateICmpNE(r, i32(0)), landed, go);
    B.SetInsertPoint(landed);
    llvm::Value* res =
        call(HelperId::rirn_context_landed,
             {ctx, value(calleeEnv), constant(after->code), i32(after->pc()), value(after->args[0]),
              trampArg, outerStack, i32(outerN), constant(slotKinds.at(after))});
    leave();
    B.CreateRet(res);
    B.SetInsertPoint(go);
    call(HelperId::rirn_enter_context, {ctx});
    return "";
}

}  // namespace native
}  // namespace rir

// The entry points llvm_loader.cpp looks up in this shared object.
using namespace rir;
using namespace rir::native;

extern "C" RIR_EXPORT bool rir_llvm_available(std::string* why) {
    Jit& j = theJit();
    if (!j.jit && why) *why = j.problem;
    return j.jit != nullptr;
}

extern "C" RIR_EXPORT const std::string& rir_llvm_last_ir() {
    return irText;
}

namespace {

// A function lowered to an LLVM module of its own, waiting for LLVM's
// passes and code generation (rir_llvm_emit, on the compile thread).
struct Lowered {
    std::unique_ptr<llvm::LLVMContext> ctx;
    std::unique_ptr<llvm::Module> mod;
    std::string name;
};

}  // namespace

// R's thread: f lowered to a module, or nullptr with *why. (Touches no JIT
// state but the module counter.)
extern "C" RIR_EXPORT void* rir_llvm_lower(pir::Function& f, DispatchTable* t, std::string* why) {
    Jit& j = theJit();
    if (!j.jit) {
        *why = j.problem;
        return nullptr;
    }
    auto out = std::make_unique<Lowered>();
    out->ctx = std::make_unique<llvm::LLVMContext>();
    out->mod = std::make_unique<llvm::Module>("rir" + std::to_string(j.modules), *out->ctx);
    // (the R function's name, for profiles: RIR_DEBUG=perf)
    out->name = "rirn_";
    for (char c : f.name.substr(0, 40)) out->name += std::isalnum((unsigned char)c) ? c : '_';
    out->name += "_" + std::to_string(j.modules++);
    std::string problem;
    {
        // (the lowering makes no R call; a lookup it did not expect to fail
        // is a refusal, not a crash)
        try {
            Lowering l(*out->ctx, *out->mod, f, t);
            problem = l.run(out->name);
        } catch (const std::exception& e) {
            problem = std::string("internal error in the lowering: ") + e.what();
        }
    }
    if (!problem.empty()) {
        *why = problem;
        return nullptr;
    }
    return out.release();
}

extern "C" RIR_EXPORT void rir_llvm_discard(void* lowered) {
    delete static_cast<Lowered*>(lowered);
}

// The compile thread (one at a time: the JIT is used by no other thread
// meanwhile): the module's cleanup passes and machine code; the entry, or
// nullptr with *why. Consumes `lowered`.
extern "C" RIR_EXPORT void* rir_llvm_emit(void* lowered, std::string* why) {
    std::unique_ptr<Lowered> l(static_cast<Lowered*>(lowered));
    Jit& j = theJit();
    llvm::Module* mod = l->mod.get();
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
    // (the text only for RIR_DEBUG=native, which compiles on R's thread's
    // behalf and waits: printing a large function costs)
    irText.clear();
    if (debugFlags.native) {
        llvm::raw_string_ostream os(irText);
        mod->print(os, nullptr);
        os.flush();
    }
    if (auto err =
            j.jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(l->mod), std::move(l->ctx)))) {
        *why = "LLVM: " + llvm::toString(std::move(err));
        return nullptr;
    }
    auto sym = j.jit->lookup(l->name);
    if (!sym) {
        *why = "LLVM: " + llvm::toString(sym.takeError());
        return nullptr;
    }
    return reinterpret_cast<void*>(sym->getAddress());
}

#endif  // RIR_HAVE_LLVM
