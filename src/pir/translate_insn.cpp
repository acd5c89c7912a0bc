// translate_insn.cpp — one RIR instruction translated into PIR (the
// Translator's big switch; see translator.h and rir2pir.cpp).
#include "translator.h"

namespace rir {
namespace pir {

std::string Translator::translate(Op op, const int32_t* imm, int pc, int next,
                                  std::vector<Instruction*>& stack,
                                  const std::map<int, BB*>& blocks, bool* open) {
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
            ret(pop(stack));
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
            ret(u);
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
                b_.withType(Opcode::Assume, fun->type, {b_(Opcode::Identical, {fun, known}), cp});
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
            if (!r && inlineProblem_.empty())
                r = inlineWithContext(cs, imm[0], fun, stack, pc, next);
            if (!inlineProblem_.empty()) return inlineProblem_;
            if (!r) fun = staticCallee(cs, imm[1], fun, stack, pc);
            if (!r) r = eagerCall(cs, imm[0], fun, stack, pc);
            if (!r) r = call(cs, imm[0], fun);
            if (!r) return "calls with stack arguments (complex assignments) not translated yet";
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
            Instruction* x = b_.add(
                op == Op::start_assign ? Opcode::StartAssign : Opcode::StartAssignSuper, {env_});
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
                Instruction* x = b_.add(kind == 2 ? Opcode::Extract2_ND : Opcode::Extract1_ND, ops);
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
            // the loop state: the sequence, its length, the counter (a
            // longer sequence leaves: RIR runs the loop with GNU R)
            Instruction* cp = checkpoint(pc, stack);
            b_.withType(Opcode::Assume, PirType::bottom(),
                        {b_(Opcode::LoopFits, {stack.back()}), cp});
            Instruction* seq = b_.add(Opcode::ForSeq, {pop(stack)});
            seq->constant = pool(imm[0]);
            stack.push_back(seq);
            stack.push_back(b_(Opcode::ForLength, {seq}));
            stack.push_back(b_.ldConst(minusOne_));
            return "";
        }
        case Op::for_colon: {
            // (RIR keeps an integer range unbuilt; here it is the value
            // of from:to; a longer range leaves before `:` runs)
            Instruction* cp = checkpoint(pc, stack);
            b_.withType(Opcode::Assume, PirType::bottom(),
                        {b_(Opcode::LoopFits, {stack[stack.size() - 2], stack.back()}), cp});
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
            if (!binaryOpcode(ArithOp(imm[0]), &o)) return "vectorized & and | not translated yet";
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
            if (!binaryOpcode(ArithOp(imm[6]), &o)) return "vectorized & and | not translated yet";
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
            // (the feedback the native code notes an overflow in, whose
            // RIR code runs the binop: see binop)
            Feedback* note = const_cast<Feedback*>(&f);
            stack.push_back(binop(o, a, b, pool(imm[8]), f.types, pc, loaded ? nullptr : &before,
                                  next, &below, nullptr, note));
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

}  // namespace pir
}  // namespace rir
