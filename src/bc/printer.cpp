// printer.cpp — disassembler for RIR code, driven by the instruction table.
// Prints one instruction per line with its operands and type feedback:
//
//    12  binop        + [x + 1]            # types int | real (per operand)
//    20  call         f(x) #0              # calls: 10, callees: closure
#include "printer.h"

#include <sstream>

#include "ops.h"

namespace rir {

const InsnInfo insnInfo[] = {
#define RIR_INFO(name, ops, pop, push, fb, doc) \
    {#name, int(sizeof(ops) - 1), ops, pop, push, fb != 0, doc},
    RIR_INSNS(RIR_INFO)
#undef RIR_INFO
};

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
        switch (op) {
            case Op::push:
            case Op::ldvar:
            case Op::ldvar_missok:
            case Op::stvar:
            case Op::stvar_super:
            case Op::eval_ast:
                line << " " << deparseShort(c->poolAt(ops[0]));
                break;
            case Op::ldfun:
                line << " " << deparseShort(c->poolAt(ops[0]));
                break;
            case Op::popn:
                line << " " << ops[0];
                break;
            case Op::br:
            case Op::br_back:
                line << " -> " << ops[0];
                break;
            case Op::brfalse:
                line << " -> " << ops[0] << (ops[1] < 0 ? " (if object)" : "");
                break;
            case Op::guard_fun:
                line << " " << deparseShort(c->poolAt(ops[0])) << " else -> " << ops[3];
                break;
            case Op::apply_internal:
                line << " " << deparseShort(c->poolAt(ops[1]));
                break;
            case Op::use_method:
                line << " " << deparseShort(c->poolAt(ops[2]));
                break;
            case Op::for_colon:
                line << " " << deparseShort(c->poolAt(ops[0]));
                break;
            case Op::for_step:
                line << " " << deparseShort(c->poolAt(ops[1])) << " else -> " << ops[0];
                break;
            case Op::ld2_binop:
                line << " " << opName(ArithOp(ops[6])) << "  [" << deparseShort(c->poolAt(ops[8]))
                     << "]";
                break;
            case Op::binop:
            case Op::unop:
                line << " " << opName(ArithOp(ops[0])) << "  [" << deparseShort(c->poolAt(ops[2]))
                     << "]";
                break;
            case Op::call: {
                CallSite& cs = c->calls[ops[0]];
                line << " " << deparseShort(c->poolAt(cs.ast));
                for (auto& a : cs.args)
                    if (a.kind == ArgKind::Code)
                        children.push_back(Code::unpack(c->poolAt(a.pool)));
                break;
            }
            case Op::call_builtin:
                line << " " << deparseShort(c->poolAt(c->calls[ops[1]].ast));
                break;
            case Op::subset:
                line << " " << deparseShort(c->poolAt(c->calls[ops[2]].ast));
                break;
            case Op::dollar:
                line << " " << deparseShort(c->poolAt(ops[2]));
                break;
            case Op::env_subassign:
                line << " " << deparseShort(c->poolAt(ops[3]));
                break;
            case Op::dollar_assign:
                line << " " << deparseShort(c->poolAt(ops[4]));
                break;
            case Op::subassign:
                line << " " << deparseShort(c->poolAt(ops[3]));
                break;
            case Op::mkclosure:
                line << " function";
                break;
            default:
                break;
        }
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
