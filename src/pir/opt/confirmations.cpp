// confirmations.cpp — a confirmation that cannot fail goes. Scope
// resolution confirms, at the checkpoint after an effect that may write the
// own environment, that the bindings its loads read still hold the values
// it knew (Assume of BindingIs, NoActiveBindings). When a later pass
// removes that effect (constant branches folded the test guarding it), or
// the value is known on every path to the checkpoint anyway, the test is
// TRUE wherever it runs; it still costs a look at the binding, and
// environment elision has to write the variable before it, at every
// iteration of a loop.
//
//   before                                   after
//   BB2  <- BB0 BB3                          BB2  <- BB0 BB3
//     %55 = Phi %9 (BB0), %71 (BB3)            %55 = Phi %9 (BB0), %71 (BB3)
//     ...                                      ...
//     %61 = Checkpoint -> BB3, BB4             %61 = Jump -> BB3
//   BB3  <- BB2                              BB3  <- BB2
//     %62 = BindingIs acc, %4, %55             %71 = Add %55, %69
//     %63 = Assume %62, %61                    %72 = StVar acc, %71, %4
//     %71 = Add %55, %69                       %73 = Jump -> BB2
//     %72 = StVar acc, %71, %4
//     %73 = Jump -> BB2
//
// What each binding of the own environment holds is tracked forward: the
// value MkEnv bound, a store's value, the value a passed confirmation
// tested; anything else that may write the environment (R code: a call,
// forcing, dispatch, a warning's handlers) forgets everything. Where paths
// meet, a binding keeps a value all of them know, or the block's Phi of
// the values they know. NoActiveBindings holds while no such write
// happened since MkEnv or a passed NoActiveBindings.
#include <map>

#include "../analysis/dataflow.h"
#include "pass.h"

namespace rir {
namespace pir {

namespace {

struct Held {
    bool top = true;     // (not reached yet)
    bool clean = false;  // no active binding
    std::map<SEXP, Instruction*> known;
    bool operator!=(const Held& o) const {
        return top != o.top || clean != o.clean || known != o.known;
    }
};

struct Confirmations {
    Function& f;
    Instruction* env;
    std::vector<Held> in, out;
    std::vector<Instruction*> redundant;  // Assumes of tests that hold

    Confirmations(Function& f, Instruction* env)
        : f(f), env(env), in(f.blocks.size()), out(f.blocks.size()) {}

    // Is the test certainly TRUE in state s?
    bool holds(const Instruction* t, const Held& s) const {
        if (t->op == Opcode::NoActiveBindings) return t->args[0] == env && s.clean;
        if (t->op != Opcode::BindingIs || t->args[0] != env) return false;
        auto k = s.known.find(t->symbol);
        return k != s.known.end() && k->second == t->args[1];
    }

    void transfer(Instruction* i, Held& s, bool record) {
        if (i == env) {
            s.known.clear();
            s.clean = true;
            for (size_t k = 0; k + 1 < i->args.size() && k < i->names.size(); k++)
                s.known[i->names[k]] = i->args[k];
            return;
        }
        if (i->op == Opcode::StVar && i->args[1] == env) {
            // (a store to an active binding runs its function)
            if (s.clean)
                s.known[i->symbol] = i->args[0];
            else
                s.known.clear();
            return;
        }
        if (i->op == Opcode::Assume) {
            Instruction* t = i->args[0];
            if (record && holds(t, s)) redundant.push_back(i);
            if (t->op == Opcode::NoActiveBindings && t->args[0] == env) s.clean = true;
            if (t->op == Opcode::BindingIs && t->args[0] == env) s.known[t->symbol] = t->args[1];
            return;
        }
        if (readsEnvOnly(i)) return;
        if (i->op == Opcode::StArgDefault && i->args[1] == env) {
            s.known.erase(i->symbol);
            return;
        }
        bool readsEnv = false;
        for (const Instruction* a : i->args) readsEnv = readsEnv || a == env;
        // (a load of a binding that may be active runs its function)
        if ((i->writes() & OwnEnv) || (readsEnv && !s.clean)) {
            s.known.clear();
            s.clean = false;
        }
    }

    Held run(BB* b, Held s, bool record) {
        for (Instruction* i : b->insns) transfer(i, s, record);
        return s;
    }

    Held merge(BB* b) {
        Held s;
        std::vector<BB*> reached;
        for (BB* p : b->preds)
            if (!out[p->id].top) reached.push_back(p);
        if (reached.empty()) return s;
        s.top = false;
        s.clean = true;
        for (BB* p : reached) s.clean = s.clean && out[p->id].clean;
        for (auto& k : out[reached[0]->id].known) {
            SEXP sym = k.first;
            bool same = true, everywhere = true;
            for (BB* p : reached) {
                auto o = out[p->id].known.find(sym);
                if (o == out[p->id].known.end()) {
                    everywhere = false;
                    break;
                }
                same = same && o->second == k.second;
            }
            if (!everywhere) continue;
            if (same) {
                s.known[sym] = k.second;
                continue;
            }
            // the block's Phi of exactly those values (every predecessor's
            // operand known; one not reached yet counts as agreeing)
            for (Instruction* phi : b->insns) {
                if (phi->op != Opcode::Phi) break;
                bool fits = phi->args.size() == b->preds.size();
                for (size_t a = 0; fits && a < phi->args.size(); a++) {
                    BB* p = phi->phiFrom[a];
                    if (out[p->id].top) continue;
                    auto o = out[p->id].known.find(sym);
                    fits = o != out[p->id].known.end() && o->second == phi->args[a];
                }
                if (fits) {
                    s.known[sym] = phi;
                    break;
                }
            }
        }
        return s;
    }
};

}  // namespace

bool redundantConfirmations(Function& f) {
    Instruction* env = trackedOwnEnv(f);
    if (!env) return false;
    Confirmations c(f, env);
    c.in[f.entry->id].top = false;
    bool solved = solveDataflow(
        f, Direction::Forward, c.in, c.out,
        [&](BB* b) -> std::optional<Held> {
            if (b == f.entry) return c.in[b->id];
            Held s = c.merge(b);
            if (s.top) return std::nullopt;
            return s;
        },
        [&](BB* b, const Held& s) { return c.run(b, s, false); }, 100);
    if (!solved) return false;
    for (BB* b : f.rpo())
        if (!c.in[b->id].top) c.run(b, c.in[b->id], true);
    if (c.redundant.empty()) return false;
    removeAll(f, c.redundant);
    // (the tests go as dead code; a checkpoint left without an Assume
    // becomes a jump)
    knownTypes(f);
    return true;
}

}  // namespace pir
}  // namespace rir
