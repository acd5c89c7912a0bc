// apply_internals.h — .Internal(lapply(X, FUN)) run by rir (see
// apply_internals.cpp).
#pragma once

#include <Rinternals.h>

namespace rir {

// .Internal(lapply(X, FUN)) evaluated in env (base's lapply frame), `call`
// being lapply(X, FUN) with X and FUN symbols. Returns nullptr, having done
// nothing, when GNU R's do_lapply must run it.
SEXP lapplyInternal(SEXP call, SEXP env, SEXP tramp);

}  // namespace rir
