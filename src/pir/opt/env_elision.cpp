// env_elision.cpp — the function's own environment is written only where
// something can look at it. After scope resolution the optimized code reads
// its local variables as SSA values; what still needs the stores is what
// may read the environment: R code (a call, a promise, a method, a
// condition handler: any of them can reach the frame through sys.frames()),
// an instruction with the environment as operand, and the interpreter after
// a deoptimization. A store is therefore deferred: the variable is
// "pending" with its value, and the pending variables are written just
// before the next such instruction, at the start of a deoptimization (before
// its FrameState), and before the return when R code may have kept the
// environment (always in a continuation: its frame existed before it). Where paths with different
// pending values meet, the value is a Phi; a variable pending on one path but of unknown value on
// another is written at the end of the path where it is pending.
//
//   before                                  after
//   BB1                                     BB1
//     %20 = Phi %5 (BB0), %31 (BB3)           %20 = Phi %5 (BB0), %31 (BB3)
//     ...                                     ...
//   BB3                                     BB3
//     %30 = Assume %29, %25                   %30 = Assume %29, %25
//     %31 = Add %20, %9   real$'-             %31 = Add %20, %9
//     %32 = StVar s, %31, %2                  %33 = Jump -> BB1
//     %33 = Jump -> BB1                     BB4 (deoptimization)
//   BB4 (deoptimization)                      %40 = StVar s, %20, %2
//     %41 = FrameState pc 38, env %2, ...     %41 = FrameState pc 38, env %2, ...
//     %42 = Deopt %41                         %42 = Deopt %41
//
// A loop of plain arithmetic then keeps its variables in registers (native
// code: unboxed) and writes them only when it leaves for the interpreter.
// A store that something would write again on every path before the
// variable is stored next (a call in the same loop, say) is left where it
// is: deferring it would save nothing, and native code writes a double
// into the variable's value in place only at the store that made it.
//
// A store is deferred only while the environment holds no active binding
// (no R code ran since the call made it, or since a NoActiveBindings
// assumption confirmed it): an active binding would run its function at
// the store. R code that changes a binding makes its value unknown (the
// checkpoint after it confirms the ones loads use, as in scope resolution).
// An operation that may warn counts as R code (Instruction::mayWarn: its
// calling handlers run, and may assign any frame): integer `+ - *` unless a
// NoOverflow assumed before it rules the overflow out. One that may raise
// an error has the variables written before it (a calling handler may read
// them) but changes none: the function does not go on after it. Both are
// decided from the operands' types: arithmetic and comparisons of plain
// scalars raise no error, an `if` condition that may be NA does.
//
// First, lookups (LdVar, LdFun) of names the environment cannot bind yet
// where they run (no argument of that name, no store of it in the
// function, no R code before them) start from the environment's parent.
// Only in versions whose call context says the frame binds the formals
// alone: S3 dispatch binds .Generic, .Class, ... in a method's frame, and
// (R < 4.4) copies the generic's local variables into it. (`...` and
// `..1`, an element of the frame's `...`, are left alone.)
#include <algorithm>
#include <map>
#include <set>

#include "../../runtime/rapi.h"
#include "../analysis/dataflow.h"
#include "../analysis/phi_placement.h"
#include "pass.h"

