// inline_call.cpp — calls whose callee's code the translation puts in place
// of the call (see translator.h): promise code computed before the call
// (eagerCall), bodies of quiet arithmetic without an environment
// (inlineCall), and callees that call, with their own environment and
// function context (inlineWithContext):
//
//   h <- function(a) g(a) + 1          %7 = Checkpoint -> BB2, BB3
//   f <- function(x) h(x)            BB2
//                                      %9 = IsCallee <closure h>, %6
//                                      %10 = Assume %9, %7
//                                      %11 = MkArg x, %2
//                                      %13 = MkEnv a=%11, parent=%12
//                                      %14 = FrameState pc 9, %2 (after the call)
//                                      %15 = PushContext h(x), %2, %13, %8, %14, %11
//                                      ... h's code in %13, its frame states'
//                                      outer one %14 ...
//                                    BB6
//                                      %30 = PopContext %29, %13
//                                      %31 = Return %30
#include "translator.h"

namespace rir {
namespace pir {

// A call of a known closure (the feedback saw only it; guarded) whose
// arguments include promise code that is straight-line quiet arithmetic
// on the caller's variables (inlinable), and whose code forces those
// arguments at its very start (forcedAtStart), passes those promises
// evaluated: their values are computed just before the call, so that the
// callee neither runs their code in the interpreter nor finds them lazy
// (its context has them evaluated). The value is the same as the
// callee's own forcing would compute only because nothing can happen in
// between: promise code forced later could see the caller's variables
// changed, by the callee or after the call returned (a closure that
// keeps the promise: `mk <- function(a) function() a` called as
// `mk(x + 1)` must see a later `x <- 100`). As for inlining, the
// variables they read are loaded first; unless each is forced already the
// call passes plain promises; the speculations leave through a checkpoint
// before the call; and unsoundInlines() checks after the passes that no
// load is left (a variable that is not bound would raise its error
// whether the callee uses the argument or not) and nothing had an effect.
//
//   f(i - 1)                        %20 = Sub %18, %19  (eager)
//     f <- function(i)              %22 = MkArg 3, <call -(...)>, %20, %2
//       if (i < 2) ...              %23 = StaticCall <call f(...)>, %2, %8, %22
Instruction* Translator::eagerCall(const CallSite& cs, int site, Instruction* fun,
                                   const std::vector<Instruction*>& stack, int pc) {
    if (noInline_.count(site)) return nullptr;
    // (a closure guarded to be the one the feedback saw, its arguments
    // matched by position: staticCallee)
    if (!guardedLookups_.count(fun) || fun->op != Opcode::LdConst ||
        !staticCallable(code_, cs, fun->constant))
        return nullptr;
    SEXP clo = fun->constant;
    DispatchTable* t = DispatchTable::unpackFast(trampolineTargetFast(BODY(clo)));
    if (!t->baseline || cs.args.size() > 32) return nullptr;
    std::vector<const Code*> promise(cs.args.size(), nullptr);
    auto callerVar = [](SEXP sym) { return !dotsName(sym); };
    uint32_t effectFree = 0;
    for (size_t k = 0; k < cs.args.size(); k++) {
        const CallArg& a = cs.args[k];
        if (a.kind == ArgKind::Const) effectFree |= 1u << k;
        if (a.kind != ArgKind::Code) continue;
        promise[k] = Code::unpack(pool(a.pool));
        if (promise[k] && !inlinable(promise[k], callerVar)) promise[k] = nullptr;
        if (promise[k]) effectFree |= 1u << k;
    }
    uint32_t forced = forcedAtStart(t->baseline, FORMALS(clo), effectFree);
    bool any = false;
    for (size_t k = 0; k < cs.args.size(); k++) {
        if (!(forced & (1u << k))) promise[k] = nullptr;
        any = any || promise[k];
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
        opcodeOf(ArithOp(op), &o);
        return binop(o, a, b, c->poolAt(call), c->feedback[fb].types, 0, nullptr, -1, nullptr, cp);
    };
    for (size_t pc = 0; pc < bc.size();) {
        Op op = Op(bc[pc]);
        const int32_t* imm = &bc[pc + 1];
        switch (op) {
            case Op::push: {
                const insn::push o(imm);
                st.push_back(b_.ldConst(c->poolAt(o.value)));
                b_(Opcode::Visible);
                break;
            }
            case Op::visible:
                b_(Opcode::Visible);
                break;
            case Op::invisible:
                b_(Opcode::Invisible);
                break;
            case Op::ldvar: {
                const insn::ldvar o(imm);
                b_(Opcode::Visible);
                st.push_back(load(c->poolAt(o.sym)));
                break;
            }
            case Op::binop: {
                const insn::binop o(imm);
                Instruction* b = pop(st);
                Instruction* a = pop(st);
                st.push_back(arith(o.op, a, b, o.call, o.fb));
                break;
            }
            case Op::ld2_binop: {
                const insn::ld2_binop o(imm);
                auto ab = ld2Operands(b_, o, st, c, [&](SEXP sym, int) { return load(sym); });
                st.push_back(arith(o.op, ab.first, ab.second, o.call, o.fb));
                break;
            }
            case Op::unop: {
                const insn::unop o(imm);
                Instruction* u =
                    b_(ArithOp(o.op) == ArithOp::Neg ? Opcode::Minus : Opcode::Plus, {pop(st)});
                u->call = c->poolAt(o.call);
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

Translator::Translator(const Code* code, SEXP formals, Translator& caller, Instruction* env,
                       Instruction* afterCall, BB* exit)
    : code_(code),
      formals_(formals),
      fn_(caller.fn_),
      b_(caller.fn_),
      env_(env),
      one_(caller.one_),
      minusOne_(caller.minusOne_),
      noInline_(noSites()),
      eagerArgs_(0),
      ctx_(Context()),
      afterCall_(afterCall),
      exitBB_(exit),
      withContext_(false) {
    b_.bb = caller.b_.bb;
    b_.frame = env;
}

// A call whose feedback saw one closure only, which contextInlineTarget
// admits, is inlined with the frame GNU R would make: speculated (at the
// call's checkpoint) that the function is still that closure, the callee's
// environment is made from the call site's arguments (promises in the
// caller's environment, defaults bound as a call binds them), its function
// context pushed, and its code translated in place with its returns
// joining after it, where the context is popped. Every instruction of the
// callee runs in its environment (Instruction::frame). A speculation in
// the callee leaves through a frame state whose outer one is the caller's
// after the call: the deoptimization finishes the callee in RIR inside the
// context, pops it, and the caller goes on in RIR with the call's value. A
// jump aimed at the context (return() in a promise) lands in native code,
// which goes on in the caller's RIR code after the call with its value.
Instruction* Translator::inlineWithContext(const CallSite& cs, int site, Instruction* fun,
                                           const std::vector<Instruction*>& stack, int pc,
                                           int next) {
    if (!withContext_ || noInline_.count(site) || noInline_.count(noContextKey(site)))
        return nullptr;
    SEXP clo = contextInlineTarget(code_, cs, insn::call(&code_->bc[pc + 1]).fb);
    if (!clo) return nullptr;
    const Code* callee = DispatchTable::unpackFast(trampolineTargetFast(BODY(clo)))->baseline;
    CodeShape shape;
    if (!verifyCode(callee, &shape).empty()) return nullptr;

    Instruction* cp = callCheckpoint(fun, stack, pc);
    Instruction* test = b_(Opcode::IsCallee, {fun});
    test->constant = clo;
    b_.withType(Opcode::Assume, fun->type, {test, cp});
    Instruction* closure = b_.ldConst(clo);
    std::vector<Instruction*> args;
    std::vector<SEXP> names;
    for (SEXP f = FORMALS(clo); f != R_NilValue; f = CDR(f)) {
        size_t k = names.size();
        names.push_back(TAG(f));
        args.push_back(k < cs.args.size() ? argument(cs.args[k], nullptr)
                                          : b_.ldConst(R_MissingArg));
    }
    Instruction* env = b_.mkEnv(args, names, b_.ldConst(CLOENV(clo)));
    env->constant = clo;
    Instruction* after = b_.frameState(code_, next, env_, afterCall_, stack);
    after->afterCall = true;
    std::vector<Instruction*> ops{env_, env, closure, after};
    // (the arguments as supplied: the context's promargs)
    for (size_t k = 0; k < cs.args.size(); k++) ops.push_back(args[k]);
    Instruction* push = b_.add(Opcode::PushContext, ops);
    push->constant = pool(cs.ast);
    push->site() = site;

    BB* exit = b_.newBB();
    Translator body(callee, FORMALS(clo), *this, env, after, exit);
    std::string problem = body.translateBody(shape);
    if (problem.empty() && body.returns_.empty()) problem = "no return";
    if (!problem.empty()) {
        failedInlines.insert(noContextKey(site));
        inlineProblem_ = "an inlined call's callee: " + problem;
        return nullptr;
    }
    b_.setBB(exit);
    Instruction* value =
        body.returns_.size() == 1 ? body.returns_[0].second : b_.phi(body.returns_);
    Instruction* pop = b_.add(Opcode::PopContext, {value, env});
    return pop;
}

}  // namespace pir
}  // namespace rir
