// type.h — the type lattice of PIR values.
//
// A PIR type is an upper bound of what a value can be at run time: a set of
// R value kinds, and "may" flags for the properties the optimizer cares
// about. Every component is a "may" bit, so the lattice operations are bit
// operations: join (union of possibilities) is OR, meet is AND, and `a` is a
// subtype of `b` when a's bits are a subset of b's.
//
// Printed as the kinds (joined by | when several), then a mark for each
// property the type guarantees and for each unusual possibility:
//   $  length 1            '  no attributes       -  not NA
//   *  maybe an object     ~  maybe lazy          ?  maybe missing
//
//   real$'-      a double scalar without attributes, not NA
//   int*         an integer vector, maybe with attributes, maybe an object
//   (int|real)$' a scalar integer or double, maybe NA
//   val*~        any R value, or an unforced promise standing for one
//   any          anything: also a promise object or the missing marker
//
// Kinds: nil, logical, integer, real, complex, string, list (VECSXP),
// closure, builtin (BUILTINSXP and SPECIALSXP), environment, symbol,
// language, promise (a value that IS a promise object: MkArg's result),
// dots, other (raw, S4, external pointers, ...).
// Flags: maybe not scalar (length other than 1), maybe has attributes,
// maybe an object (class attribute), maybe NA (or NaN), maybe lazy (an
// unforced promise standing for its value), maybe missing (R_MissingArg).
#pragma once

#include <cstdint>
#include <string>

namespace rir {
namespace pir {

enum class Kind : uint16_t {
    Nil = 1 << 0,
    Lgl = 1 << 1,
    Int = 1 << 2,
    Real = 1 << 3,
    Cplx = 1 << 4,
    Str = 1 << 5,
    List = 1 << 6,
    Closure = 1 << 7,
    Builtin = 1 << 8,
    Env = 1 << 9,
    Sym = 1 << 10,
    Lang = 1 << 11,
    Prom = 1 << 12,
    Dots = 1 << 13,
    Other = 1 << 14,
};

enum class Flag : uint8_t {
    NotScalar = 1 << 0,
    Attrib = 1 << 1,
    Object = 1 << 2,
    NA = 1 << 3,
    Lazy = 1 << 4,
    Missing = 1 << 5,
};

class PirType {
  public:
    static constexpr uint16_t kAllKinds = (1 << 15) - 1;
    static constexpr uint16_t kVectorKinds = uint16_t(Kind::Lgl) | uint16_t(Kind::Int) |
                                             uint16_t(Kind::Real) | uint16_t(Kind::Cplx) |
                                             uint16_t(Kind::Str) | uint16_t(Kind::List);
    static constexpr uint8_t kAllFlags = (1 << 6) - 1;
    static constexpr uint8_t kValueFlags = uint8_t(Flag::NotScalar) | uint8_t(Flag::Attrib) |
                                           uint8_t(Flag::Object) | uint8_t(Flag::NA);

    constexpr PirType() : kinds_(0), flags_(0) {}
    constexpr PirType(uint16_t kinds, uint8_t flags) : kinds_(kinds), flags_(flags) {}

    // bottom: no value at all (dead code, or an instruction without result)
    static constexpr PirType bottom() { return PirType(0, 0); }
    // any forced R value
    static constexpr PirType val() {
        return PirType(kAllKinds & ~uint16_t(Kind::Prom), kValueFlags);
    }
    // any value, possibly an unforced promise standing for it, possibly missing
    static constexpr PirType any() { return PirType(kAllKinds, kAllFlags); }
    // a value of kind k, maybe a vector, with attributes, NA (no promise)
    static constexpr PirType of(Kind k) { return PirType(uint16_t(k), kValueFlags); }
    // a plain scalar of kind k: length 1, no attributes, not an object
    static constexpr PirType scalar(Kind k) { return PirType(uint16_t(k), uint8_t(Flag::NA)); }
    static constexpr PirType simpleScalar(Kind k) { return PirType(uint16_t(k), 0); }
    static constexpr PirType logical() { return scalar(Kind::Lgl); }
    static constexpr PirType env() { return PirType(uint16_t(Kind::Env), 0); }
    static constexpr PirType closure() {
        return PirType(uint16_t(Kind::Closure), uint8_t(Flag::Attrib));
    }
    static constexpr PirType promise() { return PirType(uint16_t(Kind::Prom), 0); }
    static constexpr PirType nil() { return PirType(uint16_t(Kind::Nil), 0); }

    constexpr uint16_t kinds() const { return kinds_; }
    constexpr uint8_t flags() const { return flags_; }
    constexpr bool isBottom() const { return kinds_ == 0 && flags_ == 0; }
    constexpr bool may(Flag f) const { return flags_ & uint8_t(f); }
    constexpr bool mayBe(Kind k) const { return kinds_ & uint16_t(k); }
    // exactly one kind
    bool isA(Kind k) const { return kinds_ == uint16_t(k); }

    constexpr PirType operator|(PirType o) const {
        return PirType(kinds_ | o.kinds_, flags_ | o.flags_);
    }
    constexpr PirType operator&(PirType o) const {
        return PirType(kinds_ & o.kinds_, flags_ & o.flags_);
    }
    constexpr bool operator==(PirType o) const { return kinds_ == o.kinds_ && flags_ == o.flags_; }
    constexpr bool operator!=(PirType o) const { return !(*this == o); }
    // every value of this type is a value of o
    constexpr bool isSubtypeOf(PirType o) const {
        return (kinds_ & ~o.kinds_) == 0 && (flags_ & ~o.flags_) == 0;
    }

    PirType with(Flag f) const { return PirType(kinds_, flags_ | uint8_t(f)); }
    PirType without(Flag f) const { return PirType(kinds_, flags_ & ~uint8_t(f)); }
    // the value a promise of this type evaluates to (Force's result)
    PirType forced() const;
    // a scalar, no attributes, not an object: unboxable when also one kind
    // among lgl, int, real
    bool isSimpleScalar() const {
        return !(flags_ & (uint8_t(Flag::NotScalar) | uint8_t(Flag::Attrib) |
                           uint8_t(Flag::Object) | uint8_t(Flag::Lazy) | uint8_t(Flag::Missing)));
    }
    bool isUnboxable() const {
        return isSimpleScalar() && (isA(Kind::Lgl) || isA(Kind::Int) || isA(Kind::Real));
    }

    // The result type of arithmetic (+ - * /, ^ ...) on operands of these
    // types, as R's arithmetic computes it for the default methods: an
    // object operand may dispatch (any value).
    static PirType arith(PirType a, PirType b, bool division);
    // The result of a comparison (== < ...): logical, vector unless both
    // operands are scalars.
    static PirType compare(PirType a, PirType b);

    std::string str() const;

  private:
    uint16_t kinds_;
    uint8_t flags_;
};

}  // namespace pir
}  // namespace rir
