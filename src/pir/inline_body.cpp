// inline_body.cpp — an inlined closure body that branches or loops,
// translated with its variables as SSA values: no environment is made for
// it. The caller's translator (rir2pir.cpp: inlineCall) has checked the
// callee (inlinableBody: it reads only its formals and the variables it
// assigned on every path before, and does nothing but arithmetic,
// comparisons and jumps), computed the arguments it uses and placed the
// checkpoint its speculations leave through (before the call: the
// inlined code has no effect, so the interpreter may make the whole call
// again).
//
// The state of each block is the variables' values, then the operand
// stack; where paths meet (a branch's end, a loop's header) each slot is a
// Phi. Returns jump to one exit block whose Phi is the call's value.
//
//   mx <- function(a, b) if (a > b) a else b      (a = %10, b = %11)
//   f <- function(x, y) mx(x, y) + 1
//
//     BB4                                 BB6  <- BB4
//       %14 = Lt %11, %10                   %17 = Jump -> BB8
//       %15 = AsTest %14                  BB7  <- BB4
//       %16 = Branch %15 -> BB6, BB7        %18 = Jump -> BB8
//                                         BB8  <- BB6 BB7
//                                           %19 = Phi %10 (BB6), %11 (BB7)
//                                           %20 = Add %19, 1
#include "inline_body.h"

#include <algorithm>
#include <map>
#include <set>

#include "../bc/insns.h"
#include "../bc/ops.h"
#include "../bc/verifier.h"
#include "block_states.h"
#include "rir_facts.h"
#include "rir_operands.h"

namespace rir {
namespace pir {

namespace {

class BodyTranslator {
  public:
    BodyTranslator(Builder& b, const Code* c, const std::vector<SEXP>& formals,
                   const InlineBodyHooks& hooks)
        : b_(b), c_(c), vars_(formals), hooks_(hooks), formalCount_(formals.size()) {}

    Instruction* run(std::string* why) {
        CodeShape shape;
        std::string bad = verifyCode(c_, &shape);
        if (!bad.empty()) {
            *why = "an inlined body that does not verify: " + bad;
            return nullptr;
        }
        const std::vector<int32_t>& bc = c_->bc;
        std::map<int, BB*> blocks;
        auto leader = [&](int pc) {
            if (pc >= 0 && size_t(pc) < bc.size() && shape.height[pc] >= 0) blocks[pc] = nullptr;
        };
        leader(0);
        for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
            Op op = Op(bc[pc]);
            const int32_t* imm = &bc[pc + 1];
            int next = int(pc) + 1 + rir::info(op).operands;
            if (op == Op::stvar && var(c_->poolAt(insn::stvar(imm).sym)) == vars_.size())
                vars_.push_back(c_->poolAt(insn::stvar(imm).sym));
            if (op == Op::br || op == Op::br_back || op == Op::brfalse) {
                leader(labelOperand(op, imm));
                leader(next);
            }
            if (op == Op::ret) leader(next);
        }
        // the entry: the formals' values (those the body reads), the
        // assigned variables not yet (`none`: inlinableBody checked that
        // no path reads one before a store)
        Instruction* none = b_.ldConst(R_NilValue);
        std::vector<Instruction*> state(vars_.size(), none);
        for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
            Op op = Op(bc[pc]);
            const int32_t* imm = &bc[pc + 1];
            auto use = [&](int pool) {
                size_t k = var(c_->poolAt(pool));
                if (k < formalCount_ && state[k] == none) state[k] = hooks_.argument(k);
            };
            forEachVariableLoad(op, imm, use);
        }
        for (auto& e : blocks) {
            e.second = b_.newBB();
            states_.enter(b_, e.first, e.second, vars_.size() + size_t(shape.height[e.first]));
        }
        exit_ = b_.newBB();
        edge(0, state);
        b_.jump(blocks.at(0));

        bool ok = states_.translateReached(b_, blocks, int(bc.size()),
                                           [&](int pc, int end, BlockStates::State& st) {
                                               bool open = true;
                                               while (pc < end && open) {
                                                   Op op = Op(bc[pc]);
                                                   const int32_t* imm = &bc[pc + 1];
                                                   int next = pc + 1 + rir::info(op).operands;
                                                   if (!translate(op, imm, next, st, blocks, &open))
                                                       return false;
                                                   pc = next;
                                               }
                                               if (open) {
                                                   edge(end, st);
                                                   b_.jump(blocks.at(end));
                                               }
                                               return true;
                                           });
        if (!ok) {
            *why = "an inlined body with an instruction it cannot translate";
            return nullptr;
        }
        if (states_.backToSkipped) {
            *why = "an inlined body with a block reached only by a jump back";
            return nullptr;
        }
        states_.fillPhis();
        b_.setBB(exit_);
        if (returns_.empty()) {
            *why = "an inlined body that never returns";
            return nullptr;
        }
        return b_.phi(returns_);
    }

