// scope_resolution.cpp — loads from the function's own environment whose
// value the reaching stores decide become SSA values: the stored value when
// one store reaches, a Phi where different stores meet.
//
//   before                                   after
//   BB0                                      BB0
//     %2 = MkEnv n=%0, parent=%1               %2 = MkEnv n=%0, parent=%1
//     %3 = LdConst 0                           %3 = LdConst 0
//     %4 = StVar s, %3, %2                     %4 = StVar s, %3, %2
//     %5 = Branch %9 -> BB1, BB2               %5 = Branch %9 -> BB1, BB2
//   BB1  <- BB0                              BB1  <- BB0
//     %6 = LdConst 1                           %6 = LdConst 1
//     %7 = StVar s, %6, %2                     %7 = StVar s, %6, %2
//     %8 = Jump -> BB2                         %8 = Jump -> BB2
//   BB2  <- BB0 BB1                          BB2  <- BB0 BB1
//     %10 = LdVar s, %2                        %11 = Phi BB0:%3, BB1:%6
//     %12 = Return %10                         %12 = Return %11
//
// What the environment holds is tracked forward over the control-flow graph:
// a variable's value is known after a store or a load of it, and at the
// start from MkEnv's bindings; it becomes unknown where a path on which it
// is unknown meets others. Where paths that know different values meet,
// the variable's value is a Phi of the block (made only when a load uses
// it; a Phi of a loop header whose other operands are all the same value is
// that value, dead code removes it).
//
// Anything that may write the own environment other than a store to it (a
// call, forcing a lazy value, dispatch, a warning's calling handlers: their
// effects say so) makes what
// is known unconfirmed: loads after it read the environment (and their
// value is what is known then; a store is known again), until the next
// Checkpoint, which confirms the rest. There each known binding that some load reads gets an Assume
// that the environment still binds the value known (BindingIs): only reflective code (a promise
// assigning into its caller, sys.frame(), ...) changes them, and then the function leaves for RIR
// there, with what it computed since the effect, none of which used the unconfirmed values. Forcing
// a variable whose known value is not lazy has no effect.
//
//     %20 = Call f, ...                   %20 = Call f, ...
//     %21 = Checkpoint -> BB5, BB6        %21 = Checkpoint -> BB5, BB6
//   BB5                                 BB5
//     %22 = LdVar s, %2                   %30 = BindingIs s, %2, %7
//     %23 = Force %22                     %31 = Assume %30, %21
//     %24 = Add %23, %9                   %24 = Add %7, %9
//
// A load left in place (its binding unconfirmed) is the variable's value
// after it, forced once (a later Force of it is the first's), and the one
// the next checkpoint confirms when the own frame binds the variable (an
// argument, a stored one; a free variable's load may have found an
// enclosing frame's binding, which BindingIs does not test). Code that
// unbinds such a variable itself at every call (`rm(x); x + 1`, x then
// global) fails the confirmation every time, until the version is retired
// (a contrived case: the same holds for any reflective change the function
// makes to its own frame at every call):
//
//     %30 = PopContext %29, %25           %30 = PopContext %29, %25
//     %31 = LdVar kr, %2                  %31 = LdVar kr, %2
//     %32 = Force %31                     %32 = Force %31
//     %33 = Checkpoint -> BB7, BB8        %33 = Checkpoint -> BB7, BB8
//   BB7                                 BB7
//     ...                                 %40 = BindingIs kr, %2, %31
//   BB9 (a loop)                          %41 = Assume %40, %33
//     %50 = LdVar kr, %2                BB9
//     %51 = Force %50                     %52 = Sub %32, %12
//     %52 = Sub %51, %12
//
// When a replaced load makes an instruction after it known not to dispatch
// (its operand's type is known now), the analysis runs again.
//
// Values that may be the missing marker (arguments not known to be passed)
// are not forwarded: their load raises the error naming the variable. Once
// such a load of the value ran (on every path), later loads of it are
// forwarded: the value is not the marker.
// Stores stay (the environment is still real); dead-store and environment
// elision come later.
#include <algorithm>
#include <map>
#include <set>

#include "../../bc/subassign.h"
#include "../analysis/dataflow.h"
#include "../analysis/phi_placement.h"
#include "pass.h"

