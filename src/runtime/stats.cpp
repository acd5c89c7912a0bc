// stats.cpp — counters and the closure registry.
#include "stats.h"

#include <chrono>

#include "dispatch_table.h"

namespace rir {

Stats stats;
DebugFlags debugFlags;
TieringSettings tiering;
std::vector<Registered> registry;

static const size_t kMaxRegistry = 100000;

int registerCompiled(const std::string& name, DispatchTable* t) {
    stats.compiled++;
    if (registry.size() >= kMaxRegistry) return -1;
    registry.push_back({name, "compiled", "", &t->invocations, true, t});
    return int(registry.size() - 1);
}

void registerRefused(const std::string& name, const std::string& reason) {
    stats.refused++;
    if (registry.size() >= kMaxRegistry) return;
    registry.push_back({name, "refused", reason, nullptr, false, nullptr});
}

std::vector<AstSite> astSites;
double astByReason[int(AstReason::Count)] = {};

const char* astReasonName(AstReason r) {
    static const char* names[] = {
        "dots",           "missing_arg",   "odd_constant", "loop_in_promise",
        "complex_assign", "object_subset", "odd_function", "assign_fallback",
        "other"};
    return names[int(r)];
}

int registerAstSite(AstReason reason, const std::string& label) {
    static const size_t kMaxSites = 200000;
    if (astSites.size() >= kMaxSites) return -1;
    astSites.push_back({reason, label, 0});
    return int(astSites.size() - 1);
}

double nowSeconds() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace rir
