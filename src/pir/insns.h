// insns.h — THE table of PIR instructions. The builder, printer, verifier
// and passes expand it; nothing else lists the instructions.
//
// X(Name, operands, result, arith, succ, reads, writes, flags, description)
//
//   operands: one letter per operand, checked by the verifier (verifier.cpp)
//       v  a forced value (not lazy, not a promise object, not missing)
//       a  any value, possibly lazy (an unforced promise standing for it)
//       m  a forced value or the missing marker (an empty index)
//       e  an environment (MkEnv, an argument's environment, ...)
//       l  a test: the C truth value made by AsTest or a comparison
//       c  a Checkpoint                     f  a FrameState
//     the last letter may be followed by '*': any number of further operands
//     of that kind
//   result: the rule computing the result type (Rule below, type.h); it
//     also classes R's operators: Arith and Division (arithmetic), Compare,
//     Logic (vectorized & and |), Unary and Not
//   arith: the R operator the instruction computes (ArithOp, arith_op.h),
//     None for the others
//   succ: the number of successor blocks (terminators), else 0
//   reads / writes: the abstract heaps touched (Heap below); `Env` stands for
//     the environment operand's heap, own or other (Instruction::effects)
//   flags: Flags below
//
// An instruction whose flags include Forces runs arbitrary R code when an
// operand may be lazy (a promise's code, an active binding, a method): it
// then reads and writes every heap, may raise errors and jump non-locally.
//
// A warning runs R code too: the calling handlers of the condition, which
// may read and assign any frame on the stack (sys.frames()) and then return
// to the code that warned. An instruction that may warn with its operands'
// types (Instruction::mayWarn) therefore counts as one that calls R code.
#pragma once
#include <cstdint>

#include "../bc/arith_op.h"
#include "../runtime/export.h"

