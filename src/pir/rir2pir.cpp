// rir2pir.cpp — translation of a function's RIR code into PIR (see
// rir2pir.h).
//
// The operand stack becomes SSA values: the translation walks the bytecode
// block by block keeping a stack of PIR values; where control flow merges
// with values on the stack (the bytecode verifier gives the height at every
// pc), the block starts with one Phi per stack slot. Variables stay in the
// function's environment (MkEnv of the arguments, then LdVar / StVar on it);
// scope resolution turns them into SSA values later.
//
//   function(x) x + 1                          function f (1 argument)
//                                              BB0
//     ld2_binop + (var x) (const 1)              %0 = LdArg 0
//     ret                                        %1 = LdFunctionEnv
//                                                %2 = MkEnv x=%0, parent=%1
//                                                %3 = LdVar x, %2
//                                                %4 = Force %3
//                                                %5 = LdConst 1
//                                                %6 = Add %4, %5
//                                                %7 = Return %6
//
// Speculation: a binop whose operands were already on the stack (values)
// and whose feedback saw only plain scalars of one type (no attributes, no
// NA) gets a Checkpoint with the FrameState of the binop's pc before it, an
// IsType + Assume per operand and a CastType, so its types are known after.
#include "rir2pir.h"

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
#include "builder.h"
#include "inline_body.h"
#include "opt/pass.h"
#include "printer.h"
#include "rir_facts.h"
#include "verifier.h"

