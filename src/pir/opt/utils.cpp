// utils.cpp — helpers the passes share (see pass.h).
#include <algorithm>
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

void dropDuplicatePhis(Function& f, const std::vector<Instruction*>& made,
                       std::vector<Instruction*>& dead) {
    for (Instruction* phi : made)
        for (Instruction* other : phi->bb->insns) {
            if (other->op != Opcode::Phi) break;
            if (other != phi && other->args == phi->args && other->phiFrom == phi->phiFrom &&
                std::find(dead.begin(), dead.end(), other) == dead.end()) {
                replaceUses(f, phi, other);
                dead.push_back(phi);
                break;
            }
        }
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

Instruction* trackedOwnEnv(Function& f) {
    Instruction* env = f.ownEnv();
    if (!env) return nullptr;
    f.computePreds();
    return f.entry->preds.empty() ? env : nullptr;  // (rir2pir's entry is no loop's)
}

bool readsEnvOnly(const Instruction* i) {
    return isOp(i, {Opcode::BindingIs, Opcode::NoActiveBindings, Opcode::IsPlainLocal,
                    Opcode::LdFunGuard, Opcode::LdVarBound});
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

Dominators::Dominators(Function& f) : index_(f.blocks.size(), -1) {
    f.computePreds();
    std::vector<BB*> order = f.rpo();
    for (size_t k = 0; k < order.size(); k++) index_[order[k]->id] = int(k);
    idom_.assign(order.size(), -1);
    if (order.empty()) return;
    idom_[0] = 0;
    auto intersect = [&](int a, int b) {
        while (a != b) {
            while (a > b) a = idom_[a];
            while (b > a) b = idom_[b];
        }
        return a;
    };
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t k = 1; k < order.size(); k++) {
            int d = -1;
            for (BB* p : order[k]->preds) {
                int pi = index_[p->id];
                if (pi < 0 || idom_[pi] < 0) continue;
                d = d < 0 ? pi : intersect(pi, d);
            }
            if (d != idom_[k]) {
                idom_[k] = d;
                changed = true;
            }
        }
    }
}

bool Dominators::dominates(BB* a, BB* b) const {
    int ai = index_[a->id], bi = index_[b->id];
    if (ai < 0 || bi < 0) return false;
    while (bi > ai) bi = idom_[bi];
    return bi == ai;
}

bool Dominators::availableAt(Instruction* d, Instruction* u, size_t k) const {
    if (u->op == Opcode::Phi) return dominates(d->bb, u->phiFrom[k]);
    if (d->bb != u->bb) return dominates(d->bb, u->bb);
    for (Instruction* i : d->bb->insns) {
        if (i == d) return true;
        if (i == u) return false;
    }
    return false;
}

}  // namespace pir
}  // namespace rir