namespace rir {
namespace pir {

namespace {

// What a variable holds: an instruction's value, or the Phi (not made yet)
// of block `phiAt`.
struct Val {
    Instruction* v = nullptr;
    BB* phiAt = nullptr;
    bool operator==(const Val& o) const { return v == o.v && phiAt == o.phiAt; }
    bool operator!=(const Val& o) const { return !(*this == o); }
};

// Known bindings of the own environment (absent: unknown); `top`: the block
// was not reached yet (the merge identity); `unconfirmed`: the known ones
// something may have changed since (not stored or loaded again since, no
// checkpoint confirmed them yet).
// `reflective`: something that may have run reflective code ran since the
// last checkpoint, so the environment may hold active bindings now: a
// store may call a function instead of binding the value, a load may
// return a different value each time.
// `forced`: promises (SSA values) a Force has forced on every path here,
// with that Force (it dominates: forcing them again is its value).
// `present`: variables whose known value a load left in place has read on
// every path here since it was bound (the load raised the error if it was
// the missing marker: it is not).
// `own`: variables the own environment binds on every path here (MkEnv's,
// stored ones): only reflective code (rm()) unbinds them, so what a load of
// one found after such code may have run is what a checkpoint confirms (the
// own frame's binding; any other value fails the BindingIs).
struct State {
    bool top = true;
    bool reflective = false;
    std::set<SEXP> unconfirmed;
    std::map<SEXP, Val> known;
    std::map<Instruction*, Instruction*> forced;
    std::set<SEXP> present;
    std::set<SEXP> own;
    bool operator!=(const State& o) const {
        return top != o.top || reflective != o.reflective || unconfirmed != o.unconfirmed ||
               known != o.known || forced != o.forced || present != o.present || own != o.own;
    }
};

// Keeps in `s` only what `other` has too.
void keepCommon(std::set<SEXP>& s, const std::set<SEXP>& other) {
    for (auto it = s.begin(); it != s.end();) it = other.count(*it) ? std::next(it) : s.erase(it);
}

// The state at the start of block b from its predecessors' end states.
// A variable known on every reached path has that value when all agree,
// else the block's Phi; once a Phi, it stays one (so the iteration ends:
// each variable's value at a block only moves from unknown-yet to a value
// to a Phi to unknown).
State mergeInto(BB* b, const State& old, const std::vector<const State*>& ins) {
    State s;
    for (const State* in : ins) {
        if (in->top) continue;
        if (s.top) {
            s = *in;
            continue;
        }
        s.reflective = s.reflective || in->reflective;
        for (auto it = s.forced.begin(); it != s.forced.end();) {
            auto o = in->forced.find(it->first);
            it = o != in->forced.end() && o->second == it->second ? std::next(it)
                                                                  : s.forced.erase(it);
        }
        s.unconfirmed.insert(in->unconfirmed.begin(), in->unconfirmed.end());
        keepCommon(s.present, in->present);
        keepCommon(s.own, in->own);
        for (auto it = s.known.begin(); it != s.known.end();) {
            auto o = in->known.find(it->first);
            if (o == in->known.end()) {
                it = s.known.erase(it);
                continue;
            }
            if (o->second != it->second) it->second = Val{nullptr, b};
            ++it;
        }
    }
    for (auto& k : s.known) {
        auto o = old.known.find(k.first);
        if (o != old.known.end() && o->second.phiAt == b) k.second = o->second;
    }
    for (auto it = s.unconfirmed.begin(); it != s.unconfirmed.end();)
        it = s.known.count(*it) ? std::next(it) : s.unconfirmed.erase(it);
    // (a variable whose value became a Phi here was bound differently on
    // some path)
    for (auto it = s.present.begin(); it != s.present.end();) {
        auto k = s.known.find(*it);
        it = k != s.known.end() && k->second.v ? std::next(it) : s.present.erase(it);
    }
    return s;
}

struct Resolver {
    Function& f;
    Instruction* env;
    std::vector<State> in, out;
    // Phis made, and the ones that could not be (an operand may be missing)
    PhiPlacement<SEXP> phis;
    std::set<std::pair<BB*, SEXP>> refused;
    // loads already replaced (the states computed before still name them)
    std::map<Instruction*, Instruction*> replaced;

    // variables some load of the own environment reads (only their
    // bindings are worth confirming)
    std::set<SEXP> loaded;
    // values that replaced loads of a value known not to be lazy
    std::set<Instruction*> eager;
    // loads whose value is known where they are (in the latest run)
    std::map<const Instruction*, Val> resolvedLoads;