namespace rir {
namespace pir {

namespace {

// R constants the translation uses (made and kept alive by rir2pirInit: the
// translator itself never allocates R objects)
SEXP oneInt = nullptr, minusOneInt = nullptr;
// integer scalars 0 .. kSmallInts - 1 (a list): switch entries
const int kSmallInts = 256;
SEXP smallInts = nullptr;
SEXP intConstant(int k) {
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

    std::string run() {
        CodeShape shape;
        std::string bad = verifyCode(code_, &shape);
        if (!bad.empty()) return "the RIR code does not verify: " + bad;
        const std::vector<int32_t>& bc = code_->bc;
        // block leaders: the entry, jump targets, and what follows a jump
        // (only reachable ones: the verifier gave them a height)
        std::map<int, BB*> blocks;
        auto leader = [&](int pc) {
            if (pc >= 0 && size_t(pc) < bc.size() && shape.height[pc] >= 0 && !blocks.count(pc))
                blocks[pc] = nullptr;
        };
        leader(0);
        for (size_t pc = 0; pc < bc.size();) {
            Op op = Op(bc[pc]);
            const rir::InsnInfo& in = rir::info(op);
            int next = int(pc) + 1 + in.operands;
            for (int k = 0; k < in.operands; k++)
                if (in.operandKinds[k] == 'l') {
                    leader(bc[pc + 1 + k]);
                    leader(next);
                }
            if (op == Op::ret) leader(next);
            // (switch_table's entries: the `br`s that follow it)
            if (op == Op::switch_table)
                for (int e = 0; e < bc[pc + 3] + bc[pc + 4]; e++) leader(next + 2 * e);
            if (op == Op::br_back) loopHeaders_.insert(bc[pc + 1]);
            pc = size_t(next);
        }
        // prologue: the arguments bound in a new environment
        std::vector<Instruction*> args;
        std::vector<SEXP> names, defaults;
        int nformals = Rf_length(formals_);
        for (SEXP a = formals_; a != R_NilValue; a = CDR(a)) {
            names.push_back(TAG(a));
            defaults.push_back(CAR(a));
            // (one speculated evaluated is not missing: the entry's
            // IsForced, below, leaves otherwise before any other use; one
            // the context has among the trailing missing arguments, without
            // a default, is the missing marker)
            size_t k = args.size();
            bool missing = int(k) >= nformals - ctx_.missing() && CAR(a) == R_MissingArg;
            if (missing && k < 32) eagerArgs_ &= ~(1u << k);
            bool eager = k < 32 && (eagerArgs_ & (1u << k));
            args.push_back(b_.ldArg(int(k), missing ? PirType(0, uint8_t(Flag::Missing))
                                            : eager ? PirType::any().without(Flag::Missing)
                                                    : PirType::any()));
        }
        Instruction* parent = b_(Opcode::LdFunctionEnv);
        env_ = b_.mkEnv(args, names, parent);
        // default arguments: a missing one is bound to a promise of its
        // default in the new environment (its binding stays `missing`)
        for (size_t k = 0; k < defaults.size(); k++) {
            if (defaults[k] == R_MissingArg) continue;
            Instruction* t =
                b_.withType(Opcode::IsType, PirType(0, uint8_t(Flag::Missing)), {args[k]});
            BB* def = b_.newBB();
            BB* cont = b_.newBB();
            b_.branch(t, def, cont);
            b_.setBB(def);
            Instruction* p = b_.add(Opcode::MkArg, {b_.ldConst(R_MissingArg), env_});
            p->index = k < code_->defaults.size() ? code_->defaults[k] : -1;
            p->constant = defaults[k];
            b_.withSymbol(Opcode::StArgDefault, names[k], {p, env_});
            b_.jump(cont);
            b_.setBB(cont);
        }
        // arguments the feedback never saw lazy (an unevaluated promise,
        // or missing) are speculated evaluated at the entry (IsForced,
        // leaving for the start of the RIR code); their Force here makes
        // later ones of the same value no effect (force dominance)
        bool anyEager = false;
        for (size_t k = 0; k < args.size() && k < 32; k++)
            anyEager = anyEager || (eagerArgs_ & (1u << k));
        if (anyEager) {
            // (the context's evaluated arguments need no test: the call
            // satisfies the context, see DispatchTable::contextOf)
            auto inContext = [&](size_t k) {
                return int(k) < Context::kMaxArgs && ctx_.has(int(k), ArgFlag::Eager);
            };
            Instruction* cp = nullptr;
            for (size_t k = 0; k < args.size() && k < 32; k++)
                if ((eagerArgs_ & (1u << k)) && !inContext(k) && !cp) cp = checkpoint(0, {});
            for (size_t k = 0; k < args.size() && k < 32; k++) {
                if (!(eagerArgs_ & (1u << k))) continue;
                if (!inContext(k))
                    b_.withType(Opcode::Assume, PirType::val(),
                                {b_(Opcode::IsForced, {args[k]}), cp});
                Instruction* v = b_(Opcode::Force, {args[k]});
                v->plain = true;
                // (what the context says of the value: the uses this Force
                // dominates take the cast, see known types)
                if (inContext(k)) {
                    if (ctx_.has(int(k), ArgFlag::SimpleReal))
                        b_.withType(Opcode::CastType, PirType::scalar(Kind::Real), {v});
                    else if (ctx_.has(int(k), ArgFlag::SimpleInt))
                        b_.withType(Opcode::CastType, PirType::scalar(Kind::Int), {v});
                    else if (ctx_.has(int(k), ArgFlag::NotObject))
                        b_.withType(Opcode::CastType, v->type.without(Flag::Object), {v});
                }
            }
        }
        BB* prologue = b_.bb;
        for (auto& entry : blocks) entry.second = b_.newBB();
        phis_.clear();
        for (auto& entry : blocks) {
            b_.setBB(entry.second);
            std::vector<Instruction*>& phis = phis_[entry.first];
            for (int k = 0; k < shape.height[entry.first]; k++) phis.push_back(b_.phi({}));
        }
        b_.setBB(prologue);
        jumpTo(0, {}, blocks);

        for (auto it = blocks.begin(); it != blocks.end(); ++it) {
            int pc = it->first;
            auto nextBlock = std::next(it);
            int end = nextBlock == blocks.end() ? int(bc.size()) : nextBlock->first;
            if (pc != 0 && !incoming_.count(pc)) {
                skipped_.insert(pc);
                continue;
            }
            b_.setBB(it->second);
            std::vector<Instruction*> stack = phis_[pc];
            bool open = true;  // the block has not ended with a jump
            while (pc < end && open) {
                Op op = Op(bc[pc]);
                const int32_t* imm = &bc[pc + 1];
                int next = pc + 1 + rir::info(op).operands;
                std::string problem = translate(op, imm, pc, next, stack, blocks, &open);
                if (!problem.empty()) return problem;
                pc = next;
            }
            if (open) jumpTo(end, stack, blocks);
        }
        if (backToSkipped_) return "a block reached only by a jump back";
        // Phi operands, now that every predecessor is known
        for (auto& in : incoming_) {
            std::vector<Instruction*>& phis = phis_[in.first];
            for (auto& edge : in.second)
                for (size_t k = 0; k < phis.size(); k++) {
                    phis[k]->phiFrom.push_back(edge.first);
                    phis[k]->args.push_back(edge.second[k]);
                }
        }
        // a variable's value passed to a builtin before more arguments:
        // loaded there (native code counts it as referenced from the load to
        // the call, as the interpreter does), also when a guard's branch
        // in a later argument made it a Phi
        for (auto& c : fn_->insns) {
            if (c->op != Opcode::CallBuiltin) continue;
            for (size_t k = 1; k + 1 < c->args.size(); k++) {
                Instruction* v = c->args[k];
                while (v->op == Opcode::Phi && v->args.size() == 1) v = v->args[0];
                if (v->op == Opcode::Force && v->args[0]->op == Opcode::LdVar)
                    v->args[0]->kept = true;
            }
        }
        // (speculation can leave code no path reaches: an object's path)
        fn_->computePreds();
        removeUnreachable(*fn_);
        fn_->inferTypes();
        return "";
    }

  private:
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
    uint32_t eagerArgs_;  // arguments speculated evaluated (bit k: argument k)
    Context ctx_;         // the context of the calls the version is for
    std::map<int, std::vector<Instruction*>> phis_;
    std::set<int> loopHeaders_;  // targets of backward jumps
    std::map<int, std::vector<std::pair<BB*, std::vector<Instruction*>>>> incoming_;

    SEXP pool(int i) const { return code_->poolAt(i); }

    void edge(int target, const std::vector<Instruction*>& stack) {
        if (skipped_.count(target)) backToSkipped_ = true;
        incoming_[target].push_back({b_.bb, stack});
    }
    // blocks no translated code reached when their turn came (the general
    // path after a speculated fast one): not translated; a later jump back
    // to one makes the translation fail
    std::set<int> skipped_;
    bool backToSkipped_ = false;
    // Entering a loop (not by its back edge) passes a checkpoint at its
    // header: what an effect before it left unconfirmed is confirmed there
    // once (scope resolution), not in each iteration.
    void jumpTo(int target, const std::vector<Instruction*>& stack,
                const std::map<int, BB*>& blocks, bool back = false) {
        if (!back && target != 0 && loopHeaders_.count(target)) checkpoint(target, stack);
        edge(target, stack);
        b_.jump(blocks.at(target));
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
        Instruction* f = b_(Opcode::Force, {v});
        f->plain = true;
        return f;
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
        b_(Opcode::Deopt, {b_.frameState(code_, pc, env_, nullptr, stack)});
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

    // (`at`: an existing checkpoint the assumptions leave through, for
    // inlined code: see inlineCall)
    Instruction* binop(Opcode op, Instruction* a, Instruction* b, SEXP call, uint32_t feedback,
                       int pc, const std::vector<Instruction*>* before, int next = -1,
                       const std::vector<Instruction*>* below = nullptr,
                       Instruction* at = nullptr) {
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
                std::vector<Instruction*> after = *below;
                after.push_back(slow);
                b_(Opcode::Deopt, {b_.frameState(code_, next, env_, nullptr, after)});
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
        }
        Instruction* r = b_(op, {a, b});
        r->call = call;
        return r;
    }

    // The call of fun at RIR call site `site` (nullptr: an argument kind not
    // translated yet); `eager[k]`, when given and not null: the value of
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
                    ops.push_back(b_.ldConst(pool(a.pool)));
                    break;
                case ArgKind::Missing:
                    ops.push_back(b_.ldConst(R_MissingArg));
                    break;
                case ArgKind::Symbol:
                case ArgKind::Code: {
                    size_t k = ops.size() - 2;
                    Instruction* v = eager && (*eager)[k] ? (*eager)[k] : b_.ldConst(R_MissingArg);
                    Instruction* p = b_.add(Opcode::MkArg, {v, env_});
                    p->index = a.pool;
                    p->constant = a.kind == ArgKind::Symbol ? pool(a.pool)
                                                            : Code::unpack(pool(a.pool))->ast();
                    ops.push_back(p);
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
        c->index = site;
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
        return [this, &loaded, &next](SEXP) {
            Instruction* forced = b_(Opcode::Force, {loaded[next++]});
            forced->plain = true;
            return forced;
        };
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
                           const std::vector<Instruction*>& stack, int pc) {
        if (noInline_.count(site)) return nullptr;
        std::vector<const Code*> promise(cs.args.size(), nullptr);
        auto callerVar = [](SEXP sym) { return !dotsName(sym); };
        bool any = false;
        for (size_t k = 0; k < cs.args.size(); k++) {
            const CallArg& a = cs.args[k];
            switch (a.kind) {
                case ArgKind::Code:
                    promise[k] = Code::unpack(pool(a.pool));
                    if (promise[k] && !inlinable(promise[k], callerVar)) promise[k] = nullptr;
                    any = any || promise[k];
                    break;
                case ArgKind::Const:
                case ArgKind::Symbol:
                case ArgKind::Missing:
                case ArgKind::Dots:
                    break;
                default:
                    return nullptr;
            }
        }
        if (!any) return nullptr;
        std::vector<SEXP> loads;
        for (const Code* p : promise)
            if (p) forEachLoad(p, [&](SEXP v) { loads.push_back(v); });
        Instruction* cp = callCheckpoint(fun, stack, pc);
        size_t first = fn_->insns.size();
        BB* slow = loads.empty() ? nullptr : b_.newBB();
        std::vector<Instruction*> loaded = loadForced(loads, slow, nullptr);
        size_t nextLoad = 0;
        std::function<Instruction*(SEXP)> callerLoad = forcedInOrder(loaded, nextLoad);
        std::vector<Instruction*> value(cs.args.size(), nullptr);
        for (size_t k = 0; k < cs.args.size(); k++)
            if (promise[k]) value[k] = straightLine(promise[k], callerLoad, cp);
        for (size_t k = first; k < fn_->insns.size(); k++) fn_->insns[k]->eagerFor = site + 1;
        Instruction* r = call(cs, site, fun, &value);
        if (!slow) return r;
        BB* fast = b_.bb;
        BB* join = b_.newBB();
        b_.jump(join);
        b_.setBB(slow);
        Instruction* c = call(cs, site, fun);
        BB* slowEnd = b_.bb;
        b_.jump(join);
        b_.setBB(join);
        return b_.phi({{fast, r}, {slowEnd, c}});
    }

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
                            const std::vector<Instruction*>& stack, int pc) {
        SEXP clo = inlineTarget(cs, site, slot);
        if (!clo) return nullptr;
        DispatchTable* t = DispatchTable::unpackFast(trampolineTargetFast(BODY(clo)));
        std::vector<SEXP> names;
        for (SEXP a = FORMALS(clo); a != R_NilValue; a = CDR(a)) names.push_back(TAG(a));
        std::vector<const Code*> promise(names.size(), nullptr);
        for (size_t k = 0; k < cs.args.size(); k++)
            if (cs.args[k].kind == ArgKind::Code) promise[k] = Code::unpack(pool(cs.args[k].pool));
        auto formal = [&](SEXP sym) {
            return size_t(std::find(names.begin(), names.end(), sym) - names.begin());
        };
        // the caller's variables read, in the order the body forces them
        std::vector<SEXP> loads;
        std::vector<bool> used(names.size(), false);
        forEachLoad(t->baseline, [&](SEXP sym) {
            size_t k = formal(sym);
            if (k == names.size() || used[k]) return;  // (a variable of the body)
            used[k] = true;
            const CallArg& a = cs.args[k];
            if (a.kind == ArgKind::Symbol) loads.push_back(pool(a.pool));
            if (a.kind == ArgKind::Code)
                forEachLoad(promise[k], [&](SEXP v) { loads.push_back(v); });
        });

        Instruction* cp = callCheckpoint(fun, stack, pc);
        size_t first = fn_->insns.size();
        Instruction* test = b_(Opcode::IsCallee, {fun});
        test->constant = clo;
        b_.withType(Opcode::Assume, fun->type, {test, cp});
        BB* slow = loads.empty() ? nullptr : b_.newBB();
        // (their errors name the call, as its promises' would)
        std::vector<Instruction*> loaded = loadForced(loads, slow, pool(cs.ast));
        size_t nextLoad = 0;
        std::function<Instruction*(SEXP)> callerLoad = forcedInOrder(loaded, nextLoad);
        std::vector<Instruction*> value(names.size(), nullptr);
        std::function<Instruction*(SEXP)> argument = [&](SEXP sym) {
            size_t k = formal(sym);
            if (!value[k]) {
                const CallArg& a = cs.args[k];
                value[k] = a.kind == ArgKind::Const    ? b_.ldConst(pool(a.pool))
                           : a.kind == ArgKind::Symbol ? callerLoad(pool(a.pool))
                                                       : straightLine(promise[k], callerLoad, cp);
            }
            return value[k];
        };
        Instruction* r = nullptr;
        if (inlinable(t->baseline, [&](SEXP sym) { return formal(sym) < names.size(); })) {
            r = straightLine(t->baseline, argument, cp);
        } else {
            // a body that branches or loops (inline_body.cpp): the
            // arguments it uses computed first, its speculations leaving
            // through the checkpoint before the call as well
            InlineBodyHooks hooks;
            hooks.argument = [&](size_t k) { return argument(names[k]); };
            hooks.arith = [&](Opcode o, Instruction* a, Instruction* b, SEXP call, uint32_t types) {
                return binop(o, a, b, call, types, 0, nullptr, -1, nullptr, cp);
            };
            r = translateInlineBody(b_, t->baseline, names, hooks, &inlineProblem_);
            if (!r) return nullptr;
        }
        BB* fast = b_.bb;
        BB* join = b_.newBB();
        b_.jump(join);
        for (size_t k = first; k < fn_->insns.size(); k++) fn_->insns[k]->inlinedFrom = site + 1;
        b_.setBB(join);
        if (!slow) return r;
        b_.setBB(slow);
        Instruction* c = call(cs, site, fun);
        b_.jump(join);
        b_.setBB(join);
        return b_.phi({{fast, r}, {slow, c}});
    }

