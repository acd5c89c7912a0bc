// inline_internals.h — calls of base/stats "simple .Internal wrappers"
// inlined as GNU R's compiler does (see inline_internals.cpp).
#pragma once

#include "../runtime/rapi.h"

namespace rir {

// For a call `e` of one of the functions GNU R's compiler inlines
// (inherits, identical, vector, match, rep_len, typeof, dnorm, runif, ...)
// whose definition `def` is `function(formals) .Internal(f(formals...))`:
// the call `.Internal(f(args))` with the call's arguments (matched as
// match.call does) and the defaults substituted, or nullptr when GNU R's
// compiler would not inline it. `resolves(sym, def)` must say whether `sym`
// names `def` where the call is compiled.
SEXP inlineSimpleInternal(SEXP e, SEXP (*definitionOf)(SEXP sym, void* data), void* data);

}  // namespace rir