  private:
    Builder& b_;
    const Code* c_;
    std::vector<SEXP> vars_;  // the formals, then the variables assigned
    const InlineBodyHooks& hooks_;
    size_t formalCount_;
    BlockStates states_;  // the variables, then the stack, at each block's entry
    BB* exit_ = nullptr;
    std::vector<std::pair<BB*, Instruction*>> returns_;

    size_t var(SEXP sym) const {
        return size_t(std::find(vars_.begin(), vars_.end(), sym) - vars_.begin());
    }
    // state: the variables, then the stack
    void edge(int target, const std::vector<Instruction*>& state) {
        states_.edge(target, b_.bb, state);
    }

    bool translate(Op op, const int32_t* imm, int next, std::vector<Instruction*>& st,
                   const std::map<int, BB*>& blocks, bool* open) {
        auto pop = [&]() {
            Instruction* v = st.back();
            st.pop_back();
            return v;
        };
        auto load = [&](int pool) -> Instruction* { return st[var(c_->poolAt(pool))]; };
        auto arith = [&](int aop, Instruction* a, Instruction* b, int call, int fb) {
            Opcode o = Opcode::Add;
            opcodeOf(ArithOp(aop), &o);
            return hooks_.arith(o, a, b, c_->poolAt(call), c_->feedback[fb].types);
        };
        switch (op) {
            case Op::push: {
                const insn::push o(imm);
                st.push_back(b_.ldConst(c_->poolAt(o.value)));
                b_(Opcode::Visible);
                return true;
            }
            case Op::push_null:
                st.push_back(b_.ldConst(R_NilValue));
                b_(Opcode::Visible);
                return true;
            case Op::visible:
                b_(Opcode::Visible);
                return true;
            case Op::invisible:
                b_(Opcode::Invisible);
                return true;
            case Op::ldvar: {
                const insn::ldvar o(imm);
                b_(Opcode::Visible);
                st.push_back(load(o.sym));
                return true;
            }
            case Op::stvar: {
                const insn::stvar o(imm);
                st[var(c_->poolAt(o.sym))] = pop();
                return true;
            }
            case Op::pop:
                pop();
                return true;
            case Op::srcref:
                // (nothing in the inlined code can see R_Srcref: it calls
                // nothing and raises no error; the caller's stays current)
                return true;
            case Op::dup:
                st.push_back(st.back());
                return true;
            case Op::binop: {
                const insn::binop o(imm);
                Instruction* b = pop();
                Instruction* a = pop();
                st.push_back(arith(o.op, a, b, o.call, o.fb));
                return true;
            }
            case Op::ld2_binop: {
                const insn::ld2_binop o(imm);
                auto ab = ld2Operands(b_, o, st, c_, [&](SEXP sym, int) { return st[var(sym)]; });
                st.push_back(arith(o.op, ab.first, ab.second, o.call, o.fb));
                return true;
            }
            case Op::unop: {
                const insn::unop o(imm);
                Instruction* u =
                    b_(ArithOp(o.op) == ArithOp::Neg ? Opcode::Minus : Opcode::Plus, {pop()});
                u->call = c_->poolAt(o.call);
                st.push_back(u);
                return true;
            }
            case Op::brfalse: {
                const insn::brfalse o(imm);
                Instruction* t = b_(Opcode::AsTest, {pop()});
                t->call = c_->poolAt(o.call);
                if (next == o.target) return false;
                edge(next, st);
                edge(o.target, st);
                b_.branch(t, blocks.at(next), blocks.at(o.target));
                *open = false;
                return true;
            }
            case Op::br:
            case Op::br_back: {
                int target = labelOperand(op, imm);
                edge(target, st);
                b_.jump(blocks.at(target));
                *open = false;
                return true;
            }
            case Op::ret:
                returns_.push_back({b_.bb, pop()});
                b_.jump(exit_);
                *open = false;
                return true;
            default:
                return false;
        }
    }
};

}  // namespace

Instruction* translateInlineBody(Builder& b, const Code* c, const std::vector<SEXP>& formals,
                                 const InlineBodyHooks& hooks, std::string* why) {
    BodyTranslator t(b, c, formals, hooks);
    return t.run(why);
}

}  // namespace pir
}  // namespace rir
