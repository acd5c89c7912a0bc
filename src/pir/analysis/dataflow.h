// dataflow.h — the one solver of the dataflow problems passes pose over a
// function's control-flow graph (scope resolution's bindings, environment
// elision's pristine environment and deferred stores, the native tier's
// live slots): a state at each block's start and end, recomputed until
// nothing changes.
//
// A problem is two functions over states the problem owns, indexed by block
// id (`in`: at the start, `out`: at the end):
//   join(b)         the state where b's edges meet: at its start from its
//                   predecessors' `out` (forward), at its end from its
//                   successors' `in` (backward); for a block without such
//                   edges, the boundary (the entry's, the exit's). Or
//                   std::nullopt while b is not reached: its states stay as
//                   they are and transfer is not called.
//   transfer(b, s)  the state at b's other end, s being the joined one.
// Both may read any block's current state (a Phi's operand is live only on
// its own edge; an Assume's deoptimization exit is live inside a block).
// The solver visits blocks in reverse postorder (forward) or its reverse
// (backward), so a problem without loops settles in one round, and stops at
// the first round that changes no state. Which fixed point that is, the
// starting states decide: the greatest from the lattice's top ("written on
// every path before it is read": every variable at first), the least from
// its bottom (liveness: nothing live at first).
//
// Example, liveness (backward; join: the union of the successors' `in`
// and of the Phi operands on the edge; transfer: kill a definition, add
// its operands):
//   BB0: %1 = LdArg 0            in {}      out {%1}
//        %2 = LdArg 1
//        Branch %2 -> BB1, BB2
//   BB1: %3 = Add %1, %1         in {%1}    out {%3}
//        Jump -> BB3
//   BB2: Jump -> BB3             in {%1}    out {%1}
//   BB3: %4 = Phi BB1:%3, BB2:%1 in {}      out {}
//        Return %4
//
// After the fixed point, a pass acts on what it found by walking each
// block once more from its final joined state (the same walk as transfer,
// now recording what to change): the states a walk sees in a round before
// the last can still be wrong.
#pragma once

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "../ir.h"

namespace rir {
namespace pir {

enum class Direction { Forward, Backward };

// Solves the problem (join, transfer) over f's reachable blocks, in place
// in `in` and `out` (one state per block id, set by the caller to the
// starting states). False when maxRounds rounds did not reach a fixed point
// (the states are then unusable).
template <typename State, typename Join, typename Transfer>
bool solveDataflow(const Function& f, Direction dir, std::vector<State>& in,
                   std::vector<State>& out, Join join, Transfer transfer,
                   int maxRounds = std::numeric_limits<int>::max()) {
    std::vector<BB*> order = f.rpo();
    if (dir == Direction::Backward) std::reverse(order.begin(), order.end());
    std::vector<State>& joined = dir == Direction::Forward ? in : out;
    std::vector<State>& transferred = dir == Direction::Forward ? out : in;
    for (int round = 0; round < maxRounds; round++) {
        bool changed = false;
        for (BB* b : order) {
            std::optional<State> j = join(b);
            if (!j) continue;
            if (*j != joined[b->id]) {
                joined[b->id] = std::move(*j);
                changed = true;
            }
            State t = transfer(b, joined[b->id]);
            if (t != transferred[b->id]) {
                transferred[b->id] = std::move(t);
                changed = true;
            }
        }
        if (!changed) return true;
    }
    return false;
}

}  // namespace pir
}  // namespace rir
