// verifier.cpp — checks that a PIR function is well formed (see verifier.h).
//
// Checked, in this order (the first problem found is reported):
//   - every reachable block ends with its only terminator, whose successor
//     count is the table's; the entry has no predecessors
//   - operand counts and kinds as the table's operand letters say
//     (v forced value, a any, e environment, l test, c Checkpoint,
//     f FrameState); types consistent: an instruction's type is within what
//     its rule allows for its operands
//   - SSA: every operand is defined by an instruction of the function in a
//     block dominating the use (earlier in the same block); a Phi has one
//     operand per predecessor, from that predecessor (defined in a block
//     dominating it), and Phis come first in their block
//   - speculation: an Assume's checkpoint dominates it; a Checkpoint's
//     second successor deoptimizes (a FrameState then Deopt); a FrameState
//     is complete: an environment, then an outer FrameState or none, then
//     exactly as many stack values as the RIR code has on its operand stack
//     at the pc (from the bytecode verifier's stack heights)
#include "verifier.h"

#include <unordered_map>

#include "../bc/verifier.h"
#include "printer.h"

namespace rir {
namespace pir {

namespace {

struct Dominators {
    std::vector<int> idom;   // per block id, -1 when unreachable
    std::vector<int> order;  // rpo index per block id
    explicit Dominators(const Function& f) {
        std::vector<BB*> rpo = f.rpo();
        idom.assign(f.blocks.size(), -1);
        order.assign(f.blocks.size(), -1);
        for (size_t k = 0; k < rpo.size(); k++) order[rpo[k]->id] = int(k);
        if (rpo.empty()) return;
        idom[rpo[0]->id] = int(rpo[0]->id);
        // Cooper, Harvey and Kennedy's iteration over reverse post order
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t k = 1; k < rpo.size(); k++) {
                BB* b = rpo[k];
                int nd = -1;
                for (BB* p : b->preds) {
                    if (idom[p->id] < 0) continue;
                    nd = nd < 0 ? int(p->id) : intersect(int(p->id), nd);
                }
                if (nd >= 0 && idom[b->id] != nd) {
                    idom[b->id] = nd;
                    changed = true;
                }
            }
        }
    }
    int intersect(int a, int b) const {
        while (a != b) {
            while (order[a] > order[b]) a = idom[a];
            while (order[b] > order[a]) b = idom[b];
        }
        return a;
    }
    bool reachable(const BB* b) const { return idom[b->id] >= 0; }
    // does a dominate b
    bool dominates(const BB* a, const BB* b) const {
        if (!reachable(a) || !reachable(b)) return false;
        int x = int(b->id);
        while (true) {
            if (x == int(a->id)) return true;
            if (idom[x] == x) return false;
            x = idom[x];
        }
    }
};

std::string ref(const Instruction* i) {
    return "%" + std::to_string(i->id);
}

std::string where(const Instruction* i) {
    return "in BB" + std::to_string(i->bb ? i->bb->id : 0) + ": " + printInsn(i).substr(2);
}

// Does operand `a` fit the operand letter?
const char* operandProblem(char letter, const Instruction* a) {
    PirType t = a->type;
    switch (letter) {
        case 'v':
            if (t.isBottom()) return "has no value";
            if (t.may(Flag::Lazy) || t.mayBe(Kind::Prom) || t.may(Flag::Missing))
                return "may be lazy or missing where a forced value is needed";
            return nullptr;
        case 'a':
            return t.isBottom() ? "has no value" : nullptr;
        case 'm':
            if (t.isBottom()) return "has no value";
            if (t.may(Flag::Lazy) || t.mayBe(Kind::Prom))
                return "may be lazy where a forced value or an empty index is needed";
            return nullptr;
        case 'e':
            return t.isSubtypeOf(PirType::of(Kind::Env)) && !t.isBottom() ? nullptr
                                                                          : "is not an environment";
        case 'l':
            return t.isSubtypeOf(PirType::simpleScalar(Kind::Lgl)) && !t.isBottom()
                       ? nullptr
                       : "is not a test (lgl$'-)";
        case 'c':
            return a->op == Opcode::Checkpoint ? nullptr : "is not a Checkpoint";
        case 'f':
            return a->op == Opcode::FrameState ? nullptr : "is not a FrameState";
    }
    return "has an unknown operand kind";
}

std::string checkOperands(const Instruction* i) {
    const char* ops = i->info().operands;
    size_t fixed = 0;
    char rest = 0;
    for (const char* p = ops; *p; p++) {
        if (p[1] == '*') {
            rest = *p;
            break;
        }
        fixed++;
    }
    // MkEnv, FrameState: the variadic part comes before the last fixed
    // operand or after the first ones; the table lists them in order
    if (i->op == Opcode::MkEnv) {
        if (i->args.empty()) return "MkEnv without parent " + where(i);
        if (i->names.size() + 1 != i->args.size())
            return "MkEnv: one name per binding needed " + where(i);
        for (size_t k = 0; k + 1 < i->args.size(); k++)
            if (const char* p = operandProblem('a', i->args[k]))
                return "operand " + std::to_string(k) + " " + p + " " + where(i);
        if (const char* p = operandProblem('e', i->args.back()))
            return "parent " + std::string(p) + " " + where(i);
        return "";
    }
    if (i->op == Opcode::FrameState) {
        if (i->args.empty()) return "FrameState without environment " + where(i);
        if (const char* p = operandProblem('e', i->args[0]))
            return "FrameState environment " + std::string(p) + " " + where(i);
        for (size_t k = 1; k < i->args.size(); k++) {
            if (i->args[k]->op == Opcode::FrameState && k != 1)
                return "FrameState: the outer frame state must come first " + where(i);
            if (i->args[k]->op != Opcode::FrameState)
                if (const char* p = operandProblem('a', i->args[k]))
                    return "stack value " + std::to_string(k) + " " + p + " " + where(i);
        }
        return "";
    }
    if (i->index_ != 0 && indexNameOf(i->op) == IndexName::None)
        return "an integer carried by an instruction that has none (PIR_INDEX_NAMES) " + where(i);
    if (i->noOverflow && !isOp(i, {Opcode::Add, Opcode::Sub, Opcode::Mul}))
        return "noOverflow on an instruction other than Add, Sub, Mul " + where(i);
    if (i->loopCounter && i->op != Opcode::Add)
        return "loopCounter on an instruction other than Add " + where(i);
    if (i->ownFrame && i->op != Opcode::SetterCall)
        return "ownFrame on an instruction other than SetterCall " + where(i);
    if (i->op == Opcode::StaticCall && (i->args.size() < 2 || i->args[1]->op != Opcode::LdConst ||
                                        TYPEOF(i->args[1]->constant) != CLOSXP))
        return "StaticCall of a function that is not a closure constant " + where(i);
    if (i->args.size() < fixed || (!rest && i->args.size() != fixed))
        return "wrong number of operands (" + std::to_string(i->args.size()) + ", table: \"" + ops +
               "\") " + where(i);
    for (size_t k = 0; k < i->args.size(); k++) {
        char letter = k < fixed ? ops[k] : rest;
        if (const char* p = operandProblem(letter, i->args[k]))
            return "operand " + std::to_string(k) + " " + p + " " + where(i);
    }
    return "";
}

}  // namespace

