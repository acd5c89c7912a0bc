// pipeline.cpp — the order of the PIR passes and the runner (see pass.h).
#include "../printer.h"
#include "../verifier.h"
#include "pass.h"

namespace rir {
namespace pir {

namespace {

// Tests folded by the second round of constant branches (is.integer(x)
// once scope resolution typed x, say) remove branches whose effects kept
// loads unresolved: those are resolved again (only then).
bool foldThenResolve(Function& f) {
    if (!constantBranches(f)) return false;
    f.inferTypes();
    if (deadCode(f)) f.inferTypes();
    if (scopeResolution(f)) f.inferTypes();
    if (forcedValues(f)) f.inferTypes();
    knownTypes(f);
    return true;
}

}  // namespace

const std::vector<Pass>& passes() {
    static const std::vector<Pass> all = {
        {"constant branches", constantBranches},
        {"scope resolution", scopeResolution},
        {"forced values", forcedValues},
        {"known types", knownTypes},
        // (again: the values scope resolution found decide more tests, a
        // call inlined when its arguments are forced, say)
        {"constant branches (and loads again)", foldThenResolve},
        {"redundant confirmations", redundantConfirmations},
        {"dead code", deadCode},
        // (after the loads are resolved and the dead ones gone: the stores
        // left are for what may still look at the environment)
        {"environment elision", envElision},
        {"dead code", deadCode},
        {"redundant visibility", redundantVisible},
        {"call contexts", callContexts},
    };
    return all;
}

std::string optimize(Function& f, bool verifyEach, std::string* trace) {
    for (const Pass& p : passes()) {
        // operands changed: types follow (a Phi that lost an input may be
        // narrower now)
        if (p.run(f)) f.inferTypes();
        if (trace) *trace += std::string("== after ") + p.name + "\n" + print(f);
        if (verifyEach) {
            std::string problem = verify(f);
            if (!problem.empty()) return std::string("after ") + p.name + ": " + problem;
        }
    }
    return "";
}

}  // namespace pir
}  // namespace rir
