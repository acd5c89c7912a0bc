// insns.h — THE table of RIR instructions. Everything that needs to know the
// instruction set (compiler, interpreter dispatch, disassembler, verifier,
// the PIR translator) expands this table; nothing else lists the opcodes or
// knows an operand by its position.
//
// V(name, operands, pops, pushes, description)
//   operands: O(kind, name) for each int32 immediate following the opcode,
//     in order. The name is the field of the instruction's decoder (below:
//     `insn::ldvar o(imm)` reads o.sym, o.slot); the kind says what the
//     immediate is (checked by the verifier, verifier.cpp):
//       p  constant-pool index          q  pool index or -1
//       c  pool index of the call the instruction reports in errors
//          (the pc -> source map, source_map.h)
//       k  binding-cache slot           K  cache slot + 1, or 0 for none
//       l  label (offset in the code)   s  call-site index
//       f  feedback slot (always the last operand, named fb)
//       n  a number (kind, count, flag)
//   pops/pushes: stack effect when the instruction falls through; a pop
//     count that depends on the operands is VAR(expression over `o`, the
//     decoded operands), evaluated by popCount (one function for all)
#pragma once

#include <cstdint>

// Where an operand an instruction loads itself comes from (ld2_binop's
// kindA, kindB; subset_var's ikind, jkind): the stack, a variable (a pool
// symbol and its binding-cache slot) or a constant (a pool index).
namespace rir {
namespace insn {
enum Load : int32_t { kFromStack = 0, kFromVariable = 1, kFromConstant = 2 };
}
}  // namespace rir

// binop's operands; ld2_binop has two operand loads before them
#define RIR_BINOP_OPERANDS O(n, op) O(p, prim) O(c, call) O(K, target) O(n, scratch) O(f, fb)
#define RIR_LD2_LOADS O(n, kindA) O(n, a) O(n, slotA) O(n, kindB) O(n, b) O(n, slotB)

