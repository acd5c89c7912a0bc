// analyses.cpp — what the lowering computes over a PIR function before it
// emits any LLVM IR, and the predicates its instruction cases share.
//
//   BB1: %3 = Add %1, %2      (doubles)    raw value: %3 is kept as an LLVM
//        %4 = Lt %3, %5                    double; Lt reads it unboxed
//        StVar x, %3, %env                 the store boxes it (into x's value
//                                          when no live slot refers to it)
//
// - calls made through their RIR call site and the MkArgs only they use;
// - builtin arguments counted as referenced until the call (as the
//   interpreter counts them);
// - LdVars whose only user keeps a missing argument;
// - which double results stay unboxed;
// - the liveness of the values held in the frame's node-stack slots, which
//   decides where a value may be written in place.
#ifdef RIR_HAVE_LLVM
#include <algorithm>

#include "../pir/analysis/dataflow.h"
#include "lowering.h"

namespace rir {
namespace native {

bool Lowering::matchesSite(const pir::Instruction* i) {
    if (!i->code || i->site() < 0 || size_t(i->site()) >= i->code->calls.size()) return false;
    const CallSite& cs = i->code->calls[i->site()];
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
                if (a->op != pir::Opcode::MkArg || a->promise() != ca.pool) return false;
                break;
            case ArgKind::Dots:
                if (!a->is(pir::Opcode::LdVar) || a->symbol != R_DotsSymbol) return false;
                break;
            default:
                return false;
        }
    }
    return true;
}

