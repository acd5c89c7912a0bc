// rir2pir.h — translation of a function's RIR code into PIR (the
// optimizing tier's front end; details and an example in rir2pir.cpp).
#pragma once

#include <string>
#include <vector>

#include "../bc/code.h"
#include "ir.h"

namespace rir {
namespace pir {

// Translates the RIR code of a function body whose formals are `formals`
// (the closure's pairlist) into `fn`. Returns "" on success, else why the
// code cannot be translated yet (it then keeps running in RIR).
std::string rir2pir(const Code* code, SEXP formals, Function* fn);

// Makes the R constants the translation uses (at load time: R may allocate).
void rir2pirInit();

}  // namespace pir
}  // namespace rir