namespace rir {
namespace pir {

class PirType;

// Abstract heaps: what an instruction's effects are about. Two effects can
// only interfere when their heap sets overlap.
enum Heap : uint8_t {
    OwnEnv = 1 << 0,      // the environment created for the function being compiled
    OtherEnv = 1 << 1,    // any other environment (callers', closures', global)
    Promises = 1 << 2,    // promise objects' values (forcing one writes it)
    Vectors = 1 << 3,     // vector and list contents
    Attributes = 1 << 4,  // attributes
    Global = 1 << 5,      // global state: I/O, warnings, options, RNG, contexts
    Env = 1 << 6,         // (table only) the heap of the environment operand
    AllHeaps = OwnEnv | OtherEnv | Promises | Vectors | Attributes | Global,
};

enum Flags : uint16_t {
    NoFlags = 0,
    MayError = 1 << 0,       // may raise an R error (a non-local jump to a handler)
    NonLocal = 1 << 1,       // may return non-locally (return() in a promise, restarts)
    MayDeopt = 1 << 2,       // may leave optimized code for the RIR interpreter
    Forces = 1 << 3,         // evaluates its lazy operands (see above)
    Dispatches = 1 << 4,     // an object operand dispatches to R code (S3/S4 methods)
    Terminator = 1 << 5,     // ends its block
    SetsVisible = 1 << 6,    // makes R_Visible TRUE (a result is printed at top level)
    SetsInvisible = 1 << 7,  // makes R_Visible FALSE
    CallsR = 1 << 8,         // calls R code: every heap, errors, non-local exits
    HasSymbol = 1 << 9,      // carries a symbol (variable or function name)
    HasConstant = 1 << 10,   // carries a constant R value
    HasType = 1 << 11,       // carries a type (casts, tests, assumptions)
    HasCall = 1 << 13,       // carries the call its errors name (not printed)
};

// Result type rules.
enum class Rule : uint8_t {
    Void,             // no result
    Any,              // any value, possibly lazy or missing
    Value,            // any forced value
    Env,              // an environment
    Prom,             // a promise object
    Closure,          // a closure
    Function,         // a closure or a builtin
    Test,             // a C truth value (lgl$'-)
    Bool,             // an R logical scalar, TRUE or FALSE (lgl$'-, a value)
    Lgl,              // a logical scalar, maybe NA
    Int,              // an integer scalar, not NA (lengths, counters)
    Forced,           // operand 0's type, forced
    ForcedOrMissing,  // operand 0's type, forced, or the missing marker
    Arith,            // R arithmetic on operands 0 and 1
    Division,         // R's `/` and `^` on operands 0 and 1 (doubles from integers)
    Compare,          // R comparison on operands 0 and 1
    Logic,            // R's vectorized & and | on operands 0 and 1
    Unary,            // operand 0's type, forced (unary minus and plus)
    Not,              // `!`: a logical of operand 0's length (a scalar for a plain scalar)
    Phi,              // the join of the operands' types
    Constant,         // the constant's type
    Cast,             // the carried type
    Arg,              // the carried type (arguments: any, or what the context promises)
    Same,             // operand 0's type
};

#define PIR_INSNS(X)                                                                               \
    /* values */                                                                                   \
    X(LdConst, "", Constant, None, 0, 0, 0, HasConstant, "a constant")                             \
    X(LdArg, "", Arg, None, 0, 0, 0, HasType, "the argument with this index, as passed")           \
    X(LdInput, "", Arg, None, 0, 0, 0, HasType,                                                    \
      "a continuation's entry value with this index: a slot of the operand stack of the RIR "      \
      "frame it continues (a for loop's length and counter as integer scalars)")                   \
    X(LdFunctionEnv, "", Env, None, 0, 0, 0, NoFlags,                                              \
      "the closure's environment (its frames' parent)")                                            \
    /* environments and variables */                                                               \
    X(LdVar, "e", Any, None, 0, Env, 0, HasSymbol | MayError | HasCall,                            \
      "the value of a variable in an environment (lazy when a promise)")                           \
    X(StVar, "ae", Void, None, 0, 0, Env, HasSymbol, "bind a variable in an environment")          \
    X(StArgDefault, "ae", Void, None, 0, 0, Env, HasSymbol,                                        \
      "bind a missing argument to the promise of its default (the binding stays `missing`)")       \
    X(LdDotsElement, "e", Value, None, 0, AllHeaps, AllHeaps,                                      \
      CallsR | MayError | NonLocal | HasSymbol,                                                    \
      "..N (the symbol carried): element N of the environment's `...`, forced (GNU R's errors)")   \
    X(LdVarSuper, "e", Any, None, 0, OtherEnv, 0, HasSymbol | MayError,                            \
      "the value of a variable from the environment's parent on")                                  \
    X(StVarSuper, "ae", Void, None, 0, OtherEnv, OtherEnv, HasSymbol | MayError | CallsR,          \
      "<<-: assign in the first parent environment binding the variable, else the global one "     \
      "(an active binding's function may run)")                                                    \
    X(LdFun, "e", Function, None, 0, Env | OtherEnv, 0,                                            \
      HasSymbol | MayError | Forces | CallsR | HasCall,                                            \
      "the function a call names (forces promises on the way, skips non-functions)")               \
    X(MkEnv, "ae*", Env, None, 0, 0, 0, NoFlags,                                                   \
      "a new environment: parent (last operand) and bindings (names carried); a stub when only "   \
      "reflective code could need the real one")                                                   \
    X(MaterializeEnv, "e", Env, None, 0, 0, 0, NoFlags,                                            \
      "the real environment of a stub environment")                                                \
    X(MkArg, "ae", Prom, None, 0, 0, 0, HasConstant,                                               \
      "a promise of the carried expression (its RIR promise code: the pool index carried) in an "  \
      "environment, with its eager value when known (operand 0, else the missing marker)")         \
    X(Force, "a", Forced, None, 0, 0, 0, Forces | MayError | NonLocal,                             \
      "the value of a (lazy) value")                                                               \
    X(ForceOrMissing, "a", ForcedOrMissing, None, 0, 0, 0, Forces | MayError | NonLocal,           \
      "as Force, but a missing argument (also through promises of missing arguments) gives the "   \
      "missing marker: an index x[i] takes as empty")                                              \
    X(MkCls, "e", Closure, None, 0, 0, 0, HasConstant,                                             \
      "a closure of the carried function in the env")                                              \
    /* calls */                                                                                    \
    X(Call, "eva*", Value, None, 0, AllHeaps, AllHeaps,                                            \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "call operand 1 (a function value) with arguments (promises or values), caller env first")   \
    X(StaticCall, "eva*", Value, None, 0, AllHeaps, AllHeaps,                                      \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "call operand 1, a closure constant (a guard proved the call's function is it), with "       \
      "arguments matching its formals by position, in the Context carried")                        \
    X(CallBuiltin, "ev*", Value, None, 0, AllHeaps, AllHeaps,                                      \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "call the carried builtin with evaluated arguments")                                         \
    X(CallSafeBuiltin, "v*", Value, None, 0, Vectors | Attributes, 0, HasConstant,                 \
      "call a builtin known to run no R code and have no effect (length, is.na, ...)")             \
    X(EvalAst, "e", Value, None, 0, AllHeaps, AllHeaps,                                            \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "evaluate the carried expression with GNU R's AST interpreter in the environment")           \
    X(ApplyInternal, "e", Value, None, 0, AllHeaps, AllHeaps,                                      \
      CallsR | MayError | NonLocal | HasConstant | HasCall,                                        \
      ".Internal(lapply(X, FUN)) and kin in base's frame (the environment): FUN called by rir "    \
      "for each element, else GNU R's internal (carried: the inner call)")                         \
    X(UseMethod, "ev*", Value, None, 0, AllHeaps, AllHeaps,                                        \
      CallsR | MayError | NonLocal | HasConstant | HasCall,                                        \
      "UseMethod(generic[, obj]) in the function's body: the method's value, which the function "  \
      "returns (else GNU R's UseMethod leaves the function itself); carried: the generic")         \
    /* arithmetic, comparison, logic */                                                            \
    X(Add, "vv", Arith, Add, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 + e2")                                                                                   \
    X(Sub, "vv", Arith, Sub, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 - e2")                                                                                   \
    X(Mul, "vv", Arith, Mul, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 * e2")                                                                                   \
    X(Div, "vv", Division, Div, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,  \
      "e1 / e2")                                                                                   \
    X(Pow, "vv", Division, Pow, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,  \
      "e1 ^ e2")                                                                                   \
    X(IDiv, "vv", Arith, IDiv, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,   \
      "e1 %/% e2")                                                                                 \
    X(Mod, "vv", Arith, Mod, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 %% e2")                                                                                  \
    X(Eq, "vv", Compare, Eq, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 == e2")                                                                                  \
    X(Neq, "vv", Compare, Ne, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,    \
      "e1 != e2")                                                                                  \
    X(Lt, "vv", Compare, Lt, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 < e2")                                                                                   \
    X(Le, "vv", Compare, Le, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 <= e2")                                                                                  \
    X(Gt, "vv", Compare, Gt, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 > e2")                                                                                   \
    X(Ge, "vv", Compare, Ge, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 >= e2")                                                                                  \
    X(And, "vv", Logic, And, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,     \
      "e1 & e2")                                                                                   \
    X(Or, "vv", Logic, Or, 0, Vectors | Attributes, Global, MayError | Dispatches | HasCall,       \
      "e1 | e2")                                                                                   \
    X(Not, "v", Not, Not, 0, Vectors | Attributes, 0, MayError | Dispatches | HasCall, "!x")       \
    X(Minus, "v", Unary, Neg, 0, Vectors | Attributes, 0, MayError | Dispatches | HasCall, "-x")   \
    X(Plus, "v", Unary, Plus, 0, Vectors | Attributes, 0, MayError | Dispatches | HasCall, "+x")   \
    X(NoOverflow, "vv", Test, None, 0, 0, 0, NoFlags,                                              \
      "do the plain integer (or logical) scalars' sum (index 0), difference (1) or product (2) "   \
      "fit an int that is not NA (so that + - * on them gives no overflow warning)")               \
    X(LAnd, "ll", Test, None, 0, 0, 0, NoFlags, "both tests true (&& after its operands' AsTest)") \
    X(LOr, "ll", Test, None, 0, 0, 0, NoFlags, "either test true")                                 \
    X(LglIs, "v", Test, None, 0, 0, 0, NoFlags,                                                    \
      "the plain logical scalar is the carried value (0 FALSE, 1 TRUE)")                           \
    X(LglCombine, "vv", Lgl, None, 0, Vectors | Attributes, 0, MayError | HasConstant,             \
      "&& (index 1) or || (2) of a plain logical scalar and the evaluated right operand (GNU R's " \
      "errors, naming the carried call)")                                                          \
    X(LglSlow, "ve", Lgl, None, 0, AllHeaps, AllHeaps, CallsR | MayError | NonLocal | HasConstant, \
      "GNU R's && (1) or || (2) with the evaluated left operand; the right one evaluated from "    \
      "the "                                                                                       \
      "carried call")                                                                              \
    /* vectors */                                                                                  \
    X(Extract1_1D, "vm", Value, None, 0, Vectors | Attributes, 0, MayError | Dispatches, "x[i]")   \
    X(Extract2_1D, "vm", Value, None, 0, Vectors | Attributes, 0, MayError | Dispatches, "x[[i]]") \
    X(Extract1_2D, "vmm", Value, None, 0, Vectors | Attributes, 0, MayError | Dispatches,          \
      "x[i, j]")                                                                                   \
    X(Extract2_2D, "vmm", Value, None, 0, Vectors | Attributes, 0, MayError | Dispatches,          \
      "x[[i, j]]")                                                                                 \
    X(Extract1_ND, "vm*", Value, None, 0, Vectors | Attributes, 0, MayError | Dispatches,          \
      "x[...] with named arguments or more than two indices (from its RIR call site)")             \
    X(Extract2_ND, "vm*", Value, None, 0, Vectors | Attributes, 0, MayError | Dispatches,          \
      "x[[...]] with named arguments or more than two indices (from its RIR call site)")           \
    X(ExtractDispatch, "ve", Value, None, 0, AllHeaps, AllHeaps,                                   \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "x[...] (index 1) or x[[...]] (index 2) for an object x: GNU R's primitive with x "          \
      "evaluated "                                                                                 \
      "and the carried call's other arguments")                                                    \
    X(Dollar, "v", Value, None, 0, Vectors | Attributes | OtherEnv, 0,                             \
      MayError | Dispatches | HasSymbol | HasCall | HasConstant,                                   \
      "x$name (carried: the name, a CHARSXP)")                                                     \
    X(Subassign1_1D, "vvv", Value, None, 0, Vectors | Attributes, Vectors | Attributes,            \
      MayError | Dispatches, "`[<-`(x, i, value): x, or a copy, with the element stored")          \
    X(Subassign2_1D, "vvv", Value, None, 0, Vectors | Attributes, Vectors | Attributes,            \
      MayError | Dispatches, "`[[<-`(x, i, value)")                                                \
    X(Subassign1_2D, "vvvv", Value, None, 0, Vectors | Attributes, Vectors | Attributes,           \
      MayError | Dispatches, "`[<-`(x, i, j, value)")                                              \
    X(Subassign2_2D, "vvvv", Value, None, 0, Vectors | Attributes, Vectors | Attributes,           \
      MayError | Dispatches, "`[[<-`(x, i, j, value)")                                             \
    X(SubassignVar, "evm*", Value, None, 0, AllHeaps, AllHeaps,                                    \
      CallsR | MayError | NonLocal | HasSymbol | HasConstant | HasCall,                            \
      "x[i] <- v, x[[i]] <- v, m[i, j] <- v on the variable of the environment, x's value after "  \
      "it (operands: env, v, the indices; carried: the RIR subassign's kind, its setter call and " \
      "the assignment)")                                                                           \
    X(SubassignGeneral, "evm*", Void, None, 0, AllHeaps, AllHeaps,                                 \
      CallsR | MayError | NonLocal | HasSymbol | HasConstant | HasCall,                            \
      "x[i] <- v, x[[i]] <- v, m[i, j] <- v by the interpreter's general path: with <<- (the "     \
      "carried RIR kind +4), or x's value computed before the indices (+8: the operand after v) "  \
      "(operands: env, v, then x's value or not, the indices; carried: setter call, assignment)")  \
    X(EnvSubassign, "evm", Void, None, 0, AllHeaps, AllHeaps,                                      \
      CallsR | MayError | NonLocal | HasSymbol | HasConstant | HasCall,                            \
      "X$name[i] <- v (index 2), X$name[[i]] <- v (1), X$name$f <- v (3) with X a variable of "    \
      "the environment (operands: env, v, i or f; carried: X, name, the assignment)")              \
    X(StartAssign, "e", Value, None, 0, AllHeaps, AllHeaps,                                        \
      CallsR | MayError | NonLocal | HasSymbol | HasCall,                                          \
      "complex assignment f(x) <- v: the value of x, bound in the environment's own frame first "  \
      "(a copy of a parent's value; a promise forced, an active binding called)")                  \
    X(StartAssignSuper, "e", Value, None, 0, AllHeaps, AllHeaps,                                   \
      CallsR | MayError | NonLocal | HasSymbol | HasCall,                                          \
      "complex assignment f(x) <<- v: the value of x from the environment's parent on")            \
    X(ForceTargetAst, "e", Void, None, 0, AllHeaps, AllHeaps,                                      \
      CallsR | MayError | NonLocal | HasSymbol | HasCall,                                          \
      "complex assignment in code GNU R leaves to its AST interpreter: force the target's "        \
      "unforced promise in a context naming the assignment (RIR's force_target_ast; carried: "     \
      "x, the assignment; rirKind 1 for <<-)")                                                     \
    X(GetterCall, "evv", Value, None, 0, AllHeaps, AllHeaps, CallsR | MayError | NonLocal,         \
      "complex assignment: call operand 1 on the target (operand 2) as `*tmp*`, with the other "   \
      "arguments of the carried RIR call site")                                                    \
    X(SetterCall, "evvv", Value, None, 0, AllHeaps, AllHeaps,                                      \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "complex assignment: call operand 1, a replacement function, with the target (operand 3) "   \
      "as `*tmp*`, the carried call site's arguments and value = operand 2 (its expression "       \
      "carried); the target is copied first unless nothing else can see it")                       \
    X(DollarAssignVar, "ev", Test, None, 0, AllHeaps, AllHeaps,                                    \
      CallsR | MayError | HasSymbol | HasCall,                                                     \
      "x$name <- v on the variable of the environment, when its fast path applies (a local "       \
      "environment, or a plain list with that name nothing else holds); else nothing is "          \
      "assigned: false (carried: the pc of the RIR dollar_assign)")                                \
    X(DollarAssign, "vv", Value, None, 0, Vectors | Attributes | OtherEnv,                         \
      Vectors | Attributes | OtherEnv, MayError | Dispatches | HasSymbol, "`$<-`(x, name, value)") \
    X(Length, "v", Int, None, 0, Vectors | Attributes, 0, Dispatches, "length(x)")                 \
    X(SwitchIndex, "v", Int, None, 0, Vectors | Attributes, Global, MayError | HasCall,            \
      "switch(): the entry of the branch table EXPR selects, with GNU R's errors and warnings "    \
      "(carried: the pc of the RIR switch_table)")                                                 \
    X(Colon, "vv", Value, None, 0, Vectors | Attributes, Global, MayError | HasConstant,           \
      "from:to (the carried call named in errors)")                                                \
    X(ForSeq, "v", Value, None, 0, Vectors | Attributes, 0, MayError | HasConstant,                \
      "the sequence a for() loop iterates: a factor's labels, a pairlist as a list, else the "     \
      "value "                                                                                     \
      "(an error for values that are not vectors; the carried for() call is named)")               \
    X(LoopFits, "vv*", Test, None, 0, Vectors | Attributes, 0, NoFlags,                            \
      "does a for() loop over the value (one operand), or over from:to (two), have at most "       \
      "INT_MAX iterations (false where unsure; native loops count in ints)")                       \
    X(ForLength, "v", Int, None, 0, 0, 0, NoFlags,                                                 \
      "the number of iterations over a for() sequence")                                            \
    X(ForEnd, "v", Void, None, 0, 0, Vectors, NoFlags,                                             \
      "a for() loop over the sequence ended: the reference its state counted is released")         \
    X(ForElement, "vv", Value, None, 0, Vectors, 0, NoFlags,                                       \
      "element i (0-based) of a for() sequence: a new scalar, or a list's element")                \
    /* types */                                                                                    \
    X(IsType, "a", Test, None, 0, 0, 0, HasType, "does the value have the carried type")           \
    X(Identical, "vv", Test, None, 0, 0, 0, NoFlags, "are the two values the same object")         \
    X(IsKind, "v", Bool, None, 0, 0, 0, HasConstant,                                               \
      "is.integer(x) and its siblings (the carried builtin, kindTestOf): TRUE or FALSE by x's "    \
      "type alone, as an R logical")                                                               \
    X(IsCallee, "v", Test, None, 0, 0, 0, HasConstant,                                             \
      "is the value the carried closure, not marked for debugging (its inlined body may run)")     \
    X(IsForced, "a", Test, None, 0, 0, 0, NoFlags,                                                 \
      "is the value neither the missing marker nor an unforced promise of code that may run R "    \
      "code (forcing it runs none)")                                                               \
    X(BindingIs, "ea", Test, None, 0, Env, 0, HasSymbol,                                           \
      "does the environment's own binding of the variable hold exactly this value (a double "      \
      "kept unboxed: one equal to it)")                                                            \
    X(IsPlainLocal, "e", Test, None, 0, Env, 0, HasSymbol,                                         \
      "is the variable bound in the environment's own frame (an ordinary binding) to a vector "    \
      "without a class that x[i] <- v modifies without running R code")                            \
    X(IsPlainMember, "v", Test, None, 0, Vectors | Attributes | OtherEnv, 0,                       \
      HasSymbol | HasConstant,                                                                     \
      "is x$name plain: x a list (no class) with an element of exactly that name, or an "          \
      "environment (no class) whose binding of it is ordinary (not active, not a promise)")        \
    X(NoActiveBindings, "e", Test, None, 0, Env, 0, NoFlags,                                       \
      "does the environment hold no active binding (only reflective code makes one)")              \
    X(CastType, "a", Cast, None, 0, 0, 0, HasType,                                                 \
      "the operand, known (by an Assume or an analysis) to have the carried type")                 \
    X(AsTest, "v", Test, None, 0, Vectors | Attributes, 0, MayError | HasCall,                     \
      "the truth value of an if/while condition (errors for NA and length 0)")                     \
    X(AsLogical, "v", Lgl, None, 0, Vectors | Attributes, 0, MayError | Dispatches,                \
      "as.logical(x)[1]")                                                                          \
    /* control flow */                                                                             \
    X(LoopBody, "e", Test, None, 0, AllHeaps, AllHeaps,                                            \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "run a loop's body (the carried RIR code) in the environment inside a GNU R loop context, "  \
      "which a break or next behind a promise or call finds: true when it was a break")            \
    X(Phi, "a*", Phi, None, 0, 0, 0, NoFlags, "the operand coming from the predecessor taken")     \
    X(Branch, "l", Void, None, 2, 0, 0, Terminator,                                                \
      "to the first successor when true, else the second")                                         \
    X(Jump, "", Void, None, 1, 0, 0, Terminator, "to the successor")                               \
    X(Return, "v", Void, None, 0, 0, 0, Terminator, "return the value from the function")          \
    X(NonLocalReturn, "ve", Void, None, 0, 0, 0, Terminator | NonLocal,                            \
      "return() from a promise: leave the function owning the environment with the value")         \
    /* speculation */                                                                              \
    X(Checkpoint, "", Void, None, 2, 0, 0, Terminator,                                             \
      "a point optimized code can leave: first successor goes on, second deoptimizes")             \
    X(Assume, "lc", Void, None, 0, 0, 0, MayDeopt | HasType,                                       \
      "the test holds, else leave through the checkpoint (carried type: what was assumed)")        \
    X(FrameState, "ef*", Void, None, 0, 0, 0, NoFlags,                                             \
      "the RIR state to resume in: environment, caller's frame state (inlined code) or none, "     \
      "then "                                                                                      \
      "the operand stack; pc carried")                                                             \
    X(Deopt, "f", Void, None, 0, AllHeaps, AllHeaps, Terminator | MayDeopt,                        \
      "rebuild the RIR frames of the frame state and continue in the interpreter")                 \
    /* contexts, visibility */                                                                     \
    X(PushContext, "eevfa*", Void, None, 0, AllHeaps, AllHeaps,                                    \
      CallsR | MayError | NonLocal | HasConstant,                                                  \
      "push the function context of an inlined closure's call (carried: the call, its RIR call "   \
      "site): caller's environment, callee's (MkEnv), the closure, the caller's frame state "      \
      "after the call (where a jump aimed at the context lands), the arguments as passed; "        \
      "entering it counts evaluation depth and polls for interrupts (errors, handlers)")           \
    X(PopContext, "ve", Same, None, 0, AllHeaps, AllHeaps, CallsR | MayError | NonLocal,           \
      "the inlined call's value (operand 0) after its context (of the callee's environment) is "   \
      "popped: its on.exit code runs")                                                             \
    X(Visible, "", Void, None, 0, 0, Global, SetsVisible, "the result is visible")                 \
    X(Invisible, "", Void, None, 0, 0, Global, SetsInvisible, "the result is invisible")           \
    X(SetSrcref, "", Void, None, 0, 0, Global, HasConstant,                                        \
      "make the carried srcref current (R_Srcref)")

// Proven variants: an instruction of the general opcode (second column) of
// which a test right before it, or an analysis, proved that it does not do
// part of what the general one may. A variant has the general one's
// operands, result rule and carried data, and its own effects and flags
// (reads, writes, flags, description as in PIR_INSNS). A pass that asks
// "is this a load" asks Instruction::is(Opcode::LdVar), which holds for
// the variants too; the lowering of a variant is the general one's fast
// path without its checks.
//
// V(Name, General, reads, writes, flags, description)
#define PIR_VARIANTS(V)                                                                           \
    V(ForceForced, Force, 0, 0, NoFlags,                                                          \
      "Force of a value found forced right before (IsForced, an eager argument): runs no R "      \
      "code, cannot fail")                                                                        \
    V(LdVarBound, LdVar, Env, 0, HasSymbol | HasCall,                                             \
      "LdVar of a binding scope resolution knows holds a value, not the missing marker: cannot "  \
      "fail (a load kept for a builtin's argument)")                                              \
    V(LdFunGuard, LdFun, Env | OtherEnv, 0, HasSymbol | HasCall,                                  \
      "a guard's LdFun: where the lookup would run R code (force a promise, call an active "      \
      "binding) it gives no function, and the guard's Assume fails")                              \
    V(DollarPlain, Dollar, Vectors | Attributes | OtherEnv, 0, HasSymbol | HasCall | HasConstant, \
      "x$name where x was found plain right before (IsPlainMember): no R code, no error, no "     \
      "warning")                                                                                  \
    V(DollarAssignVarPlain, DollarAssignVar, Vectors | Attributes | OwnEnv | OtherEnv,            \
      Vectors | Attributes | OtherEnv, MayError | HasSymbol | HasCall,                            \
      "DollarAssignVar that takes only its plain fast path (a local list or environment "         \
      "binding, as its feedback has always seen): no R code, x's value changed, no other "        \
      "binding of the function's environment")                                                    \
    V(SubassignVarLocal, SubassignVar, Vectors | Attributes | OwnEnv,                             \
      Vectors | Attributes | OwnEnv, MayError | HasSymbol | HasConstant | HasCall,                \
      "SubassignVar of a variable found a plain local vector right before (IsPlainLocal): no R "  \
      "code; only x's binding and vectors change")

// Instruction::index by opcode (variants: their general opcode's): what
// the integer an instruction carries means, read and written through
// Instruction's accessor of that name (i->pc(), i->site(), ...).
//   arg        LdArg: the argument's position
//   promise    MkArg: the pool index of its RIR promise code (-1: none)
//   overflowOp NoOverflow: 0 sum, 1 difference, 2 product
//   lglValue   LglIs: 0 FALSE, 1 TRUE
//   rirKind    the kind operand of the RIR instruction it stands for:
//              LglCombine, LglSlow (1 &&, 2 ||), ExtractDispatch (1 [,
//              2 [[), SubassignVar and SubassignGeneral (subassign's kind,
//              with kSuperAssign, kPushedX), EnvSubassign (env_subassign's),
//              ForceTargetAst (force_target_ast's super)
//   site       calls and subsetting: the RIR call site (of `code`)
//   pc         the RIR pc (of `code`) it stands for or resumes at
#define PIR_INDEX_NAMES(I)                                                                        \
    I(LdArg, arg) I(LdInput, arg)                                                                 \
    I(MkArg, promise)                                                                             \
    I(NoOverflow, overflowOp) I(LglIs, lglValue) I(LglCombine, rirKind) I(LglSlow, rirKind)       \
        I(ExtractDispatch, rirKind) I(SubassignVar, rirKind) I(SubassignGeneral, rirKind)         \
            I(EnvSubassign, rirKind) I(ForceTargetAst, rirKind) I(Call, site) I(StaticCall, site) \
                I(CallBuiltin, site) I(Extract1_1D, site) I(Extract2_1D, site)                    \
                    I(Extract1_2D, site) I(Extract2_2D, site) I(Extract1_ND, site)                \
                        I(Extract2_ND, site) I(GetterCall, site) I(SetterCall, site)              \
                            I(PushContext, site) I(DollarAssignVar, pc) I(SwitchIndex, pc)        \
                                I(FrameState, pc)

enum class IndexName : uint8_t { None, arg, promise, overflowOp, lglValue, rirKind, site, pc };

enum class Opcode : uint8_t {
#define PIR_OPCODE(name, ...) name,
    PIR_INSNS(PIR_OPCODE) PIR_VARIANTS(PIR_OPCODE)
#undef PIR_OPCODE
        kCount
};

// What the table says about one instruction.
struct InsnInfo {
    const char* name;
    const char* operands;
    Rule result;
    ArithOp arith;
    int successors;
    uint8_t reads;
    uint8_t writes;
    uint16_t flags;
    const char* description;
    Opcode general;  // itself, or the opcode a proven variant specializes
};

RIR_EXPORT const InsnInfo& info(Opcode op);
inline Opcode generalOf(Opcode op) {
    return info(op).general;
}
// What Instruction::index means for op (IndexName::None: it carries none).
IndexName indexNameOf(Opcode op);

// R's operators, from the table: the operator an instruction computes
// (ArithOp::None: not one), the instruction computing one, and the classes
// its result rule puts it in.
inline ArithOp arithOf(Opcode op) {
    return info(op).arith;
}
bool opcodeOf(ArithOp k, Opcode* out);
inline bool isArithmetic(Opcode op) {  // + - * / ^ %/% %%
    Rule r = info(op).result;
    return info(op).arith != ArithOp::None && (r == Rule::Arith || r == Rule::Division);
}
inline bool isComparison(Opcode op) {  // == != < <= > >=
    return info(op).arith != ArithOp::None && info(op).result == Rule::Compare;
}
inline bool isBinaryOperator(Opcode op) {  // the above, and vectorized & and |
    return isArithmetic(op) || isComparison(op) ||
           (info(op).arith != ArithOp::None && info(op).result == Rule::Logic);
}
inline bool isUnaryOperator(Opcode op) {  // - + !
    Rule r = info(op).result;
    return info(op).arith != ArithOp::None && (r == Rule::Unary || r == Rule::Not);
}

// Whether R's binary operator `op` may warn on attribute-free scalars of
// types a and b (Instruction::mayWarn's rule for operators, and the
// inliner's through quietArith): integer + - * overflow to NA with a
// warning; double %% and %/% may warn of a loss of accuracy.
bool scalarOperatorMayWarn(Opcode op, const PirType& a, const PirType& b);

}  // namespace pir
}  // namespace rir
