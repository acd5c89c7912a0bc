// pass.h — PIR passes and the pipeline that runs them (pipeline.cpp).
//
// A pass rewrites a Function in place and says whether it changed
// anything (the pipeline then recomputes the types from the rules). The pipeline runs them in
// order; in test builds (RIR_DEBUG= verify) the verifier checks the function after every pass, and
// with RIR_DEBUG=pir each pass's output is printed.
#pragma once
#include <string>
#include <vector>

#include "../../runtime/export.h"
#include "../ir.h"

namespace rir {
namespace pir {

struct Pass {
    const char* name;
    bool (*run)(Function& f);
};

// The passes, in pipeline order.
const std::vector<Pass>& passes();

// Runs the pipeline on f. With `verifyEach`, returns "" or the first
// verifier problem ("after <pass>: ..."), leaving f as that pass left it.
// With `trace`, appends each pass's name and the function it produced.
std::string optimize(Function& f, bool verifyEach, std::string* trace = nullptr);

// ---- helpers shared by passes (utils.cpp)

// Replaces every use of `from` by `to`.
void replaceUses(Function& f, Instruction* from, Instruction* to);
// How many operands refer to each instruction (indexed by id).
std::vector<int> useCounts(const Function& f);
// Removes the instructions for which `dead` is true from their blocks (they
// stay owned by the function).
template <class Pred>
bool removeIf(Function& f, Pred dead) {
    bool changed = false;
    for (auto& b : f.blocks) {
        auto& v = b->insns;
        size_t out = 0;
        for (size_t k = 0; k < v.size(); k++) {
            if (dead(v[k])) {
                v[k]->bb = nullptr;
                changed = true;
            } else {
                v[out++] = v[k];
            }
        }
        v.resize(out);
    }
    return changed;
}
// Removes the listed instructions from their blocks.
bool removeAll(Function& f, const std::vector<Instruction*>& dead);
// Each Phi of `made` whose block has another Phi (not in `dead`) with the
// same operands gives way to it: its uses take the other, it goes to `dead`.
void dropDuplicatePhis(Function& f, const std::vector<Instruction*>& made,
                       std::vector<Instruction*>& dead);
// Drops the Phi operands coming from `pred` in block `b` (an edge removed).
void removePhiInputsFrom(BB* b, BB* pred);
// The own environment (Function::ownEnv) for a pass that follows its
// bindings from where it is made: nullptr when there is none or a loop
// enters the entry block. Computes the predecessors.
Instruction* trackedOwnEnv(Function& f);
// Does i only read its environment operand (a binding's test, a guard's
// lookup: no write, no R code)?
bool readsEnvOnly(const Instruction* i);
// Empties the blocks no path from the entry reaches (and drops their Phi
// inputs in their successors); true if there were any.
bool removeUnreachable(Function& f);

// Dominance between the blocks reached from the entry (immediate
// dominators by Cooper, Harvey and Kennedy's iteration over reverse post
// order; it computes the predecessors).
class RIR_EXPORT Dominators {
  public:
    explicit Dominators(Function& f);
    // Does every path from the entry to b pass a (a == b included)?
    bool dominates(BB* a, BB* b) const;
    // Is instruction d's value available at operand k of u (u a Phi: at
    // the end of the block that operand comes from)?
    bool availableAt(Instruction* d, Instruction* u, size_t k) const;

  private:
    std::vector<int> index_;  // by block id: reverse post order index, -1 unreached
    std::vector<int> idom_;   // by rpo index: the immediate dominator's
};

// The passes (one per file).
bool scopeResolution(Function& f);         // scope_resolution.cpp
bool forcedValues(Function& f);            // forced_values.cpp
bool deadCode(Function& f);                // dead_code.cpp
bool constantBranches(Function& f);        // constant_branches.cpp
bool redundantVisible(Function& f);        // visibility.cpp
bool knownTypes(Function& f);              // known_types.cpp
bool envElision(Function& f);              // env_elision.cpp
bool redundantConfirmations(Function& f);  // confirmations.cpp
bool callContexts(Function& f);            // call_contexts.cpp

}  // namespace pir
}  // namespace rir
