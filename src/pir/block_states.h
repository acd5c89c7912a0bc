// block_states.h — the states flowing into the blocks of RIR code being
// translated to PIR (rir2pir.cpp, inline_body.cpp): each block starts with
// one Phi per slot of its state (the operand stack; for an inlined body,
// its variables too), each edge into it records the state it brings, and
// once every edge is known the Phis get their operands.
//
//   BB3:  %10 = Phi  (operands: from BB1 %4, from BB2 %7 — filled last)
//
// A block no edge has reached when its turn comes is skipped (the general
// path after a speculated fast one); an edge to it found later (a jump
// back) makes the translation fail: backToSkipped.
#pragma once
#include <iterator>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "builder.h"

namespace rir {
namespace pir {

struct BlockStates {
    using State = std::vector<Instruction*>;
    std::map<int, State> phis;  // per block (its first pc): the state's Phis
    std::map<int, std::vector<std::pair<BB*, State>>> incoming;
    std::set<int> skipped;
    bool backToSkipped = false;

    // The Phis of the block at pc, whose state has n slots (made in bb).
    void enter(Builder& b, int pc, BB* bb, size_t n) {
        BB* at = b.bb;
        b.setBB(bb);
        State& p = phis[pc];
        p.clear();
        for (size_t k = 0; k < n; k++) p.push_back(b.phi({}));
        b.setBB(at);
    }
    // An edge from `from` into the block at target, bringing state.
    void edge(int target, BB* from, const State& state) {
        if (skipped.count(target)) backToSkipped = true;
        incoming[target].push_back({from, state});
    }
    // Whether an edge reached the block at pc; if not, it is skipped.
    bool reached(int pc) {
        if (incoming.count(pc)) return true;
        skipped.insert(pc);
        return false;
    }
    // Translates the blocks (first pc -> block, in order; the code has
    // `size` instructions) an edge reached by then: translate(pc, end,
    // state) with the builder in the block and state its Phis; false stops
    // (and is returned).
    template <class F>
    bool translateReached(Builder& b, const std::map<int, BB*>& blocks, int size, F translate) {
        for (auto it = blocks.begin(); it != blocks.end(); ++it) {
            auto next = std::next(it);
            int end = next == blocks.end() ? size : next->first;
            if (!reached(it->first)) continue;
            b.setBB(it->second);
            State state = phis[it->first];
            if (!translate(it->first, end, state)) return false;
        }
        return true;
    }
    // As translateReached, for a continuation entered at `entry` (a loop
    // header): blocks before it can be reached from blocks after it (an
    // enclosing loop's header, by its jump back), so rounds over the blocks,
    // from the entry on and then from the start, translate each block an
    // edge has reached until a round finds none; the others are skipped.
    template <class F>
    bool translateFrom(Builder& b, const std::map<int, BB*>& blocks, int size, int entry,
                       F translate) {
        std::set<int> done;
        for (bool more = true; more;) {
            more = false;
            for (int pass = 0; pass < 2; pass++)
                for (auto it = blocks.begin(); it != blocks.end(); ++it) {
                    if ((it->first >= entry) != (pass == 0)) continue;
                    if (done.count(it->first) || !incoming.count(it->first)) continue;
                    auto next = std::next(it);
                    int end = next == blocks.end() ? size : next->first;
                    done.insert(it->first);
                    more = true;
                    b.setBB(it->second);
                    State state = phis[it->first];
                    if (!translate(it->first, end, state)) return false;
                }
        }
        for (auto& e : blocks)
            if (!done.count(e.first)) skipped.insert(e.first);
        return true;
    }
    // The Phi operands, once every edge is known.
    void fillPhis() {
        for (auto& in : incoming) {
            State& p = phis[in.first];
            for (auto& e : in.second)
                for (size_t k = 0; k < p.size(); k++) {
                    p[k]->phiFrom.push_back(e.first);
                    p[k]->args.push_back(e.second[k]);
                }
        }
    }
};

}  // namespace pir
}  // namespace rir