    // Calls `use` with each variable code inlinable() admitted loads, in
    // the order it loads them.
    template <typename F>
    static void forEachLoad(const Code* c, F use) {
        const std::vector<int32_t>& bc = c->bc;
        for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
            const int32_t* imm = &bc[pc + 1];
            if (Op(bc[pc]) == Op::ldvar) use(c->poolAt(imm[0]));
            if (Op(bc[pc]) == Op::ld2_binop) {
                if (imm[0] == 1) use(c->poolAt(imm[1]));
                if (imm[3] == 1) use(c->poolAt(imm[4]));
            }
        }
    }

    // ld2_binop's operands, each (kind, a) from its immediates: 0 the stack
    // (popped; the stack operands come first, a below b), 1 a variable
    // (`load` of pool[a]), 2 the constant pool[a]; c: the code's pool.
    template <typename Load>
    std::pair<Instruction*, Instruction*> ld2Operands(const int32_t* imm,
                                                      std::vector<Instruction*>& stack,
                                                      const Code* c, const Load& load) {
        int nStack = (imm[0] == 0) + (imm[3] == 0);
        std::vector<Instruction*> fromStack(stack.end() - nStack, stack.end());
        stack.resize(stack.size() - nStack);
        size_t used = 0;
        auto operand = [&](int kind, int a, int slot) -> Instruction* {
            if (kind == 0) return fromStack[used++];
            if (kind == 2) return b_.ldConst(c->poolAt(a));
            return load(c->poolAt(a), slot);
        };
        Instruction* a = operand(imm[0], imm[1], imm[2]);
        Instruction* b = operand(imm[3], imm[4], imm[5]);
        return {a, b};
    }

