// rir2pir.h — translation of a function's RIR code into PIR (the
// optimizing tier's front end; details and an example in rir2pir.cpp).
#pragma once

#include <set>
#include <string>
#include <vector>

#include "../bc/code.h"
#include "../runtime/dispatch_table.h"
#include "ir.h"

namespace rir {
namespace pir {

// Translates the RIR code of a function body whose formals are `formals`
// (the closure's pairlist) into `fn`. Returns "" on success, else why the
// code cannot be translated (it then keeps running in RIR). The calls
// at the RIR call sites `noInline` are not inlined (see noContextKey);
// `failedInlines`, when
// given, gets the call sites whose inlined callee could not be translated
// (the translation then failed: again without them, it may not).
// Bit k of `eagerArgs`: argument k is speculated to be evaluated at the
// entry (see eagerArgs()). `ctx`: the call context the version is for; what
// it says of its evaluated arguments' values (not objects, plain double or
// integer scalars) types them from the entry on, without a test.
std::string rir2pir(const Code* code, SEXP formals, Function* fn,
                    const std::set<int>& noInline = {}, uint32_t eagerArgs = 0,
                    Context ctx = Context(), std::set<int>* failedInlines = nullptr);

// The arguments of t's function its argument feedback never saw lazy.
uint32_t eagerArgs(const DispatchTable* t);
// The context of calls like the ones the feedback saw: the arguments it
// never saw lazy evaluated (rir::pir(), pir_check(): what the tier makes
// for such calls).
Context feedbackContext(uint32_t eagerArgs);

// The call sites whose inlined code, after the passes, may have had an
// effect before one of its assumptions (which resume RIR before the call:
// the effect would happen twice), or may run R code (without the callee's
// context).
std::set<int> unsoundInlines(const Function& fn);

// rir2pir and the passes (opt/pass.h), translated again without the call
// sites unsoundInlines() names until it names none (and without those whose
// callee could not be translated). `noInline`: call sites never inlined.
std::string rir2pirOptimized(const Code* code, SEXP formals, Function* fn, bool verifyEach,
                             std::string* trace = nullptr, uint32_t eagerArgs = 0,
                             Context ctx = Context(), const std::set<int>& noInline = {});

// In a `noInline` set: the call at `site` is not inlined with its context
// (it may still be inlined without one, or compute its arguments early).
inline int noContextKey(int site) {
    return -site - 1;
}
// The noContextKey()s of fn's calls inlined with their context (PushContext).
std::set<int> contextInlinedSites(const Function& fn);

// Makes the R constants the translation uses (at load time: R may allocate).
void rir2pirInit();

}  // namespace pir
}  // namespace rir
