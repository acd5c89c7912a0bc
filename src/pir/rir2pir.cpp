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
// A continuation (Function::continuation, see continueAt) is translated
// from a loop header instead of the start: its prologue binds the frame's
// variables in the MkEnv (LdArg k reads binding k of the frame) and loads
// the operand stack there (LdInput k), then jumps to the header.
//
// Speculation: a binop whose operands were already on the stack (values)
// and whose feedback saw only plain scalars of one type (no attributes, no
// NA) gets a Checkpoint with the FrameState of the binop's pc before it, an
// IsType + Assume per operand and a CastType, so its types are known after.
#include "rir2pir.h"

#include <map>

#include "translator.h"

namespace rir {
namespace pir {

SEXP oneInt = nullptr, minusOneInt = nullptr;
SEXP smallInts = nullptr;

// The code's blocks translated, from the current block on (the prologue's
// end, or an inlined call's), with Phis for the stack where paths meet.
std::string Translator::translateBody(const CodeShape& shape) {
    const std::vector<int32_t>& bc = code_->bc;
    // block leaders: the entry, jump targets, and what follows a jump
    // (only reachable ones: the verifier gave them a height)
    std::map<int, BB*> blocks;
    auto leader = [&](int pc) {
        if (pc >= 0 && size_t(pc) < bc.size() && shape.height[pc] >= 0 && !blocks.count(pc))
            blocks[pc] = nullptr;
    };
    leader(0);
    leader(entryPc_);
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
        if (op == Op::switch_table) {
            const insn::switch_table o(&bc[pc + 1]);
            for (int e = 0; e < o.nchar + o.nnum; e++) leader(next + insn::kSwitchEntry * e);
        }
        if (op == Op::br_back) loopHeaders_.insert(insn::br_back(&bc[pc + 1]).target);
        pc = size_t(next);
    }
    for (auto& entry : blocks) entry.second = b_.newBB();
    states_ = BlockStates();
    for (auto& entry : blocks)
        states_.enter(b_, entry.first, entry.second, size_t(shape.height[entry.first]));
    std::string problem;
    auto block = [&](int pc, int end, BlockStates::State& stack) {
        bool open = true;  // the block has not ended with a jump
        while (pc < end && open) {
            Op op = Op(bc[pc]);
            const int32_t* imm = &bc[pc + 1];
            int next = pc + 1 + rir::info(op).operands;
            problem = translate(op, imm, pc, next, stack, blocks, &open);
            if (!problem.empty()) return false;
            pc = next;
        }
        if (open) jumpTo(end, stack, blocks);
        return true;
    };
    if (!continues_) {
        jumpTo(0, {}, blocks);
        states_.translateReached(b_, blocks, int(bc.size()), block);
    } else {
        // (a continuation: its entry values, loaded by the prologue)
        std::vector<Instruction*> stack;
        for (auto& i : fn_->insns)
            if (i->op == Opcode::LdInput) stack.push_back(i.get());
        jumpTo(entryPc_, stack, blocks);
        states_.translateFrom(b_, blocks, int(bc.size()), entryPc_, block);
    }
    if (!problem.empty()) return problem;
    if (states_.backToSkipped) return "a block reached only by a jump back";
    states_.fillPhis();
    return "";
}

std::string Translator::run() {
    CodeShape shape;
    std::string bad = verifyCode(code_, &shape);
    if (!bad.empty()) return "the RIR code does not verify: " + bad;
    if (fn_->continuation) return runContinuation(shape);
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
        Instruction* t = b_.withType(Opcode::IsType, PirType(0, uint8_t(Flag::Missing)), {args[k]});
        BB* def = b_.newBB();
        BB* cont = b_.newBB();
        b_.branch(t, def, cont);
        b_.setBB(def);
        Instruction* p = b_.add(Opcode::MkArg, {b_.ldConst(R_MissingArg), env_});
        p->promise() = k < code_->defaults.size() ? code_->defaults[k] : -1;
        p->code = code_;
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
                b_.withType(Opcode::Assume, PirType::val(), {b_(Opcode::IsForced, {args[k]}), cp});
            Instruction* v = b_(Opcode::ForceForced, {args[k]});
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
    std::string problem = translateBody(shape);
    if (!problem.empty()) return problem;
    return finish();
}

// A continuation's prologue: the frame as it is (every binding it holds,
// read by LdArg, none missing or active: checked at the entry), the
// operand stack's slots (LdInput), then the code from the loop header on.
std::string Translator::runContinuation(const CodeShape& shape) {
    int pc = entryPc_;
    if (pc < 0 || size_t(pc) >= shape.height.size() || shape.height[pc] < 0 ||
        shape.slots[pc] != entryKinds_)
        return "a continuation's entry is not an instruction with that stack";
    std::vector<Instruction*> args;
    for (size_t k = 0; k < fn_->bindings.size(); k++)
        args.push_back(b_.ldArg(int(k), k < fn_->bindingTypes.size()
                                            ? fn_->bindingTypes[k]
                                            : PirType::any().without(Flag::Missing)));
    Instruction* parent = b_(Opcode::LdFunctionEnv);
    env_ = b_.mkEnv(args, fn_->bindings, parent);
    // (a promise evaluated before: its Force here makes later ones of the
    // same value no effect, as an eager argument's)
    for (size_t k = 0; k < args.size() && k < fn_->bindingForced.size(); k++)
        if (fn_->bindingForced[k]) b_(Opcode::ForceForced, {args[k]});
    for (size_t k = 0; k < entryKinds_.size(); k++) {
        SlotKind kind = entryKinds_[k];
        PirType t = kind == SlotKind::LoopLen || kind == SlotKind::LoopCtr
                        ? PirType::scalar(Kind::Int).without(Flag::NA)
                    : kind == SlotKind::Value && k < fn_->inputTypes.size() ? fn_->inputTypes[k]
                                                                            : PirType::val();
        b_.ldInput(int(k), t);
    }
    std::string problem = translateBody(shape);
    if (!problem.empty()) return problem;
    return finish();
}

std::string Translator::finish() {
    // a variable's value passed to a builtin before more arguments:
    // loaded there (native code counts it as referenced from the load to
    // the call, as the interpreter does), also when a guard's branch
    // in a later argument made it a Phi
    for (auto& c : fn_->insns) {
        if (c->op != Opcode::CallBuiltin) continue;
        for (size_t k = 1; k + 1 < c->args.size(); k++) {
            Instruction* v = c->args[k];
            while (v->op == Opcode::Phi && v->args.size() == 1) v = v->args[0];
            if (v->is(Opcode::Force) && v->args[0]->is(Opcode::LdVar)) v->args[0]->kept = true;
        }
    }
    // (speculation can leave code no path reaches: an object's path)
    fn_->computePreds();
    removeUnreachable(*fn_);
    fn_->inferTypes();
    return "";
}

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
    // (the function's own frame: an inlined callee's is not checked for
    // active bindings)
    return env->op == Opcode::MkEnv && !env->frame && !ld->frame && env->constant == nullptr &&
           std::find(env->names.begin(), env->names.end(), ld->symbol) != env->names.end();
}
}  // namespace

