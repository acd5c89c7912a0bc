// rir_facts.h — what the translation into PIR (rir2pir.cpp) reads from RIR
// code and its feedback; see rir_facts.cpp.
#pragma once

#include <functional>
#include <vector>

#include "../bc/code.h"
#include "../bc/ops.h"
#include "../runtime/dispatch_table.h"
#include "insns.h"
#include "type.h"

namespace rir {
namespace pir {

// The PIR type type-feedback bits describe, when they describe one plain
// type (a scalar without attributes of one kind).
bool feedbackType(uint32_t bits, PirType* t);
// Arithmetic whose feedback (`types`) says it cannot warn.
bool quietArith(ArithOp k, uint32_t types);
// `...` or `..1`, `..2`, ...
bool dotsName(SEXP sym);
// Straight-line code of constants, loads of the variables `varOk` allows,
// quiet arithmetic and visibility, ending with its only `ret`.
bool inlinable(const Code* c, const std::function<bool(SEXP)>& varOk);
// A body (of a closure with `formals`, no `...`) that branches or loops,
// made of constants, loads, stores, quiet arithmetic and comparisons,
// conditional and unconditional jumps, visibility and returns, that reads
// only its formals and the variables it assigned on every path before,
// and has at most kMaxInlinedBody instructions' words: it can be inlined
// with its variables as SSA values (see inline_body.cpp).
const size_t kMaxInlinedBody = 400;
bool inlinableBody(const Code* c, const std::vector<SEXP>& formals);
// The closure the call site (feedback slot `slot`) calls, when the feedback
// saw only it and its body and arguments can be inlined, else nullptr.
SEXP inlineTarget(const Code* code, const CallSite& cs, int slot);
// May the call site call closure `clo` by a StaticCall: a rir closure not
// being debugged, the site's arguments (values or promises, none named,
// no `...`) matching its formals by position?
bool staticCallable(const Code* code, const CallSite& cs, SEXP clo);
// The closure the call site (feedback slot `slot`) calls, when the feedback
// saw only it and it is staticCallable, else nullptr.
SEXP staticTarget(const Code* code, const CallSite& cs, int slot);
// The formals (bit k: the k-th) the code `body` of a closure with `formals`
// forces before anything else can happen: the loads at its start, up to
// its first instruction that is not a constant, a load or visibility. A
// load counts only while its formal is in `effectFree` (the call passes
// it a constant, or promise code that can have no effect); any other load
// (forcing a promise that may run code, a default, a variable of the
// enclosing environments), operation, call or jump ends the start.
uint32_t forcedAtStart(const Code* body, SEXP formals, uint32_t effectFree);

// The closure the call site (feedback slot `slot`) calls, when the feedback
// saw only it, it is staticCallable without `...` among its formals, and
// its body (at most kMaxContextInlined words, no loops) is made only of
// instructions whose translation inside an inlined call's function context
// native code runs: it can be inlined with its own environment and context
// (rir2pir's inlineWithContext), else nullptr.
const size_t kMaxContextInlined = 300;
SEXP contextInlineTarget(const Code* code, const CallSite& cs, int slot);

}  // namespace pir
}  // namespace rir
