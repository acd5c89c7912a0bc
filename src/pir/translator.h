// translator.h — the translator of RIR code into PIR (rir2pir.cpp: the
// function's blocks; translate_insn.cpp: one RIR instruction;
// inline_call.cpp: calls inlined with their context). Internal to src/pir.
#pragma once

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include "../bc/insns.h"
#include "../bc/ops.h"
#include "../bc/subassign.h"
#include "../bc/verifier.h"
#include "../runtime/dispatch_table.h"
#include "../runtime/trampoline.h"
#include "block_states.h"
#include "builder.h"
#include "inline_body.h"
#include "opt/pass.h"
#include "printer.h"
#include "rir2pir.h"
#include "rir_facts.h"
#include "rir_operands.h"
#include "verifier.h"

namespace rir {
namespace pir {

// R constants the translation uses (made and kept alive by rir2pirInit: the
// translator itself never allocates R objects)
extern SEXP oneInt, minusOneInt;
// integer scalars 0 .. kSmallInts - 1 (a list): switch entries
const int kSmallInts = 256;
extern SEXP smallInts;
inline SEXP intConstant(int k) {
    return VECTOR_ELT(smallInts, k);
}

class Translator {
  public:
    Translator(const Code* code, SEXP formals, Function* fn, const std::set<int>& noInline,
               uint32_t eagerArgs, Context ctx)
        : code_(code),
          formals_(formals),
          fn_(fn),
          b_(fn),
          one_(oneInt),
          minusOne_(minusOneInt),
          noInline_(noInline),
          eagerArgs_(eagerArgs),
          ctx_(ctx) {}

    std::string run();
    // Makes the translation a continuation's (fn->continuation): entered at
    // `pc`, a loop header, with an operand stack of these kinds.
    void continueAt(int pc, const std::vector<SlotKind>& stack) {
        continues_ = true;
        entryPc_ = pc;
        entryKinds_ = stack;
    }
    // call sites whose inlined callee could not be translated (the function
    // is translated again without inlining them: see rir2pirOptimized)
    std::set<int> failedInlines;

  private:
    // (an inlined call's callee, translated into the caller's function)
    Translator(const Code* code, SEXP formals, Translator& caller, Instruction* env,
               Instruction* afterCall, BB* exit);
    std::string translateBody(const CodeShape& shape);
    // The callee's code of an inlined call: its returns jump to `exitBB_`
    // (with their values in `returns_`), its frame states have the
    // caller's state after the call as their outer one; calls in it are
    // not inlined with a context of their own (one level), and what
    // unsoundInlines finds in its inlined code makes the whole call not
    // inlined (noInline_ is then empty: the sites are the callee's).
    Instruction* afterCall_ = nullptr;
    BB* exitBB_ = nullptr;
    std::vector<std::pair<BB*, Instruction*>> returns_;
    bool withContext_ = true;
    static const std::set<int>& noSites() {
        static const std::set<int> none;
        return none;
    }
    // leaves the function (or an inlined callee) with v
    void ret(Instruction* v) {
        if (!exitBB_) {
            b_(Opcode::Return, {v});
            return;
        }
        returns_.push_back({b_.bb, v});
        b_.jump(exitBB_);
    }
    Instruction* frameState(int pc, const std::vector<Instruction*>& stack) {
        return b_.frameState(code_, pc, env_, afterCall_, stack);
    }
    Instruction* inlineWithContext(const CallSite& cs, int site, Instruction* fun,
                                   const std::vector<Instruction*>& stack, int pc, int next);

    const Code* code_;
    SEXP formals_;
    Function* fn_;
    Builder b_;
    Instruction* env_ = nullptr;
    SEXP one_, minusOne_;            // 1L and -1L
    const std::set<int>& noInline_;  // call sites not to inline (see inlineCall)
    std::string inlineProblem_;      // an inlined body that could not be translated
    // the closure constants standing for guarded lookups (see ldfun), with
    // the checkpoint before each lookup
    std::map<Instruction*, Instruction*> guardedLookups_;
    uint32_t eagerArgs_;                // arguments speculated evaluated (bit k: argument k)
    Context ctx_;                       // the context of the calls the version is for
    BlockStates states_;                // the operand stack at each block's entry
    std::set<int> loopHeaders_;         // targets of backward jumps
    bool continues_ = false;            // a continuation's translation (continueAt)
    int entryPc_ = 0;                   // where the translation enters the code
    std::vector<SlotKind> entryKinds_;  // a continuation's entry stack
    std::string runContinuation(const CodeShape& shape);
    std::string finish();

