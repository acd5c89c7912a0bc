// unwind.h — reading the value of a non-local jump.
//
// GNU R's return(), UseMethod and exiting condition handlers longjmp to the
// target function's context and leave the value in R_ReturnedValue, which
// libR does not export. A context rir pushes itself (a direct rir->rir call)
// lands such a jump with its own sigsetjmp and then asks for the value:
//
//     if (SIGSETJMP(ctx.cjmpbuf)) value = returnedValue();   // the return()'s value
//
// See unwind.cpp for how the value is obtained through exported API only.
#pragma once

#include "rapi.h"

namespace rir {

// The current value of GNU R's R_ReturnedValue. Only meaningful right after
// a jump landed in a context rir pushed (nothing may run in between).
SEXP returnedValue();

}  // namespace rir
