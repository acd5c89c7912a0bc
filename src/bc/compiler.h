// compiler.h — R AST -> RIR bytecode.
//
//   f <- function(x) if (x > 1) x * 2 else -x
//
// compiles to (disassemble(f)):
//
//   0 ldvar x; push 1; binop > ; brfalse L1
//     ldvar x; push 2; binop * ; br L2
//  L1 ldvar x; unop -
//  L2 ret
//
// Language constructs (if, for, while, repeat, {, (, <-, =, <<-, function,
// quote, return, break, next) and arithmetic, comparison and subsetting get
// their own instructions when the symbol names the base function at compile
// time (as GNU R's byte-code compiler decides). Everything else becomes a call
// that resolves the function at run time; anything the compiler does not
// model (complex assignments it has no fast path for, loops whose break/next
// sit inside promises, ...) is left to GNU R's AST interpreter through
// eval_ast, which is always correct.
#pragma once

#include "code.h"

namespace rir {

struct DispatchTable;
// Compiles the body of t's closures. `cloenv` is the closure environment of
// the first call (used to check which base functions are shadowed when t
// has no compile environment of its own).
Code* compileFunction(DispatchTable* t, SEXP cloenv);
// Called with every function body compileFunction made, when RIR_DEBUG
// includes "verify" or "pir" (the API layer registers the PIR translation
// check; the hook runs no R code that could fail).
using CompiledFunctionHook = void (*)(const Code*, SEXP formals);
extern CompiledFunctionHook compiledFunctionHook;
// Compiles a top-level expression (a loop handed over by R's JIT).
Code* compileToplevel(SEXP expr, SEXP env);

// Creates the trampoline body for a nested or hooked closure: a
// DispatchTable whose baseline is compiled at the first call.
SEXP makeFunctionBody(SEXP formals, SEXP body, const char* name, SEXP originalBody = R_NilValue);

}  // namespace rir
