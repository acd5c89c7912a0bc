// rir_facts.cpp — what the translation into PIR reads from RIR code and its
// feedback (see rir_facts.h): the type a feedback entry describes, the PIR
// opcode of an arithmetic op, whether code is straight-line quiet
// arithmetic, and which closure a call site calls, for inlining or for a
// StaticCall.
//
//   sq <- function(x) x * x         call site sq(y + 1), callee feedback {sq}:
//   f <- function(y) sq(y + 1)        inlineTarget -> sq (straight-line body)
//   h <- function(x) if (x) 1 else 2  call site h(y), callee feedback {h}:
//                                     inlineTarget -> nullptr (it branches),
//                                     staticTarget -> h (StaticCall)
#include "rir_facts.h"

#include <algorithm>
#include <cstring>

#include "../bc/insns.h"
#include "../bc/ops.h"
#include "../runtime/trampoline.h"

namespace rir {
namespace pir {

// The PIR type feedback bits describe, when they describe one plain type.
bool feedbackType(uint32_t bits, PirType* t) {
    bits &= ~kArithOverflowed;  // (not a type)
    const uint32_t shape = TB_VECTOR | TB_ATTRIB | TB_OBJECT | TB_NA;
    if (bits == 0 || (bits & shape)) return false;
    switch (bits) {
        case TB_INT:
            *t = PirType::simpleScalar(Kind::Int);
            return true;
        case TB_REAL:
            *t = PirType::simpleScalar(Kind::Real);
            return true;
        case TB_LGL:
            *t = PirType::simpleScalar(Kind::Lgl);
            return true;
        default:
            return false;
    }
}

// Inlining (Translator::inlineCall). Arithmetic an inlined body may do:
// the feedback saw plain scalars of one type per operand, and with those
// types it cannot warn (integer +, -, * overflow; `%%` may lose accuracy).
bool quietArith(ArithOp k, uint32_t types) {
    PirType ta, tb;
    Opcode o;
    if (!opcodeOf(k, &o) || !isBinaryOperator(o) || !feedbackType(types & 0xffff, &ta) ||
        !feedbackType(types >> kRhsShift, &tb))
        return false;
    if (scalarOperatorMayWarn(o, ta, tb)) return false;
    if (info(o).result == Rule::Logic) {
        // (strings and other kinds are errors)
        constexpr uint16_t ok = uint16_t(Kind::Lgl) | uint16_t(Kind::Int) | uint16_t(Kind::Real);
        return !(ta.kinds() & ~ok) && !(tb.kinds() & ~ok);
    }
    return true;
}

bool dotsName(SEXP sym) {
    return sym == R_DotsSymbol || !std::strncmp(CHAR(PRINTNAME(sym)), "..", 2);
}

// Is the arithmetic, comparison or sign instruction `op` (binop,
// ld2_binop, unop) quiet: its feedback says it cannot warn, or it is - or +?
static bool quietArithInsn(const Code* c, Op op, const int32_t* imm) {
    switch (op) {
        case Op::binop: {
            const insn::binop o(imm);
            return quietArith(ArithOp(o.op), c->feedback[o.fb].types);
        }
        case Op::ld2_binop: {
            const insn::ld2_binop o(imm);
            return quietArith(ArithOp(o.op), c->feedback[o.fb].types);
        }
        case Op::unop: {
            const insn::unop o(imm);
            return ArithOp(o.op) == ArithOp::Neg || ArithOp(o.op) == ArithOp::Plus;
        }
        default:
            return false;
    }
}

// Straight-line code of constants, loads of the variables `varOk` allows,
// quiet arithmetic and visibility, ending with its only `ret`: a body or an
// argument that may be inlined.
bool inlinable(const Code* c, const std::function<bool(SEXP)>& varOk) {
    const std::vector<int32_t>& bc = c->bc;
    for (size_t pc = 0; pc < bc.size();) {
        Op op = Op(bc[pc]);
        const int32_t* imm = &bc[pc + 1];
        size_t next = pc + 1 + rir::info(op).operands;
        switch (op) {
            case Op::push:
            case Op::visible:
            case Op::invisible:
                break;
            case Op::ldvar: {
                const insn::ldvar o(imm);
                if (!varOk(c->poolAt(o.sym))) return false;
                break;
            }
            case Op::binop:
            case Op::unop:
                if (!quietArithInsn(c, op, imm)) return false;
                break;
            case Op::ld2_binop: {
                const insn::ld2_binop o(imm);
                if (!quietArithInsn(c, op, imm)) return false;
                if (o.kindA == insn::kFromVariable && !varOk(c->poolAt(o.a))) return false;
                if (o.kindB == insn::kFromVariable && !varOk(c->poolAt(o.b))) return false;
                break;
            }
            case Op::ret:
                return next == bc.size();
            default:
                return false;
        }
        pc = next;
    }
    return false;
}

bool inlinableBody(const Code* c, const std::vector<SEXP>& formals) {
    const std::vector<int32_t>& bc = c->bc;
    if (bc.size() > kMaxInlinedBody) return false;
    // the variables: the formals, then those the body assigns
    std::vector<SEXP> vars = formals;
    auto var = [&](SEXP sym) {
        return size_t(std::find(vars.begin(), vars.end(), sym) - vars.begin());
    };
    bool branches = false;
    for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
        Op op = Op(bc[pc]);
        const int32_t* imm = &bc[pc + 1];
        switch (op) {
            case Op::push:
            case Op::push_null:
            case Op::visible:
            case Op::invisible:
            case Op::ldvar:
            case Op::pop:
            case Op::dup:
            case Op::ret:
            case Op::srcref:
                break;
            case Op::stvar: {
                const insn::stvar o(imm);
                SEXP sym = c->poolAt(o.sym);
                if (dotsName(sym)) return false;
                if (var(sym) == vars.size()) vars.push_back(sym);
                break;
            }
            case Op::binop:
            case Op::ld2_binop:
            case Op::unop:
                if (!quietArithInsn(c, op, imm)) return false;
                break;
            case Op::brfalse: {
                const insn::brfalse o(imm);
                // (not the object test of subsetting: o.call < 0)
                if (o.call < 0) return false;
                branches = true;
                break;
            }
            case Op::br:
            case Op::br_back:
                branches = true;
                break;
            default:
                return false;
        }
    }
    if (!branches || vars.size() > 64) return false;
    // the formals it reads are all read before its first jump or return:
    // the inlined code computes them first (an argument read on some
    // paths only may be missing, unbound or fail where GNU R never forces
    // it)
    std::vector<bool> readFirst(formals.size(), false);
    bool prefix = true;
    for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
        Op op = Op(bc[pc]);
        const int32_t* imm = &bc[pc + 1];
        auto read = [&](int pool) {
            size_t k = var(c->poolAt(pool));
            if (k >= formals.size()) return true;
            if (prefix) readFirst[k] = true;
            return bool(readFirst[k]);
        };
        bool ok = true;
        forEachVariableLoad(op, imm, [&](int pool) { ok = ok && read(pool); });
        if (!ok) return false;
        if (op == Op::br || op == Op::br_back || op == Op::brfalse || op == Op::ret) prefix = false;
    }
    // every variable read is assigned on every path to the read (a formal
    // from the start): forward over the instructions, the assigned sets
    // meeting by intersection
    std::vector<uint64_t> in(bc.size() + 1, ~uint64_t(0));
    std::vector<bool> seen(bc.size() + 1, false);
    uint64_t start = formals.size() == 64 ? ~uint64_t(0) : (uint64_t(1) << formals.size()) - 1;
    std::vector<size_t> work{0};
    in[0] = start;
    seen[0] = true;
    auto flow = [&](size_t to, uint64_t set) {
        if (to >= bc.size()) return;
        uint64_t merged = seen[to] ? in[to] & set : set;
        if (!seen[to] || merged != in[to]) {
            seen[to] = true;
            in[to] = merged;
            work.push_back(to);
        }
    };
    bool returns = false;
    while (!work.empty()) {
        size_t pc = work.back();
        work.pop_back();
        Op op = Op(bc[pc]);
        const int32_t* imm = &bc[pc + 1];
        size_t next = pc + 1 + rir::info(op).operands;
        uint64_t set = in[pc];
        if (op == Op::ret) returns = true;
        if (op == Op::brfalse && size_t(insn::brfalse(imm).target) == next) return false;
        auto assigned = [&](int pool) {
            size_t k = var(c->poolAt(pool));
            return k < vars.size() && (set & (uint64_t(1) << k));
        };
        bool loadsAssigned = true;
        forEachVariableLoad(op, imm,
                            [&](int pool) { loadsAssigned = loadsAssigned && assigned(pool); });
        if (!loadsAssigned) return false;
        if (op == Op::stvar) set |= uint64_t(1) << var(c->poolAt(insn::stvar(imm).sym));
        if (op == Op::br || op == Op::br_back) {
            flow(size_t(labelOperand(op, imm)), set);
        } else if (op == Op::brfalse) {
            flow(size_t(labelOperand(op, imm)), set);
            flow(next, set);
        } else if (op != Op::ret) {
            flow(next, set);
        }
    }
    // (a body that never returns, an endless loop, is left to the call)
    return returns;
}