namespace rir {
namespace pir {

namespace {

struct Val {
    Instruction* v = nullptr;
    BB* phiAt = nullptr;  // the Phi (made when needed) of this block
    bool operator==(const Val& o) const { return v == o.v && phiAt == o.phiAt; }
    bool operator!=(const Val& o) const { return !(*this == o); }
};

// `known`: what each variable holds (in the environment, or pending);
// `pending`: the variables whose value the environment does not hold yet;
// `clean`: the environment holds no active binding.
struct State {
    bool top = true;
    bool clean = true;
    std::map<SEXP, Val> known;
    std::set<SEXP> pending;
    bool operator!=(const State& o) const {
        return top != o.top || clean != o.clean || known != o.known || pending != o.pending;
    }
};

// Can i raise an error or leave non-locally, given its operands' types?
// (Conservative: true unless known quiet. Warnings: Instruction::mayWarn.)
bool mayRaise(const Instruction* i) {
    if (!i->has(MayError) && !i->has(NonLocal)) return false;
    auto t = [&](size_t k) { return i->args[k]->type; };
    // (integer %/% and %% by zero give NA; & and | of scalars may error on
    // their kinds)
    if (isArithmetic(i->op) || isComparison(i->op))
        return !t(0).isUnboxable() || !t(1).isUnboxable();
    if (isUnaryOperator(i->op)) return !t(0).isUnboxable();
    if (i->scalarMath()) return false;
    switch (i->op) {
        case Opcode::AsTest:
            return !t(0).isUnboxable() || t(0).may(Flag::NA);
        case Opcode::Force:
            return t(0).may(Flag::Lazy) || t(0).mayBe(Kind::Prom) || t(0).may(Flag::Missing);
        default:
            return true;
    }
}

// Of those, the ones reading one binding (the symbol's): the others'
// pending values do not matter to them. (NoActiveBindings reads no value.)
bool readsOneBinding(const Instruction* i) {
    return readsEnvOnly(i) && i->op != Opcode::NoActiveBindings;
}

bool onDeoptPath(const BB* b) {
    return !b->insns.empty() && b->insns.back()->op == Opcode::Deopt;
}

struct Elider {
    Function& f;
    Instruction* env;
    // Can R code (or a condition handler) have kept the environment, so
    // that it is read after the function returned?
    bool escapes = false;
    std::vector<State> in, out;
    // variables written at the end of a block (pending there, of unknown
    // value at a successor)
    std::vector<std::set<SEXP>> syncAtEnd;
    PhiPlacement<SEXP> phis;
    bool changed = false;

    Elider(Function& f, Instruction* env)
        : f(f), env(env), in(f.blocks.size()), out(f.blocks.size()), syncAtEnd(f.blocks.size()) {}

    bool deferrable(const Instruction* i) const {
        return i->op == Opcode::StVar && i->args[1] == env && i->args[0] != env;
    }

    // Must the environment hold every variable's value before i runs?
    bool observes(const Instruction* i) const {
        if (i->op == Opcode::FrameState) return true;
        if (i->op == Opcode::Return) return escapes;
        // (a math builtin's environment operand: it does not look)
        if (!i->scalarMath())
            for (const Instruction* a : i->args)
                if (a == env) return true;
        // (once R code could have handed the frame out as a value, x$name
        // on an environment value may read it)
        if (escapes && (i->reads() & OtherEnv)) return true;
        return i->mayCallR() || mayRaise(i);
    }