    // An operand's type, a load's the known value's (a forced one's,
    // forced): whether an instruction may dispatch to R code on it.
    static PirType operandType(const Instruction* a, void* self) {
        auto* r = static_cast<Resolver*>(self);
        bool forced = a->is(Opcode::Force);
        const Instruction* l = forced ? a->args[0] : a;
        auto it = r->resolvedLoads.find(l);
        if (it == r->resolvedLoads.end()) return a->type;
        std::set<BB*> seen;
        PirType t = r->valType(it->second, l->symbol, seen);
        return forced ? t.forced() : t;
    }
    // The type of a known value (a Phi: of its operands, a loop's own not
    // counted)
    PirType valType(const Val& v, SEXP sym, std::set<BB*>& seen) {
        if (v.v) return current(v.v)->type;
        PirType t = PirType::bottom();
        if (!seen.insert(v.phiAt).second) return t;
        for (BB* p : v.phiAt->preds) {
            if (out[p->id].top) continue;
            auto it = out[p->id].known.find(sym);
            if (it == out[p->id].known.end()) return PirType::any();
            t = t | valType(it->second, sym, seen);
        }
        return t;
    }

    Resolver(Function& f, Instruction* env)
        : f(f), env(env), in(f.blocks.size()), out(f.blocks.size()) {
        for (auto& b : f.blocks)
            for (Instruction* i : b->insns) {
                // (`...` is expanded by the calls that load it, never a value)
                if (i->is(Opcode::LdVar) && i->args[0] == env && i->symbol != R_DotsSymbol)
                    loaded.insert(i->symbol);
                if (i->op == Opcode::ForceOrMissing) indexLoads.insert(i->args[0]);
            }
    }
    // loads of an index that may be missing (ForceOrMissing's operand: one
    // lookup with it)
    std::set<Instruction*> indexLoads;

    static bool lazyType(PirType t) {
        return t.isBottom() || t.may(Flag::Lazy) || t.mayBe(Kind::Prom) || t.may(Flag::Missing);
    }
    // May the value be lazy (or missing)? (Phis: any operand; a loop's own
    // operand does not count)
    // Does `pred` hold for the value (a Phi: for one of its operands, a
    // loop's own not counted; an operand not known counts as `unknown`)?
    template <class Pred>
    bool anyValue(const Val& v, SEXP sym, Pred pred, bool unknown, std::set<BB*>& seen) {
        if (v.v) return pred(current(v.v));
        if (!seen.insert(v.phiAt).second) return false;
        for (BB* p : v.phiAt->preds) {
            auto it = out[p->id].known.find(sym);
            if (it == out[p->id].known.end() ? unknown
                                             : anyValue(it->second, sym, pred, unknown, seen))
                return true;
        }
        return false;
    }
    bool mayBeLazy(const Val& v, SEXP sym, std::set<BB*>& seen) {
        return anyValue(
            v, sym, [](Instruction* i) { return lazyType(i->type); }, true, seen);
    }
    bool knownEager(const State& s, SEXP sym) {
        auto it = s.known.find(sym);
        std::set<BB*> seen;
        return it != s.known.end() && !s.unconfirmed.count(sym) &&
               !mayBeLazy(it->second, sym, seen);
    }

    // Is the value (a Phi: one of its operands) what a load found?
    bool fromLoad(const Val& v, SEXP sym, std::set<BB*>& seen) {
        return anyValue(
            v, sym, [](Instruction* i) { return i->is(Opcode::LdVar); }, false, seen);
    }