    // The translation of code inlinable() admitted, its assumptions
    // leaving through `cp`; `load` gives a variable's value.
    Instruction* straightLine(const Code* c, const std::function<Instruction*(SEXP)>& load,
                              Instruction* cp) {
        std::vector<Instruction*> st;
        const std::vector<int32_t>& bc = c->bc;
        auto arith = [&](int op, Instruction* a, Instruction* b, int call, int fb) {
            Opcode o = Opcode::Add;
            binaryOpcode(ArithOp(op), &o);
            return binop(o, a, b, c->poolAt(call), c->feedback[fb].types, 0, nullptr, -1, nullptr,
                         cp);
        };
        for (size_t pc = 0; pc < bc.size();) {
            Op op = Op(bc[pc]);
            const int32_t* imm = &bc[pc + 1];
            switch (op) {
                case Op::push:
                    st.push_back(b_.ldConst(c->poolAt(imm[0])));
                    b_(Opcode::Visible);
                    break;
                case Op::visible:
                    b_(Opcode::Visible);
                    break;
                case Op::invisible:
                    b_(Opcode::Invisible);
                    break;
                case Op::ldvar:
                    b_(Opcode::Visible);
                    st.push_back(load(c->poolAt(imm[0])));
                    break;
                case Op::binop: {
                    Instruction* b = pop(st);
                    Instruction* a = pop(st);
                    st.push_back(arith(imm[0], a, b, imm[2], imm[5]));
                    break;
                }
                case Op::ld2_binop: {
                    auto ab = ld2Operands(imm, st, c, [&](SEXP sym, int) { return load(sym); });
                    st.push_back(arith(imm[6], ab.first, ab.second, imm[8], imm[11]));
                    break;
                }
                case Op::unop: {
                    Instruction* u = b_(
                        ArithOp(imm[0]) == ArithOp::Neg ? Opcode::Minus : Opcode::Plus, {pop(st)});
                    u->call = c->poolAt(imm[2]);
                    st.push_back(u);
                    break;
                }
                default:  // ret (the last: inlinable() admitted nothing else)
                    return st.back();
            }
            pc += 1 + rir::info(op).operands;
        }
        return st.back();
    }

