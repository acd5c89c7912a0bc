// selftest.cpp — PIR functions built by hand, printed and verified (see
// selftest.h): well-formed ones of each shape (straight line, speculation
// with a checkpoint, a diamond, a loop) and broken ones, each of which the
// verifier must reject for its own reason. tests/testthat/test-pir.R checks
// the outcomes.
#include "selftest.h"

#include "builder.h"
#include "printer.h"
#include "verifier.h"

namespace rir {
namespace pir {

namespace {

std::string heaps(uint8_t h) {
    static const char* names[] = {"OwnEnv",  "OtherEnv",   "Promises",
                                  "Vectors", "Attributes", "Global"};
    std::string s;
    for (int k = 0; k < 6; k++)
        if (h & (1 << k)) s += std::string(s.empty() ? "" : " ") + names[k];
    return s.empty() ? "none" : s;
}

// The common prologue: x (argument 0) bound in a new environment, then
// forced. Returns the forced value; *env gets the environment.
Instruction* prologue(Builder& b, const SelftestInputs& in, Instruction** env) {
    Instruction* a0 = b.ldArg(0);
    Instruction* parent = b.ldConst(in.globalEnv);
    *env = b.mkEnv({a0}, {in.x}, parent);
    Instruction* v = b.withSymbol(Opcode::LdVar, in.x, {*env});
    return b(Opcode::Force, {v});
}

void record(std::vector<SelftestCase>& out, const std::string& name, Function& f) {
    std::string problem = verify(f);  // (computes the predecessors printed)
    out.push_back({name, print(f), problem, printDot(f)});
}

}  // namespace

std::vector<SelftestCase> selftest(const SelftestInputs& in) {
    std::vector<SelftestCase> out;

    {  // straight line: x + 1 with x a promise
        Function f;
        f.name = "straight";
        f.nargs = 1;
        Builder b(&f);
        Instruction* env;
        Instruction* x = prologue(b, in, &env);
        Instruction* s = b(Opcode::Add, {x, b.ldConst(in.one)});
        b(Opcode::Visible);
        b(Opcode::Return, {s});
        record(out, "straight", f);
    }
    {  // speculation: x assumed to be a double scalar
        Function f;
        f.name = "speculate";
        f.nargs = 1;
        Builder b(&f);
        Instruction* env;
        Instruction* x = prologue(b, in, &env);
        BB* cont = b.newBB();
        BB* out1 = b.newBB();
        Instruction* cp = b.checkpoint(cont, out1);
        b.setBB(out1);
        Instruction* fs = b.frameState(nullptr, 0, env, nullptr, {});
        b(Opcode::Deopt, {fs});
        b.setBB(cont);
        PirType real = PirType::simpleScalar(Kind::Real);
        Instruction* t = b.withType(Opcode::IsType, real, {x});
        b.withType(Opcode::Assume, real, {t, cp});
        Instruction* xr = b.withType(Opcode::CastType, real, {x});
        Instruction* s = b(Opcode::Add, {xr, b.ldConst(in.one)});
        b(Opcode::Return, {s});
        record(out, "speculate", f);
    }
    {  // diamond: if (x > 1) x + 1 else x - 1
        Function f;
        f.name = "diamond";
        f.nargs = 1;
        Builder b(&f);
        Instruction* env;
        Instruction* x = prologue(b, in, &env);
        Instruction* one = b.ldConst(in.one);
        Instruction* t = b(Opcode::AsTest, {b(Opcode::Gt, {x, one})});
        BB* yes = b.newBB();
        BB* no = b.newBB();
        BB* join = b.newBB();
        b.branch(t, yes, no);
        b.setBB(yes);
        Instruction* p = b(Opcode::Add, {x, one});
        b.jump(join);
        b.setBB(no);
        Instruction* m = b(Opcode::Sub, {x, one});
        b.jump(join);
        b.setBB(join);
        Instruction* r = b.phi({{yes, p}, {no, m}});
        b(Opcode::Return, {r});
        record(out, "diamond", f);
    }
    {  // loop: i <- 0L; while (i < 10L) i <- i + 1L; i
        Function f;
        f.name = "loop";
        Builder b(&f);
        Instruction* zero = b.ldConst(in.zeroInt);
        Instruction* ten = b.ldConst(in.tenInt);
        Instruction* oneI = b.ldConst(in.oneInt);
        BB* head = b.newBB();
        BB* body = b.newBB();
        BB* exit = b.newBB();
        BB* entry = b.bb;
        b.jump(head);
        b.setBB(head);
        Instruction* i = b.phi({{entry, zero}});
        Instruction* t = b(Opcode::AsTest, {b(Opcode::Lt, {i, ten})});
        b.branch(t, body, exit);
        b.setBB(body);
        Instruction* inc = b(Opcode::Add, {i, oneI});
        b.jump(head);
        i->phiFrom.push_back(body);
        i->args.push_back(inc);
        b.setBB(exit);
        b(Opcode::Return, {i});
        f.inferTypes();
        record(out, "loop", f);
    }
    if (in.code) {  // a frame state of real RIR code: its pc 0 has an empty stack
        Function f;
        f.name = "framestate";
        f.nargs = 1;
        Builder b(&f);
        Instruction* env;
        prologue(b, in, &env);
        BB* cont = b.newBB();
        BB* out1 = b.newBB();
        b.checkpoint(cont, out1);
        b.setBB(out1);
        b(Opcode::Deopt, {b.frameState(in.code, 0, env, nullptr, {})});
        b.setBB(cont);
        b(Opcode::Return, {b.ldConst(in.one)});
        record(out, "framestate", f);
    }

    // ---- broken functions: each must be rejected for its reason
    {
        Function f;
        f.name = "bad_phi";
        Builder b(&f);
        Instruction* one = b.ldConst(in.one);
        BB* l = b.newBB();
        BB* r = b.newBB();
        BB* join = b.newBB();
        b.branch(b.ldConst(in.trueValue), l, r);
        b.setBB(l);
        b.jump(join);
        b.setBB(r);
        b.jump(join);
        b.setBB(join);
        b(Opcode::Return, {b.phi({{l, one}})});
        record(out, "bad_phi", f);
    }
    {
        Function f;
        f.name = "bad_dominance";
        Builder b(&f);
        BB* l = b.newBB();
        BB* r = b.newBB();
        b.branch(b.ldConst(in.trueValue), l, r);
        b.setBB(l);
        Instruction* v = b.ldConst(in.one);
        b(Opcode::Return, {v});
        b.setBB(r);
        b(Opcode::Return, {b(Opcode::Add, {v, v})});
        record(out, "bad_dominance", f);
    }
    {
        Function f;
        f.name = "bad_assume";
        Builder b(&f);
        Instruction* t = b.ldConst(in.trueValue);
        b.withType(Opcode::Assume, PirType::val(), {t, t});
        b(Opcode::Return, {b.ldConst(in.one)});
        record(out, "bad_assume", f);
    }
    {
        Function f;
        f.name = "bad_terminator";
        Builder b(&f);
        b.ldConst(in.one);
        record(out, "bad_terminator", f);
    }
    {
        Function f;
        f.name = "bad_lazy_operand";
        f.nargs = 1;
        Builder b(&f);
        Instruction* a0 = b.ldArg(0);
        b(Opcode::Return, {b(Opcode::Add, {a0, b.ldConst(in.one)})});
        record(out, "bad_lazy_operand", f);
    }
    {
        Function f;
        f.name = "bad_checkpoint";
        Builder b(&f);
        BB* cont = b.newBB();
        BB* out1 = b.newBB();
        b.checkpoint(cont, out1);
        b.setBB(out1);
        b(Opcode::Return, {b.ldConst(in.one)});
        b.setBB(cont);
        b(Opcode::Return, {b.ldConst(in.one)});
        record(out, "bad_checkpoint", f);
    }
    {
        Function f;
        f.name = "bad_type_claim";
        Builder b(&f);
        Instruction* one = b.ldConst(in.one);
        Instruction* s = b(Opcode::Add, {one, one});
        s->type = PirType::val();  // more than the rule gives for two doubles
        b(Opcode::Return, {s});
        record(out, "bad_type_claim", f);
    }
    if (in.code) {
        Function f;
        f.name = "bad_framestate";
        f.nargs = 1;
        Builder b(&f);
        Instruction* env;
        Instruction* x = prologue(b, in, &env);
        BB* cont = b.newBB();
        BB* out1 = b.newBB();
        b.checkpoint(cont, out1);
        b.setBB(out1);
        // pc 0 has an empty operand stack: one value is one too many
        b(Opcode::Deopt, {b.frameState(in.code, 0, env, nullptr, {x})});
        b.setBB(cont);
        b(Opcode::Return, {x});
        record(out, "bad_framestate", f);
    }

    // ---- types and effects
    {
        std::string s;
        PirType ri = PirType::simpleScalar(Kind::Real);
        PirType ii = PirType::simpleScalar(Kind::Int);
        s += "real scalar: " + ri.str() + "\n";
        s += "int | real: " + (ri | ii).str() + "\n";
        s += "int + int: " + PirType::arith(ii, ii, false).str() + "\n";
        s += "int / int: " + PirType::arith(ii, ii, true).str() + "\n";
        s += "int vector + real: " + PirType::arith(PirType::of(Kind::Int), ri, false).str() + "\n";
        s += "real < int: " + PirType::compare(ri, ii).str() + "\n";
        s += "maybe NA real < int: " + PirType::compare(PirType::scalar(Kind::Real), ii).str() +
             "\n";
        s += "any forced: " + PirType::any().forced().str() + "\n";
        s += "lazy real forced: " + ri.with(Flag::Lazy).forced().str() + "\n";
        s += "real within int|real: " + std::string(ri.isSubtypeOf(ri | ii) ? "yes" : "no") + "\n";
        s +=
            "int|real within real: " + std::string((ri | ii).isSubtypeOf(ri) ? "yes" : "no") + "\n";
        s += "real unboxable: " + std::string(ri.isUnboxable() ? "yes" : "no") + "\n";
        s += "int|real unboxable: " + std::string((ri | ii).isUnboxable() ? "yes" : "no") + "\n";
        out.push_back({"types", s, "", ""});
    }
    {
        Function f;
        f.name = "effects";
        f.nargs = 1;
        Builder b(&f);
        Instruction* env;
        Instruction* x = prologue(b, in, &env);
        Instruction* ld = x->args[0];
        Instruction* other = b.withSymbol(Opcode::LdVar, in.x, {env->args.back()});
        Instruction* st = b.withSymbol(Opcode::StVar, in.x, {x, env});
        Instruction* add = b(Opcode::Add, {x, b.ldConst(in.one)});
        Instruction* real = b.withType(Opcode::CastType, PirType::simpleScalar(Kind::Real), {x});
        Instruction* addReal = b(Opcode::Add, {real, real});
        Instruction* forceValue = b(Opcode::Force, {real});
        b(Opcode::Return, {add});
        std::string s;
        auto line = [&](const char* what, Instruction* i) {
            s += std::string(what) + ": reads " + heaps(i->reads()) + "; writes " +
                 heaps(i->writes()) + (i->mayCallR() ? "; calls R" : "") + "\n";
        };
        line("LdVar in own env", ld);
        line("LdVar in other env", other);
        line("StVar in own env", st);
        line("Force of a lazy value", x);
        line("Force of a double", forceValue);
        line("Add of values maybe objects", add);
        line("Add of doubles", addReal);
        out.push_back({"effects", s, verify(f), ""});
    }
    return out;
}

}  // namespace pir
}  // namespace rir
