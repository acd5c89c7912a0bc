// context.h — the 64-bit call Context used to pick a version from a
// DispatchTable. Bits 0..31: four flags for each of the first 8 arguments;
// bits 32..36: call flags; bits 40..47: number of trailing missing arguments.
//
// A version compiled under context V may run a call with context K when K
// makes every assumption V makes: K's flag set includes V's, and K has at
// least V's number of trailing missing arguments (V assumes its last
// missing() formals unsupplied; a version for 0 assumes nothing of them).
// `a.smaller(b)` (a <= b) says a is at least as specific as b: a version for
// b can always run a call with a.
#pragma once

#include <cstdint>
#include <string>

namespace rir {

enum class ArgFlag : uint8_t { Eager = 0, NotObject = 1, SimpleInt = 2, SimpleReal = 3 };
enum class CallFlag : uint8_t {
    NoExplicitlyMissingArgs = 0,
    CorrectArgOrder = 1,
    NotTooManyArgs = 2,
    NoReflectiveArg = 3,
    // the call's frame binds the formals only (S3 dispatch adds .Generic,
    // .Class, ... and, in R < 4.4, the generic's local variables)
    OnlyFormals = 4,
};

struct Context {
    static const int kMaxArgs = 8;
    // (a count above is stored as this: the last kMaxMissing are missing)
    static const int kMaxMissing = 255;
    uint64_t bits = 0;

    Context() = default;
    explicit Context(uint64_t b) : bits(b) {}

    void set(int arg, ArgFlag f) { bits |= bit(arg, f); }
    bool has(int arg, ArgFlag f) const { return bits & bit(arg, f); }
    void set(CallFlag f) { bits |= uint64_t(1) << (32 + int(f)); }
    bool has(CallFlag f) const { return bits & (uint64_t(1) << (32 + int(f))); }
    int missing() const { return int((bits >> 40) & 0xff); }
    void setMissing(int n) { bits = (bits & ~(uint64_t(0xff) << 40)) | (uint64_t(n & 0xff) << 40); }
    uint64_t flags() const { return bits & ~(uint64_t(0xff) << 40); }

    // a <= b: a is at least as specific as b.
    bool smaller(const Context& b) const {
        return missing() >= b.missing() && (flags() & b.flags()) == b.flags();
    }
    bool operator==(const Context& o) const { return bits == o.bits; }
    bool operator!=(const Context& o) const { return bits != o.bits; }
    int specificity() const { return __builtin_popcountll(flags()) + (missing() > 0); }
    std::string str() const;

  private:
    static uint64_t bit(int arg, ArgFlag f) { return uint64_t(1) << (arg * 4 + int(f)); }
};

// Total order used to keep versions sorted: more specific first. Consistent
// with the partial order: if a.smaller(b) and a != b then before(a, b).
bool contextBefore(const Context& a, const Context& b);

}  // namespace rir
