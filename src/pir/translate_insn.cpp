// translate_insn.cpp — one RIR instruction translated into PIR (the
// Translator's big switch; see translator.h and rir2pir.cpp).
#include "translator.h"

namespace rir {
namespace pir {

std::string Translator::translate(Op op, const int32_t* imm, int pc, int next,
                                  std::vector<Instruction*>& stack,
                                  const std::map<int, BB*>& blocks, bool* open) {
    switch (op) {
        case Op::push: {
            const insn::push o(imm);
            stack.push_back(b_.ldConst(pool(o.value)));
            b_(Opcode::Visible);
            return "";
        }
        case Op::push_null:
            stack.push_back(b_.ldConst(R_NilValue));
            b_(Opcode::Visible);
            return "";
        case Op::ldvar: {
            const insn::ldvar o(imm);
            // visible first: forcing a promise may make it invisible
            b_(Opcode::Visible);
            stack.push_back(loadVariable(pool(o.sym), o.slot, pc, &stack));
            return "";
        }
        case Op::ldvar_in: {
            const insn::ldvar_in o(imm);
            b_(Opcode::Visible);
            stack.push_back(loadVariable(pool(o.sym), o.slot, pc, &stack));
            // an argument of an inlined call: its errors name the call
            stack.back()->args[0]->call = pool(o.call);
            return "";
        }
        case Op::stvar: {
            const insn::stvar o(imm);
            b_.withSymbol(Opcode::StVar, pool(o.sym), {pop(stack), env_});
            return "";
        }
        case Op::stvar_super: {
            const insn::stvar_super o(imm);
            b_.withSymbol(Opcode::StVarSuper, pool(o.sym), {pop(stack), env_});
            return "";
        }
        case Op::pop:
            pop(stack);
            return "";
        case Op::popn: {
            const insn::popn o(imm);
            for (int k = 0; k < o.n; k++) pop(stack);
            return "";
        }
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
            const insn::ldvar_missok o(imm);
            // an index: a missing argument is the empty index
            b_(Opcode::Visible);
            Instruction* v = b_.withSymbol(Opcode::LdVar, pool(o.sym), {env_});
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
            const insn::srcref o(imm);
            Instruction* i = b_(Opcode::SetSrcref);
            i->constant = pool(o.ref);
            return "";
        }
        case Op::br:
            jumpTo(insn::br(imm).target, stack, blocks, false);
            *open = false;
            return "";
        case Op::br_back:
            jumpTo(insn::br_back(imm).target, stack, blocks, true);
            *open = false;
            return "";
        case Op::brfalse: {
            const insn::brfalse o(imm);
            if (o.call < 0) {
                // the object test of subsetting: an object is popped and
                // goes to the label, anything else stays and falls through
                PirType notObject = PirType::any().without(Flag::Object);
                const Feedback& fb = code_->feedback[o.fb];
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
                if (next == o.target) return "a branch whose two targets are the same";
                edge(next, stack);
                std::vector<Instruction*> popped(stack.begin(), stack.end() - 1);
                edge(o.target, popped);
                b_.branch(t, blocks.at(next), blocks.at(o.target));
                *open = false;
                return "";
            }
            Instruction* t = b_(Opcode::AsTest, {pop(stack)});
            t->call = pool(o.call);
            if (next == o.target) return "a branch whose two targets are the same";
            edge(next, stack);
            edge(o.target, stack);
            b_.branch(t, blocks.at(next), blocks.at(o.target));
            *open = false;
            return "";
        }
        case Op::ret:
            ret(pop(stack));
            *open = false;
            return "";
        case Op::use_method: {
            const insn::use_method o(imm);
            // the function returns the method's value (GNU R's
            // UseMethod, the fallback, never comes back)
            std::vector<Instruction*> ops{env_};
            if (o.nobj > 1) return "UseMethod with more than one object";
            if (o.nobj == 1) ops.push_back(pop(stack));
            Instruction* u = b_.add(Opcode::UseMethod, ops);
            u->constant = pool(o.generic);
            u->call = pool(o.call);
            ret(u);
            *open = false;
            return "";
        }
        case Op::ldfun: {
            const insn::ldfun o(imm);
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
                Instruction* fun = b_.withSymbol(Opcode::LdFunGuard, pool(o.sym), {env_});
                fun->call = pool(o.call);
                Instruction* known = b_.ldConst(clo);
                b_.withType(Opcode::Assume, fun->type, {b_(Opcode::Identical, {fun, known}), cp});
                guardedLookups_[known] = cp;
                stack.push_back(known);
                return "";
            }
            stack.push_back(b_.withSymbol(Opcode::LdFun, pool(o.sym), {env_}));
            stack.back()->call = pool(o.call);
            return "";
        }
        case Op::call: {
            const insn::call o(imm);
            const CallSite& cs = code_->calls[o.site];
            Instruction* fun = pop(stack);
            Instruction* r = inlineCall(cs, o.site, o.fb, fun, stack, pc);
            if (!r && inlineProblem_.empty())
                r = inlineWithContext(cs, o.site, fun, stack, pc, next);
            if (!inlineProblem_.empty()) return inlineProblem_;
            if (!r) fun = staticCallee(cs, o.fb, fun, stack, pc);
            if (!r) r = eagerCall(cs, o.site, fun, stack, pc);
            if (!r) r = call(cs, o.site, fun);
            if (!r) return "calls with stack arguments (complex assignments) not translated";
            stack.push_back(r);
            return "";
        }
        case Op::guard_fun: {
            const insn::guard_fun o(imm);
            // the inlined code below assumed that the symbol names this
            // function; if not, GNU R evaluates the call, and its value
            // goes on at the label. Speculated: it still does (leaving
            // resumes at the guard, which then takes the slow path).
            Instruction* cp = checkpoint(pc, stack);
            // (the lookup runs no R code: where it would have to, the
            // guard fails, and RIR's own lookup runs it)
            Instruction* fun = b_.withSymbol(Opcode::LdFunGuard, pool(o.sym), {env_});
            fun->call = pool(o.call);
            Instruction* t = b_(Opcode::Identical, {fun, b_.ldConst(pool(o.fun))});
            b_.withType(Opcode::Assume, fun->type, {t, cp});
            jumpTo(next, stack, blocks);
            *open = false;
            return "";
        }
        case Op::dollar_assign: {
            const insn::dollar_assign o(imm);
            uint32_t seen = code_->feedback[o.fb].types;
            if (seen & kDollarGeneral) {
                // the general complex assignment ran before (x shared, an
                // object, ...): where the fast path does not apply, the
                // code goes on there, with v on the stack
                Instruction* d = b_.add(Opcode::DollarAssignVar, {env_, stack.back()});
                d->symbol = pool(o.xsym);
                d->code = code_;
                d->pc() = pc;
                d->call = pool(o.call);
                if (next == o.fail) return "a member assignment whose two ways are the same";
                std::vector<Instruction*> popped(stack.begin(), stack.end() - 1);
                edge(next, popped);
                edge(o.fail, stack);
                b_.branch(d, blocks.at(next), blocks.at(o.fail));
                *open = false;
                return "";
            }
            // x$name <- v on a local list or environment: speculated to
            // take the fast path (leaving resumes at the instruction,
            // which then takes the general complex assignment)
            Instruction* cp = checkpoint(pc, stack);
            // (only its plain fast path when so far it always took it: no R code)
            bool plain = !(seen & kDollarNotPlain);
            Instruction* d = b_.add(plain ? Opcode::DollarAssignVarPlain : Opcode::DollarAssignVar,
                                    {env_, stack.back()});
            d->symbol = pool(o.xsym);
            d->code = code_;
            d->pc() = pc;
            d->call = pool(o.call);
            b_.withType(Opcode::Assume, stack.back()->type, {d, cp});
            pop(stack);
            return "";
        }
        case Op::switch_table: {
            const insn::switch_table o(imm);
            // the entry EXPR selects, then a test per entry (the
            // table's `br`s jump on to the alternatives)
            Instruction* k = b_.add(Opcode::SwitchIndex, {pop(stack)});
            k->pc() = pc;
            k->code = code_;
            k->call = pool(o.call);
            int n = o.nchar + o.nnum;
            if (n < 1 || n > kSmallInts) return "a switch with no or too many entries";
            for (int e = 0; e + 1 < n; e++) {
                Instruction* t =
                    b_(Opcode::AsTest, {b_(Opcode::Eq, {k, b_.ldConst(intConstant(e))})});
                BB* rest = b_.newBB();
                edge(next + insn::kSwitchEntry * e, stack);
                b_.branch(t, blocks.at(next + insn::kSwitchEntry * e), rest);
                b_.setBB(rest);
            }
            jumpTo(next + insn::kSwitchEntry * (n - 1), stack, blocks);
            *open = false;
            return "";
        }
        case Op::eval_ast: {
            const insn::eval_ast o(imm);
            Instruction* v = b_.add(Opcode::EvalAst, {env_});
            v->constant = pool(o.expr);
            stack.push_back(v);
            return "";
        }
        case Op::br_obj: {
            const insn::br_obj o(imm);
            // objects go to the dispatching path at the label
            PirType notObject = PirType::any().without(Flag::Object);
            Instruction* t = b_.withType(Opcode::IsType, notObject, {stack.back()});
            if (next == o.target) return "a branch whose two targets are the same";
            edge(next, stack);
            edge(o.target, stack);
            b_.branch(t, blocks.at(next), blocks.at(o.target));
            *open = false;
            return "";
        }
        case Op::subset_obj: {
            const insn::subset_obj o(imm);
            Instruction* d = b_.add(Opcode::ExtractDispatch, {pop(stack), env_});
            d->rirKind() = o.kind;
            d->constant = pool(o.call);
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
        case Op::ldddvar: {
            const insn::ldddvar o(imm);
            b_(Opcode::Visible);
            stack.push_back(b_.withSymbol(Opcode::LdDotsElement, pool(o.sym), {env_}));
            return "";
        }
        case Op::apply_internal: {
            const insn::apply_internal o(imm);
            Instruction* r = b_.add(Opcode::ApplyInternal, {env_});
            r->constant = pool(o.inner);
            r->call = pool(o.call);
            stack.push_back(r);
            return "";
        }
        case Op::loop_body: {
            const insn::loop_body o(imm);
            // (a break or next reached through a promise or a call:
            // GNU R's, caught by the loop context the body runs in)
            Instruction* t = b_.add(Opcode::LoopBody, {env_});
            t->constant = pool(o.body);
            if (next == o.target) return "a branch whose two targets are the same";
            edge(next, stack);
            edge(o.target, stack);
            b_.branch(t, blocks.at(o.target), blocks.at(next));
            *open = false;
            return "";
        }
        case Op::env_subassign: {
            const insn::env_subassign o(imm);
            if (stack.size() < 2) return "env_subassign below the stack";
            Instruction* i = pop(stack);
            Instruction* v = pop(stack);
            Instruction* a = b_.add(Opcode::EnvSubassign, {env_, v, i});
            a->rirKind() = o.kind;
            a->symbol = pool(o.xsym);
            a->constant = pool(o.nameSym);
            a->call = pool(o.call);
            return "";
        }
        case Op::start_assign:
        case Op::start_assign_super: {
            auto start = [&](Opcode startOp, const auto& o) {
                Instruction* x = b_.add(startOp, {env_});
                x->symbol = pool(o.xsym);
                x->call = pool(o.call);
                stack.push_back(x);
            };
            if (op == Op::start_assign)
                start(Opcode::StartAssign, insn::start_assign(imm));
            else
                start(Opcode::StartAssignSuper, insn::start_assign_super(imm));
            return "";
        }
        case Op::force_target_ast: {
            const insn::force_target_ast o(imm);
            Instruction* f = b_.add(Opcode::ForceTargetAst, {env_});
            f->symbol = pool(o.xsym);
            f->call = pool(o.call);
            f->rirKind() = o.super;
            return "";
        }
        case Op::pick: {
            const insn::pick o(imm);
            if (size_t(o.depth) >= stack.size()) return "pick below the stack";
            stack.push_back(stack[stack.size() - 1 - o.depth]);
            return "";
        }
        case Op::getter_call: {
            const insn::getter_call o(imm);
            if (stack.size() < 2) return "getter_call below the stack";
            Instruction* fun = pop(stack);
            Instruction* g = b_.add(Opcode::GetterCall, {env_, fun, stack.back()});
            g->site() = o.site;
            g->code = code_;
            stack.push_back(g);
            return "";
        }
        case Op::setter_call: {
            const insn::setter_call o(imm);
            if (stack.size() < 3) return "setter_call below the stack";
            Instruction* fun = pop(stack);
            Instruction* rhs = pop(stack);
            Instruction* lhs = pop(stack);
            Instruction* s = b_.add(Opcode::SetterCall, {env_, fun, rhs, lhs});
            s->site() = o.site;
            s->code = code_;
            s->constant = pool(o.vexpr);
            s->ownFrame = !(o.below & kSetterSuper);
            stack.push_back(s);
            return "";
        }
        case Op::end_assign: {
            const insn::end_assign o(imm);
            Instruction* v = pop(stack);
            if (o.super)
                b_.withSymbol(Opcode::StVarSuper, pool(o.sym), {v, env_});
            else
                b_.withSymbol(Opcode::StVar, pool(o.sym), {v, env_});
            return "";
        }
        case Op::subassign: {
            const insn::subassign o(imm);
            // x[i] <- v etc. on a local variable: one instruction doing
            // what the interpreter's does (v below the indices)
            int kind = o.kind, nidx = o.nidx;
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
                a->symbol = pool(o.xsym);
                a->rirKind() = kind;
                a->call = pool(o.call);
                a->constant = pool(o.setter);
                return "";
            }
            // speculation: x a plain local vector, as always so far
            // (leaving resumes the RIR subassign with its operands)
            bool plain = !(code_->feedback[o.fb].types & kSubassignNotPlain);
            if (plain) {
                Instruction* cp = checkpoint(pc, stack);
                Instruction* t = b_.withSymbol(Opcode::IsPlainLocal, pool(o.xsym), {env_});
                b_(Opcode::Assume, {t, cp});
            }
            std::vector<Instruction*> ops{env_};
            ops.insert(ops.end(), stack.end() - nidx - 1, stack.end());
            stack.resize(stack.size() - nidx - 1);
            Instruction* a = b_.add(plain ? Opcode::SubassignVarLocal : Opcode::SubassignVar, ops);
            a->symbol = pool(o.xsym);
            a->rirKind() = kind;
            a->call = pool(o.call);
            a->constant = pool(o.setter);
            return "";
        }
        case Op::subset: {
            const insn::subset o(imm);
            int kind = o.kind, n = o.nidx;
            const CallSite& cs = code_->calls[o.site];
            bool tagged = false;
            for (const CallArg& a : cs.args) tagged = tagged || a.tag != R_NilValue;
            if (n < 0 || stack.size() < size_t(n) + 1) return "subset below the stack";
            std::vector<Instruction*> ops(stack.end() - n - 1, stack.end());
            stack.resize(stack.size() - n - 1);
            if (ops[0]->type.may(Flag::Missing)) return "subsetting a missing value not translated";
            if (tagged || n < 1 || n > 2) {
                // x[i, drop = FALSE], a[i, j, k], x[[i, exact = TRUE]]:
                // GNU R's default code with the call site's names
                Instruction* x = b_.add(kind == 2 ? Opcode::Extract2_ND : Opcode::Extract1_ND, ops);
                x->code = code_;
                x->site() = o.site;
                stack.push_back(x);
                return "";
            }
            Opcode extract = n == 1 ? (kind == 2 ? Opcode::Extract2_1D : Opcode::Extract1_1D)
                                    : (kind == 2 ? Opcode::Extract2_2D : Opcode::Extract1_2D);
            uint32_t t = code_->feedback[o.fb].types;
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
            Instruction* x = b_.add(extract, ops);
            x->code = code_;  // its call site (the call GNU R's `[` gets)
            x->site() = o.site;
            // speculation: an element of a plain double / integer vector
            // (or matrix) seen so far is a scalar of its type, unless a
            // result seen was not (kSubsetNotScalar: the interpreter
            // resumes after the subset, whose feedback would never see the
            // value that failed); leaving resumes after the subset with
            // its value
            Kind k = (t & 0x7f) == TB_REAL ? Kind::Real : Kind::Nil;
            if ((t & 0x7f) == TB_INT) k = Kind::Int;
            if (k != Kind::Nil && !(t & TB_OBJECT) && !(t & kSubsetNotScalar) &&
                (n == 2 || !(t & TB_ATTRIB))) {
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
            const insn::lgl_first o(imm);
            // && (kind 1) / || (2): a plain logical scalar lhs decides
            // (FALSE / TRUE) or goes on to the rhs; anything else takes
            // GNU R's operator at the slow label
            int kind = o.kind, lEnd = o.end, lSlow = o.slow;
            Instruction* a = stack.back();
            Instruction* isLgl = b_.withType(Opcode::IsType, PirType::scalar(Kind::Lgl), {a});
            BB* check = b_.newBB();
            edge(lSlow, stack);
            b_.branch(isLgl, check, blocks.at(lSlow));
            b_.setBB(check);
            Instruction* decides = b_(Opcode::LglIs, {a});
            decides->lglValue() = kind == 1 ? 0 : 1;
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
            const insn::lgl_second o(imm);
            Instruction* rhs = pop(stack);
            Instruction* lhs = pop(stack);
            Instruction* r = b_(Opcode::LglCombine, {lhs, rhs});
            r->rirKind() = o.kind;
            r->constant = pool(o.call);
            stack.push_back(r);
            b_(Opcode::Visible);
            return "";
        }
        case Op::lgl_slow: {
            const insn::lgl_slow o(imm);
            Instruction* r = b_.add(Opcode::LglSlow, {pop(stack), env_});
            r->rirKind() = o.kind;
            r->constant = pool(o.call);
            stack.push_back(r);
            b_(Opcode::Visible);
            return "";
        }
        case Op::for_init: {
            const insn::for_init o(imm);
            // the loop state: the sequence, its length, the counter (a
            // longer sequence leaves: RIR runs the loop with GNU R)
            Instruction* cp = checkpoint(pc, stack);
            b_.withType(Opcode::Assume, PirType::bottom(),
                        {b_(Opcode::LoopFits, {stack.back()}), cp});
            Instruction* seq = b_.add(Opcode::ForSeq, {pop(stack)});
            seq->constant = pool(o.call);
            stack.push_back(seq);
            stack.push_back(b_(Opcode::ForLength, {seq}));
            stack.push_back(b_.ldConst(minusOne_));
            return "";
        }
        case Op::for_colon: {
            const insn::for_colon o(imm);
            // (RIR keeps an integer range unbuilt; here it is the value
            // of from:to; a longer range leaves before `:` runs)
            Instruction* cp = checkpoint(pc, stack);
            b_.withType(Opcode::Assume, PirType::bottom(),
                        {b_(Opcode::LoopFits, {stack[stack.size() - 2], stack.back()}), cp});
            Instruction* to = pop(stack);
            Instruction* from = pop(stack);
            Instruction* range = b_.add(Opcode::Colon, {from, to});
            range->constant = pool(o.colonCall);
            Instruction* seq = b_.add(Opcode::ForSeq, {range});
            seq->constant = pool(o.forCall);
            stack.push_back(seq);
            stack.push_back(b_(Opcode::ForLength, {seq}));
            stack.push_back(b_.ldConst(minusOne_));
            return "";
        }
        case Op::for_step: {
            const insn::for_step o(imm);
            if (fn_->continuation && code_->feedback[o.fb].count == 0) {
                // A continuation is compiled while the code after its loop
                // has not run yet: a loop that never ran has no feedback
                // to speculate on. It leaves for the interpreter there
                // (the continuation is compiled again, with that loop's
                // feedback, once it has deoptimized: tiering.cpp).
                b_(Opcode::Deopt, {frameState(pc, stack)});
                *open = false;
                return "";
            }
            Instruction* ctr = pop(stack);
            Instruction* len = stack.back();
            Instruction* seq = stack[stack.size() - 2];
            Instruction* i = b_.add(Opcode::Add, {ctr, b_.ldConst(one_)});
            i->loopCounter = true;
            i->type = i->ruleType();
            stack.push_back(i);
            Instruction* t = b_(Opcode::AsTest, {b_(Opcode::Lt, {i, len})});
            if (next == o.target) return "a branch whose two targets are the same";
            // the body binds the element first: in a block of its own;
            // leaving releases the sequence (as for_step does)
            BB* body = b_.newBB();
            BB* done = b_.newBB();
            b_.branch(t, body, done);
            b_.setBB(done);
            b_(Opcode::ForEnd, {seq});
            jumpTo(o.target, stack, blocks);
            b_.setBB(body);
            Instruction* e = b_(Opcode::ForElement, {seq, i});
            b_.withSymbol(Opcode::StVar, pool(o.sym), {e, env_});
            jumpTo(next, stack, blocks);
            *open = false;
            return "";
        }
        case Op::dollar: {
            const insn::dollar o(imm);
            // speculation: plain (a list's element of that exact name,
            // an environment's ordinary binding: no R code), as always
            // so far (leaving resumes the RIR dollar with x on the stack)
            uint32_t t = code_->feedback[o.fb].types;
            bool plain = t != 0 && !(t & kDollarNotPlain);
            if (plain) {
                Instruction* cp = checkpoint(pc, stack);
                Instruction* test =
                    b_.withSymbol(Opcode::IsPlainMember, pool(o.nameSym), {stack.back()});
                test->constant = pool(o.name);
                b_(Opcode::Assume, {test, cp});
            }
            Instruction* d = b_.withSymbol(plain ? Opcode::DollarPlain : Opcode::Dollar,
                                           pool(o.nameSym), {pop(stack)});
            d->call = pool(o.call);
            d->constant = pool(o.name);
            stack.push_back(d);
            return "";
        }
        case Op::mkclosure: {
            const insn::mkclosure o(imm);
            Instruction* m = b_.add(Opcode::MkCls, {env_});
            m->constant = pool(o.spec);
            stack.push_back(m);
            return "";
        }
        case Op::call_builtin: {
            const insn::call_builtin o(imm);
            int n = o.nargs;
            const CallSite& cs = code_->calls[o.site];
            bool tagged = false;
            for (const CallArg& a : cs.args) tagged = tagged || a.tag != R_NilValue;
            if (tagged && int(cs.args.size()) != n)
                return "builtin calls with named arguments and `...` not translated";
            if (n == 1 && !tagged && kindTestOf(pool(o.fun))) {
                // (is.integer(x) and kin: the type of x decides)
                Instruction* k = b_.add(Opcode::IsKind, {pop(stack)});
                k->constant = pool(o.fun);
                // (a builtin's result is visible, whatever its argument
                // left: is.null(y <- x))
                b_(Opcode::Visible);
                stack.push_back(k);
                return "";
            }
            std::vector<Instruction*> ops{env_};
            ops.insert(ops.end(), stack.end() - n, stack.end());
            stack.resize(stack.size() - n);
            Instruction* c = b_.add(Opcode::CallBuiltin, ops);
            c->constant = pool(o.fun);
            c->code = code_;  // its call site (the call and the expression errors name)
            c->site() = o.site;
            if (tagged)
                for (const CallArg& a : cs.args) c->names.push_back(a.tag);
            stack.push_back(c);
            return "";
        }
        case Op::binop: {
            const insn::binop d(imm);
            Opcode o;
            if (!opcodeOf(ArithOp(d.op), &o)) return "a binop whose operator is not binary";
            // the state before the binop: its operands on the stack
            std::vector<Instruction*> before = stack;
            Instruction* b = pop(stack);
            Instruction* a = pop(stack);
            const Feedback& f = code_->feedback[d.fb];
            stack.push_back(binop(o, a, b, pool(d.call), f.types, pc, &before));
            return "";
        }
        case Op::ld2_binop: {
            const insn::ld2_binop d(imm);
            Opcode o;
            if (!opcodeOf(ArithOp(d.op), &o)) return "a binop whose operator is not binary";
            // when no load runs, leaving resumes at the binop (its state
            // has the stack operands on it), else after it
            std::vector<Instruction*> before = stack;
            auto ab = ld2Operands(b_, d, stack, code_, [&](SEXP sym, int slot) {
                return loadVariable(sym, slot, pc, &before);
            });
            Instruction *a = ab.first, *b = ab.second;
            const Feedback& f = code_->feedback[d.fb];
            uint32_t types = f.types;
            if (fn_->entryPhase) {
                if (d.kindA == insn::kFromVariable) types = entryPhase(types, 0, pool(d.a));
                if (d.kindB == insn::kFromVariable) types = entryPhase(types, kRhsShift, pool(d.b));
            }
            bool loaded = d.kindA == insn::kFromVariable || d.kindB == insn::kFromVariable;
            std::vector<Instruction*> below = stack;
            // (the feedback the native code notes an overflow in, whose
            // RIR code runs the binop: see binop)
            Feedback* note = const_cast<Feedback*>(&f);
            stack.push_back(binop(o, a, b, pool(d.call), types, pc, loaded ? nullptr : &before,
                                  next, &below, nullptr, note));
            return "";
        }
        case Op::unop: {
            const insn::unop d(imm);
            ArithOp k = ArithOp(d.op);
            Opcode o = k == ArithOp::Neg    ? Opcode::Minus
                       : k == ArithOp::Plus ? Opcode::Plus
                                            : Opcode::Not;
            Instruction* u = b_(o, {pop(stack)});
            u->call = pool(d.call);
            stack.push_back(u);
            return "";
        }
        case Op::num_ops:
            break;
    }
    // (every instruction of the table has its case: -Wswitch says which not)
    return "an opcode outside the instruction table";
}

}  // namespace pir
}  // namespace rir
