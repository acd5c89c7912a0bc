// builder.h — appends instructions to a PIR function, computing each
// result type from the instruction table's rule.
//
//   Builder b(fn);                       // fn->entry made current
//   auto* env = b.mkEnv({x}, {xSym}, parentEnv);
//   auto* v = b(Opcode::Force, {b.ldVar(xSym, env)});
//   b(Opcode::Return, {v});
#pragma once

#include <initializer_list>

#include "ir.h"

namespace rir {
namespace pir {

class Builder {
  public:
    explicit Builder(Function* f) : fn(f), bb(f->entry ? f->entry : f->newBB()) {}

    Function* fn;
    BB* bb;  // where instructions go
    // the inlined closure's environment the instructions made belong to
    // (Instruction::frame), nullptr for the function's own code
    Instruction* frame = nullptr;

    BB* newBB() { return fn->newBB(); }
    void setBB(BB* b) { bb = b; }

    // A generic instruction with these operands.
    Instruction* operator()(Opcode op, std::initializer_list<Instruction*> args = {}) {
        return add(op, std::vector<Instruction*>(args));
    }
    Instruction* add(Opcode op, std::vector<Instruction*> args) {
        Instruction* i = fn->newInsn(op);
        i->args = std::move(args);
        return append(i);
    }

    Instruction* ldConst(SEXP value) {
        Instruction* i = fn->newInsn(Opcode::LdConst);
        i->constant = value;
        return append(i);
    }
    Instruction* ldArg(int index, PirType t = PirType::any()) {
        Instruction* i = fn->newInsn(Opcode::LdArg);
        i->arg() = index;
        i->carriedType = t;
        return append(i);
    }
    Instruction* ldInput(int index, PirType t) {
        Instruction* i = fn->newInsn(Opcode::LdInput);
        i->arg() = index;
        i->carriedType = t;
        return append(i);
    }
    Instruction* withSymbol(Opcode op, SEXP sym, std::initializer_list<Instruction*> args) {
        Instruction* i = fn->newInsn(op);
        i->symbol = sym;
        i->args = args;
        return append(i);
    }
    Instruction* mkEnv(std::vector<Instruction*> values, std::vector<SEXP> names,
                       Instruction* parent, bool stub = false) {
        Instruction* i = fn->newInsn(Opcode::MkEnv);
        i->args = std::move(values);
        i->args.push_back(parent);
        i->names = std::move(names);
        i->stub = stub;
        return append(i);
    }
    Instruction* withType(Opcode op, PirType t, std::initializer_list<Instruction*> args) {
        Instruction* i = fn->newInsn(op);
        i->carriedType = t;
        i->args = args;
        return append(i);
    }
    Instruction* phi(std::vector<std::pair<BB*, Instruction*>> inputs) {
        Instruction* i = fn->newInsn(Opcode::Phi);
        for (auto& in : inputs) {
            i->phiFrom.push_back(in.first);
            i->args.push_back(in.second);
        }
        return append(i);
    }
    Instruction* frameState(const Code* code, int pc, Instruction* env, Instruction* outer,
                            std::vector<Instruction*> stack) {
        Instruction* i = fn->newInsn(Opcode::FrameState);
        i->code = code;
        i->pc() = pc;
        i->args.push_back(env);
        if (outer) i->args.push_back(outer);
        for (Instruction* v : stack) i->args.push_back(v);
        return append(i);
    }

    // Terminators: set the block's successors.
    void jump(BB* to) {
        (*this)(Opcode::Jump);
        bb->succ = {to};
    }
    void branch(Instruction* test, BB* ifTrue, BB* ifFalse) {
        (*this)(Opcode::Branch, {test});
        bb->succ = {ifTrue, ifFalse};
    }
    // A checkpoint ending the current block: returns it; `cont` continues,
    // `deopt` is the block that leaves (it gets the FrameState and Deopt).
    Instruction* checkpoint(BB* cont, BB* deopt) {
        Instruction* c = (*this)(Opcode::Checkpoint);
        bb->succ = {cont, deopt};
        return c;
    }

  private:
    Instruction* append(Instruction* i) {
        i->bb = bb;
        i->frame = frame;
        bb->insns.push_back(i);
        i->type = i->ruleType();
        return i;
    }
};

}  // namespace pir
}  // namespace rir