SEXP inlineTarget(const Code* code, const CallSite& cs, int slot) {
    const Feedback& f = code->feedback[slot];
    if (f.ncallees != 1) return nullptr;
    SEXP clo = VECTOR_ELT(code->calleeList(), slot * kMaxCallees);
    if (TYPEOF(clo) != CLOSXP || hdr(clo)->debug || hdr(clo)->spare) return nullptr;
    SEXP target = trampolineTargetFast(BODY(clo));
    DispatchTable* t = target ? DispatchTable::unpackFast(target) : nullptr;
    if (!t || !t->baseline || t->formals() != FORMALS(clo)) return nullptr;
    std::vector<SEXP> names;
    for (SEXP a = FORMALS(clo); a != R_NilValue; a = CDR(a)) {
        if (TAG(a) == R_DotsSymbol) return nullptr;
        names.push_back(TAG(a));
    }
    if (names.size() != cs.args.size()) return nullptr;
    std::vector<const Code*> promise(names.size(), nullptr);
    auto callerVar = [](SEXP sym) { return !dotsName(sym); };
    for (size_t k = 0; k < cs.args.size(); k++) {
        const CallArg& a = cs.args[k];
        if (a.tag != R_NilValue) return nullptr;
        if (a.kind == ArgKind::Code) {
            promise[k] = Code::unpack(code->poolAt(a.pool));
            if (!promise[k] || !inlinable(promise[k], callerVar)) return nullptr;
        } else if (a.kind == ArgKind::Symbol) {
            if (!callerVar(code->poolAt(a.pool))) return nullptr;
        } else if (a.kind != ArgKind::Const) {
            return nullptr;
        }
    }
    auto formal = [&](SEXP sym) {
        return size_t(std::find(names.begin(), names.end(), sym) - names.begin());
    };
    if (!inlinable(t->baseline, [&](SEXP sym) { return formal(sym) < names.size(); }) &&
        !inlinableBody(t->baseline, names))
        return nullptr;
    return clo;
}

