// inline_paths.cpp — the lowering's inline fast paths, each falling back to
// a runtime helper (helpers.h) when its test fails.
//
//   PIR                         LLVM IR
//     %5 = LdVar x, %env          cell = slot[x] (the binding cell, cached)
//                                 if cell is an ordinary binding: %5 = CAR(cell)
//                                 else %5 = rirn_ldvar_cell(x, ...)
//     %6 = Extract1_1 %5, %i      if %5 is a plain double vector and %i an
//                                 in-range scalar index: the element, unboxed
//                                 else rirn_subset(...)
//
// Binding cells of the own environment, forcing evaluated promises, type
// tests from the header, arithmetic and comparisons of plain scalars,
// elements of double vectors and plain matrices read and written in place.
#ifdef RIR_HAVE_LLVM
#include <cstring>

#include "lowering.h"

namespace rir {
namespace native {

void Lowering::lowerRawStore(pir::Instruction* st, pir::Instruction* v) {
    int n;
    llvm::Value* r = rawVals.at(v);
    bool isInt = r->getType()->isIntegerTy();
    const pir::PirType kind = pir::PirType::of(isInt ? pir::Kind::Int : pir::Kind::Real);
    const int* list = liveSlots(st, v, &kind, &n);
    llvm::Type* dT = r->getType();
    // inline: written into the binding's value (a plain scalar of its type
    // only the binding counts, in no live slot), as rirn_stvar_real's first
    // case
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* inPlace = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    llvm::Value *cell, *ok;
    llvm::Value* x =
        bindingValue(st->symbol, true, list, n, slow, &cell, &ok, isInt ? INTSXP : REALSXP);
    B.CreateCondBr(ok, inPlace, slow);
    B.SetInsertPoint(inPlace);
    llvm::Value* data =
        B.CreateGEP(llvm::Type::getInt8Ty(C), x, llvm::ConstantInt::get(i64T, kVectorDataOffset));
    B.CreateStore(r, B.CreateBitCast(data, dT->getPointerTo()));
    clearMissing(cell);
    B.CreateBr(join);
    B.SetInsertPoint(slow);
    llvm::Value* made =
        call(isInt ? HelperId::rirn_stvar_int : HelperId::rirn_stvar_real,
             {sexp(st->symbol), r, value(st->args[1]), slotAddress(cellSlot.at(st->symbol)), slots,
              constant(list), i32(n), B.CreateBitCast(dirty, sexpT), holdList(st)});
    llvm::Value* box = mergeAt(join, x, inPlace, made);
    // The box is v's value where this store dominates (rawCandidate: the
    // store every other user of the box comes after); kept in v's slot, so
    // that no later in-place store overwrites it while v is live. (Stores
    // after it, which it dominates, leave it.)
    if (v->op != pir::Opcode::LdConst && !storeBoxes.count(v)) {
        storeBoxes[v].push_back({st, box});
        auto s = slotOf.find(v);
        if (s != slotOf.end())
            B.CreateStore(box, B.CreateBitCast(slotAddress(s->second), sexpT->getPointerTo()));
    }
}

llvm::Value* Lowering::boxedValue(pir::Instruction* v) {
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
        llvm::Value* made = call(HelperId::rirn_box_real, {r->second});
        B.CreateStore(made, B.CreateBitCast(slotAddress(slotOf.at(v)), sexpT->getPointerTo()));
        llvm::Value* p = mergeAt(join, e->second, from, made);
        return p;
    }
    bool isInt = r->second->getType()->isIntegerTy();
    llvm::Value* box = call(isInt ? HelperId::rirn_box_int : HelperId::rirn_box_real, {r->second});
    // (in the slot of v, or of the value a CastType v is of: the
    // collector sees it while the others are boxed)
    pir::Instruction* owner = v;
    while (!slotOf.count(owner) && owner->op == pir::Opcode::CastType) owner = owner->args[0];
    B.CreateStore(box, B.CreateBitCast(slotAddress(slotOf.at(owner)), sexpT->getPointerTo()));
    return box;
}

llvm::Value* Lowering::scalarOperand(pir::Instruction* v, Rep k) {
    auto r = rawVals.find(v);
    if (r != rawVals.end()) return r->second;
    return loadScalar(value(v), k);
}

llvm::Value* Lowering::scalarIndex(llvm::Value* len, llvm::Value* idx, llvm::Value* ok,
                                   llvm::BasicBlock* fail) {
    llvm::Type* dT = llvm::Type::getDoubleTy(C);
    llvm::Value* idxOk = noAttrib(idx);
    llvm::BasicBlock* intIdx = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* notInt = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* realIdx = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* haveK = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* inRange = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(B.CreateAnd(ok, idxOk), intIdx, fail);
    B.SetInsertPoint(intIdx);
    llvm::Value* isInt = headerByteIs(idx, kScalarTypeMask, INTSXP | kHeaderScalarBit);
    llvm::BasicBlock* intLoad = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(isInt, intLoad, notInt);
    B.SetInsertPoint(intLoad);
    llvm::Value* iv = loadScalar(idx, Rep::Int);
    llvm::Value* kInt = B.CreateSub(B.CreateSExt(iv, i64T), llvm::ConstantInt::get(i64T, 1));
    llvm::Value* intGood = B.CreateICmpSGE(iv, i32(1));  // (NA is the smallest int)
    B.CreateBr(haveK);
    B.SetInsertPoint(notInt);
    B.CreateCondBr(headerByteIs(idx, kScalarTypeMask, REALSXP | kHeaderScalarBit), realIdx, fail);
    B.SetInsertPoint(realIdx);
    llvm::Value* dv = loadScalar(idx, Rep::Double);
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

llvm::Value* Lowering::matrixOffset(llvm::Value* x, llvm::Value* ok, llvm::Value* i, llvm::Value* j,
                                    llvm::BasicBlock* fail) {
    llvm::Type* i8T = llvm::Type::getInt8Ty(C);
    // a plain matrix: its only attribute is dim, two integers
    llvm::Value* attr = fieldAt(x, kAttribOffset, sexpT);
    llvm::BasicBlock* hasAttr = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* dimOk = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(B.CreateAnd(ok, B.CreateICmpNE(attr, sexp(R_NilValue))), hasAttr, fail);
    B.SetInsertPoint(hasAttr);
    llvm::Value* dim = fieldAt(attr, kCarOffset, sexpT);
    llvm::Value* plain =
        B.CreateAnd(B.CreateICmpEQ(fieldAt(attr, kTagOffset, sexpT), sexp(R_DimSymbol)),
                    B.CreateICmpEQ(fieldAt(attr, kCdrOffset, sexpT), sexp(R_NilValue)));
    B.CreateCondBr(plain, dimOk, fail);
    B.SetInsertPoint(dimOk);
    llvm::Value* dimType = headerByteIs(dim, kHeaderTypeMask | kHeaderAltBit, INTSXP);
    llvm::Value* two2 =
        B.CreateICmpEQ(fieldAt(dim, kCarOffset, i64T), llvm::ConstantInt::get(i64T, 2));
    llvm::BasicBlock* dimsRead = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(B.CreateAnd(dimType, two2), dimsRead, fail);
    B.SetInsertPoint(dimsRead);
    llvm::Value* dims =
        B.CreateBitCast(B.CreateGEP(i8T, dim, llvm::ConstantInt::get(i64T, kVectorDataOffset)),
                        i32T->getPointerTo());
    llvm::Value* nr = B.CreateSExt(B.CreateLoad(i32T, dims), i64T);
    llvm::Value* nc = B.CreateSExt(
        B.CreateLoad(i32T, B.CreateGEP(i32T, dims, llvm::ConstantInt::get(i64T, 1))), i64T);
    llvm::Value* ki = scalarIndex(nr, i, llvm::ConstantInt::getTrue(C), fail);
    llvm::Value* kj = scalarIndex(nc, j, llvm::ConstantInt::getTrue(C), fail);
    return B.CreateAdd(ki, B.CreateMul(kj, nr));
}

llvm::Value* Lowering::inlineElementStore(pir::Instruction* st, llvm::Value* v, unsigned type,
                                          const int* live, int nlive, llvm::BasicBlock* fail) {
    llvm::Type* i8T = llvm::Type::getInt8Ty(C);
    llvm::Type* dT = llvm::Type::getDoubleTy(C);
    // (an int also into a double vector, converted as GNU R's `[<-` does)
    bool intIntoReal = type == INTSXP;
    llvm::Value* cell;
    llvm::Value* ok;
    llvm::Value* x = bindingValue(st->symbol, false, live, nlive, fail, &cell, &ok, type,
                                  intIntoReal ? REALSXP : 0);
    llvm::Value* k = st->args.size() == 4
                         ? matrixOffset(x, ok, value(st->args[2]), value(st->args[3]), fail)
                         : scalarIndex(fieldAt(x, kCarOffset, i64T), value(st->args[2]), ok, fail);
    llvm::Value* data = B.CreateGEP(i8T, x, llvm::ConstantInt::get(i64T, kVectorDataOffset));
    auto store = [&](llvm::Value* e) {
        llvm::Type* eT = e->getType();
        B.CreateStore(e, B.CreateGEP(eT, B.CreateBitCast(data, eT->getPointerTo()), k));
    };
    if (intIntoReal) {
        llvm::BasicBlock* toReal = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* asInt = llvm::BasicBlock::Create(C, "", fn);
        llvm::BasicBlock* stored = llvm::BasicBlock::Create(C, "", fn);
        B.CreateCondBr(headerByteIs(x, kHeaderTypeMask, REALSXP), toReal, asInt);
        B.SetInsertPoint(toReal);
        uint64_t naBits;  // (bit for bit: NA is a NaN with its payload)
        std::memcpy(&naBits, &R_NaReal, sizeof(naBits));
        llvm::Value* na = llvm::ConstantExpr::getBitCast(llvm::ConstantInt::get(i64T, naBits), dT);
        store(B.CreateSelect(B.CreateICmpEQ(v, i32(NA_INTEGER)), na, B.CreateSIToFP(v, dT)));
        B.CreateBr(stored);
        B.SetInsertPoint(asInt);
        store(v);
        B.CreateBr(stored);
        B.SetInsertPoint(stored);
    } else {
        store(v);
    }
    clearMissing(cell);
    return x;
}

llvm::Value* Lowering::bindingValue(SEXP sym, bool scalar, const int* live, int nlive,
                                    llvm::BasicBlock* fail, llvm::Value** cellOut, llvm::Value** ok,
                                    unsigned type, unsigned orType) {
    llvm::Value* cacheP = slotAddress(cellSlot.at(sym));
    llvm::Value* cell = B.CreateLoad(sexpT, B.CreateBitCast(cacheP, sexpT->getPointerTo()));
    llvm::BasicBlock* haveCell = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(B.CreateICmpEQ(cell, sexp(R_NilValue)), fail, haveCell);
    B.SetInsertPoint(haveCell);
    llvm::BasicBlock* haveX = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(ordinaryCell(cell, true), haveX, fail);
    B.SetInsertPoint(haveX);
    llvm::Value* x = fieldAt(cell, kCarOffset, sexpT);
    llvm::Value* xWord = B.CreateLoad(i64T, B.CreateBitCast(x, i64T->getPointerTo()));
    llvm::Value* test =
        scalar ? B.CreateAnd(headerByteIs(x, kScalarTypeMask, type | kHeaderScalarBit), noAttrib(x))
               : headerByteIs(x, kPlainTypeMask, type);
    if (orType && !scalar) test = B.CreateOr(test, headerByteIs(x, kPlainTypeMask, orType));
    // counted by the binding only
    test = B.CreateAnd(test, B.CreateICmpEQ(B.CreateAnd(B.CreateLShr(xWord, kRefcntShift),
                                                        llvm::ConstantInt::get(i64T, kRefcntMask)),
                                            llvm::ConstantInt::get(i64T, 1)));
    *ok = B.CreateAnd(test, notHeld(x, live, nlive));
    *cellOut = cell;
    return x;
}

llvm::Value* Lowering::notHeld(llvm::Value* x, const int* live, int nlive) {
    llvm::Value* ok = llvm::ConstantInt::getTrue(C);
    for (int n = 0; n < nlive; n++) {
        llvm::Value* held =
            B.CreateLoad(sexpT, B.CreateBitCast(slotAddress(live[n]), sexpT->getPointerTo()));
        ok = B.CreateAnd(ok, B.CreateICmpNE(held, x));
    }
    return ok;
}

void Lowering::clearMissing(llvm::Value* cell) {
    // as defineVar: the binding is no longer missing
    llvm::Value* newWord =
        B.CreateAnd(B.CreateLoad(i64T, B.CreateBitCast(cell, i64T->getPointerTo())),
                    llvm::ConstantInt::get(i64T, ~(uint64_t(kMissingMask) << kGpShift)));
    B.CreateStore(newWord, B.CreateBitCast(cell, i64T->getPointerTo()));
}

llvm::Value* Lowering::branchOnCellHolding(llvm::Value* cellP, llvm::Value* v,
                                           llvm::BasicBlock* yes, llvm::BasicBlock* no) {
    llvm::Value* cell = B.CreateLoad(sexpT, cellP);
    llvm::BasicBlock* haveCell = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(B.CreateICmpEQ(cell, sexp(R_NilValue)), no, haveCell);
    B.SetInsertPoint(haveCell);
    B.CreateCondBr(
        B.CreateAnd(ordinaryCell(cell, true), B.CreateICmpEQ(fieldAt(cell, kCarOffset, sexpT), v)),
        yes, no);
    return cell;
}

llvm::Value* Lowering::numberAsDouble(pir::Instruction* v) {
    if (!numberType(v->type)) return nullptr;
    if (v->type.isA(pir::Kind::Real)) return scalarOperand(v, Rep::Double);
    llvm::Type* dT = llvm::Type::getDoubleTy(C);
    llvm::Value* x = scalarOperand(v, Rep::Int);
    return B.CreateSelect(B.CreateICmpEQ(x, i32(NA_INTEGER)), llvm::ConstantFP::getNaN(dT),
                          B.CreateSIToFP(x, dT));
}

llvm::Value* Lowering::unbuilt(pir::Instruction* seq) {
    return B.CreateICmpEQ(ranges.at(seq).seq, sexp(R_NilValue));
}

llvm::Value* Lowering::rangeElement(pir::Instruction* seq, llvm::Value* idx) {
    const VirtualRange& r = ranges.at(seq);
    return B.CreateAdd(r.start, B.CreateMul(r.step, idx));
}

void Lowering::lowerRange(pir::Instruction* colon) {
    pir::Instruction* seq = rangeSeqOf.at(colon);
    llvm::Type* dT = llvm::Type::getDoubleTy(C);
    llvm::Value* from = numberAsDouble(colon->args[0]);
    llvm::Value* to = numberAsDouble(colon->args[1]);
    auto intrinsic = [&](llvm::Intrinsic::ID id, llvm::Value* x) {
        return B.CreateCall(llvm::Intrinsic::getDeclaration(&M, id, {dT}), {x});
    };
    auto dbl = [&](double d) { return llvm::ConstantFP::get(dT, d); };
    // whole numbers in int range, at most INT_MAX apart (false for NaN):
    // the interpreter's for_colon test
    auto whole = [&](llvm::Value* d) {
        return B.CreateAnd(B.CreateFCmpOEQ(d, intrinsic(llvm::Intrinsic::floor, d)),
                           B.CreateAnd(B.CreateFCmpOGT(d, dbl(double(INT_MIN))),
                                       B.CreateFCmpOLE(d, dbl(double(INT_MAX)))));
    };
    llvm::Value* span = intrinsic(llvm::Intrinsic::fabs, B.CreateFSub(to, from));
    llvm::Value* ok = B.CreateAnd(B.CreateAnd(whole(from), whole(to)),
                                  B.CreateFCmpOLT(span, dbl(double(INT_MAX))));
    llvm::BasicBlock* fast = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(ok, fast, slow);
    B.SetInsertPoint(fast);
    llvm::Value* start = B.CreateFPToSI(from, i32T);
    llvm::Value* step = B.CreateSelect(B.CreateFCmpOLE(from, to), i32(1), i32(-1));
    llvm::Value* len = B.CreateAdd(B.CreateFPToSI(span, i32T), i32(1));
    B.CreateBr(join);
    // `:` and for()'s checks of its result, as GNU R runs them (the live
    // values held meanwhile; R code may have run after)
    B.SetInsertPoint(slow);
    if (forceNHeld) emitHold(forceHeld, forceNHeld);
    llvm::Value* made =
        call(HelperId::rirn_colon, {boxedValue(colon->args[0]), boxedValue(colon->args[1]),
                                    sexp(colon->constant), rho(), trampArg});
    define(colon, made);
    llvm::Value* built = call(HelperId::rirn_forseq, {made, sexp(seq->constant)});
    if (forceNHeld) emitRelease(forceNHeld);
    setDirty(1);
    llvm::BasicBlock* slowEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(join);
    auto phi = [&](llvm::Value* a, llvm::Value* b) {
        llvm::PHINode* p = B.CreatePHI(a->getType(), 2);
        p->addIncoming(a, fast);
        p->addIncoming(b, slowEnd);
        return p;
    };
    VirtualRange& r = ranges[seq];
    r.seq = phi(sexp(R_NilValue), built);
    r.start = phi(start, i32(0));
    r.step = phi(step, i32(0));
    r.len = phi(len, i32(-1));
}

llvm::Value* Lowering::reusedLoopElement(pir::Instruction* e, pir::Instruction* phi) {
    using pir::Opcode;
    // (the binding the loop binds the element to, when cached)
    llvm::Value* cellP = nullptr;
    for (pir::Instruction* u : users[e])
        if (u->op == Opcode::StVar && u->args[1] == ownEnv && cellSlot.count(u->symbol))
            cellP = B.CreateBitCast(slotAddress(cellSlot.at(u->symbol)), sexpT->getPointerTo());
    llvm::Value* seq = value(e->args[0]);
    llvm::Value* idx = scalarOperand(e->args[1], Rep::Int);
    llvm::Value* prev = value(phi);
    auto helper = [&]() {
        return call(HelperId::rirn_forelement_reuse,
                    {seq, idx, prev, cellP ? B.CreateBitCast(cellP, sexpT) : constant(nullptr)});
    };
    SEXP range = compactIntRangeClass();
    bool virt = virtualSeq(e->args[0]);
    if (!range && !virt) return helper();
    auto block = [&]() { return llvm::BasicBlock::Create(C, "", fn); };
    llvm::BasicBlock *checkSeq = block(), *checkRange = block(), *fast = block(), *slow = block(),
                     *join = block(), *store = block(), *fromRange = block();
    // after the first round, prev a plain integer scalar (as the helper's
    // test: counted by nothing, or by the loop variable's binding only)
    llvm::Value* ok =
        B.CreateAnd(B.CreateAnd(B.CreateICmpSGT(idx, i32(0)),
                                headerByteIs(prev, kScalarTypeMask, INTSXP | kHeaderScalarBit)),
                    noAttrib(prev));
    llvm::BasicBlock *checkRef = block(), *counted = cellP ? block() : slow;
    B.CreateCondBr(ok, checkRef, slow);
    B.SetInsertPoint(checkRef);
    llvm::Value* word = B.CreateLoad(i64T, B.CreateBitCast(prev, i64T->getPointerTo()));
    llvm::Value* refs =
        B.CreateAnd(B.CreateLShr(word, kRefcntShift), llvm::ConstantInt::get(i64T, kRefcntMask));
    B.CreateCondBr(B.CreateICmpEQ(refs, llvm::ConstantInt::get(i64T, 0)), checkSeq, counted);
    if (cellP) {
        llvm::BasicBlock* once = block();
        B.SetInsertPoint(counted);
        B.CreateCondBr(B.CreateICmpEQ(refs, llvm::ConstantInt::get(i64T, 1)), once, slow);
        B.SetInsertPoint(once);
        branchOnCellHolding(cellP, prev, checkSeq, slow);
    }
    // seq a range native code did not build, or an unexpanded compact
    // integer range
    B.SetInsertPoint(checkSeq);
    llvm::BasicBlock* checkCompact = range ? block() : slow;
    if (virt) {
        B.CreateCondBr(unbuilt(e->args[0]), fromRange, checkCompact);
    } else {
        B.CreateBr(checkCompact);
    }
    B.SetInsertPoint(fromRange);
    llvm::Value* vRange = virt ? rangeElement(e->args[0], idx) : nullptr;
    B.CreateBr(store);
    llvm::Value* vCompact = nullptr;
    if (range) {
        B.SetInsertPoint(checkCompact);
        B.CreateCondBr(headerByteIs(seq, kHeaderTypeMask | kHeaderAltBit, INTSXP | kHeaderAltBit),
                       checkRange, slow);
        B.SetInsertPoint(checkRange);
        B.CreateCondBr(
            B.CreateAnd(B.CreateICmpEQ(fieldAt(seq, kTagOffset, sexpT), sexp(range)),
                        B.CreateICmpEQ(fieldAt(seq, kCdrOffset, sexpT), sexp(R_NilValue))),
            fast, slow);
        B.SetInsertPoint(fast);
        llvm::Type* dT = llvm::Type::getDoubleTy(C);
        llvm::Value* info = fieldAt(seq, kCarOffset, sexpT);
        llvm::Value* first = B.CreateFPToSI(fieldAt(info, kVectorDataOffset + 8, dT), i32T);
        llvm::Value* inc = B.CreateFPToSI(fieldAt(info, kVectorDataOffset + 16, dT), i32T);
        vCompact = B.CreateAdd(first, B.CreateMul(inc, idx));
        B.CreateBr(store);
    } else {
        checkRange->eraseFromParent();
        fast->eraseFromParent();
    }
    B.SetInsertPoint(store);
    llvm::PHINode* v = B.CreatePHI(i32T, 2);
    v->addIncoming(vRange ? vRange : llvm::UndefValue::get(i32T), fromRange);
    if (vCompact) v->addIncoming(vCompact, fast);
    B.CreateStore(v, B.CreateBitCast(B.CreateGEP(llvm::Type::getInt8Ty(C), prev,
                                                 llvm::ConstantInt::get(i64T, kVectorDataOffset)),
                                     i32T->getPointerTo()));
    B.CreateBr(join);
    B.SetInsertPoint(slow);
    // (the first round, or a box that cannot be reused)
    llvm::Value* made =
        virt ? boxIfUnbuilt(e->args[0], rangeElement(e->args[0], idx), helper) : helper();
    return mergeAt(join, prev, store, made);
}

bool Lowering::inlineExtract(pir::Instruction* i) {
    using pir::Opcode;
    bool two = i->op == Opcode::Extract1_2D || i->op == Opcode::Extract2_2D;
    if (i->op != Opcode::Extract1_1D && i->op != Opcode::Extract2_1D && !two) return false;
    const CallSite& cs = i->code->calls[i->site()];
    if (cs.args.size() < (two ? 2u : 1u) || cs.args[0].tag != R_NilValue ||
        (two && cs.args[1].tag != R_NilValue) || counted.count(i))
        return false;
    auto a = [&](pir::Instruction* in, int k) { return value(in->args[k]); };
    if (!value(i->args[1]) || (two && !value(i->args[2]))) return false;
    if (!allUsers(i, [&](pir::Instruction* u) { return rawUse(u, 0, false); })) return false;
    bool single = i->op == Opcode::Extract1_1D;  // `[` keeps names: x without attributes
    llvm::Type* i8T = llvm::Type::getInt8Ty(C);
    llvm::Type* dT = llvm::Type::getDoubleTy(C);
    llvm::Value* x = a0(i);
    llvm::Value* idx = a1(i);
    llvm::Value* ok = headerByteIs(x, kPlainTypeMask, REALSXP);
    if (single && !two) ok = B.CreateAnd(ok, noAttrib(x));
    llvm::BasicBlock* load = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* slowOk = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    llvm::Value* k;
    if (!two) {
        k = scalarIndex(fieldAt(x, kCarOffset, i64T), idx, ok, slow);
    } else {
        k = matrixOffset(x, ok, idx, a(i, 2), slow);
    }
    B.CreateBr(load);
    B.SetInsertPoint(load);
    llvm::Value* elt = B.CreateLoad(
        dT, B.CreateGEP(dT,
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
    llvm::Value* r = call(HelperId::rirn_subset, {constant(i->code), i32(i->site()), i32(kind),
                                                  B.CreateBitCast(arr, sexpT), i32(nargs - 1),
                                                  rho(), trampArg, constant(nullptr)});
    llvm::Value* rScalar =
        B.CreateAnd(headerByteIs(r, kScalarTypeMask, REALSXP | kHeaderScalarBit), noAttrib(r));
    llvm::BasicBlock* slowEnd = B.GetInsertBlock();
    B.CreateCondBr(rScalar, slowOk, join);
    B.SetInsertPoint(slowOk);
    llvm::Value* rd = loadScalar(r, Rep::Double);
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

llvm::Value* Lowering::loadScalar(llvm::Value* x, Rep k) {
    llvm::Value* p =
        B.CreateGEP(llvm::Type::getInt8Ty(C), x, llvm::ConstantInt::get(i64T, kVectorDataOffset));
    llvm::Type* t = k == Rep::Double ? llvm::Type::getDoubleTy(C) : i32T;
    return B.CreateLoad(t, B.CreateBitCast(p, t->getPointerTo()));
}

bool Lowering::lowerScalar(pir::Instruction* i) {
    using pir::Opcode;
    Rep ka, kb;
    if (!inlineKinds(i, &ka, &kb)) return false;
    bool compare = pir::isComparison(i->op);
    bool intOp = ka == Rep::Int && kb == Rep::Int;
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
            if (ka == Rep::Int) x = B.CreateSIToFP(x, dT);
            if (kb == Rep::Int) y = B.CreateSIToFP(y, dT);
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
        if (ka == Rep::Int) x = B.CreateSIToFP(x, dT);
        if (kb == Rep::Int) y = B.CreateSIToFP(y, dT);
        llvm::Value* r = i->op == Opcode::Add   ? B.CreateFAdd(x, y)
                         : i->op == Opcode::Sub ? B.CreateFSub(x, y)
                         : i->op == Opcode::Mul ? B.CreateFMul(x, y)
                                                : B.CreateFDiv(x, y);
        setVisible();
        if (rawOk.count(i))
            rawVals[i] = r;
        else
            define(i, boxInto(i, r, Rep::Double));
        return true;
    }
    if (i->noOverflow) {
        // (a NoOverflow of the operands was assumed: the result fits)
        llvm::Value* r = i->op == Opcode::Add   ? B.CreateNSWAdd(x, y)
                         : i->op == Opcode::Sub ? B.CreateNSWSub(x, y)
                                                : B.CreateNSWMul(x, y);
        setVisible();
        if (rawOk.count(i))
            rawVals[i] = r;
        else
            define(i, boxInto(i, r, Rep::Int));
        return true;
    }
    llvm::Intrinsic::ID id = i->op == Opcode::Add   ? llvm::Intrinsic::sadd_with_overflow
                             : i->op == Opcode::Sub ? llvm::Intrinsic::ssub_with_overflow
                                                    : llvm::Intrinsic::smul_with_overflow;
    llvm::Value* ov = B.CreateBinaryIntrinsic(id, x, y);
    llvm::Value* r = B.CreateExtractValue(ov, 0);
    llvm::Value* bad = B.CreateOr(B.CreateExtractValue(ov, 1), B.CreateICmpEQ(r, i32(NA_INTEGER)));
    llvm::BasicBlock* fast = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(bad, slow, fast);
    B.SetInsertPoint(fast);
    setVisible();
    llvm::Value* boxed = boxInto(i, r, Rep::Int);
    llvm::BasicBlock* fastEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(slow);
    llvm::Value* generic = genericBinopValue(i);
    llvm::Value* phi = mergeAt(join, boxed, fastEnd, generic);
    define(i, phi);
    return true;
}

llvm::Value* Lowering::headerByteIs(llvm::Value* x, unsigned mask, unsigned want) {
    llvm::Type* i8T = llvm::Type::getInt8Ty(C);
    return B.CreateICmpEQ(B.CreateAnd(B.CreateLoad(i8T, x), llvm::ConstantInt::get(i8T, mask)),
                          llvm::ConstantInt::get(i8T, want));
}

llvm::Value* Lowering::noAttrib(llvm::Value* x) {
    return B.CreateICmpEQ(fieldAt(x, kAttribOffset, sexpT), sexp(R_NilValue));
}

llvm::Value* Lowering::fieldAt(llvm::Value* x, int offset, llvm::Type* t) {
    llvm::Value* p = B.CreateGEP(llvm::Type::getInt8Ty(C), x, llvm::ConstantInt::get(i64T, offset));
    return B.CreateLoad(t, B.CreateBitCast(p, t->getPointerTo()));
}

llvm::Value* Lowering::ordinaryCell(llvm::Value* cell, bool store) {
    llvm::Value* word = B.CreateLoad(i64T, B.CreateBitCast(cell, i64T->getPointerTo()));
    unsigned bits = kActiveBinding | (store ? kBindingLock : 0u);
    llvm::Value* flags =
        B.CreateAnd(word, llvm::ConstantInt::get(i64T, uint64_t(bits) << kGpShift));
    llvm::Value* extra =
        B.CreateAnd(B.CreateLShr(word, kExtraShift), llvm::ConstantInt::get(i64T, kExtraMask));
    return B.CreateICmpEQ(B.CreateOr(flags, extra), llvm::ConstantInt::get(i64T, 0));
}

llvm::Value* Lowering::cachedLoad(pir::Instruction* i) {
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
    llvm::Value* r =
        call(HelperId::rirn_ldvar_cell, {sexp(i->symbol), value(i->args[0]), trampArg,
                                         i->call ? sexp(i->call) : constant(nullptr), slotP,
                                         B.CreateBitCast(dirty, sexpT), slots, holdList(i)});
    llvm::Value* phi = mergeAt(join, x, check, r);
    return phi;
}

llvm::Value* Lowering::inlineForce(llvm::Value* v, SEXP sym, bool effects) {
    llvm::BasicBlock* from = B.GetInsertBlock();
    llvm::BasicBlock* prom = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(headerByteIs(v, kHeaderTypeMask, PROMSXP), prom, join);
    B.SetInsertPoint(prom);
    llvm::Value* pv = fieldAt(v, kCarOffset, sexpT);
    B.CreateCondBr(B.CreateICmpEQ(pv, sexp(R_UnboundValue)), slow, join);
    B.SetInsertPoint(slow);
    // (the values live across the Force count while the promise's code runs)
    int nheld = forceNHeld;
    if (nheld) emitHold(forceHeld, nheld);
    llvm::Value* r = call(HelperId::rirn_force, {v, sym ? sexp(sym) : constant(nullptr), trampArg});
    if (nheld) emitRelease(nheld);
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

llvm::Value* Lowering::inlineTypeTest(llvm::Value* x, pir::PirType want) {
    using pir::Flag;
    using pir::Kind;
    const int shape = int(Flag::NotScalar) | int(Flag::Attrib) | int(Flag::Object) |
                      int(Flag::Lazy) | int(Flag::Missing);
    if (want == pir::PirType::any().without(Flag::Object)) {
        // anything but an object (a promise is not one: the test is on
        // values): the header's object bit
        return headerByteIs(x, kHeaderObjectBit, 0);
    }
    const int lazy = int(Flag::Object) | int(Flag::Lazy) | int(Flag::Missing);
    if (!(want.flags() & lazy) && (want.flags() & (int(Flag::NotScalar) | int(Flag::Attrib)))) {
        // one kind of vector, any length and attributes, no class: the
        // type bits and the object bit
        int k = want.kinds();
        int t = k == int(Kind::Real)   ? REALSXP
                : k == int(Kind::Int)  ? INTSXP
                : k == int(Kind::Lgl)  ? LGLSXP
                : k == int(Kind::List) ? VECSXP
                : k == int(Kind::Str)  ? STRSXP
                                       : -1;
        if (t >= 0) return headerByteIs(x, kHeaderTypeMask | kHeaderObjectBit, unsigned(t));
    }
    if (want.flags() & shape) return nullptr;
    int k = want.kinds();
    int t = k == int(Kind::Real)  ? REALSXP
            : k == int(Kind::Int) ? INTSXP
            : k == int(Kind::Lgl) ? LGLSXP
                                  : -1;
    if (t < 0) return nullptr;
    llvm::Value* ok =
        B.CreateAnd(headerByteIs(x, kScalarTypeMask, unsigned(t) | kHeaderScalarBit), noAttrib(x));
    if (want.may(Flag::NA)) return ok;
    // not NA: the element, read only once the header said it is there
    llvm::BasicBlock* from = B.GetInsertBlock();
    llvm::BasicBlock* elt = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(ok, elt, join);
    B.SetInsertPoint(elt);
    llvm::Value* notNA;
    if (t == REALSXP) {
        llvm::Value* d = loadScalar(x, Rep::Double);
        notNA = B.CreateFCmpORD(d, d);
    } else {
        notNA = B.CreateICmpNE(loadScalar(x, Rep::Int), i32(NA_INTEGER));
    }
    llvm::Value* r = mergeAt(join, llvm::ConstantInt::getFalse(C), from, notNA);
    return r;
}

bool Lowering::scratchTest(pir::Instruction* i, llvm::Value** own, llvm::Value** free) {
    auto s = slotOf.find(i);
    if (s == slotOf.end() || counted.count(i)) return false;
    // (only values of a kind i's result may have can be that object)
    int n = 0;
    const int* live = liveSlots(i, i, &i->type, &n);
    llvm::Value* x =
        B.CreateLoad(sexpT, B.CreateBitCast(slotAddress(s->second), sexpT->getPointerTo()));
    // (a slot's first value is R_NilValue, a real object: its header can be
    // read)
    llvm::Value* word = B.CreateLoad(i64T, B.CreateBitCast(x, i64T->getPointerTo()));
    llvm::Value* ok = B.CreateICmpNE(x, sexp(R_NilValue));
    ok = B.CreateAnd(ok, B.CreateICmpEQ(B.CreateAnd(B.CreateLShr(word, kRefcntShift),
                                                    llvm::ConstantInt::get(i64T, kRefcntMask)),
                                        llvm::ConstantInt::get(i64T, 0)));
    ok = B.CreateAnd(ok, notHeld(x, live, n));
    *own = x;
    *free = ok;
    return true;
}

llvm::Value* Lowering::scratchOrNull(pir::Instruction* i) {
    llvm::Value *own, *free;
    if (!scratchTest(i, &own, &free)) return constant(nullptr);
    return B.CreateSelect(free, own, constant(nullptr));
}

llvm::Value* Lowering::boxInto(pir::Instruction* i, llvm::Value* r, Rep k) {
    HelperId alloc = k == Rep::Double ? HelperId::rirn_box_real : HelperId::rirn_box_int;
    llvm::Type* t = k == Rep::Double ? llvm::Type::getDoubleTy(C) : i32T;
    llvm::Value *own, *free;
    if (!scratchTest(i, &own, &free)) return call(alloc, {r});
    // written into the previous box when it is a plain scalar of the type
    unsigned type = k == Rep::Double ? REALSXP : INTSXP;
    free = B.CreateAnd(
        free,
        B.CreateAnd(headerByteIs(own, kScalarTypeMask, type | kHeaderScalarBit), noAttrib(own)));
    llvm::BasicBlock* reuse = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* fresh = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(free, reuse, fresh);
    B.SetInsertPoint(reuse);
    llvm::Value* data =
        B.CreateGEP(llvm::Type::getInt8Ty(C), own, llvm::ConstantInt::get(i64T, kVectorDataOffset));
    B.CreateStore(r, B.CreateBitCast(data, t->getPointerTo()));
    B.CreateBr(join);
    B.SetInsertPoint(fresh);
    llvm::Value* made = call(alloc, {r});
    llvm::Value* phi = mergeAt(join, own, reuse, made);
    return phi;
}

bool Lowering::inlineMath(pir::Instruction* i) {
    static SEXP sqrtFun = SYMVALUE(Rf_install("sqrt"));
    if (i->constant != sqrtFun || i->args.size() != 2 || counted.count(i) ||
        counted.count(i->args[1]) || (!i->names.empty() && i->names[0] != R_NilValue))
        return false;
    // sqrt(x) of a plain double scalar x >= 0 (NA, NaN and negative numbers,
    // whose warning GNU R gives, take the builtin)
    llvm::Value* x = value(i->args[1]);
    llvm::BasicBlock* isReal = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* fast = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* slow = llvm::BasicBlock::Create(C, "", fn);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(C, "", fn);
    B.CreateCondBr(
        B.CreateAnd(headerByteIs(x, kScalarTypeMask, REALSXP | kHeaderScalarBit), noAttrib(x)),
        isReal, slow);
    B.SetInsertPoint(isReal);
    llvm::Value* d = loadScalar(x, Rep::Double);
    B.CreateCondBr(B.CreateFCmpOGE(d, llvm::ConstantFP::get(llvm::Type::getDoubleTy(C), 0.0)), fast,
                   slow);
    B.SetInsertPoint(fast);
    llvm::Value* root = B.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, d);
    llvm::Value* boxed = boxInto(i, root, Rep::Double);
    setVisible();
    llvm::BasicBlock* fastEnd = B.GetInsertBlock();
    B.CreateBr(join);
    B.SetInsertPoint(slow);
    llvm::Value* args = entryAlloca(sexpT);
    B.CreateStore(x, args);
    llvm::Value* r =
        call(HelperId::rirn_call_builtin,
             {constant(i->code), i32(i->site()), sexp(i->constant), rho(), trampArg,
              B.CreateBitCast(args, sexpT), i32(1), i32(0), B.CreateBitCast(dirty, sexpT)});
    llvm::Value* phi = mergeAt(join, boxed, fastEnd, r);
    define(i, phi);
    return true;
}

llvm::Value* Lowering::genericBinopValue(pir::Instruction* i) {
    ArithOp op = pir::arithOf(i->op);
    int keep = (usedAgain(i->args[0], i) ? 1 : 0) | (usedAgain(i->args[1], i) ? 2 : 0);
    int n = 0;
    const int* live = liveSlots(i, i, nullptr, &n);
    llvm::Value* r =
        call(HelperId::rirn_binop,
             {i32(int(op)), a0(i), a1(i), sexp(i->call), rho(), trampArg, i32(keep),
              scratchOrNull(i), B.CreateBitCast(dirty, sexpT), slots, constant(live), i32(n)});
    if (i->noteOverflow)
        call(HelperId::rirn_note_overflow, {a0(i), a1(i), r, constant(i->noteOverflow)});
    return r;
}

}  // namespace native
}  // namespace rir

#endif  // RIR_HAVE_LLVM
