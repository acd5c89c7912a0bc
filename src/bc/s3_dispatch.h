// s3_dispatch.h — UseMethod() in a rir function body, done by rir (see
// s3_dispatch.cpp).
#pragma once

#include <Rinternals.h>

namespace rir {

// UseMethod(generic[, obj]) executed directly in the body of the function
// whose environment is `env`. Returns the method's value, which the body
// then returns, or nullptr when GNU R's UseMethod must do it (nothing
// observable has happened then besides forcing the dispatch object, which
// GNU R would force too).
SEXP useMethod(SEXP call, SEXP generic, SEXP obj, SEXP env, SEXP tramp);

}  // namespace rir