#define RIR_INSNS(V)                                                                               \
    V(push, O(p, value), 0, 1, "push pool[value]")                                                 \
    V(push_null, , 0, 1, "push NULL")                                                              \
    V(ldvar, O(p, sym) O(k, slot), 0, 1,                                                           \
      "push the value of variable sym (binding-cache slot); force promises")                       \
    V(ldvar_in, O(p, sym) O(k, slot) O(c, call), 0, 1,                                             \
      "ldvar whose errors name the inlined call it is an argument of")                             \
    V(ldddvar, O(p, sym), 0, 1, "push the value of ..N (sym) from `...`; force promises")          \
    V(stvar, O(p, sym) O(k, slot), 1, 0, "pop a value, bind it to sym in the current env")         \
    V(stvar_super, O(p, sym), 1, 0, "pop a value, assign it to sym with <<- semantics")            \
    V(srcref, O(p, ref), 0, 0, "make ref the current source reference (R_Srcref)")                 \
    V(pop, , 1, 0, "drop the top of stack")                                                        \
    V(popn, O(n, n), VAR(o.n), 0, "drop n values")                                                 \
    V(dup, , 1, 2, "duplicate the top of stack")                                                   \
    V(visible, , 0, 0, "mark the result visible")                                                  \
    V(invisible, , 0, 0, "mark the result invisible")                                              \
    V(br, O(l, target), 0, 0, "jump to target")                                                    \
    V(br_back, O(l, target), 0, 0, "backwards jump (loop edge; counts and polls interrupts)")      \
    V(brfalse, O(l, target) O(q, call) O(f, fb), 1, 0,                                             \
      "pop a condition (if/while semantics, errors naming call), jump when FALSE; call -1: the "   \
      "object test of `if (x)`, x stays unless the jump is taken")                                 \
    V(ldfun, O(p, sym) O(c, call), 0, 1, "push the function named sym (findFun semantics)")        \
    V(call, O(s, site) O(f, fb), 1, 1, "pop a function, call it with the call site's arguments")   \
    V(mkclosure, O(p, spec), 0, 1, "create a closure from spec = list(formals, body, ref)")        \
    V(binop, RIR_BINOP_OPERANDS, 2, 1,                                                             \
      "arithmetic/comparison op (primitive prim; target: cache slot + 1 of the variable the "      \
      "result is assigned to; scratch: slot + 1 of the reusable result)")                          \
    V(ld2_binop, RIR_LD2_LOADS RIR_BINOP_OPERANDS,                                                 \
      VAR((o.kindA == insn::kFromStack) + (o.kindB == insn::kFromStack)), 1,                       \
      "load up to two operands (kind, a, slot per operand: 0 the stack, 1 variable pool[a] in "    \
      "cache slot, 2 constant pool[a]), then binop")                                               \
    V(unop, O(n, op) O(p, prim) O(c, call) O(f, fb), 1, 1, "unary op on one value")                \
    V(eval_ast, O(p, expr) O(n, site), 0, 1,                                                       \
      "evaluate expr with GNU R's AST interpreter (counted per site and reason)")                  \
    V(for_init, O(c, call), 1, 3, "pop a sequence; push seq, length and counter")                  \
    V(for_colon, O(c, colonCall) O(p, forCall), 2, 3,                                              \
      "for (v in from:to): pop from, to; push the state of an integer range without building it, " \
      "else of `:`'s value")                                                                       \
    V(for_step, O(l, target) O(p, sym) O(k, slot) O(f, fb), 0, 0,                                  \
      "advance counter; bind the loop variable sym, or jump to target when done")                  \
    V(subset, O(n, kind) O(n, nidx) O(s, site) O(f, fb), VAR(o.nidx + 1), 1,                       \
      "x[i] / x[[i]] / x[i, j] (kind 1 [, 2 [[) with default fast paths")                          \
    V(subset_var,                                                                                  \
      O(l, target) O(p, xsym) O(k, xslot) O(n, ikind) O(n, i) O(n, islot) O(n, kind) O(s, site)    \
          O(f, fb),                                                                                \
      0, 1,                                                                                        \
      "x[i] / x[[i]] with x a local variable and i a local variable (ikind 1: pool[i], cache "     \
      "islot) or constant (2: pool[i]): push the value and jump to target, or fall through when "  \
      "the fast path does not apply")                                                              \
    V(subset_var2,                                                                                 \
      O(l, target) O(p, xsym) O(k, xslot) O(n, ikind) O(n, i) O(n, islot) O(n, jkind) O(n, j)      \
          O(n, jslot) O(n, kind) O(s, site) O(f, fb),                                              \
      0, 1,                                                                                        \
      "m[i, j] / m[[i, j]] with m a local variable and i, j local variables or constants: as "     \
      "subset_var, for a plain matrix and in-range scalar indices")                                \
    V(dollar, O(p, name) O(p, nameSym) O(c, call) O(f, fb), 1, 1,                                  \
      "x$name on lists and environments (name a CHARSXP), else GNU R")                             \
    V(subassign, O(n, kind) O(p, xsym) O(k, xslot) O(c, call) O(n, nidx) O(p, setter) O(f, fb),    \
      VAR(1 + o.nidx + ((o.kind & 8) ? 1 : 0)), 0,                                                 \
      "x[i] <- v, x[[i]] <- v, m[i, j] <- v on a local variable (nidx indices; kind 1 [, 2 [[, "   \
      "+4 "                                                                                        \
      "for <<-, +8 (kPushedX): x's value pushed by start_assign below the indices)")               \
    V(lgl_first, O(n, kind) O(l, end) O(l, slow) O(c, call), 0, 0,                                 \
      "&&/||: decide on a logical scalar lhs")                                                     \
    V(lgl_second, O(n, kind) O(c, call), 2, 1, "&&/||: combine lhs and rhs")                       \
    V(lgl_slow, O(n, kind) O(c, call), 1, 1, "&&/||: GNU R's operator with the evaluated lhs")     \
    V(dollar_assign, O(l, fail) O(p, xsym) O(p, name) O(p, nameSym) O(c, call) O(f, fb), 1, 0,     \
      "x$name <- v on a local list or environment: pops v, or keeps it and jumps to fail")         \
    V(br_obj, O(l, target), 0, 0, "jump to target when the top of stack is an object (keeps it)")  \
    V(subset_obj, O(n, kind) O(c, call), 1, 1,                                                     \
      "x[...] with x evaluated: GNU R's [ / [[ incl. dispatch")                                    \
    V(env_subassign, O(n, kind) O(p, xsym) O(p, nameSym) O(c, call) O(f, fb), 2, 0,                \
      "X$name[i] <- v / X$name$f <- v with X an environment or a local list (kind 1 [, 2 [[, 3 "   \
      "$)")                                                                                        \
    V(call_builtin, O(n, nargs) O(s, site) O(p, fun) O(f, fb), VAR(o.nargs), 1,                    \
      "call base builtin fun on nargs evaluated args")                                             \
    V(start_assign, O(p, xsym) O(c, call), 0, 1,                                                   \
      "push the value of x for x[i] <- v with a general index: GNU R's EnsureLocal")               \
    V(switch_table, O(c, call) O(q, names) O(n, nchar) O(n, nnum), 1, 0,                           \
      "switch(): pop EXPR, continue at entry k of the br table that follows (nchar + nnum "        \
      "entries)")                                                                                  \
    V(apply_internal, O(p, inner) O(c, call), 0, 1,                                                \
      ".Internal(lapply(X, FUN)) / .Internal(vapply(...)): FUN called by rir for each element, "   \
      "else GNU R's internal")                                                                     \
    V(use_method, O(p, generic) O(n, nobj) O(c, call), VAR(o.nobj), 1,                             \
      "UseMethod(generic[, obj]) in a function body: dispatch and return the method's value, "     \
      "else GNU R's UseMethod")                                                                    \
    V(pick, O(n, depth), 0, 1, "push a copy of the value depth slots below the top (0 = top)")     \
    V(start_assign_super, O(p, xsym) O(c, call), 0, 1,                                             \
      "push the value of x (looked up from the enclosing environment on) for f(x) <<- v")          \
    V(force_target_ast, O(p, xsym) O(c, call) O(n, super), 0, 0,                                   \
      "in code GNU R leaves to its AST interpreter, after a complex assignment's value: force "    \
      "x's unforced promise (bound locally, else from the parent on; super: from the parent "      \
      "on) in a context whose call is the assignment, as that interpreter's applydefine does")     \
    V(getter_call, O(s, site) O(f, fb), 1, 1,                                                      \
      "complex assignment: pop a function, call it on the value below it as `*tmp*`, push the "    \
      "result")                                                                                    \
    V(setter_call, O(s, site) O(p, vexpr) O(n, below) O(f, fb), 3, 1,                              \
      "complex assignment: pop f<-, value and target, push f<-(`*tmp*`, ..., value = value) "      \
      "(below: the slots of the assignment below, + kSetterSuper for <<-)")                        \
    V(end_assign, O(p, sym) O(k, slot) O(n, super), 1, 0,                                          \
      "complex assignment: pop the new value of x and bind it")                                    \
    V(guard_fun, O(p, sym) O(p, fun) O(c, call) O(l, target), 0, 0,                                \
      "unless sym still names the function fun here (findFun), evaluate call as GNU R does, push " \
      "its value and jump to target")                                                              \
    V(loop_body, O(l, target) O(p, body), 0, 0,                                                    \
      "run the loop body code in a GNU R loop context: break/next reached through a promise or "   \
      "call end it (break jumps to target)")                                                       \
    V(count_arg, , 0, 0,                                                                           \
      "count the value on top as a builtin call argument (reference count + 1) while later "       \
      "arguments are evaluated; call_builtin releases it")                                         \
    V(ret, , 1, 0, "return the top of stack from the function")                                    \
    V(ldvar_missok, O(p, sym) O(n, slot), 0, 1,                                                    \
      "ldvar for an index of [ / [[: a missing argument is pushed as the empty argument (slot < "  \
      "0: sym is ..N)")