    // The stores whose deferral saves a write on some path: from them, a
    // path (not leaving for the interpreter) reaches another store of the
    // variable, or the end, before anything that would write it. The
    // others stay where they are (native code then stores the value where
    // it is made, in place when it can).
    std::set<Instruction*> worthDeferring;
    void findWorthDeferring() {
        std::set<SEXP> all;
        for (BB* b : f.rpo())
            for (Instruction* i : b->insns)
                if (deferrable(i)) all.insert(i->symbol);
        // per block: the variables written (by a sync) on every path from
        // its start before they are stored again (greatest fixed point:
        // every variable at first)
        std::vector<std::set<SEXP>> in(f.blocks.size(), all), out(f.blocks.size(), all);
        solveDataflow(
            f, Direction::Backward, in, out,
            [&](BB* b) -> std::optional<std::set<SEXP>> {
                if (onDeoptPath(b)) return std::nullopt;
                std::optional<std::set<SEXP>> cur;
                for (BB* s : b->succ) {
                    if (onDeoptPath(s)) continue;
                    if (!cur) {
                        cur = in[s->id];
                        continue;
                    }
                    std::set<SEXP> both;
                    for (SEXP x : *cur)
                        if (in[s->id].count(x)) both.insert(x);
                    cur = std::move(both);
                }
                if (!cur) cur.emplace();  // (the end)
                return cur;
            },
            [&](BB* b, const std::set<SEXP>& end) { return writtenAhead(b, end, all, false); });
        for (BB* b : f.rpo())
            if (!onDeoptPath(b)) writtenAhead(b, out[b->id], all, true);
    }
    // The variables written on every path from b's start before they are
    // stored again, from those at its end (record: the stores found worth
    // deferring go to worthDeferring).
    std::set<SEXP> writtenAhead(BB* b, std::set<SEXP> cur, const std::set<SEXP>& all, bool record) {
        for (size_t j = b->insns.size(); j-- > 0;) {
            Instruction* i = b->insns[j];
            if (deferrable(i)) {
                if (record && !cur.count(i->symbol)) worthDeferring.insert(i);
                cur.erase(i->symbol);
            } else if (readsEnvOnly(i) && i->args[0] == env) {
                if (readsOneBinding(i)) cur.insert(i->symbol);
            } else if (i->op != Opcode::FrameState && observes(i)) {
                cur = all;
            }
        }
        return cur;
    }

    bool computeEscapes() const {
        // (a continuation's frame may have been handed out before it ran)
        if (f.continuation) return true;
        for (auto& b : f.blocks) {
            if (onDeoptPath(b.get())) continue;  // (the interpreter finishes there)
            for (Instruction* i : b->insns) {
                if (i == env || deferrable(i) || readsEnvOnly(i) || i->op == Opcode::FrameState)
                    continue;
                if (i->op == Opcode::Return) continue;
                if (observes(i)) return true;
            }
        }
        return false;
    }

    void insertBefore(Instruction* at, Instruction* i) {
        BB* b = at->bb;
        i->bb = b;
        auto it = std::find(b->insns.begin(), b->insns.end(), at);
        b->insns.insert(it, i);
    }

    Instruction* store(SEXP sym, Instruction* v) {
        Instruction* st = f.newInsn(Opcode::StVar);
        st->symbol = sym;
        st->args = {v, env};
        st->type = st->ruleType();
        return st;
    }

    // writes the pending variables before `at`
    void sync(State& s, Instruction* at, bool rewrite) {
        if (rewrite)
            for (SEXP sym : s.pending) insertBefore(at, store(sym, value(s.known.at(sym), sym)));
        s.pending.clear();
    }

    void transfer(Instruction* i, State& s, bool rewrite, std::vector<Instruction*>& dead) {
        if (i == env) {
            s.known.clear();
            s.pending.clear();
            s.clean = true;
            for (size_t k = 0; k + 1 < i->args.size() && k < i->names.size(); k++)
                s.known[i->names[k]] = Val{i->args[k], nullptr};
            return;
        }
        if (deferrable(i)) {
            if (s.clean && !worthDeferring.count(i)) {
                // (written on every path before it is stored again: done
                // here, where the value is made)
                s.known[i->symbol] = Val{i->args[0], nullptr};
                s.pending.erase(i->symbol);
            } else if (s.clean) {
                s.known[i->symbol] = Val{i->args[0], nullptr};
                s.pending.insert(i->symbol);
                if (rewrite) dead.push_back(i);
            } else {
                // (an active binding's function may run: the store stays,
                // after the pending ones, and it may change any binding)
                sync(s, i, rewrite);
                s.known.clear();
            }
            return;
        }
        if (i->op == Opcode::Assume) {
            Instruction* t = i->args[0];
            if (t->op == Opcode::NoActiveBindings && t->args[0] == env) s.clean = true;
            if (t->op == Opcode::BindingIs && t->args[0] == env && !s.pending.count(t->symbol))
                s.known[t->symbol] = Val{t->args[1], nullptr};
            return;
        }
        if (readsEnvOnly(i) && i->args[0] == env) {
            // (a guard's lookup, a binding's test: only that binding)
            if (readsOneBinding(i) && s.pending.count(i->symbol)) sync(s, i, rewrite);
            return;
        }
        if (i->op == Opcode::StArgDefault && i->args[1] == env) {
            // (binds a missing argument to its default's promise: no R code)
            if (s.pending.count(i->symbol)) sync(s, i, rewrite);
            s.known.erase(i->symbol);
            return;
        }
        if (!observes(i)) return;
        sync(s, i, rewrite);
        bool plainLocal = i->op == Opcode::SubassignVarLocal && i->args[0] == env;
        if (!plainLocal && (i->writes() & OwnEnv)) {
            // (R code may have changed any binding, or made an active one)
            s.known.clear();
            s.clean = false;
        }
        if (i->is(Opcode::SubassignVar) && i->args[0] == env) {
            if (i->op == Opcode::SubassignVarLocal)
                s.known[i->symbol] = Val{i, nullptr};
            else
                s.known.erase(i->symbol);
        }
    }

