// api_util.h — helpers shared by the .Call entry points (entry_points.cpp).
#pragma once

#include "../bc/code.h"
#include "../runtime/dispatch_table.h"

// Registers the optimizing tier's hooks into the RIR tier (pir_entry.cpp).
void registerPirHooks();

#include <map>
#include <string>

// A named numeric vector of reason counts.
SEXP reasonCounts(const std::map<std::string, double>& counts);

extern "C" {
// f's DispatchTable, or an R error when f is not rir-compiled.
rir::DispatchTable* tableOrError(SEXP f);
// f's baseline code (compiled now if needed), or an R error.
rir::Code* baselineOrError(SEXP f);
}
