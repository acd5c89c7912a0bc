// visibility.cpp — drops a Visible or Invisible that a later one in the
// same block overrides before anything could observe R_Visible (a call, a
// builtin, R code run by forcing or dispatch, the return).
//
//   before                     after
//     %5 = Visible               %6 = LdConst 2
//     %6 = LdConst 2             %7 = Visible
//     %7 = Visible               %8 = Return %6
//     %8 = Return %6
#include "pass.h"

namespace rir {
namespace pir {

namespace {

bool observesOrSets(const Instruction* i) {
    return i->isTerminator() || i->mayCallR() || i->op == Opcode::CallSafeBuiltin ||
           i->op == Opcode::CallBuiltin || i->has(SetsVisible) || i->has(SetsInvisible);
}

}  // namespace

bool redundantVisible(Function& f) {
    bool changed = false;
    for (auto& b : f.blocks) {
        Instruction* pending = nullptr;  // a Visible/Invisible nothing observed yet
        std::vector<Instruction*> dead;
        for (Instruction* i : b->insns) {
            bool sets = i->op == Opcode::Visible || i->op == Opcode::Invisible;
            if (sets && pending) dead.push_back(pending);
            if (sets) {
                pending = i;
            } else if (observesOrSets(i)) {
                pending = nullptr;
            }
        }
        changed = removeAll(f, dead) || changed;
    }
    return changed;
}

}  // namespace pir
}  // namespace rir