    // The state at b's end from s at its start (rewrite: make the stores,
    // collecting the deferred ones as dead).
    State run(BB* b, State s, bool rewrite, std::vector<Instruction*>& dead) {
        std::vector<Instruction*> insns = b->insns;  // (syncs are inserted)
        for (Instruction* i : insns) {
            if (i->isTerminator()) {
                for (SEXP sym : syncAtEnd[b->id]) {
                    if (!s.pending.count(sym)) continue;
                    if (rewrite) insertBefore(i, store(sym, value(s.known.at(sym), sym)));
                    s.pending.erase(sym);
                }
            }
            transfer(i, s, rewrite, dead);
        }
        return s;
    }

    // Might the value be the missing marker (which a store cannot write)?
    bool mayBeMissing(const Val& v) const { return v.v && v.v->type.may(Flag::Missing); }

    State merge(BB* b) {
        State s;
        std::vector<BB*> reached;
        for (BB* p : b->preds) {
            const State& o = out[p->id];
            if (o.top) continue;
            reached.push_back(p);
            if (s.top) {
                s = o;
                continue;
            }
            s.clean = s.clean && o.clean;
            s.pending.insert(o.pending.begin(), o.pending.end());
            for (auto it = s.known.begin(); it != s.known.end();) {
                auto k = o.known.find(it->first);
                if (k == o.known.end()) {
                    it = s.known.erase(it);
                    continue;
                }
                if (k->second != it->second) {
                    if (mayBeMissing(k->second) || mayBeMissing(it->second)) {
                        it = s.known.erase(it);
                        continue;
                    }
                    it->second = Val{nullptr, b};
                }
                ++it;
            }
        }
        if (s.top) return s;
        // (once a Phi, it stays one: the iteration ends)
        for (auto& k : s.known) {
            auto o = in[b->id].known.find(k.first);
            if (o != in[b->id].known.end() && o->second.phiAt == b) k.second = o->second;
        }
        // pending on some path, unknown on another (or where R code may
        // have made an active binding on another): written where pending
        for (auto it = s.pending.begin(); it != s.pending.end();) {
            if (s.clean && s.known.count(*it)) {
                ++it;
                continue;
            }
            for (BB* p : reached)
                if (out[p->id].pending.count(*it) && syncAtEnd[p->id].insert(*it).second)
                    changed = true;
            it = s.pending.erase(it);
        }
        return s;
    }

