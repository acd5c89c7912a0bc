// scope_resolution.cpp — loads from the function's own environment that a
// reaching store (or an earlier load, or the argument it was created with)
// already decides become that value.
//
//   before                                   after
//     %2 = MkEnv x=%0, parent=%1               %2 = MkEnv x=%0, parent=%1
//     %3 = LdConst 2                           %3 = LdConst 2
//     %4 = StVar y, %3, %2                     %4 = StVar y, %3, %2
//     %5 = LdVar y, %2                         %6 = LdVar x, %2   (-> %0)
//     %6 = LdVar x, %2                         %7 = Add %3, ...
//
// Values that may be the missing marker (arguments not known to be passed)
// are not forwarded: their load raises the error naming the variable.
// What the environment holds is tracked forward over the control-flow graph:
// a variable's value is known after a store or a load of it, and at the
// start from MkEnv's bindings; it becomes unknown after anything that may
// write the own environment other than a store to it (a call, forcing a
// lazy value, dispatch: their effects say so), and where paths that
// disagree meet (this version makes no Phis). Stores stay (the environment
// is still real); dead-store and environment elision come later.
#include <map>

#include "pass.h"

namespace rir {
namespace pir {

namespace {

// Known bindings of the own environment; `top`: not reached yet (the merge
// identity).
struct State {
    bool top = true;
    std::map<SEXP, Instruction*> known;

    // merge: keep what both paths agree on
    bool mergeFrom(const State& o) {
        if (o.top) return false;
        if (top) {
            *this = o;
            return true;
        }
        bool changed = false;
        for (auto it = known.begin(); it != known.end();) {
            auto other = o.known.find(it->first);
            if (other == o.known.end() || other->second != it->second) {
                it = known.erase(it);
                changed = true;
            } else {
                ++it;
            }
        }
        return changed;
    }
};

bool isOwnEnv(const Instruction* e, const Instruction* env) {
    return e == env;
}

// The transfer function of one instruction; with `rewrite`, loads with a
// known value are replaced (their uses), and the loads are recorded in
// `dead` for removal.
void transfer(Function& f, Instruction* i, Instruction* env, State& s, bool rewrite,
              std::vector<Instruction*>* dead) {
    switch (i->op) {
        case Opcode::StVar:
        case Opcode::StArgDefault:
            if (isOwnEnv(i->args[1], env)) {
                s.known[i->symbol] = i->args[0];
                return;
            }
            break;
        case Opcode::LdVar:
            if (isOwnEnv(i->args[0], env)) {
                auto it = s.known.find(i->symbol);
                // (a value that may be the missing marker is not forwarded:
                // the load raises the error that names the variable)
                if (it != s.known.end() && !it->second->type.may(Flag::Missing)) {
                    if (rewrite) {
                        replaceUses(f, i, it->second);
                        dead->push_back(i);
                    }
                } else {
                    s.known[i->symbol] = i;
                }
                return;
            }
            break;
        default:
            break;
    }
    if (i->writes() & OwnEnv) s.known.clear();
}

}  // namespace

bool scopeResolution(Function& f) {
    // the own environment: the MkEnv of the entry block
    Instruction* env = nullptr;
    for (Instruction* i : f.entry->insns)
        if (i->op == Opcode::MkEnv) env = i;
    if (!env) return false;
    std::vector<BB*> order = f.rpo();
    std::vector<State> in(f.blocks.size());
    in[f.entry->id].top = false;
    // the bindings MkEnv makes (the start state is that of the entry block:
    // MkEnv itself records them below)
    auto run = [&](BB* b, bool rewrite, std::vector<Instruction*>* dead) {
        State s = in[b->id];
        for (Instruction* i : b->insns) {
            if (i == env) {
                s.known.clear();
                for (size_t k = 0; k + 1 < i->args.size() && k < i->names.size(); k++)
                    s.known[i->names[k]] = i->args[k];
                continue;
            }
            transfer(f, i, env, s, rewrite, dead);
        }
        return s;
    };
    // to a fixed point (states only shrink after their first visit)
    for (bool changed = true; changed;) {
        changed = false;
        for (BB* b : order) {
            if (in[b->id].top) continue;
            State out = run(b, false, nullptr);
            for (BB* s : b->succ) changed = in[s->id].mergeFrom(out) || changed;
        }
    }
    std::vector<Instruction*> dead;
    for (BB* b : order)
        if (!in[b->id].top) run(b, true, &dead);
    return removeAll(f, dead);
}

}  // namespace pir
}  // namespace rir
