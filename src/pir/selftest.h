// selftest.h — hand-built PIR functions for the tests: printed, verified,
// and drawn (see selftest.cpp).
#pragma once

#include <string>
#include <vector>

#include "ir.h"

namespace rir {
namespace pir {

// R values the functions use, made (and protected) by the caller before any
// C++ object exists.
struct SelftestInputs {
    SEXP x;          // a symbol
    SEXP globalEnv;  // an environment
    SEXP one;        // 1 (double)
    SEXP zeroInt, oneInt, tenInt;
    SEXP trueValue;
    const Code* code;  // RIR code a frame state can name, or nullptr
};

struct SelftestCase {
    std::string name;
    std::string printed;  // the function as text (or what the case shows)
    std::string problem;  // the verifier's verdict ("" = well formed)
    std::string dot;      // the Graphviz picture
};

std::vector<SelftestCase> selftest(const SelftestInputs& in);

}  // namespace pir
}  // namespace rir
