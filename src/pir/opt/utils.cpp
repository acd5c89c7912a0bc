// utils.cpp — helpers the passes share (see pass.h).
#include <unordered_set>

#include "pass.h"

namespace rir {
namespace pir {

void replaceUses(Function& f, Instruction* from, Instruction* to) {
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns)
            for (Instruction*& a : i->args)
                if (a == from) a = to;
}

std::vector<int> useCounts(const Function& f) {
    std::vector<int> uses(f.insns.size(), 0);
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns)
            for (Instruction* a : i->args) uses[a->id]++;
    return uses;
}

bool removeAll(Function& f, const std::vector<Instruction*>& dead) {
    if (dead.empty()) return false;
    std::unordered_set<Instruction*> set(dead.begin(), dead.end());
    return removeIf(f, [&](Instruction* i) { return set.count(i) != 0; });
}

void removePhiInputsFrom(BB* b, BB* pred) {
    for (Instruction* i : b->insns) {
        if (i->op != Opcode::Phi) break;
        for (size_t k = 0; k < i->phiFrom.size();) {
            if (i->phiFrom[k] == pred) {
                i->phiFrom.erase(i->phiFrom.begin() + k);
                i->args.erase(i->args.begin() + k);
            } else {
                k++;
            }
        }
    }
}

bool removeUnreachable(Function& f) {
    std::vector<char> reached(f.blocks.size(), 0);
    for (BB* b : f.rpo()) reached[b->id] = 1;
    bool changed = false;
    for (auto& b : f.blocks) {
        if (reached[b->id] || (b->insns.empty() && b->succ.empty())) continue;
        for (BB* s : b->succ) removePhiInputsFrom(s, b.get());
        for (Instruction* i : b->insns) i->bb = nullptr;
        b->insns.clear();
        b->succ.clear();
        changed = true;
    }
    if (changed) f.computePreds();
    return changed;
}

}  // namespace pir
}  // namespace rir
