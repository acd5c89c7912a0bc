// verifier.h — the RIR bytecode verifier: decodes a Code with the
// instruction table and computes, for every instruction, the height of the
// operand stack before it and what each slot holds; checks every operand
// (pool, cache, call-site, feedback and label indices) and that the stack
// never underflows, agrees where control flow merges, stays within the
// code's maxStack and holds loop state only where a loop expects it.
//
// A deoptimization resumes a Code at a pc with a given stack: the shape
// computed here is what that stack must look like.
#pragma once
#include <string>
#include <vector>

#include "../runtime/export.h"
#include "code.h"

namespace rir {

// What an operand-stack slot holds.
enum class SlotKind : unsigned char {
    Value,    // an R value
    LoopSeq,  // a for loop's sequence (or NULL for an integer range)
    LoopLen,  // its length and step (raw integers)
    LoopCtr,  // its counter (a raw integer)
};

struct CodeShape {
    // per bytecode offset: -1 unless an instruction starts there and is
    // reachable; else the stack height before it
    std::vector<int> height;
    // per bytecode offset: the slots below the top, bottom first (empty
    // where height is -1)
    std::vector<std::vector<SlotKind>> slots;
    int maxHeight = 0;
};

// Verifies c alone; "" when it is well formed, else what is wrong (with the
// offending pc). Fills `shape` when given.
RIR_EXPORT std::string verifyCode(const Code* c, CodeShape* shape = nullptr);

// Verifies c and every Code reachable from its constant pool (promises,
// loop bodies, default arguments); "" or the first problem found.
std::string verifyAll(const Code* c);

}  // namespace rir
