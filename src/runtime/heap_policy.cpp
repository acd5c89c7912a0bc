// heap_policy.cpp — see heap_policy.h.
#include "runtime/heap_policy.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rir {

namespace {
constexpr int kMmapThreshold = 32 << 20;  // glibc's DEFAULT_MMAP_THRESHOLD_MAX on 64-bit
constexpr int kTrimThreshold = 128 << 20;
bool tuned = false;

bool userSetsMalloc() {
    for (const char* var : {"MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_",
                            "MALLOC_MMAP_MAX_"}) {
        if (std::getenv(var)) return true;
    }
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    return tunables && std::strstr(tunables, "glibc.malloc.");
}
}  // namespace

bool tuneHeap() {
#if defined(__GLIBC__)
    if (tuned) return true;
    if (userSetsMalloc()) return false;
    // mmap threshold first: setting either fixes both (no more adaptation)
    tuned = mallopt(M_MMAP_THRESHOLD, kMmapThreshold) == 1 &&
            mallopt(M_TRIM_THRESHOLD, kTrimThreshold) == 1;
    return tuned;
#else
    return false;
#endif
}

}  // namespace rir
