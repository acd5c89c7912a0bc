// apply_internals.h — .Internal(lapply(X, FUN)),
// .Internal(vapply(X, FUN, FUN.VALUE, USE.NAMES)) and
// .Internal(mapply(FUN, dots, MoreArgs)) run by rir (see apply_internals.cpp).
#pragma once

#include <Rinternals.h>

namespace rir {

// Whether `inner` is lapply(X, FUN) or vapply(X, FUN, FUN.VALUE, USE.NAMES)
// with plain symbols as arguments, naming GNU R's internals of those names.
bool isApplyInternal(SEXP inner);

// .Internal(inner) evaluated in env (base's lapply / vapply frame). Returns
// nullptr, having done nothing observable, when GNU R's internal must run it.
SEXP applyInternal(SEXP inner, SEXP env, SEXP tramp);

// The apply_internal instruction: applyInternal, else GNU R's internal
// (`call`: the .Internal call, the current expression).
SEXP runApplyInternal(SEXP inner, SEXP call, SEXP env, SEXP tramp);

// .Internal(mapply(FUN, dots, MoreArgs)) with its arguments evaluated
// (args), called from mapply's frame env. Returns nullptr, having done
// nothing observable, when GNU R's do_mapply must run it.
SEXP mapplyInternal(SEXP args, SEXP env, SEXP tramp);

}  // namespace rir