    // The checkpoint cp confirms what s knows: an Assume per unconfirmed
    // binding a load reads (with `rewrite`: made in its continuation block,
    // once); the others are forgotten.
    void confirm(Instruction* cp, State& s, bool rewrite) {
        BB* cont = cp->bb->succ[0];
        for (auto it = s.known.begin(); it != s.known.end();) {
            if (!s.unconfirmed.count(it->first)) {
                ++it;
                continue;
            }
            Instruction* v = nullptr;
            std::set<BB*> visited;
            // (a value a load found may be bound in an enclosing frame:
            // BindingIs tests the own frame, so that one is forgotten,
            // unless the own frame binds the variable)
            if (loaded.count(it->first) &&
                (s.own.count(it->first) || !fromLoad(it->second, it->first, visited))) {
                if (it->second.v) {
                    v = current(it->second.v);
                    if (indexLoads.count(v)) v = nullptr;
                } else if (rewrite) {
                    v = value(it->second, it->first);
                } else {
                    std::set<BB*> seen;
                    v = mayBeMissing(it->second, it->first, seen) ? nullptr : env;
                }
            }
            if (!v) {
                it = s.known.erase(it);
                continue;
            }
            if (rewrite) assumeBinding(cp, cont, it->first, v);
            ++it;
        }
        s.unconfirmed.clear();
    }
    void assumeBinding(Instruction* cp, BB* cont, SEXP sym, Instruction* v) {
        for (Instruction* x : cont->insns)
            if (x->op == Opcode::BindingIs && x->symbol == sym && x->args[1] == v) return;
        Instruction* t = f.newInsn(Opcode::BindingIs);
        t->symbol = sym;
        t->args = {env, v};
        assumeAtStart(cp, cont, t, v->type);
    }
    // that no active binding appeared (what a store or load the checkpoint
    // confirms did was plain)
    void assumeNoActive(Instruction* cp, BB* cont) {
        for (Instruction* x : cont->insns)
            if (x->op == Opcode::NoActiveBindings) return;
        Instruction* t = f.newInsn(Opcode::NoActiveBindings);
        t->args = {env};
        assumeAtStart(cp, cont, t, PirType::bottom());
    }
    void assumeAtStart(Instruction* cp, BB* cont, Instruction* t, PirType carried) {
        t->bb = cont;
        t->type = t->ruleType();
        Instruction* a = f.newInsn(Opcode::Assume);
        a->args = {t, cp};
        a->carriedType = carried;
        a->bb = cont;
        size_t at = 0;
        while (at < cont->insns.size() && cont->insns[at]->op == Opcode::Phi) at++;
        cont->insns.insert(cont->insns.begin() + at, {t, a});
    }
    // x was just stored or loaded: its value is known, and confirmed unless
    // an active binding may have done the store or made the loaded value
    void markStored(State& s, SEXP sym) {
        if (s.reflective)
            s.unconfirmed.insert(sym);
        else
            s.unconfirmed.erase(sym);
    }