namespace rir {

// setter_call: flag in its `below` operand for an assignment with <<-.
const int kSetterSuper = 1 << 30;

enum class Op : int32_t {
#define RIR_ENUM(name, ops, pop, push, doc) name,
    RIR_INSNS(RIR_ENUM)
#undef RIR_ENUM
        num_ops
};

// The decoders: insn::NAME has one int32_t field per operand, named as in
// the table, and is read from the immediates following the opcode:
//   insn::ldvar o(&bc[pc + 1]);  ... o.sym, o.slot ...
// kOperands is the number of immediates.
namespace insn {
#define O(kind, name) int32_t name;
#define RIR_DECODER(nm, ops, pop, push, doc) \
    struct nm {                              \
        static constexpr Op kOp = Op::nm;    \
        static const int kOperands;          \
        ops explicit nm(const int32_t* imm); \
    };
RIR_INSNS(RIR_DECODER)
#undef RIR_DECODER
#undef O

#define O(kind, name) +1
#define RIR_COUNT(nm, ops, pop, push, doc) inline constexpr int nm::kOperands = 0 ops;
RIR_INSNS(RIR_COUNT)
#undef RIR_COUNT
#undef O

#define O(kind, name) name = *imm++;
#define RIR_READ(nm, ops, pop, push, doc) \
    inline nm::nm(const int32_t* imm) {   \
        (void)imm;                        \
        ops                               \
    }
RIR_INSNS(RIR_READ)
#undef RIR_READ
#undef O

// ld2_binop: its operand loads, then binop's operands (the interpreter
// continues in binop's handler there)
#define O(kind, name) +1
const int kLd2Loads = 0 RIR_LD2_LOADS;
#undef O
static_assert(ld2_binop::kOperands == kLd2Loads + binop::kOperands, "ld2_binop = loads + binop");

// switch_table is followed by its entries, one `br` each: entry k's br
// starts kSwitchEntry * k after the switch_table's end
const int kSwitchEntry = 1 + br::kOperands;
}  // namespace insn

struct InsnInfo {
    const char* name;
    int operands;              // number of immediates
    const char* operandKinds;  // one letter per immediate (see above)
    const char* operandNames;  // the immediates' names, separated by spaces
    int pops;                  // -1: depends on the operands (popCount)
    int pushes;
    bool feedback;  // the last immediate is a feedback slot
    const char* doc;
};

extern const InsnInfo insnInfo[];

inline const InsnInfo& info(Op op) {
    return insnInfo[static_cast<int>(op)];
}

// The number of values the instruction at `imm - 1` pops when it falls
// through (the table's pops, evaluated on its operands when they decide).
int popCount(Op op, const int32_t* imm);

// The first label operand of the instruction at `imm - 1` (br, br_back,
// brfalse: where it jumps), else -1.
int labelOperand(Op op, const int32_t* imm);

// Calls use(pool index) for each variable the instruction at `imm - 1`
// loads by name: ldvar's, and ld2_binop's operands of kind 1.
template <typename F>
void forEachVariableLoad(Op op, const int32_t* imm, F use) {
    if (op == Op::ldvar) {
        use(insn::ldvar(imm).sym);
    } else if (op == Op::ld2_binop) {
        const insn::ld2_binop o(imm);
        if (o.kindA == insn::kFromVariable) use(o.a);
        if (o.kindB == insn::kFromVariable) use(o.b);
    }
}

}  // namespace rir
