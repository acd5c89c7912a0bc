// verifier.h — the PIR verifier: well-formed control flow, operands as the
// instruction table says, SSA dominance, Phis, consistent types, anchored
// Assumes, complete frame states (details in verifier.cpp). Run after every
// pass in test builds.
#pragma once

#include <string>

#include "ir.h"

namespace rir {
namespace pir {

// "" when f is well formed, else the first problem found (naming the
// instruction). Recomputes the blocks' predecessor lists.
std::string verify(Function& f);

}  // namespace pir
}  // namespace rir