    // The transfer function of one instruction; with `rewrite`, loads with a
    // known value are replaced (their uses), and recorded in `dead`.
    void transfer(Instruction* i, State& s, bool rewrite, std::vector<Instruction*>* dead) {
        if (i == env) {
            s.known.clear();
            s.present.clear();
            s.own.clear();
            s.reflective = false;
            for (size_t k = 0; k + 1 < i->args.size() && k < i->names.size(); k++) {
                s.known[i->names[k]] = Val{i->args[k], nullptr};
                s.own.insert(i->names[k]);
            }
            return;
        }
        switch (generalOf(i->op)) {
            case Opcode::StVar:
            case Opcode::StArgDefault:
                if (i->args[1] == env) {
                    s.known[i->symbol] = Val{i->args[0], nullptr};
                    s.present.erase(i->symbol);
                    // (into an active binding: the function it calls keeps
                    // it bound)
                    s.own.insert(i->symbol);
                    markStored(s, i->symbol);
                    return;
                }
                break;
            case Opcode::LdVar:
                if (i->args[0] == env) {
                    auto it = s.known.find(i->symbol);
                    if (it != s.known.end() && !s.unconfirmed.count(i->symbol)) {
                        resolvedLoads[i] = it->second;
                        bool present = s.present.count(i->symbol);
                        Instruction* v =
                            rewrite && !i->kept ? value(it->second, i->symbol, present) : nullptr;
                        // (a load left in place of a binding known to hold a
                        // value, not the missing marker: it cannot fail)
                        if (rewrite && i->kept && it->second.v &&
                            (present || !current(it->second.v)->type.may(Flag::Missing)))
                            i->op = Opcode::LdVarBound;
                        // (a load left in place errs on the missing marker;
                        // an index's load does not)
                        if (!v && it->second.v && !indexLoads.count(i)) s.present.insert(i->symbol);
                        if (v) {
                            if (knownEager(s, i->symbol)) eager.insert(v);
                            replaceUses(f, i, v);
                            replaced[i] = v;
                            dead->push_back(i);
                        }
                        return;
                    }
                    // (the environment's value is the load's, not the
                    // missing marker unless the load is an index's: the
                    // others err on it)
                    resolvedLoads.erase(i);
                    s.forced.erase(i);
                    s.known[i->symbol] = Val{i, nullptr};
                    if (indexLoads.count(i))
                        s.present.erase(i->symbol);
                    else
                        s.present.insert(i->symbol);
                    markStored(s, i->symbol);
                    return;
                }
                break;
            case Opcode::Force: {
                Instruction* a = i->args[0];
                if (eager.count(a) ||
                    (a->is(Opcode::LdVar) && a->args[0] == env && knownEager(s, a->symbol)))
                    return;
                // a promise forced before (force dominance): its value
                if (Instruction* p = promiseForced(a)) {
                    auto done = s.forced.find(p);
                    if (done != s.forced.end()) {
                        bool kept = a->is(Opcode::LdVar) && a->kept;
                        if (rewrite && done->second != i && !kept) {
                            replaceUses(f, i, done->second);
                            replaced[i] = done->second;
                            dead->push_back(i);
                        }
                        return;
                    }
                }
                break;
            }
            case Opcode::SubassignVar:
                // x's new value, known as stored (it ran no R code)
                if (i->op == Opcode::SubassignVarLocal && i->args[0] == env) {
                    s.known[i->symbol] = Val{i, nullptr};
                    s.present.erase(i->symbol);
                    markStored(s, i->symbol);
                    return;
                }
                break;
            case Opcode::LoopBody:
                // the body is the function's own code run in its frame: it
                // assigns the function's variables, so what was known is
                // forgotten (confirming it would leave at every iteration)
                if (i->args[0] == env) {
                    s.known.clear();
                    s.present.clear();
                    s.own.clear();
                    s.unconfirmed.clear();
                    s.reflective = true;
                    return;
                }
                break;
            case Opcode::Checkpoint:
                if (s.reflective) {
                    if (rewrite) assumeNoActive(i, i->bb->succ[0]);
                    s.reflective = false;
                }
                if (!s.unconfirmed.empty()) confirm(i, s, rewrite);
                return;
            default:
                break;
        }
        uint8_t w = i->writes(&Resolver::operandType, this);
        if (w & OwnEnv) {
            for (auto& k : s.known) s.unconfirmed.insert(k.first);
            s.reflective = true;
        } else if (w & OtherEnv) {
            // another environment written (x$name <- v into one): what a
            // load found may be bound in an enclosing frame, that one
            forgetLoaded(s);
        }
        // x's value changes, or x is bound to a copy: the instruction's
        // value, unconfirmed (what the binding holds after it runs a
        // replacement function or an active binding is what a checkpoint
        // confirms)
        if (i->is(Opcode::SubassignVar) && i->args[0] == env) {
            s.known[i->symbol] = Val{i, nullptr};
            s.present.erase(i->symbol);
            s.unconfirmed.insert(i->symbol);
        }
        if (i->is(Opcode::Force))
            if (Instruction* p = promiseForced(i->args[0])) s.forced[p] = i;
        // x assigned by the interpreter's routines (x[f(i)] <- v, X$a[i] <- v,
        // a complex assignment's start, which may bind a copy; x$name <- v
        // off its plain path, which binds an argument's promise's value to
        // x): its value is read again, not confirmed (a confirmation would
        // keep the old value alive, which makes the assignment copy, which
        // fails it; or fail at every call, the binding being the value now)
        bool assigns = i->op == Opcode::EnvSubassign || i->op == Opcode::StartAssign ||
                       i->op == Opcode::DollarAssignVar ||
                       (i->op == Opcode::SubassignGeneral && !(i->rirKind() & kSuperAssign));
        if (assigns && i->args[0] == env) {
            s.known.erase(i->symbol);
            s.present.erase(i->symbol);
            s.unconfirmed.erase(i->symbol);
        }
    }

    void forgetLoaded(State& s) {
        for (auto it = s.known.begin(); it != s.known.end();) {
            std::set<BB*> seen;
            if (!fromLoad(it->second, it->first, seen)) {
                ++it;
                continue;
            }
            s.unconfirmed.erase(it->first);
            s.present.erase(it->first);
            it = s.known.erase(it);
        }
    }

    // The SSA value a Force forces: its operand, or the value a load of the
    // own environment is known to have; nullptr for other loads
    Instruction* promiseForced(Instruction* a) {
        if (a->is(Opcode::LdVar)) {
            auto it = resolvedLoads.find(a);
            // (a load of an unknown value is its own: an SSA value)
            if (it == resolvedLoads.end()) return a->args[0] == env ? a : nullptr;
            if (!it->second.v) return nullptr;
            return current(it->second.v);
        }
        return current(a);
    }