std::set<int> unsoundInlines(const Function& fn) {
    // (what is unsound in code inlined into an inlined callee's code: that
    // whole call is not inlined; the call sites of the callee's code are
    // not the function's)
    std::map<const Instruction*, int> pushSite;
    for (auto& b : fn.blocks)
        for (Instruction* i : b->insns)
            if (i->op == Opcode::PushContext) pushSite[i->args[1]] = i->site();
    std::set<int> bad;
    auto unsound = [&](const Instruction* i, int site) {
        bad.insert(i->frame && pushSite.count(i->frame) ? noContextKey(pushSite.at(i->frame))
                                                        : site);
    };
    for (auto& b : fn.blocks) {
        for (Instruction* i : b->insns) {
            if (int e = i->eagerFor) {
                // (no load: the callee may not use the argument at all)
                if (i->mayCallR() || i->is(Opcode::LdVar) || (i->writes() & ~Global) || mayFail(i))
                    unsound(i, e - 1);
                continue;
            }
            int site = i->inlinedFrom;
            if (!site) continue;
            // (a load may run an active binding's function, unless it
            // reads an argument of the function: in its own frame from the
            // start, and an active binding made there since is ruled out at
            // the checkpoint; arithmetic writes only warnings, and inlined
            // arithmetic is quiet)
            if (i->mayCallR() || (i->is(Opcode::LdVar) && !argumentLoad(i)) ||
                (i->writes() & ~Global) || mayFail(i))
                unsound(i, site - 1);
        }
    }
    return bad;
}

std::string rir2pir(const Code* code, SEXP formals, Function* fn, const std::set<int>& noInline,
                    uint32_t eagerArgs, Context ctx, std::set<int>* failedInlines) {
    // (a continuation may also go on in a top-level loop's code)
    if (code->kind != CodeKind::Function && !(fn->continuation && code->kind == CodeKind::TopLevel))
        return "not a function body";
    if (!oneInt) return "rir2pir is not initialized";
    fn->nargs = fn->continuation ? int(fn->bindings.size()) : Rf_length(formals);
    fn->onlyFormals = !fn->continuation && ctx.has(CallFlag::OnlyFormals);
    Translator t(code, formals, fn, noInline, eagerArgs, ctx);
    if (fn->continuation) t.continueAt(fn->continuationPc, fn->continuationStack);
    std::string problem = t.run();
    if (failedInlines) *failedInlines = t.failedInlines;
    return problem;
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
                             std::string* trace, uint32_t eager, Context ctx,
                             const std::set<int>& never) {
    std::set<int> noInline = never;
    for (;;) {
        std::set<int> failed;
        std::string problem = rir2pir(code, formals, fn, noInline, eager, ctx, &failed);
        if (!problem.empty() && !failed.empty()) {
            // again without the inlined calls whose callee's code was not
            // translated
            noInline.insert(failed.begin(), failed.end());
            fn->clear();
            if (trace) *trace += "== " + problem + ": again without inlining it\n";
            continue;
        }
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

std::set<int> contextInlinedSites(const Function& fn) {
    std::set<int> sites;
    for (auto& i : fn.insns)
        if (i->op == Opcode::PushContext && i->bb) sites.insert(noContextKey(i->site()));
    return sites;
}

}  // namespace pir
}  // namespace rir