    SEXP pool(int i) const { return code_->poolAt(i); }

    void edge(int target, const std::vector<Instruction*>& stack) {
        states_.edge(target, b_.bb, stack);
    }

    // Entering a loop (not by its back edge) passes a checkpoint at its
    // header: what an effect before it left unconfirmed is confirmed there
    // once (scope resolution), not in each iteration.
    void jumpTo(int target, const std::vector<Instruction*>& stack,
                const std::map<int, BB*>& blocks, bool back = false) {
        if (!back && target != 0 && loopHeaders_.count(target)) checkpoint(target, stack);
        edge(target, stack);
        b_.jump(blocks.at(target));
    }

    // A deoptless continuation's first translation (Function::entryPhase):
    // the feedback of a binop's operand `shift` (0 or kRhsShift), the
    // variable sym, that saw integer and double scalars becomes the kind of
    // sym's value at the entry, when that is a plain scalar of one of them
    // (entered at `sym <- value`: the value on top of the stack).
    uint32_t entryPhase(uint32_t types, int shift, SEXP sym) const {
        // (not in an inlined callee's code: its variables are its frame's)
        if (exitBB_) return types;
        uint32_t seen = (types >> shift) & 0xffff;
        if ((seen & ~uint32_t(TB_INT | TB_REAL | TB_NA)) || !(seen & TB_INT) || !(seen & TB_REAL))
            return types;
        if (continues_ && Op(code_->bc[size_t(entryPc_)]) == Op::stvar &&
            pool(insn::stvar(code_->bc.data() + entryPc_ + 1).sym) == sym &&
            !fn_->inputTypes.empty())
            return narrowed(types, shift, seen, fn_->inputTypes.back());
        for (size_t k = 0; k < fn_->bindings.size() && k < fn_->bindingTypes.size(); k++)
            if (fn_->bindings[k] == sym) return narrowed(types, shift, seen, fn_->bindingTypes[k]);
        return types;
    }
    static uint32_t narrowed(uint32_t types, int shift, uint32_t seen, PirType t) {
        if (t.isBottom() || !t.isSimpleScalar()) return types;
        uint32_t kind = t.isA(Kind::Real) ? TB_REAL : t.isA(Kind::Int) ? TB_INT : 0;
        if (!kind) return types;
        uint32_t now = kind | (seen & TB_NA);
        return (types & ~(uint32_t(0xffff) << shift)) | (now << shift);
    }

    Instruction* pop(std::vector<Instruction*>& stack) {
        Instruction* v = stack.back();
        stack.pop_back();
        return v;
    }

    // A variable's value: a load, then forcing. An argument whose loads at
    // binding-cache slot `slot` never met an unevaluated promise (Code::
    // lazyLoads; forced by an earlier load, a callee, or passed evaluated)
    // is speculated forced: leaving resumes the load at `pc` with `resume`
    // on the stack; the Force then runs no R code (in a loop, no effect).
    Instruction* loadVariable(SEXP sym, int slot = -1, int pc = -1,
                              const std::vector<Instruction*>* resume = nullptr) {
        bool forced = resume && code_->entries >= 2 && Code::slotBit(slot) &&
                      !(code_->lazyLoads & Code::slotBit(slot)) && isFormal(sym);
        Instruction* cp = forced ? checkpoint(pc, *resume) : nullptr;
        Instruction* v = b_.withSymbol(Opcode::LdVar, sym, {env_});
        if (!forced) return b_(Opcode::Force, {v});
        b_.withType(Opcode::Assume, PirType::val(), {b_(Opcode::IsForced, {v}), cp});
        return b_(Opcode::ForceForced, {v});
    }
    bool isFormal(SEXP sym) const {
        for (SEXP a = formals_; a != R_NilValue; a = CDR(a))
            if (TAG(a) == sym) return true;
        return false;
    }

    // a checkpoint leaving for the RIR code at pc with this stack
    Instruction* checkpoint(int pc, const std::vector<Instruction*>& stack) {
        BB* cont = b_.newBB();
        BB* out = b_.newBB();
        Instruction* cp = b_.checkpoint(cont, out);
        b_.setBB(out);
        b_(Opcode::Deopt, {frameState(pc, stack)});
        b_.setBB(cont);
        return cp;
    }

