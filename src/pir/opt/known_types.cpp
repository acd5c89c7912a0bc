// known_types.cpp — speculation that has become certain goes: an Assume
// whose IsType tests a value already known (from its type) to have the
// assumed type, and a CastType to a type the value has. A Checkpoint with
// no Assume left becomes a Jump (dead code then drops its deoptimization
// block). Speculation is decided while translating, when a variable's value
// is still unknown; scope resolution may later find it (a Phi of integer
// constants, say). Uses of a value that a CastType of it dominates take the
// CastType first, so a type speculated once is known from there on.
//
//   before                                   after
//     %42 = Phi %5 (BB1), %30 (BB5)  int$'-    %42 = Phi %5 (BB1), %30 (BB5)
//     %14 = Checkpoint -> BB7, BB8             %14 = Jump -> BB7
//   BB7                                      BB7
//     %18 = IsType %42, (int$'-)               %21 = Gt %42, %13
//     %19 = Assume %18, %14, (int$'-)
//     %20 = CastType %42, (int$'-)
//     %21 = Gt %20, %13
//
// An Assume that a value known to be a plain scalar of one kind (an
// argument the call context types) has another kind would always fail: the
// feedback it came from saw calls in other contexts. It goes too, and the
// value's casts to that type: the operation takes the value as it is.
#include <map>

#include "pass.h"

namespace rir {
namespace pir {

namespace {

bool known(const Instruction* v, PirType t) {
    return !v->type.isBottom() && v->type.isSubtypeOf(t);
}

// Uses of a value where a CastType of it (after its Assume) is available
// take the CastType: its type is known there.
bool refineUses(Function& f) {
    std::vector<Instruction*> casts;
    std::map<Instruction*, std::vector<std::pair<Instruction*, size_t>>> uses;
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) {
            if (i->op == Opcode::CastType) casts.push_back(i);
            for (size_t k = 0; k < i->args.size(); k++) uses[i->args[k]].push_back({i, k});
        }
    if (casts.empty()) return false;
    Dominators dom(f);
    bool changed = false;
    for (Instruction* c : casts) {
        auto it = uses.find(c->args[0]);
        if (it == uses.end()) continue;
        for (auto& use : it->second) {
            Instruction* u = use.first;
            if (u == c || !u->bb || u->args[use.second] != c->args[0]) continue;
            if (!dom.availableAt(c, u, use.second)) continue;
            u->args[use.second] = c;
            changed = true;
        }
    }
    if (changed) f.inferTypes();
    return changed;
}

}  // namespace

// v is a plain scalar of one kind (lgl, int, real) that t does not have
bool contradicts(const Instruction* v, PirType t) {
    return !v->type.isBottom() && v->type.isUnboxable() && !(v->type.kinds() & t.kinds());
}

bool knownTypes(Function& f) {
    bool refined = refineUses(f);
    std::vector<Instruction*> dead;
    bool contradiction = false;
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) {
            if (i->op == Opcode::Assume) {
                Instruction* test = i->args[0];
                if (test->op == Opcode::IsType && (known(test->args[0], test->carriedType) ||
                                                   contradicts(test->args[0], test->carriedType))) {
                    contradiction = contradiction || !known(test->args[0], test->carriedType);
                    dead.push_back(i);
                }
            } else if (i->op == Opcode::CastType && (known(i->args[0], i->carriedType) ||
                                                     contradicts(i->args[0], i->carriedType))) {
                replaceUses(f, i, i->args[0]);
                dead.push_back(i);
            }
        }
    bool changed = removeAll(f, dead) || refined;
    if (contradiction) f.inferTypes();
    std::vector<int> uses = useCounts(f);
    for (auto& b : f.blocks) {
        Instruction* t = b->terminator();
        if (!t || t->op != Opcode::Checkpoint || uses[t->id] != 0) continue;
        t->op = Opcode::Jump;
        b->succ = {b->succ[0]};
        changed = true;
    }
    if (changed) f.computePreds();
    return changed;
}

}  // namespace pir
}  // namespace rir