    bool analyse() {
        std::vector<Instruction*> none;
        for (int rounds = 0; rounds < 20; rounds++) {
            changed = false;
            for (State& s : in) s = State();
            for (State& s : out) s = State();
            in[f.entry->id].top = false;
            bool solved = solveDataflow(
                f, Direction::Forward, in, out,
                [&](BB* b) -> std::optional<State> {
                    if (b == f.entry) return in[b->id];
                    State s = merge(b);
                    if (s.top) return std::nullopt;
                    return s;
                },
                [&](BB* b, const State& s) { return run(b, s, false, none); }, 100);
            if (!solved) return false;
            if (!changed) return true;
        }
        return false;
    }

    Instruction* value(const Val& v, SEXP sym) {
        if (v.v) return v.v;
        if (Instruction* made = phis.find(v.phiAt, sym)) return made;
        Instruction* phi = phis.at(
            f, v.phiAt, sym, [&](BB* p) { return out[p->id].top; },  // (unreachable)
            [&](BB* p) { return value(out[p->id].known.at(sym), sym); });
        phi->type = PirType::bottom();  // the pipeline infers it
        return phi;
    }
};

// Lookups through the environment of names it cannot bind (neither an
// argument nor stored by the function, and no R code ran before that
// could have bound them behind its back) start at its parent instead: the
// environment is then not needed for them.
bool redirectLookups(Function& f, Instruction* env) {
    std::set<SEXP> bound(env->names.begin(), env->names.end());
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) {
            bool writesBinding =
                ((i->op == Opcode::StVar || i->op == Opcode::StArgDefault) && i->args[1] == env) ||
                ((i->is(Opcode::SubassignVar) || i->is(Opcode::DollarAssignVar)) &&
                 i->args[0] == env);
            if (writesBinding) bound.insert(i->symbol);
        }
    Instruction* parent = env->args.back();
    // pristine: no instruction that may run R code (or otherwise write the
    // environment) ran on any path since the environment was made
    std::vector<Instruction*> redirect;
    auto pristineAfter = [&](BB* b, int p, bool record) {
        for (Instruction* i : b->insns) {
            if (record && (i->is(Opcode::LdFun) || i->is(Opcode::LdVar)) && i->args[0] == env &&
                p && !bound.count(i->symbol) && i->symbol != R_DotsSymbol && !DDVAL(i->symbol))
                redirect.push_back(i);
            bool store = (i->op == Opcode::StVar && i->args[1] == env) || i == env;
            if (!store && (i->writes() & OwnEnv)) p = 0;
        }
        return p;
    };
    std::vector<int> in(f.blocks.size(), 1), out(f.blocks.size(), 1);
    solveDataflow(
        f, Direction::Forward, in, out,
        [&](BB* b) -> std::optional<int> {
            int p = 1;
            for (BB* pred : b->preds) p = p && out[pred->id];
            return p;
        },
        [&](BB* b, int p) { return pristineAfter(b, p, false); });
    for (BB* b : f.rpo()) pristineAfter(b, in[b->id], true);
    for (Instruction* i : redirect) i->args[0] = parent;
    return !redirect.empty();
}

}  // namespace

bool envElision(Function& f) {
    Instruction* env = trackedOwnEnv(f);
    if (!env) return false;
    // (a frame made by S3 dispatch binds more: .Generic, ..., and in
    // R < 4.4 the generic's local variables)
    bool redirected = f.onlyFormals && redirectLookups(f, env);
    Elider e(f, env);
    bool any = false;
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) any = any || e.deferrable(i);
    if (!any) return redirected;
    e.escapes = e.computeEscapes();
    e.findWorthDeferring();
    if (!e.analyse()) return redirected;
    std::vector<Instruction*> dead;
    for (BB* b : f.rpo())
        if (!e.in[b->id].top) e.run(b, e.in[b->id], true, dead);
    // a Phi made here that scope resolution made already (a loop's
    // variable its loads read) is that one
    std::vector<Instruction*> made;
    e.phis.forEach([&](Instruction* phi) { made.push_back(phi); });
    dropDuplicatePhis(f, made, dead);
    removeAll(f, dead);
    return true;
}

}  // namespace pir
}  // namespace rir