    // op on a and b, speculated on when the feedback saw one plain scalar
    // type per operand. Leaving resumes the RIR code either at the binop
    // itself (`before`: the operand stack at pc, operands on top), or, when
    // its operands were loaded by the instruction itself (ld2_binop: a
    // resumed load would run again), after it (`below`: the stack under
    // the result at `next`), the deoptimization block computing the
    // operation unspeculated first.
    // Is v known to have type t? (A Phi made at a block's entry has no
    // operands, and no type, until the translation has seen every
    // predecessor: not known.)
    static bool hasType(const Instruction* v, PirType t) {
        return !v->type.isBottom() && v->type.isSubtypeOf(t);
    }

    // Integer + - * whose feedback (`fb`: the binop's) saw no overflow is
    // also speculated not to overflow now (NoOverflow), so that it gives no
    // warning (whose handlers could change the frame): leaving, the
    // interpreter computes it and warns. (The deoptimization block of
    // `below` computes it instead: there an overflow is noted in `fb`.)
    // (`at`: an existing checkpoint the assumptions leave through, for
    // inlined code: see inlineCall)
    Instruction* binop(Opcode op, Instruction* a, Instruction* b, SEXP call, uint32_t feedback,
                       int pc, const std::vector<Instruction*>* before, int next = -1,
                       const std::vector<Instruction*>* below = nullptr, Instruction* at = nullptr,
                       Feedback* fb = nullptr) {
        PirType ta, tb;
        // (an operand known to be a plain scalar of a kind the feedback did
        // not see, an argument the call context types: the feedback came
        // from calls in other contexts; the operand keeps its type)
        auto known = [](const Instruction* v, PirType& t) {
            if (v->type.isUnboxable() && v->type.kinds() != t.kinds()) t = v->type;
        };
        if ((before || below || at) && feedbackType(feedback & 0xffff, &ta) &&
            feedbackType(feedback >> kRhsShift, &tb) && (known(a, ta), known(b, tb), true) &&
            (!hasType(a, ta) || !hasType(b, tb))) {
            constexpr uint16_t ints = uint16_t(Kind::Int) | uint16_t(Kind::Lgl);
            int which = op == Opcode::Add ? 0 : op == Opcode::Sub ? 1 : op == Opcode::Mul ? 2 : -1;
            bool fits = which >= 0 && !(feedback & kArithOverflowed) && !(ta.kinds() & ~ints) &&
                        !(tb.kinds() & ~ints);
            Instruction* cp;
            if (at) {
                cp = at;
            } else if (before) {
                cp = checkpoint(pc, *before);
            } else {
                BB* cont = b_.newBB();
                BB* out = b_.newBB();
                cp = b_.checkpoint(cont, out);
                b_.setBB(out);
                Instruction* slow = b_(op, {a, b});
                slow->call = call;
                slow->noteOverflow = fits ? fb : nullptr;
                std::vector<Instruction*> after = *below;
                after.push_back(slow);
                b_(Opcode::Deopt, {frameState(next, after)});
                b_.setBB(cont);
            }
            if (!hasType(a, ta)) {
                b_.withType(Opcode::Assume, ta, {b_.withType(Opcode::IsType, ta, {a}), cp});
                a = b_.withType(Opcode::CastType, ta, {a});
            }
            if (!hasType(b, tb)) {
                b_.withType(Opcode::Assume, tb, {b_.withType(Opcode::IsType, tb, {b}), cp});
                b = b_.withType(Opcode::CastType, tb, {b});
            }
            if (fits) {
                Instruction* t = b_(Opcode::NoOverflow, {a, b});
                t->overflowOp() = which;
                b_(Opcode::Assume, {t, cp});
                Instruction* r = b_(op, {a, b});
                r->call = call;
                r->noOverflow = true;
                return r;
            }
        }
        Instruction* r = b_(op, {a, b});
        r->call = call;
        return r;
    }

    // A call site's argument as the call passes it: a constant, the missing
    // marker, or a promise (of a variable or of promise code) in the
    // function's environment, with `eager` its value when computed already.
    Instruction* argument(const CallArg& a, Instruction* eager) {
        if (a.kind == ArgKind::Const) return b_.ldConst(pool(a.pool));
        if (a.kind == ArgKind::Missing) return b_.ldConst(R_MissingArg);
        Instruction* p = b_.add(Opcode::MkArg, {eager ? eager : b_.ldConst(R_MissingArg), env_});
        p->promise() = a.pool;
        p->code = code_;
        p->constant = a.kind == ArgKind::Symbol ? pool(a.pool) : Code::unpack(pool(a.pool))->ast();
        return p;
    }

