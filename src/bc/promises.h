// promises.h — forcing promises from RIR code without GNU R's eval when
// their code is rir's own (see promises.cpp).
#pragma once

#include "code.h"

namespace rir {

// The value of promise `p`, forcing it if needed, with GNU R's semantics.
// `tramp`: as for interpret().
SEXP forcePromise(SEXP p, SEXP tramp);

}  // namespace rir
