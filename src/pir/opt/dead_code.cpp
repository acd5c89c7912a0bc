// dead_code.cpp — removes what cannot matter: blocks no path reaches, and
// instructions whose value nobody uses and which have no effect (no heap
// written, no error, no deoptimization, no R code run), repeated until
// nothing changes (removing one use can free its operands). A Phi whose
// operands are all the same value (or itself) is replaced by that value.
//
//   before                                 after
//     %3 = LdConst 1                         %4 = LdVar x, %2
//     %4 = LdVar x, %2                       %5 = Force %4
//     %5 = Force %4                          %7 = Return %5
//     %6 = IsType %5, (real$'-)
//     %7 = Return %5
#include "pass.h"

namespace rir {
namespace pir {

namespace {

// An instruction that only computes its value.
bool pure(const Instruction* i) {
    if (i->isTerminator() || i->writes() != 0 || i->mayCallR()) return false;
    if (i->has(MayError) || i->has(NonLocal) || i->has(MayDeopt)) return false;
    // frame states and checkpoints are used by Deopt / Assume, never values
    return i->op != Opcode::FrameState && i->op != Opcode::Checkpoint;
}

bool trivialPhis(Function& f) {
    bool changed = false;
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) {
            if (i->op != Opcode::Phi) break;
            Instruction* same = nullptr;
            bool trivial = true;
            for (Instruction* a : i->args) {
                if (a == i || a == same) continue;
                if (same) trivial = false;
                same = a;
            }
            if (trivial && same) {
                replaceUses(f, i, same);
                i->args.clear();  // unused now: removed as dead below
                i->phiFrom.clear();
                changed = true;
            }
        }
    return changed;
}

}  // namespace

bool deadCode(Function& f) {
    bool changed = removeUnreachable(f);
    for (bool again = true; again;) {
        again = trivialPhis(f);
        std::vector<int> uses = useCounts(f);
        again = removeIf(f,
                         [&](Instruction* i) {
                             return uses[i->id] == 0 &&
                                    (pure(i) || (i->op == Opcode::Phi && i->args.empty()));
                         }) ||
                again;
        changed = changed || again;
    }
    f.computePreds();
    return changed;
}

}  // namespace pir
}  // namespace rir
