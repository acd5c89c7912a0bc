// printer.cpp — disassembler for RIR code, driven by the instruction table.
// Prints one instruction per line with its operands and type feedback:
//
//    12  binop        + [x + 1]            # types int | real (per operand)
//    20  call         f(x) #0              # calls: 10, callees: closure
#include "printer.h"

#include <sstream>

#include "ops.h"

namespace rir {

namespace {
// (a pop count that depends on the operands: -1 in the table)
#define VAR(e) -1
#define O(kind, name) #kind
constexpr const char* kKinds[] = {
#define RIR_KINDS(nm, ops, pop, push, doc) "" ops,
    RIR_INSNS(RIR_KINDS)
#undef RIR_KINDS
};
#undef O
#define O(kind, name) " " #name
constexpr const char* kNames[] = {
#define RIR_NAMES(nm, ops, pop, push, doc) "" ops,
    RIR_INSNS(RIR_NAMES)
#undef RIR_NAMES
};
#undef O
constexpr int kPops[] = {
#define RIR_POPS(nm, ops, pop, push, doc) pop,
    RIR_INSNS(RIR_POPS)
#undef RIR_POPS
};
#undef VAR
constexpr bool lastIsFeedback(const char* kinds) {
    int n = 0;
    while (kinds[n]) n++;
    return n > 0 && kinds[n - 1] == 'f';
}
}  // namespace

const InsnInfo insnInfo[] = {
#define RIR_INFO(nm, ops, pop, push, doc)                 \
    {#nm,                                                 \
     insn::nm::kOperands,                                 \
     kKinds[int(Op::nm)],                                 \
     kNames[int(Op::nm)] + (*kNames[int(Op::nm)] == ' '), \
     kPops[int(Op::nm)],                                  \
     push,                                                \
     lastIsFeedback(kKinds[int(Op::nm)]),                 \
     doc},
    RIR_INSNS(RIR_INFO)
#undef RIR_INFO
};

int labelOperand(Op op, const int32_t* operands) {
    const InsnInfo& in = info(op);
    for (int i = 0; i < in.operands; i++)
        if (in.operandKinds[i] == 'l') return operands[i];
    return -1;
}

int popCount(Op op, const int32_t* imm) {
#define VAR(e) (e)
    switch (op) {
#define RIR_POPCOUNT(nm, ops, pop, push, doc) \
    case Op::nm: {                            \
        insn::nm o(imm);                      \
        (void)o;                              \
        return pop;                           \
    }
        RIR_INSNS(RIR_POPCOUNT)
#undef RIR_POPCOUNT
        default:
            return 0;
    }
#undef VAR
}

// deparse under R_tryCatchError: an R error (a too deeply nested
// expression, ...) must not longjmp over the printer's C++ objects.
static SEXP deparseBody(void* e) {
    return Rf_deparse1line(static_cast<SEXP>(e), FALSE);
}
static SEXP deparseFailed(SEXP, void*) {
    return R_NilValue;
}

// Whether a call nests deeper than `limit` (GNU R's deparser has no C
// stack check of its own and overflows on very deep expressions).
static bool deeperThan(SEXP e, int limit) {
    if (TYPEOF(e) != LANGSXP && TYPEOF(e) != LISTSXP) return false;
    if (limit <= 0) return true;
    for (SEXP a = e; a != R_NilValue && (TYPEOF(a) == LANGSXP || TYPEOF(a) == LISTSXP); a = CDR(a))
        if (deeperThan(CAR(a), limit - 1)) return true;
    return false;
}

static std::string deparseShort(SEXP e) {
    if (deeperThan(e, 200)) return "<deeply nested expression>";
    SEXP d = PROTECT(R_tryCatchError(deparseBody, e, deparseFailed, nullptr));
    std::string s = TYPEOF(d) == STRSXP && XLENGTH(d) > 0 ? CHAR(STRING_ELT(d, 0)) : "?";
    UNPROTECT(1);
    if (s.size() > 50) s = s.substr(0, 47) + "...";
    return s;
}

static std::string typesStr(uint32_t t) {
    static const char* names[] = {"lgl",   "int",    "real",   "cplx",   "str", "list",
                                  "other", "vector", "attrib", "object", "NA"};
    std::string s;
    for (int i = 0; i < 11; i++)
        if (t & (1u << i)) s += std::string(s.empty() ? "" : ",") + names[i];
    return s;
}

static void printCode(Code* c, std::vector<std::string>& out, const std::string& indent) {
    if (cStackTooDeep()) {
        out.push_back(indent + "... (promises nested too deeply to print)");
        return;
    }
    const int32_t* pc = c->bc.data();
    const int32_t* end = pc + c->bc.size();
    std::vector<Code*> children;
    while (pc < end) {
        std::ostringstream line;
        int pos = int(pc - c->bc.data());
        Op op = Op(*pc++);
        const InsnInfo& in = info(op);
        line << indent;
        line.width(5);
        line << pos << "  ";
        line.width(12);
        line << std::left << in.name << std::right;
        const int32_t* ops = pc;
        pc += in.operands;
        int fbSlot = in.feedback ? ops[in.operands - 1] : -1;
        auto expr = [&](int32_t idx) { line << " " << deparseShort(c->poolAt(idx)); };
#define D(nm) insn::nm o(ops)
        switch (op) {
            case Op::push: {
                D(push);
                expr(o.value);
                break;
            }
            case Op::ldvar: {
                D(ldvar);
                expr(o.sym);
                break;
            }
            case Op::ldvar_missok: {
                D(ldvar_missok);
                expr(o.sym);
                break;
            }
            case Op::stvar: {
                D(stvar);
                expr(o.sym);
                break;
            }
            case Op::stvar_super: {
                D(stvar_super);
                expr(o.sym);
                break;
            }
            case Op::eval_ast: {
                D(eval_ast);
                expr(o.expr);
                break;
            }
            case Op::ldfun: {
                D(ldfun);
                expr(o.sym);
                break;
            }
            case Op::popn: {
                D(popn);
                line << " " << o.n;
                break;
            }
            case Op::br: {
                D(br);
                line << " -> " << o.target;
                break;
            }
            case Op::br_back: {
                D(br_back);
                line << " -> " << o.target;
                break;
            }
            case Op::brfalse: {
                D(brfalse);
                line << " -> " << o.target << (o.call < 0 ? " (if object)" : "");
                break;
            }
            case Op::guard_fun: {
                D(guard_fun);
                expr(o.sym);
                line << " else -> " << o.target;
                break;
            }
            case Op::apply_internal: {
                D(apply_internal);
                expr(o.call);
                break;
            }
            case Op::use_method: {
                D(use_method);
                expr(o.call);
                break;
            }
            case Op::for_colon: {
                D(for_colon);
                expr(o.colonCall);
                break;
            }
            case Op::for_step: {
                D(for_step);
                expr(o.sym);
                line << " else -> " << o.target;
                break;
            }
            case Op::ld2_binop: {
                D(ld2_binop);
                line << " " << opName(ArithOp(o.op)) << "  [" << deparseShort(c->poolAt(o.call))
                     << "]";
                break;
            }
            case Op::binop: {
                D(binop);
                line << " " << opName(ArithOp(o.op)) << "  [" << deparseShort(c->poolAt(o.call))
                     << "]";
                break;
            }
            case Op::unop: {
                D(unop);
                line << " " << opName(ArithOp(o.op)) << "  [" << deparseShort(c->poolAt(o.call))
                     << "]";
                break;
            }
            case Op::call: {
                D(call);
                CallSite& cs = c->calls[o.site];
                expr(cs.ast);
                for (auto& a : cs.args)
                    if (a.kind == ArgKind::Code)
                        children.push_back(Code::unpack(c->poolAt(a.pool)));
                break;
            }
            case Op::call_builtin: {
                D(call_builtin);
                expr(c->calls[o.site].ast);
                break;
            }
            case Op::subset: {
                D(subset);
                expr(c->calls[o.site].ast);
                break;
            }
            case Op::dollar: {
                D(dollar);
                expr(o.call);
                break;
            }
            case Op::env_subassign: {
                D(env_subassign);
                expr(o.call);
                break;
            }
            case Op::dollar_assign: {
                D(dollar_assign);
                expr(o.call);
                break;
            }
            case Op::subassign: {
                D(subassign);
                expr(o.call);
                break;
            }
            case Op::mkclosure:
                line << " function";
                break;
            default:
                break;
        }
#undef D
        if (fbSlot >= 0) {
            Feedback& f = c->feedback[fbSlot];
            std::string fbs;
            if (op == Op::brfalse)
                fbs = "taken " + std::to_string(f.taken) + "/" + std::to_string(f.count);
            else if (op == Op::call) {
                fbs = "calls " + std::to_string(f.count);
                if (f.types) fbs += "; result " + typesStr(f.types);
                SEXP list = c->calleeList();
                for (uint32_t k = 0; k < f.ncallees; k++) {
                    SEXP fun = VECTOR_ELT(list, fbSlot * kMaxCallees + k);
                    fbs += k ? ", " : "; callees ";
                    fbs += TYPEOF(fun) == CLOSXP ? "closure"
                                                 : std::string("<prim ") + primRow(fun).name + ">";
                }
            } else if (op == Op::for_step)
                fbs = "trips " + std::to_string(f.count);
            else if ((op == Op::binop || op == Op::ld2_binop) && f.types)
                fbs =
                    "types " + typesStr(f.types & 0xFFFF) + " | " + typesStr(f.types >> kRhsShift);
            else if (f.types)
                fbs = "types " + typesStr(f.types);
            if (!fbs.empty()) line << "   # " << fbs;
        }
        out.push_back(line.str());
    }
    for (size_t i = 0; i < children.size(); i++) {
        out.push_back(indent + "  promise " + std::to_string(i) + ": " +
                      deparseShort(children[i]->ast()));
        printCode(children[i], out, indent + "    ");
    }
}

std::vector<std::string> disassemble(Code* c) {
    std::vector<std::string> out;
    printCode(c, out, "");
    return out;
}

}  // namespace rir