    // The call of fun at RIR call site `site` (nullptr: an argument kind not
    // translated); `eager[k]`, when given and not null: the value of
    // argument k's promise (evaluated already).
    Instruction* call(const CallSite& cs, int site, Instruction* fun,
                      const std::vector<Instruction*>* eager = nullptr) {
        std::vector<Instruction*> ops{env_, fun};
        std::vector<SEXP> tags;
        bool tagged = false;
        for (const CallArg& a : cs.args) {
            tags.push_back(a.tag);
            tagged = tagged || a.tag != R_NilValue;
            switch (a.kind) {
                case ArgKind::Const:
                case ArgKind::Missing:
                case ArgKind::Symbol:
                case ArgKind::Code: {
                    size_t k = ops.size() - 2;
                    ops.push_back(argument(a, eager ? (*eager)[k] : nullptr));
                    break;
                }
                case ArgKind::Dots:
                    // `...` expanded into the arguments at the call (its
                    // operand: the `...` binding; its name `...`)
                    tags.back() = R_DotsSymbol;
                    tagged = true;
                    ops.push_back(b_.withSymbol(Opcode::LdVar, R_DotsSymbol, {env_}));
                    break;
                default:
                    return nullptr;
            }
        }
        // (a function known to be the closure the feedback saw, whose
        // arguments match its formals by position: a StaticCall)
        bool known = guardedLookups_.count(fun) && fun->op == Opcode::LdConst &&
                     staticCallable(code_, cs, fun->constant);
        Instruction* c = b_.add(known ? Opcode::StaticCall : Opcode::Call, ops);
        c->constant = pool(cs.ast);
        // the RIR call site it was (native code may make the call through it
        // while the arguments are still the site's)
        c->code = code_;
        c->site() = site;
        if (tagged) c->names = tags;
        return c;
    }

    // The variables `loads` read from the function's environment in order,
    // each tested forced (IsForced) on the way: the path goes on to `slow`
    // where one is not. `call`: what the loads' errors name (nullptr: the
    // function's call).
    std::vector<Instruction*> loadForced(const std::vector<SEXP>& loads, BB* slow, SEXP call) {
        std::vector<Instruction*> loaded;
        for (SEXP sym : loads) {
            Instruction* v = b_.withSymbol(Opcode::LdVar, sym, {env_});
            if (call) v->call = call;
            BB* next = b_.newBB();
            b_.branch(b_(Opcode::IsForced, {v}), next, slow);
            b_.setBB(next);
            loaded.push_back(v);
        }
        return loaded;
    }
    // The loads' values, one per call in their order (translated code that
    // loads them in the order loadForced got: see forEachLoad).
    std::function<Instruction*(SEXP)> forcedInOrder(const std::vector<Instruction*>& loaded,
                                                    size_t& next) {
        return [this, &loaded, &next](SEXP) { return b_(Opcode::ForceForced, {loaded[next++]}); };
    }

    // A call whose arguments include promise code that is straight-line
    // quiet arithmetic on the caller's variables (inlinable) passes those
    // promises evaluated: their values are computed before the call (they
    // can have no effect, and whether the callee forces them or not is not
    // observable), so that the callee neither runs their code in the
    // interpreter nor finds them lazy (its context has them evaluated). As
    // for inlining, the variables they read are loaded first; unless each is
    // forced already the call passes plain promises; the speculations leave
    // through a checkpoint before the call; and unsoundInlines() checks
    // after the passes that no load is left (a variable that is not bound
    // would raise its error whether the callee uses the argument or not)
    // and nothing had an effect.
    //
    //   f(i - 1)                        %20 = Sub %18, %19  (eager)
    //                                   %22 = MkArg 3, <call -(...)>, %20, %2
    //                                   %23 = Call <call f(...)>, %2, %8, %22
    Instruction* eagerCall(const CallSite& cs, int site, Instruction* fun,
                           const std::vector<Instruction*>& stack, int pc);