    std::string translate(Op op, const int32_t* imm, int pc, int next,
                          std::vector<Instruction*>& stack, const std::map<int, BB*>& blocks,
                          bool* open) {
        switch (op) {
            case Op::push:
                stack.push_back(b_.ldConst(pool(imm[0])));
                b_(Opcode::Visible);
                return "";
            case Op::push_null:
                stack.push_back(b_.ldConst(R_NilValue));
                b_(Opcode::Visible);
                return "";
            case Op::ldvar:
            case Op::ldvar_in:
                // visible first: forcing a promise may make it invisible
                b_(Opcode::Visible);
                stack.push_back(loadVariable(pool(imm[0]), imm[1], pc, &stack));
                // an argument of an inlined call: its errors name the call
                if (op == Op::ldvar_in) stack.back()->args[0]->call = pool(imm[2]);
                return "";
            case Op::stvar:
                b_.withSymbol(Opcode::StVar, pool(imm[0]), {pop(stack), env_});
                return "";
            case Op::stvar_super:
                b_.withSymbol(Opcode::StVarSuper, pool(imm[0]), {pop(stack), env_});
                return "";
            case Op::pop:
                pop(stack);
                return "";
            case Op::popn:
                for (int k = 0; k < imm[0]; k++) pop(stack);
                return "";
            case Op::dup:
                stack.push_back(stack.back());
                return "";
            case Op::visible:
                b_(Opcode::Visible);
                return "";
            case Op::invisible:
                b_(Opcode::Invisible);
                return "";
            case Op::count_arg:  // reference counting of the interpreter's operands
                return "";
            case Op::ldvar_missok: {
                // an index: a missing argument is the empty index
                b_(Opcode::Visible);
                Instruction* v = b_.withSymbol(Opcode::LdVar, pool(imm[0]), {env_});
                stack.push_back(b_(Opcode::ForceOrMissing, {v}));
                return "";
            }
            case Op::subset_var:
            case Op::subset_var2:
                // the interpreter's quick path for x[i] / m[i, j] on local
                // variables: the general code that follows computes the same
                // value, so PIR takes that
                return "";
            case Op::srcref: {
                Instruction* i = b_(Opcode::SetSrcref);
                i->constant = pool(imm[0]);
                return "";
            }
            case Op::br:
            case Op::br_back:
                jumpTo(imm[0], stack, blocks, op == Op::br_back);
                *open = false;
                return "";
            case Op::brfalse: {
                if (imm[1] < 0) {
                    // the object test of subsetting: an object is popped and
                    // goes to the label, anything else stays and falls through
                    PirType notObject = PirType::any().without(Flag::Object);
                    const Feedback& fb = code_->feedback[imm[2]];
                    if (fb.taken == 0) {
                        // never an object so far (or never reached: the
                        // subset_var quick path before it took plain
                        // vectors): speculated, leaving resumes at the test
                        Instruction* cp = checkpoint(pc, stack);
                        Instruction* t = b_.withType(Opcode::IsType, notObject, {stack.back()});
                        b_.withType(Opcode::Assume, notObject, {t, cp});
                        // (x is a variable's forced value)
                        stack.back() = b_.withType(
                            Opcode::CastType, PirType::val().without(Flag::Object), {stack.back()});
                        jumpTo(next, stack, blocks);
                        *open = false;
                        return "";
                    }
                    Instruction* t = b_.withType(Opcode::IsType, notObject, {stack.back()});
                    if (next == imm[0]) return "a branch whose two targets are the same";
                    edge(next, stack);
                    std::vector<Instruction*> popped(stack.begin(), stack.end() - 1);
                    edge(imm[0], popped);
                    b_.branch(t, blocks.at(next), blocks.at(imm[0]));
                    *open = false;
                    return "";
                }
                Instruction* t = b_(Opcode::AsTest, {pop(stack)});
                t->call = pool(imm[1]);
                if (next == imm[0]) return "a branch whose two targets are the same";
                edge(next, stack);
                edge(imm[0], stack);
                b_.branch(t, blocks.at(next), blocks.at(imm[0]));
                *open = false;
                return "";
            }
            case Op::ret:
                b_(Opcode::Return, {pop(stack)});
                *open = false;
                return "";
            case Op::use_method: {
                // the function returns the method's value (GNU R's
                // UseMethod, the fallback, never comes back)
                std::vector<Instruction*> ops{env_};
                if (imm[1] > 1) return "UseMethod with more than one object";
                if (imm[1] == 1) ops.push_back(pop(stack));
                Instruction* u = b_.add(Opcode::UseMethod, ops);
                u->constant = pool(imm[0]);
                u->call = pool(imm[2]);
                b_(Opcode::Return, {u});
                *open = false;
                return "";
            }
            case Op::ldfun: {
                // the function of a call whose body will be inlined: the
                // lookup is speculated to find the closure the feedback saw
                // without running R code (forcing a promise, an active
                // binding); leaving resumes at the lookup, which RIR redoes
                SEXP clo = nullptr;
                if (size_t(next) < code_->bc.size() && Op(code_->bc[next]) == Op::call) {
                    const int32_t* c = &code_->bc[next + 1];
                    clo = inlineTarget(code_->calls[c[0]], c[0], c[1]);
                }
                if (clo) {
                    Instruction* cp = checkpoint(pc, stack);
                    Instruction* fun = b_.withSymbol(Opcode::LdFun, pool(imm[0]), {env_});
                    fun->call = pool(imm[1]);
                    fun->plain = true;
                    Instruction* known = b_.ldConst(clo);
                    b_.withType(Opcode::Assume, fun->type,
                                {b_(Opcode::Identical, {fun, known}), cp});
                    guardedLookups_[known] = cp;
                    stack.push_back(known);
                    return "";
                }
                stack.push_back(b_.withSymbol(Opcode::LdFun, pool(imm[0]), {env_}));
                stack.back()->call = pool(imm[1]);
                return "";
            }
            case Op::call: {
                const CallSite& cs = code_->calls[imm[0]];
                Instruction* fun = pop(stack);
                Instruction* r = inlineCall(cs, imm[0], imm[1], fun, stack, pc);
                if (!inlineProblem_.empty()) return inlineProblem_;
                if (!r) fun = staticCallee(cs, imm[1], fun, stack, pc);
                if (!r) r = eagerCall(cs, imm[0], fun, stack, pc);
                if (!r) r = call(cs, imm[0], fun);
                if (!r)
                    return "calls with stack arguments (complex assignments) not translated yet";
                stack.push_back(r);
                return "";
            }
            case Op::guard_fun: {
                // the inlined code below assumed that the symbol names this
                // function; if not, GNU R evaluates the call, and its value
                // goes on at the label. Speculated: it still does (leaving
                // resumes at the guard, which then takes the slow path).
                Instruction* cp = checkpoint(pc, stack);
                // (the lookup runs no R code: where it would have to, the
                // guard fails, and RIR's own lookup runs it)
                Instruction* fun = b_.withSymbol(Opcode::LdFun, pool(imm[0]), {env_});
                fun->call = pool(imm[2]);
                fun->plain = true;
                Instruction* t = b_(Opcode::Identical, {fun, b_.ldConst(pool(imm[1]))});
                b_.withType(Opcode::Assume, fun->type, {t, cp});
                jumpTo(next, stack, blocks);
                *open = false;
                return "";
            }
            case Op::dollar_assign: {
                // x$name <- v on a local list or environment: speculated to
                // take the fast path (leaving resumes at the instruction,
                // which then takes the general complex assignment)
                Instruction* cp = checkpoint(pc, stack);
                Instruction* d = b_.add(Opcode::DollarAssignVar, {env_, stack.back()});
                d->symbol = pool(imm[1]);
                d->code = code_;
                d->index = pc;
                d->call = pool(imm[4]);
                // (only its plain fast path, as always so far: no R code)
                d->plain = !(code_->feedback[imm[5]].types & kDollarNotPlain);
                b_.withType(Opcode::Assume, stack.back()->type, {d, cp});
                pop(stack);
                return "";
            }
            case Op::switch_table: {
                // the entry EXPR selects, then a test per entry (the
                // table's `br`s jump on to the alternatives)
                Instruction* k = b_.add(Opcode::SwitchIndex, {pop(stack)});
                k->index = pc;
                k->code = code_;
                k->call = pool(imm[0]);
                int n = imm[2] + imm[3];
                if (n < 1 || n > kSmallInts) return "a switch with no or too many entries";
                for (int e = 0; e + 1 < n; e++) {
                    Instruction* t =
                        b_(Opcode::AsTest, {b_(Opcode::Eq, {k, b_.ldConst(intConstant(e))})});
                    BB* rest = b_.newBB();
                    edge(next + 2 * e, stack);
                    b_.branch(t, blocks.at(next + 2 * e), rest);
                    b_.setBB(rest);
                }
                jumpTo(next + 2 * (n - 1), stack, blocks);
                *open = false;
                return "";
            }
            case Op::eval_ast: {
                Instruction* v = b_.add(Opcode::EvalAst, {env_});
                v->constant = pool(imm[0]);
                stack.push_back(v);
                return "";
            }
            case Op::br_obj: {
                // objects go to the dispatching path at the label
                PirType notObject = PirType::any().without(Flag::Object);
                Instruction* t = b_.withType(Opcode::IsType, notObject, {stack.back()});
                if (next == imm[0]) return "a branch whose two targets are the same";
                edge(next, stack);
                edge(imm[0], stack);
                b_.branch(t, blocks.at(next), blocks.at(imm[0]));
                *open = false;
                return "";
            }
            case Op::subset_obj: {
                Instruction* d = b_.add(Opcode::ExtractDispatch, {pop(stack), env_});
                d->index = imm[0];
                d->constant = pool(imm[1]);
                stack.push_back(d);
                return "";
            }
            // A complex assignment f(g(x, b), a) <- v keeps RIR's protocol:
            // x's value, the getters inside out, the setters outside in
            // (each replacement function's value is the next one's value),
            // then x bound to the last one. The calls take their other
            // arguments from their RIR call sites, as the interpreter's.
            //
            //   names(x)[2] <- "b"     %5 = LdConst "b"
            //                          %6 = StartAssign x, %2
            //                          %7 = LdFun names, %2
            //                          %8 = GetterCall %2, %7, %6
            //                          %9 = LdFun `[<-`, %2
            //                          %10 = SetterCall %2, %9, %5, %8
            //                          %11 = LdFun `names<-`, %2
            //                          %12 = SetterCall %2, %11, %10, %6
            //                          StVar x, %12, %2
            case Op::ldddvar:
                b_(Opcode::Visible);
                stack.push_back(b_.withSymbol(Opcode::LdDotsElement, pool(imm[0]), {env_}));
                return "";
            case Op::apply_internal: {
                Instruction* r = b_.add(Opcode::ApplyInternal, {env_});
                r->constant = pool(imm[0]);
                r->call = pool(imm[1]);
                stack.push_back(r);
                return "";
            }
            case Op::loop_body: {
                // (a break or next reached through a promise or a call:
                // GNU R's, caught by the loop context the body runs in)
                Instruction* t = b_.add(Opcode::LoopBody, {env_});
                t->constant = pool(imm[1]);
                if (next == imm[0]) return "a branch whose two targets are the same";
                edge(next, stack);
                edge(imm[0], stack);
                b_.branch(t, blocks.at(imm[0]), blocks.at(next));
                *open = false;
                return "";
            }
            case Op::env_subassign: {
                if (stack.size() < 2) return "env_subassign below the stack";
                Instruction* i = pop(stack);
                Instruction* v = pop(stack);
                Instruction* a = b_.add(Opcode::EnvSubassign, {env_, v, i});
                a->index = imm[0];
                a->symbol = pool(imm[1]);
                a->constant = pool(imm[2]);
                a->call = pool(imm[3]);
                return "";
            }
            case Op::start_assign:
            case Op::start_assign_super: {
                Instruction* x =
                    b_.add(op == Op::start_assign ? Opcode::StartAssign : Opcode::StartAssignSuper,
                           {env_});
                x->symbol = pool(imm[0]);
                x->call = pool(imm[1]);
                stack.push_back(x);
                return "";
            }
            case Op::pick: {
                if (size_t(imm[0]) >= stack.size()) return "pick below the stack";
                stack.push_back(stack[stack.size() - 1 - imm[0]]);
                return "";
            }
            case Op::getter_call: {
                if (stack.size() < 2) return "getter_call below the stack";
                Instruction* fun = pop(stack);
                Instruction* g = b_.add(Opcode::GetterCall, {env_, fun, stack.back()});
                g->index = imm[0];
                g->code = code_;
                stack.push_back(g);
                return "";
            }
            case Op::setter_call: {
                if (stack.size() < 3) return "setter_call below the stack";
                Instruction* fun = pop(stack);
                Instruction* rhs = pop(stack);
                Instruction* lhs = pop(stack);
                Instruction* s = b_.add(Opcode::SetterCall, {env_, fun, rhs, lhs});
                s->index = imm[0];
                s->code = code_;
                s->constant = pool(imm[1]);
                s->plain = !(imm[2] & kSetterSuper);
                stack.push_back(s);
                return "";
            }
            case Op::end_assign: {
                Instruction* v = pop(stack);
                if (imm[2])
                    b_.withSymbol(Opcode::StVarSuper, pool(imm[0]), {v, env_});
                else
                    b_.withSymbol(Opcode::StVar, pool(imm[0]), {v, env_});
                return "";
            }
            case Op::subassign: {
                // x[i] <- v etc. on a local variable: one instruction doing
                // what the interpreter's does (v below the indices)
                int kind = imm[0], nidx = imm[4];
                if (nidx < 1 || nidx > 2) return "subassign with more than two indices";
                if (kind & (kPushedX | kSuperAssign)) {
                    // x[f(i)] <- v (x's value below the indices) and
                    // x[i] <<- v: the interpreter's general path
                    int n = nidx + 1 + ((kind & kPushedX) ? 1 : 0);
                    if (stack.size() < size_t(n)) return "subassign below the stack";
                    std::vector<Instruction*> ops{env_};
                    ops.insert(ops.end(), stack.end() - n, stack.end());
                    stack.resize(stack.size() - n);
                    Instruction* a = b_.add(Opcode::SubassignGeneral, ops);
                    a->symbol = pool(imm[1]);
                    a->index = kind;
                    a->call = pool(imm[3]);
                    a->constant = pool(imm[5]);
                    return "";
                }
                // speculation: x a plain local vector, as always so far
                // (leaving resumes the RIR subassign with its operands)
                bool plain = !(code_->feedback[imm[6]].types & kSubassignNotPlain);
                if (plain) {
                    Instruction* cp = checkpoint(pc, stack);
                    Instruction* t = b_.withSymbol(Opcode::IsPlainLocal, pool(imm[1]), {env_});
                    b_(Opcode::Assume, {t, cp});
                }
                std::vector<Instruction*> ops{env_};
                ops.insert(ops.end(), stack.end() - nidx - 1, stack.end());
                stack.resize(stack.size() - nidx - 1);
                Instruction* a = b_.add(Opcode::SubassignVar, ops);
                a->symbol = pool(imm[1]);
                a->index = kind;
                a->call = pool(imm[3]);
                a->constant = pool(imm[5]);
                a->plain = plain;
                return "";
            }
            case Op::subset: {
                int kind = imm[0], n = imm[1];
                const CallSite& cs = code_->calls[imm[2]];
                bool tagged = false;
                for (const CallArg& a : cs.args) tagged = tagged || a.tag != R_NilValue;
                if (n < 0 || stack.size() < size_t(n) + 1) return "subset below the stack";
                std::vector<Instruction*> ops(stack.end() - n - 1, stack.end());
                stack.resize(stack.size() - n - 1);
                if (ops[0]->type.may(Flag::Missing))
                    return "subsetting a missing value not translated yet";
                if (tagged || n < 1 || n > 2) {
                    // x[i, drop = FALSE], a[i, j, k], x[[i, exact = TRUE]]:
                    // GNU R's default code with the call site's names
                    Instruction* x =
                        b_.add(kind == 2 ? Opcode::Extract2_ND : Opcode::Extract1_ND, ops);
                    x->code = code_;
                    x->index = imm[2];
                    stack.push_back(x);
                    return "";
                }
                Opcode o = n == 1 ? (kind == 2 ? Opcode::Extract2_1D : Opcode::Extract1_1D)
                                  : (kind == 2 ? Opcode::Extract2_2D : Opcode::Extract1_2D);
                uint32_t t = code_->feedback[imm[3]].types;
                // speculation: a list without a class, as always so far
                // (subsetting it runs no R code; leaving resumes the
                // subset). (Not for double and integer vectors: measured
                // slower, their elements' speculation below does more.)
                PirType plainX = PirType::of(Kind::List).without(Flag::Object);
                if ((t & 0x7f) == TB_LIST && !(t & TB_OBJECT) && !hasType(ops[0], plainX)) {
                    std::vector<Instruction*> before = stack;
                    before.insert(before.end(), ops.begin(), ops.end());
                    Instruction* cp = checkpoint(pc, before);
                    b_.withType(Opcode::Assume, plainX,
                                {b_.withType(Opcode::IsType, plainX, {ops[0]}), cp});
                    ops[0] = b_.withType(Opcode::CastType, plainX, {ops[0]});
                }
                Instruction* x = b_.add(o, ops);
                x->code = code_;  // its call site (the call GNU R's `[` gets)
                x->index = imm[2];
                // speculation: an element of a plain double / integer vector
                // (or matrix) seen so far is a scalar of its type; leaving
                // resumes after the subset with its value
                Kind k = (t & 0x7f) == TB_REAL ? Kind::Real : Kind::Nil;
                if ((t & 0x7f) == TB_INT) k = Kind::Int;
                if (k != Kind::Nil && !(t & TB_OBJECT) && (n == 2 || !(t & TB_ATTRIB))) {
                    std::vector<Instruction*> after = stack;
                    after.push_back(x);
                    Instruction* cp = checkpoint(next, after);
                    PirType rt = PirType::scalar(k);
                    b_.withType(Opcode::Assume, rt, {b_.withType(Opcode::IsType, rt, {x}), cp});
                    x = b_.withType(Opcode::CastType, rt, {x});
                }
                stack.push_back(x);
                return "";
            }
            case Op::lgl_first: {
                // && (kind 1) / || (2): a plain logical scalar lhs decides
                // (FALSE / TRUE) or goes on to the rhs; anything else takes
                // GNU R's operator at the slow label
                int kind = imm[0], lEnd = imm[1], lSlow = imm[2];
                Instruction* a = stack.back();
                Instruction* isLgl = b_.withType(Opcode::IsType, PirType::scalar(Kind::Lgl), {a});
                BB* check = b_.newBB();
                edge(lSlow, stack);
                b_.branch(isLgl, check, blocks.at(lSlow));
                b_.setBB(check);
                Instruction* decides = b_(Opcode::LglIs, {a});
                decides->index = kind == 1 ? 0 : 1;
                BB* decided = b_.newBB();
                if (next == lEnd) return "a branch whose two targets are the same";
                edge(next, stack);
                b_.branch(decides, decided, blocks.at(next));
                b_.setBB(decided);
                std::vector<Instruction*> result = stack;
                result.back() = b_.ldConst(kind == 1 ? R_FalseValue : R_TrueValue);
                b_(Opcode::Visible);
                jumpTo(lEnd, result, blocks);
                *open = false;
                return "";
            }
            case Op::lgl_second: {
                Instruction* rhs = pop(stack);
                Instruction* lhs = pop(stack);
                Instruction* r = b_(Opcode::LglCombine, {lhs, rhs});
                r->index = imm[0];
                r->constant = pool(imm[1]);
                stack.push_back(r);
                b_(Opcode::Visible);
                return "";
            }
            case Op::lgl_slow: {
                Instruction* r = b_.add(Opcode::LglSlow, {pop(stack), env_});
                r->index = imm[0];
                r->constant = pool(imm[1]);
                stack.push_back(r);
                b_(Opcode::Visible);
                return "";
            }
            case Op::for_init: {
                // the loop state: the sequence, its length, the counter
                Instruction* seq = b_.add(Opcode::ForSeq, {pop(stack)});
                seq->constant = pool(imm[0]);
                stack.push_back(seq);
                stack.push_back(b_(Opcode::ForLength, {seq}));
                stack.push_back(b_.ldConst(minusOne_));
                return "";
            }
            case Op::for_colon: {
                // (RIR keeps an integer range unbuilt; here it is the value
                // of from:to)
                Instruction* to = pop(stack);
                Instruction* from = pop(stack);
                Instruction* range = b_.add(Opcode::Colon, {from, to});
                range->constant = pool(imm[0]);
                Instruction* seq = b_.add(Opcode::ForSeq, {range});
                seq->constant = pool(imm[1]);
                stack.push_back(seq);
                stack.push_back(b_(Opcode::ForLength, {seq}));
                stack.push_back(b_.ldConst(minusOne_));
                return "";
            }
            case Op::for_step: {
                Instruction* ctr = pop(stack);
                Instruction* len = stack.back();
                Instruction* seq = stack[stack.size() - 2];
                Instruction* i = b_.add(Opcode::Add, {ctr, b_.ldConst(one_)});
                i->index = kLoopCounter;
                i->type = i->ruleType();
                stack.push_back(i);
                Instruction* t = b_(Opcode::AsTest, {b_(Opcode::Lt, {i, len})});
                if (next == imm[0]) return "a branch whose two targets are the same";
                // the body binds the element first: in a block of its own;
                // leaving releases the sequence (as for_step does)
                BB* body = b_.newBB();
                BB* done = b_.newBB();
                b_.branch(t, body, done);
                b_.setBB(done);
                b_(Opcode::ForEnd, {seq});
                jumpTo(imm[0], stack, blocks);
                b_.setBB(body);
                Instruction* e = b_(Opcode::ForElement, {seq, i});
                b_.withSymbol(Opcode::StVar, pool(imm[1]), {e, env_});
                jumpTo(next, stack, blocks);
                *open = false;
                return "";
            }
            case Op::dollar: {
                // speculation: plain (a list's element of that exact name,
                // an environment's ordinary binding: no R code), as always
                // so far (leaving resumes the RIR dollar with x on the stack)
                uint32_t t = code_->feedback[imm[3]].types;
                bool plain = t != 0 && !(t & kDollarNotPlain);
                if (plain) {
                    Instruction* cp = checkpoint(pc, stack);
                    Instruction* test =
                        b_.withSymbol(Opcode::IsPlainMember, pool(imm[1]), {stack.back()});
                    test->constant = pool(imm[0]);
                    b_(Opcode::Assume, {test, cp});
                }
                Instruction* d = b_.withSymbol(Opcode::Dollar, pool(imm[1]), {pop(stack)});
                d->call = pool(imm[2]);
                d->constant = pool(imm[0]);
                d->plain = plain;
                stack.push_back(d);
                return "";
            }
            case Op::mkclosure: {
                Instruction* m = b_.add(Opcode::MkCls, {env_});
                m->constant = pool(imm[0]);
                stack.push_back(m);
                return "";
            }
            case Op::call_builtin: {
                int n = imm[0];
                const CallSite& cs = code_->calls[imm[1]];
                bool tagged = false;
                for (const CallArg& a : cs.args) tagged = tagged || a.tag != R_NilValue;
                if (tagged && int(cs.args.size()) != n)
                    return "builtin calls with named arguments and `...` not translated yet";
                std::vector<Instruction*> ops{env_};
                ops.insert(ops.end(), stack.end() - n, stack.end());
                stack.resize(stack.size() - n);
                Instruction* c = b_.add(Opcode::CallBuiltin, ops);
                c->constant = pool(imm[2]);
                c->code = code_;  // its call site (the call and the expression errors name)
                c->index = imm[1];
                if (tagged)
                    for (const CallArg& a : cs.args) c->names.push_back(a.tag);
                stack.push_back(c);
                return "";
            }
            case Op::binop: {
                Opcode o;
                if (!binaryOpcode(ArithOp(imm[0]), &o))
                    return "vectorized & and | not translated yet";
                // the state before the binop: its operands on the stack
                std::vector<Instruction*> before = stack;
                Instruction* b = pop(stack);
                Instruction* a = pop(stack);
                const Feedback& f = code_->feedback[imm[5]];
                stack.push_back(binop(o, a, b, pool(imm[2]), f.types, pc, &before));
                return "";
            }
            case Op::ld2_binop: {
                Opcode o;
                if (!binaryOpcode(ArithOp(imm[6]), &o))
                    return "vectorized & and | not translated yet";
                // when no load runs, leaving resumes at the binop (its state
                // has the stack operands on it), else after it
                std::vector<Instruction*> before = stack;
                auto ab = ld2Operands(imm, stack, code_, [&](SEXP sym, int slot) {
                    return loadVariable(sym, slot, pc, &before);
                });
                Instruction *a = ab.first, *b = ab.second;
                const Feedback& f = code_->feedback[imm[11]];
                bool loaded = imm[0] == 1 || imm[3] == 1;
                std::vector<Instruction*> below = stack;
                stack.push_back(binop(o, a, b, pool(imm[8]), f.types, pc,
                                      loaded ? nullptr : &before, next, &below));
                return "";
            }
            case Op::unop: {
                ArithOp k = ArithOp(imm[0]);
                Opcode o = k == ArithOp::Neg    ? Opcode::Minus
                           : k == ArithOp::Plus ? Opcode::Plus
                                                : Opcode::Not;
                Instruction* u = b_(o, {pop(stack)});
                u->call = pool(imm[2]);
                stack.push_back(u);
                return "";
            }
            default:
                return std::string("RIR instruction ") + rir::info(op).name + " not translated yet";
        }
    }
};

}  // namespace