    // The state at b's end from s at its start (rewrite: replace the loads
    // whose value s knows, collecting the dead instructions).
    State run(BB* b, State s, bool rewrite, std::vector<Instruction*>* dead) {
        // (a copy: rewriting may insert Phis into this block)
        std::vector<Instruction*> insns = b->insns;
        for (Instruction* i : insns) transfer(i, s, rewrite, dead);
        return s;
    }

    // Whether the value may be the missing marker (Phis: any operand may).
    Instruction* current(Instruction* v) const {
        for (auto it = replaced.find(v); it != replaced.end(); it = replaced.find(v))
            v = it->second;
        return v;
    }

    bool mayBeMissing(const Val& v, SEXP sym, std::set<BB*>& seen) {
        return anyValue(
            v, sym, [](Instruction* i) { return i->type.may(Flag::Missing); }, true, seen);
    }

    // The instruction that holds `v` (making the Phis it needs), or nullptr
    // when it may be the missing marker (unless a load found it `present`).
    Instruction* value(const Val& v, SEXP sym, bool present = false) {
        if (v.v) {
            Instruction* i = current(v.v);
            return i->type.may(Flag::Missing) && !present ? nullptr : i;
        }
        auto key = std::make_pair(v.phiAt, sym);
        if (Instruction* made = phis.find(v.phiAt, sym)) return made;
        if (refused.count(key)) return nullptr;
        std::set<BB*> seen;
        if (mayBeMissing(v, sym, seen)) {
            refused.insert(key);
            return nullptr;
        }
        Instruction* phi = phis.at(
            f, v.phiAt, sym, [](BB*) { return false; },
            [&](BB* p) { return value(out[p->id].known.at(sym), sym); });
        phi->type = PirType::bottom();  // the pipeline infers it
        return phi;
    }
};

}  // namespace

namespace {

bool resolveOnce(Function& f) {
    Instruction* env = trackedOwnEnv(f);
    if (!env) return false;
    Resolver r(f, env);
    r.in[f.entry->id].top = false;
    // (a bound on the rounds: in doubt, nothing changes)
    bool solved = solveDataflow(
        f, Direction::Forward, r.in, r.out,
        [&](BB* b) -> std::optional<State> {
            if (b == f.entry) return r.in[b->id];
            std::vector<const State*> ins;
            for (BB* p : b->preds) ins.push_back(&r.out[p->id]);
            State s = mergeInto(b, r.in[b->id], ins);
            if (s.top) return std::nullopt;
            return s;
        },
        [&](BB* b, const State& s) { return r.run(b, s, false, nullptr); }, 100);
    if (!solved) return false;
    std::vector<BB*> order = f.rpo();
    std::vector<Instruction*> dead;
    for (BB* b : order)
        if (!r.in[b->id].top) r.run(b, r.in[b->id], true, &dead);
    // a Phi made again (by a later round) is the one made before
    std::vector<Instruction*> made;
    r.phis.forEach([&](Instruction* phi) { made.push_back(phi); });
    dropDuplicatePhis(f, made, dead);
    return removeAll(f, dead) || !r.phis.empty();
}

// A confirmation nothing relies on goes with its Assume: the BindingIs of a
// value that only BindingIs use (no load was given it; a later round of the
// analysis may have given the loads another value for the same binding).
void pruneConfirmations(Function& f) {
    std::map<Instruction*, int> used;  // uses other than by a BindingIs
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns)
            if (i->op != Opcode::BindingIs)
                for (Instruction* a : i->args) used[a]++;
    std::vector<Instruction*> dead;
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) {
            if (i->op != Opcode::Assume || i->args[0]->op != Opcode::BindingIs) continue;
            Instruction* t = i->args[0];
            if (used[t->args[1]] == 0 && used[t] == 1) {
                dead.push_back(i);
                dead.push_back(t);
            }
        }
    removeAll(f, dead);
}

}  // namespace

// Repeated while it changes something (a few times at most): a load
// replaced by a value of known type can make an operation after it one
// that cannot dispatch, and so no longer forget the environment.
bool scopeResolution(Function& f) {
    bool changed = false;
    for (int round = 0; round < 4 && resolveOnce(f); round++) {
        changed = true;
        f.inferTypes();
    }
    if (changed) pruneConfirmations(f);
    return changed;
}

}  // namespace pir
}  // namespace rir
