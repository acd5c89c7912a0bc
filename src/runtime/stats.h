// stats.h — process-wide counters reported by rir::stats(), and the registry
// of compiled / refused closures reported by rir::status().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rir {

struct Stats {
    double compiled = 0;         // closures given a DispatchTable
    double refused = 0;          // closures left to GNU R
    double rir_calls = 0;        // closure bodies executed by the RIR interpreter
    double gnur_entries = 0;     // entries into rir from GNU R code (trampolines)
    double native_calls = 0;     // native-code invocations (no native tier yet)
    double deopts = 0;           // deoptimizations (no optimizer yet)
    double compile_seconds = 0;  // time spent compiling to RIR
    double toplevel_compiled = 0;
    double promises_compiled = 0;
};

extern Stats stats;

struct Registered {
    std::string name;
    std::string state;   // "compiled" or "refused"
    std::string reason;  // why it was refused
    uint64_t* calls;     // points into the DispatchTable (nullptr if refused)
    bool alive;
};

extern std::vector<Registered> registry;

int registerCompiled(const std::string& name, uint64_t* calls);
void registerRefused(const std::string& name, const std::string& reason);

double nowSeconds();

}  // namespace rir