void rir2pirInit() {
    if (oneInt) return;
    oneInt = Rf_ScalarInteger(1);
    R_PreserveObject(oneInt);
    minusOneInt = Rf_ScalarInteger(-1);
    R_PreserveObject(minusOneInt);
    smallInts = Rf_allocVector(VECSXP, kSmallInts);
    R_PreserveObject(smallInts);
    for (int k = 0; k < kSmallInts; k++) SET_VECTOR_ELT(smallInts, k, Rf_ScalarInteger(k));
}

namespace {
constexpr uint16_t kNumbers = uint16_t(Kind::Lgl) | uint16_t(Kind::Int) | uint16_t(Kind::Real);

// (an `if` or `while` condition that cannot raise an error: a logical,
// integer or double scalar without attributes, not NA)
bool quietTest(const Instruction* cond) {
    PirType t = cond->type;
    return !t.isBottom() && t.flags() == 0 && !(t.kinds() & ~kNumbers);
}

// Can arithmetic, a comparison, a sign or a condition raise an error with
// its operands' types? Not on logicals, integers and doubles that are not
// objects (their warnings, integer overflow, are what quietArith ruled out
// by feedback, and the speculation on types then holds); a condition
// unless quietTest. (Loads and forcing in inlined code are judged apart.)
bool mayFail(const Instruction* i) {
    if (i->op == Opcode::AsTest) return !quietTest(i->args[0]);
    Rule r = i->info().result;
    bool numeric = r == Rule::Arith || r == Rule::Division || r == Rule::Compare ||
                   i->op == Opcode::Minus || i->op == Opcode::Plus;
    if (!numeric || !i->has(MayError)) return false;
    for (const Instruction* a : i->args) {
        PirType t = a->type;
        if (t.isBottom() || t.may(Flag::Object) || t.may(Flag::Lazy) || t.may(Flag::Missing) ||
            (t.kinds() & ~kNumbers))
            return true;
    }
    return false;
}

bool argumentLoad(const Instruction* ld) {
    const Instruction* env = ld->args[0];
    return env->op == Opcode::MkEnv &&
           std::find(env->names.begin(), env->names.end(), ld->symbol) != env->names.end();
}
}  // namespace