bool Lowering::reaches(pir::BB* from, pir::BB* to, pir::BB* avoid, bool startAtFrom) {
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

bool Lowering::countsUntil(pir::Instruction* v, pir::Instruction* c) {
    pir::BB* d = v->bb;
    pir::BB* b = c->bb;
    if (d == b) {
        auto& in = b->insns;
        // (each run of the block defines v before the call)
        return std::find(in.begin(), in.end(), v) < std::find(in.begin(), in.end(), c);
    }
    return !reaches(f.entry, b, d, true) && !reaches(b, b, d, false);
}

std::string Lowering::findCountedArgs() {
    for (auto& b : f.blocks)
        for (pir::Instruction* c : b->insns) {
            if (c->op != pir::Opcode::CallBuiltin) continue;
            if (!c->code || c->site() < 0 || size_t(c->site()) >= c->code->calls.size())
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

std::string Lowering::findMissokLoads() {
    for (auto& b : f.blocks)
        for (pir::Instruction* i : b->insns) {
            if (i->op != pir::Opcode::ForceOrMissing) continue;
            pir::Instruction* v = i->args[0];
            // (an argument assumed evaluated at the entry, known not missing:
            // forcing it is its value)
            if (v->op == pir::Opcode::LdArg && !v->type.may(pir::Flag::Missing)) continue;
            if (!v->is(pir::Opcode::LdVar) || useCount(v) != 1)
                return "an index value that is not a variable's";
            missokLoads.insert(v);
        }
    return "";
}

void Lowering::findGuardLoads() {
    for (auto& b : f.blocks)
        for (pir::Instruction* i : b->insns)
            if (i->is(pir::Opcode::LdFun) && useCount(i) == 1 &&
                users[i][0]->op == pir::Opcode::Identical && users[i][0]->args[0] == i &&
                users[i][0]->args[1]->op == pir::Opcode::LdConst)
                guardLoads.insert(i);
}

void Lowering::findSiteCalls() {
    for (auto& b : f.blocks)
        for (pir::Instruction* i : b->insns)
            if ((i->op == pir::Opcode::Call || i->op == pir::Opcode::StaticCall) && matchesSite(i))
                siteCalls.insert(i);
    // (a promise or `...` is a call's argument, never its env or callee)
    for (pir::Instruction* c : siteCalls)
        for (size_t k = 2; k < c->args.size(); k++) {
            pir::Instruction* a = c->args[k];
            if ((a->op == pir::Opcode::MkArg ||
                 (a->is(pir::Opcode::LdVar) && a->symbol == R_DotsSymbol)) &&
                allUsers(a, [&](pir::Instruction* u) { return siteCalls.count(u) != 0; }))
                siteArgs.insert(a);
        }
}

bool Lowering::boxed(const pir::Instruction* i) {
    pir::Rule r = i->info().result;
    return r != pir::Rule::Void && r != pir::Rule::Test;
}

std::string Lowering::check() {
    ownEnv = f.ownEnv();
    const Code* code = t->baseline;
    CodeShape shape;
    if (!code || !verifyCode(code, &shape).empty()) return "no verified baseline code";
    // (the shapes of the RIR code frame states resume: the function's, and
    // inlined callees')
    std::map<const Code*, CodeShape> shapes;
    shapes[code] = shape;
    for (auto& b : f.blocks)
        for (pir::Instruction* i : b->insns) {
            switch (i->op) {
                case pir::Opcode::MkEnv:
                    if (i->stub) return "stub environments";
                    if (i != ownEnv && (!i->constant || TYPEOF(i->constant) != CLOSXP))
                        return "environments other than the function's";
                    break;
                case pir::Opcode::FrameState: {
                    bool hasOuter = i->args.size() > 1 && i->args[1]->op == pir::Opcode::FrameState;
                    if (hasOuter) {
                        // an inlined callee's (finished in its context),
                        // whose outer one is the function's after the call
                        pir::Instruction* o = i->args[1];
                        if (o->code != code || !o->afterCall ||
                            (o->args.size() > 1 && o->args[1]->op == pir::Opcode::FrameState))
                            return "frame states of inlined code";
                        if (!shapes.count(i->code) &&
                            !verifyCode(i->code, &shapes[i->code]).empty())
                            return "frame states of unverified inlined code";
                    } else if (i->code != code) {
                        return "frame states of inlined code";
                    }
                    const CodeShape& sh = shapes.at(i->code);
                    int pc = i->pc();
                    if (pc < 0 || size_t(pc) >= sh.height.size() || sh.height[pc] < 0)
                        return "a frame state at no instruction";
                    // loop state (rebuilt by rirn_deopt) below every value
                    // (the resumed activation's userBase then lies above all
                    // its loop state, which its in-place scans skip:
                    // inplace.h's inPlaceScope)
                    bool valueSeen = false;
                    for (SlotKind k : sh.slots[pc]) {
                        if (k == SlotKind::Value)
                            valueSeen = true;
                        else if (valueSeen || hasOuter)
                            return "a for loop's state above other values in a frame state";
                    }
                    // (after an inlined call: its value comes last)
                    size_t values =
                        i->args.size() - 1 - (hasOuter ? 1 : 0) + (i->afterCall ? 1 : 0);
                    if (sh.slots[pc].size() != values)
                        return "a frame state whose stack is not the code's";
                    auto kinds = std::make_unique<unsigned char[]>(sh.slots[pc].size() + 1);
                    for (size_t k = 0; k < sh.slots[pc].size(); k++)
                        kinds[k] = (unsigned char)sh.slots[pc][k];
                    slotKinds[i] = kinds.get();
                    keptKinds().push_back(std::move(kinds));
                    for (size_t a = hasOuter ? 2 : 1; a < i->args.size(); a++)
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

bool Lowering::isArith(pir::Opcode op) {
    ArithOp k = pir::arithOf(op);
    return k == ArithOp::Add || k == ArithOp::Sub || k == ArithOp::Mul || k == ArithOp::Div;
}

bool Lowering::scalarLowerable(pir::Instruction* u) {
    Rep ka, kb;
    return inlineKinds(u, &ka, &kb);
}

bool Lowering::realScalarType(pir::PirType t) {
    return t.kinds() == int(pir::Kind::Real) && t.isSimpleScalar();
}

bool Lowering::intScalarType(pir::PirType t) {
    return t.kinds() == int(pir::Kind::Int) && t.isSimpleScalar();
}

bool Lowering::rawUse(pir::Instruction* u, int depth, bool isInt) {
    if (u->op == pir::Opcode::FrameState || u->op == pir::Opcode::BindingIs || deoptUse(u))
        return true;
    auto scalarType = [&](pir::PirType t) { return isInt ? intScalarType(t) : realScalarType(t); };
    if (u->op == pir::Opcode::IsType) return scalarType(u->carriedType);
    if (isInt && u->op == pir::Opcode::NoOverflow) return true;
    if (scalarLowerable(u)) return true;
    if (u->op == pir::Opcode::CastType && depth < 4 && scalarType(u->carriedType))
        return allUsers(u, [&](pir::Instruction* x) { return rawUse(x, depth + 1, isInt); });
    return false;
}

size_t Lowering::position(pir::Instruction* i) {
    auto& in = i->bb->insns;
    return size_t(std::find(in.begin(), in.end(), i) - in.begin());
}

bool Lowering::rawCandidate(pir::Instruction* i) {
    Rep ka, kb;
    if (!isArith(i->op) || !inlineKinds(i, &ka, &kb) || counted.count(i)) return false;
    // integer results: unboxed when they cannot overflow (NoOverflow was
    // assumed), else boxed (overflow takes GNU R's path)
    bool isInt = ka == Rep::Int && kb == Rep::Int && i->op != pir::Opcode::Div;
    if (isInt && !i->noOverflow) return false;
    pir::Instruction* store = nullptr;
    std::vector<pir::Instruction*> boxedUsers;
    for (pir::Instruction* u : users[i]) {
        if (u->op == pir::Opcode::StVar && u->args[0] == i && u->args[1] == ownEnv &&
            (!store || store == u)) {
            store = u;
            continue;
        }
        // (the value an element store stores: its helper takes the double)
        bool storedValue = !isInt && u->is(pir::Opcode::SubassignVar) && u->args[1] == i &&
                           u->args[2] != i && (u->args.size() < 4 || u->args[3] != i);
        if (!storedValue && !rawUse(u, 0, isInt)) boxedUsers.push_back(u);
    }
    for (pir::Instruction* u : boxedUsers) {
        if (!store) return false;
        for (size_t k = 0; k < u->args.size(); k++)
            if (u->args[k] == i && !dom->availableAt(store, u, k)) return false;
    }
    return true;
}

void Lowering::findRawValues() {
    dom = std::make_unique<pir::Dominators>(f);
    for (auto& b : f.blocks)
        for (pir::Instruction* i : b->insns)
            if (rawCandidate(i)) rawOk.insert(i);
}

bool Lowering::deoptimizes(const pir::BB* b) {
    return !b->insns.empty() && b->insns.back()->op == pir::Opcode::Deopt;
}

bool Lowering::deoptUse(pir::Instruction* u) {
    using pir::Opcode;
    if (!deoptimizes(u->bb)) return false;
    return u->op == Opcode::StVar || u->op == Opcode::FrameState || u->op == Opcode::IsType ||
           u->op == Opcode::CastType || pir::isBinaryOperator(u->op);
}

bool Lowering::readsLoopVar(pir::Instruction* u, pir::Instruction* v, int depth) {
    using pir::Opcode;
    // (native code does not go on after a block that deoptimizes)
    if (deoptimizes(u->bb)) return true;
    switch (u->op) {
        case Opcode::FrameState:
        case Opcode::IsType:
            return true;
        case Opcode::StVar:
            // (a binding counts the box: a counted box is not reused)
            return u->args[0] == v && u->args[1] == ownEnv;
        case Opcode::CastType:
            return depth < 4 &&
                   allUsers(u, [&](pir::Instruction* x) { return readsLoopVar(x, u, depth + 1); });
        case Opcode::Extract1_1D:
        case Opcode::Extract2_1D:
        case Opcode::Extract1_2D:
        case Opcode::Extract2_2D:
            // an index: a method (x an object) might return it, so the
            // result's users must only read it too
            return u->args[0] != v && depth < 4 &&
                   allUsers(u, [&](pir::Instruction* x) { return readsLoopVar(x, u, depth + 1); });
        case Opcode::SubassignVar:
            // an index (the result is bound, counted)
            return u->args[0] != v && u->args[1] != v;
        default:
            return scalarLowerable(u);
    }
}

void Lowering::findLoopVarReuse() {
    using pir::Opcode;
    for (auto& b : f.blocks)
        for (pir::Instruction* e : b->insns) {
            if (e->op != Opcode::ForElement) continue;
            pir::Instruction* phi = nullptr;
            bool ok = true;
            for (pir::Instruction* u : users[e]) {
                if (u->op == Opcode::Phi) {
                    ok = ok && (!phi || phi == u);
                    phi = u;
                } else {
                    ok = ok && readsLoopVar(u, e, 0);
                }
            }
            // The header's Phi: the entry value and this element. It holds
            // the previous iteration's box, which the next element
            // overwrites: no user of it may run after the element in an
            // iteration, nor carry it further (another Phi). (A loop whose
            // body always leaves it has no back edge: its element's Phi is
            // in the exit block, after the element.)
            if (!ok || !phi || phi->args.size() != 2 || phi->bb == e->bb ||
                !dom->dominates(phi->bb, e->bb))
                continue;
            for (pir::Instruction* u : users[phi])
                ok = ok && u->op != Opcode::Phi && !dom->dominates(e->bb, u->bb) &&
                     (u->op == Opcode::Return || readsLoopVar(u, phi, 0));
            if (ok) loopVarReuse[e] = phi;
        }
}

bool Lowering::numberType(pir::PirType t) {
    return !t.isBottom() && t.isSimpleScalar() && (t.isA(pir::Kind::Int) || t.isA(pir::Kind::Real));
}

void Lowering::findVirtualRanges() {
    using pir::Opcode;
    for (auto& b : f.blocks)
        for (pir::Instruction* seq : b->insns) {
            if (seq->op != Opcode::ForSeq || seq->args[0]->op != Opcode::Colon) continue;
            pir::Instruction* colon = seq->args[0];
            if (users[colon].size() != 1 || !numberType(colon->args[0]->type) ||
                !numberType(colon->args[1]->type))
                continue;
            bool ok = true;
            for (pir::Instruction* u : users[seq]) {
                if (u->op == Opcode::FrameState) {
                    // (a frame state an inlined call's context boxes at
                    // each call would build the range each time)
                    for (pir::Instruction* d : users[u]) ok = ok && d->op == Opcode::Deopt;
                } else {
                    ok = ok && (u->op == Opcode::ForLength || u->op == Opcode::ForElement ||
                                u->op == Opcode::ForEnd);
                }
            }
            if (!ok) continue;
            rangeSeqOf[colon] = seq;
            rangeSeqs.insert(seq);
        }
}

pir::Instruction* Lowering::slotHolder(pir::Instruction* a) {
    // (a CastType has no slot of its own: its value is its operand's)
    while (!slotOf.count(a) && a->op == pir::Opcode::CastType) a = a->args[0];
    return slotOf.count(a) ? a : nullptr;
}

std::set<pir::Instruction*> Lowering::liveOutOf(pir::BB* b) {
    std::set<pir::Instruction*> out;
    for (pir::BB* s : b->succ) {
        out.insert(liveIn[s->id].begin(), liveIn[s->id].end());
        for (pir::Instruction* p : s->insns) {
            if (p->op != pir::Opcode::Phi) break;
            for (size_t k = 0; k < p->args.size(); k++)
                if (p->phiFrom[k] == b && slotHolder(p->args[k]))
                    out.insert(slotHolder(p->args[k]));
        }
    }
    return out;
}

std::set<pir::Instruction*> Lowering::liveWalk(pir::BB* b, size_t from,
                                               std::set<pir::Instruction*> live) {
    for (size_t k = b->insns.size(); k-- > from;) {
        pir::Instruction* i = b->insns[k];
        live.erase(i);
        if (i->op != pir::Opcode::Phi)
            for (pir::Instruction* a : i->args)
                if (slotHolder(a)) live.insert(slotHolder(a));
        if (i->op == pir::Opcode::Assume) {
            // (it may enter its checkpoint's deoptimization block)
            pir::BB* d = i->args[1]->bb->succ[1];
            live.insert(liveIn[d->id].begin(), liveIn[d->id].end());
        }
    }
    return live;
}

std::set<pir::Instruction*> Lowering::liveBefore(pir::BB* b, size_t from) {
    computeLiveness();
    return liveWalk(b, from, liveOut[b->id]);
}

void Lowering::computeLiveness() {
    if (livenessDone) return;
    livenessDone = true;
    liveIn.assign(f.blocks.size(), {});
    liveOut.assign(f.blocks.size(), {});
    pir::solveDataflow(
        f, pir::Direction::Backward, liveIn, liveOut,
        [&](pir::BB* b) -> std::optional<std::set<pir::Instruction*>> { return liveOutOf(b); },
        [&](pir::BB* b, const std::set<pir::Instruction*>& out) { return liveWalk(b, 0, out); });
}

std::vector<std::unique_ptr<int[]>>& Lowering::keptSlotLists() {
    static std::vector<std::unique_ptr<int[]>> all;
    return all;
}

const int* Lowering::liveSlots(pir::Instruction* i, pir::Instruction* except,
                               const pir::PirType* kind, int* n) {
    std::set<pir::Instruction*> live = liveBefore(i->bb, position(i) + 1);
    live.erase(except);
    auto list = std::make_unique<int[]>(live.size() + 1);
    *n = 0;
    for (pir::Instruction* x : live)
        if (!kind || kind->isBottom() || x->type.isBottom() || (x->type.kinds() & kind->kinds()))
            list[(*n)++] = slotOf.at(x);
    keptSlotLists().push_back(std::move(list));
    return keptSlotLists().back().get();
}

Rep Lowering::scalarKind(const pir::Instruction* v) {
    pir::PirType t = v->type;
    if (t.isBottom() || !t.isSimpleScalar() || t.may(pir::Flag::NA)) return Rep::Boxed;
    if (t.isA(pir::Kind::Real)) return Rep::Double;
    if (t.isA(pir::Kind::Int)) return Rep::Int;
    return Rep::Boxed;
}

Rep Lowering::arithKind(const pir::Instruction* v) {
    pir::PirType t = v->type;
    if (!t.isBottom() && t.isSimpleScalar() && t.isA(pir::Kind::Real)) return Rep::Double;
    return scalarKind(v);
}

bool Lowering::inlineKinds(const pir::Instruction* u, Rep* ka, Rep* kb) {
    if (u->args.size() != 2) return false;
    bool arith = isArith(u->op);
    *ka = arith ? arithKind(u->args[0]) : scalarKind(u->args[0]);
    *kb = arith ? arithKind(u->args[1]) : scalarKind(u->args[1]);
    return *ka != Rep::Boxed && *kb != Rep::Boxed && (arith || pir::isComparison(u->op));
}

bool Lowering::plainLgl(const pir::Instruction* v) {
    return !v->type.isBottom() && v->type.isSimpleScalar() &&
           v->type.kinds() == int(pir::Kind::Lgl);
}

bool Lowering::onlyTests(pir::Instruction* i) {
    return allUsers(i, [](pir::Instruction* u) { return u->op == pir::Opcode::AsTest; });
}

}  // namespace native
}  // namespace rir

#endif  // RIR_HAVE_LLVM
