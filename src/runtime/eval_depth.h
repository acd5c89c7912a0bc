// eval_depth.h — GNU R's evaluation depth (R_EvalDepth, options(expressions))
// for calls that rir makes without GNU R's eval().
//
// GNU R counts one level in eval() for every closure body and every promise
// whose code it evaluates, and signals "evaluation nested too deeply" when
// the count exceeds options("expressions"). R_EvalDepth and R_Expressions
// are not exported, so rir cannot raise R_EvalDepth for the calls it makes
// itself (direct rir -> rir calls, promises forced by rir). Instead it keeps
// the levels GNU R would have counted in `extraDepth`:
//
//   GNU R's depth = R_EvalDepth + extraDepth
//
// R_EvalDepth is read from the evaldepth field of a context (begincontext
// stores it there). extraDepth is saved where rir pushes a context and
// restored when that context is left, normally or by a jump (its cend
// function; GNU R restores R_EvalDepth from the target context on jumps).
// The limit is options("expressions"), read from .Options and cached until
// the option's value object changes; after an overflow GNU R allows 500
// more levels for the error handlers until the next jump, and so does rir.
#pragma once

#include "rapi.h"

namespace rir {

extern int extraDepth;

// Slow paths (see eval_depth.cpp).
[[noreturn]] void expressionStackOverflow();
int refreshExpressionsLimit();

extern SEXP expressionsCell;   // the cell of .Options holding "expressions"
extern SEXP expressionsValue;  // its value when the limit was read
extern int expressionsLimit;   // options("expressions") (+ 500 after an overflow)

inline int depthLimit() {
    if (expressionsCell && fcar(expressionsCell) == expressionsValue) return expressionsLimit;
    return refreshExpressionsLimit();
}

// One more level of evaluation, as GNU R's eval() counts it: call with the
// real R_EvalDepth (the evaldepth of a context pushed at this depth).
inline void enterEval(int realDepth) {
    if (realDepth + ++extraDepth > depthLimit()) expressionStackOverflow();
}

// Restores extraDepth to a value saved before entering (also ends the
// headroom given for handling an overflow, as a jump does in GNU R).
void restoreDepth(int saved);

// Makes the error condition (at load time, as GNU R makes its own at
// startup: same class, message and translation).
void initEvalDepth();

}  // namespace rir
