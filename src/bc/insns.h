// insns.h — THE table of RIR instructions. Everything that needs to know the
// instruction set (compiler, interpreter dispatch, disassembler, verifier of
// stack depth) expands this table; nothing else lists the opcodes.
//
// V(name, operands, pops, pushes, feedback, description)
//   operands: one letter per int32 immediate following the opcode, saying
//     what it is (checked by the verifier, verifier.cpp):
//       p  constant-pool index          q  pool index or -1
//       c  pool index of the call the instruction reports in errors
//          (the pc -> source map, source_map.h)
//       k  binding-cache slot           K  cache slot + 1, or 0 for none
//       l  label (offset in the code)   s  call-site index
//       f  feedback slot                n  a number (kind, count, flag)
//   pops/pushes: stack effect (-1 = depends on an operand, see description)
//   feedback: 1 when the last immediate is a feedback slot index (always last)
#pragma once

#define RIR_INSNS(V)                                                                               \
    V(push, "p", 0, 1, 0, "push pool[c]")                                                          \
    V(push_null, "", 0, 1, 0, "push NULL")                                                         \
    V(ldvar, "pk", 0, 1, 0, "push the value of variable pool[s] (cache slot k); force promises")   \
    V(ldvar_in, "pkc", 0, 1, 0,                                                                    \
      "ldvar whose errors name the inlined call pool[c] it is an argument of (s, k, c)")           \
    V(ldddvar, "p", 0, 1, 0, "push the value of ..N (pool[s]) from `...`; force promises")         \
    V(stvar, "pk", 1, 0, 0, "pop a value, bind it to pool[s] (cache slot k) in the current env")   \
    V(stvar_super, "p", 1, 0, 0, "pop a value, assign it with <<- semantics")                      \
    V(srcref, "p", 0, 0, 0, "make pool[c] the current source reference (R_Srcref)")                \
    V(pop, "", 1, 0, 0, "drop the top of stack")                                                   \
    V(popn, "n", -1, 0, 0, "drop n values")                                                        \
    V(dup, "", 1, 2, 0, "duplicate the top of stack")                                              \
    V(visible, "", 0, 0, 0, "mark the result visible")                                             \
    V(invisible, "", 0, 0, 0, "mark the result invisible")                                         \
    V(br, "l", 0, 0, 0, "jump to label")                                                           \
    V(br_back, "l", 0, 0, 0, "backwards jump (loop edge; counts and polls interrupts)")            \
    V(brfalse, "lqf", 1, 0, 1, "pop a condition (if/while semantics), jump when FALSE")            \
    V(ldfun, "pc", 0, 1, 0, "push the function named pool[s] (findFun semantics; call c)")         \
    V(call, "sf", 1, 1, 1, "pop a function, call it with call site c")                             \
    V(mkclosure, "p", 0, 1, 0, "create a closure from pool[c] = list(formals, body, ref)")         \
    V(binop, "npcKnf", 2, 1, 1, "arithmetic/comparison (op, prim, call, target, scratch, fb)")     \
    V(ld2_binop, "nnnnnnnpcKnf", -1, 1, 1,                                                         \
      "load up to two operands (kind, a, b per operand: 0 stack, 1 variable sym/slot, 2 "          \
      "constant), then binop")                                                                     \
    V(unop, "npcf", 1, 1, 1, "unary op on one value (op, prim, call)")                             \
    V(eval_ast, "pn", 0, 1, 0,                                                                     \
      "evaluate pool[c] with GNU R's AST interpreter (c, site: counted per site and reason)")      \
    V(for_init, "cn", 1, 3, 0, "pop a sequence; push seq, length and counter")                     \
    V(for_colon, "cp", 2, 3, 0,                                                                    \
      "for (v in from:to): pop from, to; push the state of an integer range without building it, " \
      "else of `:`'s value (colon call, for call)")                                                \
    V(for_step, "lpkf", 0, 0, 1, "advance counter; bind variable (cache slot k) or jump to label") \
    V(subset, "nnsf", -1, 1, 1, "x[i] / x[[i]] / x[i, j] with default fast paths")                 \
    V(subset_var, "lpknnnnsf", 0, 1, 1,                                                            \
      "x[i] / x[[i]] with x a local variable and i a local variable or constant: push the value "  \
      "and jump to label, or fall through when the fast path does not apply (label, x sym, x "     \
      "slot, i kind 1 var / 2 const, i sym or const, i slot, kind, site, fb)")                     \
    V(subset_var2, "lpknnnnnnnsf", 0, 1, 1,                                                        \
      "m[i, j] / m[[i, j]] with m a local variable and i, j local variables or constants: as "     \
      "subset_var, for a plain matrix and in-range scalar indices (label, m sym, m slot, then "    \
      "kind, sym or const, slot for i and for j, kind, site, fb)")                                 \
    V(dollar, "ppcf", 1, 1, 1, "x$name on lists and environments (char, sym, call), else GNU R")   \
    V(subassign, "npkcnpf", -1, 0, 1,                                                              \
      "x[i] <- v, x[[i]] <- v, m[i, j] <- v on a local variable (n indices; kind 1 [, 2 [[, +4 "   \
      "for <<-, +8: x's value pushed by start_assign below the indices; setter call)")             \
    V(lgl_first, "nllc", 0, 0, 0, "&&/||: decide on a logical scalar lhs (kind, end, slow, call)") \
    V(lgl_second, "nc", 2, 1, 0, "&&/||: combine lhs and rhs (kind, call)")                        \
    V(lgl_slow, "nc", 1, 1, 0, "&&/||: GNU R's operator with the evaluated lhs (kind, call)")      \
    V(dollar_assign, "lpppcf", -1, 0, 1,                                                           \
      "x$name <- v on a local list or environment: pops v, or keeps it and jumps to the fail "     \
      "label (fail, x, char, sym, call)")                                                          \
    V(br_obj, "l", 0, 0, 0, "jump to label when the top of stack is an object (keeps it)")         \
    V(subset_obj, "nc", 1, 1, 0,                                                                   \
      "x[...] with x evaluated: GNU R's [ / [[ incl. dispatch (kind, call)")                       \
    V(env_subassign, "nppcf", -1, 0, 1,                                                            \
      "X$name[i] <- v / X$name$f <- v with X an environment or a local list (kind 1 [, 2 [[, 3 "   \
      "$; X, sym, call)")                                                                          \
    V(call_builtin, "nspf", -1, 1, 1,                                                              \
      "call base builtin pool[p] on n evaluated args (n, site, p)")                                \
    V(start_assign, "pc", 0, 1, 0,                                                                 \
      "push the value of x for x[i] <- v with a general index (sym, call): GNU R's EnsureLocal")   \
    V(switch_table, "cqnn", 1, 0, 0,                                                               \
      "switch(): pop EXPR, continue at entry k of the br table that follows (call, names, nchar, " \
      "nnum)")                                                                                     \
    V(apply_internal, "pc", 0, 1, 0,                                                               \
      ".Internal(lapply(X, FUN)) / .Internal(vapply(...)): FUN called by rir for each element, "   \
      "else GNU R's internal (inner call, call)")                                                  \
    V(use_method, "pnc", -1, 1, 0,                                                                 \
      "UseMethod(generic[, obj]) in a function body: dispatch and return the method's value, "     \
      "else GNU R's UseMethod (generic, nobj, call)")                                              \
    V(pick, "n", 0, 1, 0, "push a copy of the value k slots below the top (0 = top)")              \
    V(start_assign_super, "pc", 0, 1, 0,                                                           \
      "push the value of x (looked up from the enclosing environment on) for f(x) <<- v (sym, "    \
      "call)")                                                                                     \
    V(getter_call, "sf", 1, 1, 1,                                                                  \
      "complex assignment: pop a function, call it on the value below it as `*tmp*` (site), "      \
      "push the result")                                                                           \
    V(setter_call, "spnf", 3, 1, 1,                                                                \
      "complex assignment: pop f<-, value and target, push f<-(`*tmp*`, ..., value = value) "      \
      "(site, value expression, slots of the assignment below, fb)")                               \
    V(end_assign, "pkn", 1, 0, 0,                                                                  \
      "complex assignment: pop the new value of x and bind it (sym, cache slot, super)")           \
    V(guard_fun, "ppcl", 0, 0, 0,                                                                  \
      "unless pool[s] still names the function pool[f] here (findFun), evaluate call pool[c] as "  \
      "GNU R does, push its value and jump to label (s, f, c, label)")                             \
    V(loop_body, "lp", 0, 0, 0,                                                                    \
      "run the loop body code pool[c] in a GNU R loop context: break/next reached through a "      \
      "promise or call end it (break jumps to label)")                                             \
    V(count_arg, "", 0, 0, 0,                                                                      \
      "count the value on top as a builtin call argument (reference count + 1) while later "       \
      "arguments are evaluated; call_builtin releases it")                                         \
    V(ret, "", 1, 0, 0, "return the top of stack from the function")                               \
    V(ldvar_missok, "pn", 0, 1, 0,                                                                 \
      "ldvar for an index of [ / [[: a missing argument is pushed as the empty argument (s, k; "   \
      "k < 0: s is ..N)")

namespace rir {

// setter_call: flag in its `below` operand for an assignment with <<-.
const int kSetterSuper = 1 << 30;

enum class Op : int32_t {
#define RIR_ENUM(name, ops, pop, push, fb, doc) name,
    RIR_INSNS(RIR_ENUM)
#undef RIR_ENUM
        num_ops
};

struct InsnInfo {
    const char* name;
    int operands;              // number of immediates
    const char* operandKinds;  // one letter per immediate (see above)
    int pops;
    int pushes;
    bool feedback;
    const char* doc;
};

extern const InsnInfo insnInfo[];

inline const InsnInfo& info(Op op) {
    return insnInfo[static_cast<int>(op)];
}

}  // namespace rir
