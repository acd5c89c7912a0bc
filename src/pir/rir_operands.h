// rir_operands.h — the PIR values of the operands an RIR instruction loads
// itself, for the translators of RIR code (translator.h, inline_body.cpp).
//
//   ld2_binop +, kindA = kFromVariable x, kindB = kFromConstant 1
//   =>  a = load(x, its cache slot), b = LdConst 1
#pragma once
#include <utility>
#include <vector>

#include "../bc/code.h"
#include "../bc/insns.h"
#include "builder.h"

namespace rir {
namespace pir {

// ld2_binop's operands (a, b): popped from the stack (a below b), a
// variable's value (load(symbol, binding-cache slot)) or a constant.
template <class Load>
std::pair<Instruction*, Instruction*> ld2Operands(Builder& b, const insn::ld2_binop& o,
                                                  std::vector<Instruction*>& stack, const Code* c,
                                                  const Load& load) {
    int nStack = (o.kindA == insn::kFromStack) + (o.kindB == insn::kFromStack);
    std::vector<Instruction*> fromStack(stack.end() - nStack, stack.end());
    stack.resize(stack.size() - nStack);
    size_t used = 0;
    auto operand = [&](int kind, int pool, int slot) -> Instruction* {
        if (kind == insn::kFromStack) return fromStack[used++];
        if (kind == insn::kFromConstant) return b.ldConst(c->poolAt(pool));
        return load(c->poolAt(pool), slot);
    };
    Instruction* x = operand(o.kindA, o.a, o.slotA);
    Instruction* y = operand(o.kindB, o.b, o.slotB);
    return {x, y};
}

}  // namespace pir
}  // namespace rir
