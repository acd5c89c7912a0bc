// inline_call.cpp — calls whose callee's code the translation puts in place
// of the call (see translator.h).
#include "translator.h"

namespace rir {
namespace pir {

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
Instruction* Translator::eagerCall(const CallSite& cs, int site, Instruction* fun,
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

Instruction* Translator::inlineCall(const CallSite& cs, int site, int slot, Instruction* fun,
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
        if (a.kind == ArgKind::Code) forEachLoad(promise[k], [&](SEXP v) { loads.push_back(v); });
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

// The translation of code inlinable() admitted, its assumptions
// leaving through `cp`; `load` gives a variable's value.
Instruction* Translator::straightLine(const Code* c, const std::function<Instruction*(SEXP)>& load,
                                      Instruction* cp) {
    std::vector<Instruction*> st;
    const std::vector<int32_t>& bc = c->bc;
    auto arith = [&](int op, Instruction* a, Instruction* b, int call, int fb) {
        Opcode o = Opcode::Add;
        binaryOpcode(ArithOp(op), &o);
        return binop(o, a, b, c->poolAt(call), c->feedback[fb].types, 0, nullptr, -1, nullptr, cp);
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
                Instruction* u =
                    b_(ArithOp(imm[0]) == ArithOp::Neg ? Opcode::Minus : Opcode::Plus, {pop(st)});
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

}  // namespace pir
}  // namespace rir