std::set<int> unsoundInlines(const Function& fn) {
    std::set<int> bad;
    for (auto& b : fn.blocks) {
        for (Instruction* i : b->insns) {
            if (int e = i->eagerFor) {
                // (no load: the callee may not use the argument at all)
                if (i->mayCallR() || i->op == Opcode::LdVar || (i->writes() & ~Global) ||
                    mayFail(i))
                    bad.insert(e - 1);
                continue;
            }
            int site = i->inlinedFrom;
            if (!site) continue;
            // (a load may run an active binding's function, unless it
            // reads an argument of the function: in its own frame from the
            // start, and an active binding made there since is ruled out at
            // the checkpoint; arithmetic writes only warnings, and inlined
            // arithmetic is quiet)
            if (i->mayCallR() || (i->op == Opcode::LdVar && !argumentLoad(i)) ||
                (i->writes() & ~Global) || mayFail(i))
                bad.insert(site - 1);
        }
    }
    return bad;
}

std::string rir2pir(const Code* code, SEXP formals, Function* fn, const std::set<int>& noInline,
                    uint32_t eagerArgs, Context ctx) {
    if (code->kind != CodeKind::Function) return "not a function body";
    if (!oneInt) return "rir2pir is not initialized";
    fn->nargs = Rf_length(formals);
    fn->onlyFormals = ctx.has(CallFlag::OnlyFormals);
    Translator t(code, formals, fn, noInline, eagerArgs, ctx);
    return t.run();
}