std::string verify(Function& f) {
    if (!f.entry) return "function without entry block";
    f.computePreds();
    if (!f.entry->preds.empty())
        return "the entry block BB" + std::to_string(f.entry->id) + " has predecessors";
    Dominators dom(f);
    std::unordered_map<const Instruction*, size_t> position;  // index in its block
    for (auto& b : f.blocks)
        for (size_t k = 0; k < b->insns.size(); k++) {
            const Instruction* i = b->insns[k];
            if (i->bb != b.get()) return "instruction in the wrong block " + where(i);
            position[i] = k;
        }

    for (auto& bp : f.blocks) {
        BB* b = bp.get();
        if (!dom.reachable(b)) continue;
        if (b->insns.empty()) return "BB" + std::to_string(b->id) + " is empty";
        for (size_t k = 0; k < b->insns.size(); k++) {
            Instruction* i = b->insns[k];
            bool last = k + 1 == b->insns.size();
            if (i->isTerminator() != last)
                return (last ? "block does not end with a terminator "
                             : "terminator before the end of its block ") +
                       where(i);
            if (i->op == Opcode::Phi && k > 0 && b->insns[k - 1]->op != Opcode::Phi)
                return "Phi after other instructions " + where(i);
        }
        Instruction* t = b->insns.back();
        if (int(b->succ.size()) != t->info().successors)
            return "terminator with " + std::to_string(b->succ.size()) +
                   " successors (table: " + std::to_string(t->info().successors) + ") " + where(t);

        for (Instruction* i : b->insns) {
            std::string problem = checkOperands(i);
            if (!problem.empty()) return problem;
            // types: never more than the rule allows (narrower: proven)
            PirType rule = i->ruleType();
            if (!i->type.isSubtypeOf(rule))
                return "type " + i->type.str() + " is not within " + rule.str() + " " + where(i);
            if (rule.isBottom() != i->type.isBottom())
                return "result type does not match the table " + where(i);
            // SSA dominance
            for (size_t k = 0; k < i->args.size(); k++) {
                Instruction* a = i->args[k];
                auto pos = position.find(a);
                if (!a->bb || pos == position.end() || a->bb->fn != &f)
                    return "operand " + std::to_string(k) +
                           " is not an instruction of this function " + where(i);
                // (frame states and checkpoints are operands without values)
                if (a->type.isBottom() && a->op != Opcode::FrameState &&
                    a->op != Opcode::Checkpoint)
                    return "operand " + std::to_string(k) + " has no value " + where(i);
                if (i->op == Opcode::Phi) continue;
                bool ok = a->bb == b ? pos->second < position[i] : dom.dominates(a->bb, b);
                if (!ok) return "operand " + ref(a) + " does not dominate its use " + where(i);
            }
            if (i->op == Opcode::Phi) {
                if (i->args.size() != b->preds.size() || i->phiFrom.size() != i->args.size())
                    return "Phi with " + std::to_string(i->args.size()) +
                           " operands in a block with " + std::to_string(b->preds.size()) +
                           " predecessors " + where(i);
                for (size_t k = 0; k < i->args.size(); k++) {
                    BB* from = i->phiFrom[k];
                    bool isPred = false;
                    for (BB* p : b->preds) isPred = isPred || p == from;
                    for (size_t m = 0; m < k; m++)
                        if (i->phiFrom[m] == from) isPred = false;
                    if (!isPred)
                        return "Phi operand from BB" + std::to_string(from->id) +
                               ", not one predecessor each " + where(i);
                    Instruction* a = i->args[k];
                    // (an input from a block no path reaches is dead)
                    if (dom.reachable(from) && !dom.dominates(a->bb, from))
                        return "Phi operand " + ref(a) + " does not dominate BB" +
                               std::to_string(from->id) + " " + where(i);
                }
            }
            if (i->op == Opcode::Assume) {
                Instruction* cp = i->args[1];
                if (!dom.dominates(cp->bb->succ.empty() ? cp->bb : cp->bb->succ[0], b))
                    return "Assume not dominated by its checkpoint's continuation " + where(i);
            }
            if (i->op == Opcode::Checkpoint) {
                BB* out = b->succ[1];
                if (out->insns.empty() || out->insns.back()->op != Opcode::Deopt)
                    return "Checkpoint whose second successor does not deoptimize " + where(i);
            }
            if (i->op == Opcode::FrameState && i->code) {
                CodeShape shape;
                std::string bad = verifyCode(i->code, &shape);
                if (!bad.empty()) return "FrameState of RIR code that does not verify " + where(i);
                size_t stack = i->args.size() - 1;
                if (i->args.size() > 1 && i->args[1]->op == Opcode::FrameState) stack--;
                if (i->pc() < 0 || size_t(i->pc()) >= shape.height.size() ||
                    shape.height[i->pc()] < 0)
                    return "FrameState pc " + std::to_string(i->pc()) +
                           " is not an instruction of its RIR code " + where(i);
                // (the caller's state after an inlined call: without its value)
                if (i->afterCall) stack++;
                if (int(stack) != shape.height[i->pc()])
                    return "FrameState with " + std::to_string(stack) +
                           " stack values where RIR has " + std::to_string(shape.height[i->pc()]) +
                           " " + where(i);
            }
        }
    }
    return "";
}

}  // namespace pir
}  // namespace rir