    // A call whose feedback saw one closure only, whose body is straight-line
    // quiet arithmetic on its arguments (inlinable), is inlined. Speculated:
    // the function called is still that closure (IsCallee, at a checkpoint
    // before the call, whose frame state resumes the RIR code at the call
    // with the function on the stack: RIR then makes the call). The
    // caller's variables that the promise code of the arguments the body
    // uses reads are loaded first, in the order the body forces them; unless
    // each is forced already (IsForced: a value, or a promise with its
    // value) the call is made as usual. Else the body is translated in
    // place, each argument computed where the body first uses it, from its
    // promise code (translated too), its speculations on types leaving
    // through the call's checkpoint. Resuming before the call is right only
    // if nothing the inlined code did had an effect: unsoundInlines() checks
    // that after the passes (a load they could not resolve may run an active
    // binding's function), and the function is translated again without the
    // call sites it names.
    //
    //   sq <- function(x) x * x        (after the passes)
    //   f <- function(y) sq(y + 1)       %4 = LdFun sq, %2
    //                                    %5 = Checkpoint -> BB2, BB3
    //                                  BB2
    //                                    %8 = IsCallee <closure>, %4 (inlined)
    //                                    %9 = Assume %8, %5 (inlined)
    //                                    %10 = LdVar y, %2 (inlined)
    //                                    %11 = IsForced %10 (inlined)
    //                                    %12 = Branch %11 -> BB4, BB5 (BB5: the call)
    //                                  BB4
    //                                    %13 = Force %10 (plain) (inlined)
    //                                    ... y + 1, then x * x, speculated ...
    // The checkpoint speculation about a call leaves through: the one before
    // the function's guarded lookup (leaving resumes there), else a new one
    // at the call with the function on the stack.
    Instruction* callCheckpoint(Instruction* fun, const std::vector<Instruction*>& stack, int pc) {
        auto guarded = guardedLookups_.find(fun);
        if (guarded != guardedLookups_.end()) return guarded->second;
        std::vector<Instruction*> atCall = stack;
        atCall.push_back(fun);
        return checkpoint(pc, atCall);
    }

    // The function a call that will be a StaticCall calls: the closure the
    // feedback saw alone, guarded after the lookup (whichever it made: a
    // promise forced, an active binding's function called, which a guard
    // before it could not allow), leaving at the call with the function
    // found on the stack (RIR then calls it); else `fun`.
    //
    //   h(a)     %7 = LdFun h, %1
    //            %8 = Checkpoint -> BB2, BB3    (BB3: pc of the call, stack [%7])
    //          BB2
    //            %11 = LdConst <closure>
    //            %12 = Identical %7, %11
    //            %13 = Assume %12, %8
    //            %15 = StaticCall <call h(...)>, %2, %11, %14 <formals>
    Instruction* staticCallee(const CallSite& cs, int slot, Instruction* fun,
                              const std::vector<Instruction*>& stack, int pc) {
        if (guardedLookups_.count(fun)) return fun;
        SEXP clo = staticTarget(code_, cs, slot);
        if (!clo) return fun;
        Instruction* cp = callCheckpoint(fun, stack, pc);
        Instruction* known = b_.ldConst(clo);
        b_.withType(Opcode::Assume, fun->type, {b_(Opcode::Identical, {fun, known}), cp});
        guardedLookups_[known] = cp;
        return known;
    }

    // The closure the call at this site calls, when its body will be
    // inlined (see inlineCall), else nullptr.
    SEXP inlineTarget(const CallSite& cs, int site, int slot) {
        return noInline_.count(site) ? nullptr : pir::inlineTarget(code_, cs, slot);
    }

    Instruction* inlineCall(const CallSite& cs, int site, int slot, Instruction* fun,
                            const std::vector<Instruction*>& stack, int pc);

    // Calls `use` with each variable code inlinable() admitted loads, in
    // the order it loads them.
    template <typename F>
    static void forEachLoad(const Code* c, F use) {
        const std::vector<int32_t>& bc = c->bc;
        for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
            forEachVariableLoad(Op(bc[pc]), &bc[pc + 1], [&](int pool) { use(c->poolAt(pool)); });
        }
    }

    // The translation of code inlinable() admitted, its assumptions
    // leaving through `cp`; `load` gives a variable's value.
    Instruction* straightLine(const Code* c, const std::function<Instruction*(SEXP)>& load,
                              Instruction* cp);

    std::string translate(Op op, const int32_t* imm, int pc, int next,
                          std::vector<Instruction*>& stack, const std::map<int, BB*>& blocks,
                          bool* open);
};

}  // namespace pir
}  // namespace rir