uint32_t eagerArgs(const DispatchTable* t) {
    // (one entry is no evidence: at threshold 0 the first call optimizes)
    return t->argSamples >= 2 ? ~t->lazyArgs : 0;
}

Context feedbackContext(uint32_t eager) {
    Context ctx;
    ctx.set(CallFlag::OnlyFormals);
    for (int k = 0; k < Context::kMaxArgs; k++)
        if (eager & (1u << k)) ctx.set(k, ArgFlag::Eager);
    return ctx;
}

std::string rir2pirOptimized(const Code* code, SEXP formals, Function* fn, bool verifyEach,
                             std::string* trace, uint32_t eager, Context ctx) {
    std::set<int> noInline;
    for (;;) {
        std::string problem = rir2pir(code, formals, fn, noInline, eager, ctx);
        if (problem.empty() && verifyEach) {
            problem = verify(*fn);
            if (!problem.empty()) problem = "after translation: " + problem;
        }
        if (trace && problem.empty()) *trace += "== translated\n" + print(*fn);
        if (problem.empty()) problem = optimize(*fn, verifyEach, trace);
        if (!problem.empty()) return problem;
        std::set<int> bad = unsoundInlines(*fn);
        if (bad.empty()) return "";
        // again without the calls whose inlined code kept what it may not
        noInline.insert(bad.begin(), bad.end());
        fn->clear();
        if (trace) *trace += "== inlined code kept effects before a deoptimization: again\n";
    }
}

}  // namespace pir
}  // namespace rir
