// forced_values.cpp — forcing a value that is not lazy (not an unforced
// promise, not a promise object, not the missing marker) gives the value
// itself: such a Force (or ForceOrMissing) goes and its uses take the
// operand. (A Force whose operand may be lazy stays: forcing may run the
// promise's code.)
//
//   before                          after
//     %10 = Mul %7, %9                %10 = Mul %7, %9
//     %11 = StVar z, %10, %3          %11 = StVar z, %10, %3
//     %13 = Force %10                 %15 = Add %10, %14
//     %15 = Add %13, %14
#include "pass.h"

namespace rir {
namespace pir {

bool forcedValues(Function& f) {
    std::vector<Instruction*> dead;
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) {
            // (ForceOrMissing too: its operand is a value, not missing)
            if (!i->is(Opcode::Force) && i->op != Opcode::ForceOrMissing) continue;
            PirType t = i->args[0]->type;
            if (t.isBottom() || t.may(Flag::Lazy) || t.mayBe(Kind::Prom) || t.may(Flag::Missing))
                continue;
            replaceUses(f, i, i->args[0]);
            dead.push_back(i);
        }
    return removeAll(f, dead);
}

}  // namespace pir
}  // namespace rir