bool staticCallable(const Code* code, const CallSite& cs, SEXP clo) {
    if (TYPEOF(clo) != CLOSXP || hdr(clo)->debug || hdr(clo)->spare) return false;
    SEXP target = trampolineTargetFast(BODY(clo));
    DispatchTable* t = target ? DispatchTable::unpackFast(target) : nullptr;
    if (!t || t->formals() != FORMALS(clo)) return false;
    // the arguments by position, before any `...` of the formals
    size_t before = 0;
    for (SEXP a = FORMALS(clo); a != R_NilValue && TAG(a) != R_DotsSymbol; a = CDR(a)) before++;
    if (cs.args.size() > before) return false;
    for (const CallArg& a : cs.args) {
        if (a.tag != R_NilValue) return false;
        switch (a.kind) {
            case ArgKind::Const:
            case ArgKind::Symbol:
            case ArgKind::Code:
            case ArgKind::Missing:
                break;
            default:
                return false;
        }
    }
    // (a getter call of a complex assignment, f(*tmp*), is GNU R's)
    static SEXP tmpSym = Rf_install("*tmp*");  // (exists: no allocation)
    SEXP call = code->poolAt(cs.ast);
    return CDR(call) == R_NilValue || CAR(CDR(call)) != tmpSym;
}

SEXP staticTarget(const Code* code, const CallSite& cs, int slot) {
    if (code->feedback[slot].ncallees != 1) return nullptr;
    SEXP clo = VECTOR_ELT(code->calleeList(), slot * kMaxCallees);
    return staticCallable(code, cs, clo) ? clo : nullptr;
}

