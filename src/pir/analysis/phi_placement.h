// phi_placement.h — on-demand Phi placement for the values of variables
// that passes follow through the control-flow graph (scope resolution's
// loads, environment elision's stores): the value of a variable where
// several predecessors meet is a Phi at that block, made once per (block,
// variable) and inserted before its operands are resolved, so that a loop
// header's Phi can be its own operand.
//
//   BB1: x <- 1 ... -> BB3      BB3 <- BB1 BB2
//   BB2: x <- 2 ... -> BB3        %9 = Phi %4 (BB1), %7 (BB2)
//   BB3: ... x ...                ... %9 ...
#pragma once

#include <map>
#include <utility>

#include "../ir.h"

namespace rir {
namespace pir {

// A new Phi at the start of block b (after the Phis already there), without
// operands.
inline Instruction* newPhiAt(Function& f, BB* b) {
    Instruction* phi = f.newInsn(Opcode::Phi);
    phi->bb = b;
    size_t at = 0;
    while (at < b->insns.size() && b->insns[at]->op == Opcode::Phi) at++;
    b->insns.insert(b->insns.begin() + at, phi);
    return phi;
}

// The Phis made for (block, Key) pairs.
template <typename Key>
class PhiPlacement {
  public:
    // The Phi merging `key` at block b: made (once) with an operand
    // operandFrom(p) for each predecessor p that skip(p) does not leave out.
    // operandFrom may ask for Phis again (through the caller's own value
    // resolution), the Phi at b included.
    template <typename Skip, typename OperandFrom>
    Instruction* at(Function& f, BB* b, const Key& key, Skip skip, OperandFrom operandFrom) {
        auto made = phis_.find({b, key});
        if (made != phis_.end()) return made->second;
        Instruction* phi = newPhiAt(f, b);
        phis_[{b, key}] = phi;
        for (BB* p : b->preds) {
            if (skip(p)) continue;
            Instruction* a = operandFrom(p);
            phi->phiFrom.push_back(p);
            phi->args.push_back(a);
        }
        return phi;
    }
    // The Phi made for key at b, or nullptr.
    Instruction* find(BB* b, const Key& key) const {
        auto it = phis_.find({b, key});
        return it == phis_.end() ? nullptr : it->second;
    }
    bool empty() const { return phis_.empty(); }
    // Every Phi made, for the clean-up of those that turned out redundant.
    template <typename F>
    void forEach(F f) const {
        for (auto& m : phis_) f(m.second);
    }

  private:
    std::map<std::pair<BB*, Key>, Instruction*> phis_;
};

}  // namespace pir
}  // namespace rir
