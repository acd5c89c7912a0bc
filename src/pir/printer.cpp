// printer.cpp — PIR as text and as a Graphviz graph (see printer.h).
//
//   function f (2 arguments)
//   BB0
//     val*~     %0 = LdArg 0
//     env$'-    %1 = MkEnv x=%0, parent=%2
//     ...
//               %9 = Branch %8 -> BB1, BB2
#include "printer.h"

#include <cmath>
#include <cstdio>

#include "../runtime/context.h"

namespace rir {
namespace pir {

namespace {

std::string ref(const Instruction* i) {
    return "%" + std::to_string(i->id);
}

std::string symbolName(SEXP s) {
    return s && TYPEOF(s) == SYMSXP ? CHAR(PRINTNAME(s)) : "?";
}

// A short rendering of an R constant, without R's deparser (which allocates
// and may raise errors).
std::string constantText(SEXP x) {
    if (!x) return "?";
    if (x == R_NilValue) return "NULL";
    if (x == R_MissingArg) return "<missing>";
    char buf[64];
    switch (TYPEOF(x)) {
        case SYMSXP:
            return "`" + symbolName(x) + "`";
        case LGLSXP:
        case INTSXP:
        case REALSXP:
        case STRSXP:
            if (!ALTREP(x) && XLENGTH(x) == 1 && ATTRIB(x) == R_NilValue) {
                switch (TYPEOF(x)) {
                    case LGLSXP:
                        return LOGICAL(x)[0] == NA_LOGICAL ? "NA"
                               : LOGICAL(x)[0]             ? "TRUE"
                                                           : "FALSE";
                    case INTSXP:
                        if (INTEGER(x)[0] == NA_INTEGER) return "NA_integer_";
                        std::snprintf(buf, sizeof(buf), "%dL", INTEGER(x)[0]);
                        return buf;
                    case REALSXP:
                        if (ISNA(REAL(x)[0])) return "NA_real_";
                        std::snprintf(buf, sizeof(buf), "%.15g", REAL(x)[0]);
                        return buf;
                    default:
                        if (STRING_ELT(x, 0) == NA_STRING) return "NA_character_";
                        return "\"" + std::string(CHAR(STRING_ELT(x, 0))) + "\"";
                }
            }
            break;
        case BUILTINSXP:
        case SPECIALSXP:
            return "<builtin>";
        case CLOSXP:
            return "<closure>";
        case LANGSXP:
            if (TYPEOF(CAR(x)) == SYMSXP) return "<call " + symbolName(CAR(x)) + "(...)>";
            return "<call>";
        default:
            break;
    }
    std::snprintf(buf, sizeof(buf), "<%s>", Rf_type2char(TYPEOF(x)));
    return buf;
}

std::string operands(const Instruction* i) {
    std::string s;
    auto sep = [&]() {
        if (!s.empty()) s += ", ";
    };
    switch (i->op) {
        case Opcode::Phi:
            for (size_t k = 0; k < i->args.size(); k++) {
                sep();
                s += ref(i->args[k]);
                if (k < i->phiFrom.size()) s += " (BB" + std::to_string(i->phiFrom[k]->id) + ")";
            }
            return s;
        case Opcode::MkEnv:
            for (size_t k = 0; k + 1 < i->args.size(); k++) {
                sep();
                s += (k < i->names.size() ? symbolName(i->names[k]) : "?") + "=" + ref(i->args[k]);
            }
            sep();
            if (!i->args.empty()) s += "parent=" + ref(i->args.back());
            if (i->stub) s += " (stub)";
            return s;
        case Opcode::FrameState: {
            s = "pc " + std::to_string(i->pc());
            if (!i->args.empty()) s += ", env " + ref(i->args[0]);
            size_t k = 1;
            if (k < i->args.size() && i->args[k]->op == Opcode::FrameState) {
                s += ", outer " + ref(i->args[k]);
                k++;
            }
            s += ", stack [";
            for (size_t first = k; k < i->args.size(); k++)
                s += (k > first ? ", " : "") + ref(i->args[k]);
            return s + "]";
        }
        default:
            break;
    }
    const InsnInfo& in = i->info();
    // (calls and subsetting show their call, not the RIR call site number)
    IndexName n = indexNameOf(i->op);
    bool siteOfCall = n == IndexName::site &&
                      isOp(i, {Opcode::Call, Opcode::StaticCall, Opcode::CallBuiltin,
                               Opcode::Extract1_1D, Opcode::Extract2_1D, Opcode::Extract1_2D,
                               Opcode::Extract2_2D, Opcode::Extract1_ND, Opcode::Extract2_ND});
    if (n != IndexName::None && !siteOfCall) s = std::to_string(i->index_);
    if (in.flags & HasSymbol) {
        sep();
        s += symbolName(i->symbol);
    }
    if (in.flags & HasConstant) {
        sep();
        s += constantText(i->constant);
    }
    // calls: the argument names, when there are any
    size_t firstArg = i->op == Opcode::Call || i->op == Opcode::StaticCall ? 2
                      : i->op == Opcode::CallBuiltin                       ? 1
                                                                           : 0;
    for (size_t k = 0; k < i->args.size(); k++) {
        sep();
        if (firstArg && !i->names.empty() && k >= firstArg && k - firstArg < i->names.size() &&
            i->names[k - firstArg] != R_NilValue)
            s += symbolName(i->names[k - firstArg]) + "=";
        s += ref(i->args[k]);
    }
    if ((in.flags & HasType) && i->op != Opcode::LdArg) {
        sep();
        s += "(" + i->carriedType.str() + ")";
    }
    if (i->op == Opcode::StaticCall) s += " " + Context(i->context).str();
    if (i->noOverflow) s += " (no overflow)";
    if (i->loopCounter) s += " (loop counter)";
    if (i->ownFrame) s += " (own frame)";
    if (i->inlinedFrom) s += " (inlined)";
    if (i->eagerFor) s += " (eager)";
    if (i->afterCall) s += " (after the call)";
    if (i->frame) s += " (in " + ref(i->frame) + ")";
    return s;
}

}  // namespace

std::string printInsn(const Instruction* i) {
    std::string t = i->type.isBottom() ? "" : i->type.str();
    std::string line = "  " + t;
    if (line.size() < 16) line.resize(16, ' ');
    line += " " + ref(i) + " = " + i->info().name;
    std::string ops = operands(i);
    if (!ops.empty()) line += " " + ops;
    if (i->isTerminator() && i->bb && !i->bb->succ.empty()) {
        line += " ->";
        for (size_t k = 0; k < i->bb->succ.size(); k++)
            line += (k ? ", BB" : " BB") + std::to_string(i->bb->succ[k]->id);
    }
    return line;
}

std::string print(const Function& f) {
    std::string s = "function " + f.name + " (" + std::to_string(f.nargs) + " argument" +
                    (f.nargs == 1 ? "" : "s") + ")\n";
    for (auto& b : f.blocks) {
        if (b->insns.empty()) continue;  // (removed by a pass)
        s += "BB" + std::to_string(b->id);
        if (!b->preds.empty()) {
            s += "  <-";
            for (BB* p : b->preds) s += " BB" + std::to_string(p->id);
        }
        s += "\n";
        for (Instruction* i : b->insns) s += printInsn(i) + "\n";
    }
    return s;
}

std::string printDot(const Function& f) {
    auto escape = [](const std::string& in) {
        std::string out;
        for (char c : in) {
            if (c == '"' || c == '\\' || c == '{' || c == '}' || c == '<' || c == '>' || c == '|')
                out += '\\';
            out += c;
        }
        return out;
    };
    std::string s =
        "digraph \"" + escape(f.name) + "\" {\n  node [shape=record, fontname=monospace];\n";
    for (auto& b : f.blocks) {
        if (b->insns.empty()) continue;
        s += "  BB" + std::to_string(b->id) + " [label=\"{BB" + std::to_string(b->id);
        for (Instruction* i : b->insns) s += "|" + escape(printInsn(i)) + "\\l";
        s += "}\"];\n";
        for (size_t k = 0; k < b->succ.size(); k++) {
            s += "  BB" + std::to_string(b->id) + " -> BB" + std::to_string(b->succ[k]->id);
            if (b->succ.size() == 2) s += k == 0 ? " [label=T]" : " [label=F]";
            s += ";\n";
        }
    }
    return s + "}\n";
}

}  // namespace pir
}  // namespace rir