uint32_t forcedAtStart(const Code* body, SEXP formals, uint32_t effectFree) {
    std::vector<SEXP> names;
    for (SEXP a = formals; a != R_NilValue && names.size() < 32; a = CDR(a))
        names.push_back(TAG(a));
    uint32_t forced = 0;
    // false: the start ends at this load
    auto load = [&](SEXP sym) {
        size_t k = size_t(std::find(names.begin(), names.end(), sym) - names.begin());
        if (k == names.size() || dotsName(sym) || !(effectFree & (1u << k))) return false;
        forced |= 1u << k;
        return true;
    };
    const std::vector<int32_t>& bc = body->bc;
    for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
        const int32_t* imm = &bc[pc + 1];
        switch (Op(bc[pc])) {
            case Op::push:
            case Op::push_null:
            case Op::visible:
            case Op::invisible:
            case Op::pop:
            case Op::dup:
            case Op::srcref:
                break;
            case Op::ldvar: {
                const insn::ldvar o(imm);
                if (!load(body->poolAt(o.sym))) return forced;
                break;
            }
            case Op::ld2_binop: {
                const insn::ld2_binop o(imm);
                // (its loads, in order; the operation itself may dispatch)
                if (o.kindA == insn::kFromVariable && !load(body->poolAt(o.a))) return forced;
                if (o.kindB == insn::kFromVariable) load(body->poolAt(o.b));
                return forced;
            }
            default:
                return forced;
        }
    }
    return forced;
}

SEXP contextInlineTarget(const Code* code, const CallSite& cs, int slot) {
    SEXP clo = staticTarget(code, cs, slot);  // (not being debugged)
    if (!clo) return nullptr;
    for (SEXP a = FORMALS(clo); a != R_NilValue; a = CDR(a))
        if (TAG(a) == R_DotsSymbol) return nullptr;
    DispatchTable* t = DispatchTable::unpackFast(trampolineTargetFast(BODY(clo)));
    if (!t->baseline || t->baseline->kind != CodeKind::Function) return nullptr;
    const std::vector<int32_t>& bc = t->baseline->bc;
    if (bc.size() > kMaxContextInlined) return nullptr;
    for (size_t pc = 0; pc < bc.size(); pc += 1 + rir::info(Op(bc[pc])).operands) {
        const int32_t* imm = &bc[pc + 1];
        switch (Op(bc[pc])) {
            case Op::ldvar:
                if (dotsName(t->baseline->poolAt(insn::ldvar(imm).sym))) return nullptr;
                break;
            case Op::stvar:
                if (dotsName(t->baseline->poolAt(insn::stvar(imm).sym))) return nullptr;
                break;
            case Op::br: {
                const insn::br o(imm);
                if (o.target <= int(pc)) return nullptr;  // (a loop)
                break;
            }
            case Op::push:
            case Op::push_null:
            case Op::visible:
            case Op::invisible:
            case Op::pop:
            case Op::popn:
            case Op::dup:
            case Op::ret:
            case Op::srcref:
            case Op::binop:
            case Op::ld2_binop:
            case Op::unop:
            case Op::brfalse:
            case Op::ldfun:
            case Op::call:
            case Op::guard_fun:
            case Op::call_builtin:
            case Op::count_arg:
            case Op::lgl_first:
            case Op::lgl_second:
            case Op::lgl_slow:
            case Op::dollar:
            case Op::subset:
            case Op::br_obj:
            case Op::subset_obj:
                break;
            default:
                return nullptr;
        }
    }
    return clo;
}

}  // namespace pir
}  // namespace rir
