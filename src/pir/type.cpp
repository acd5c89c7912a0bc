// type.cpp — operations of the PIR type lattice (see type.h).
#include "type.h"

namespace rir {
namespace pir {

namespace {

const uint16_t kNumeric =
    uint16_t(Kind::Lgl) | uint16_t(Kind::Int) | uint16_t(Kind::Real) | uint16_t(Kind::Cplx);
const uint8_t kShape = uint8_t(Flag::NotScalar) | uint8_t(Flag::Attrib);

}  // namespace

PirType PirType::forced() const {
    // a promise object evaluates to anything; a lazy value to itself, and a
    // missing argument raises an error instead of producing a value
    PirType r(kinds_ & ~uint16_t(Kind::Prom),
              flags_ & ~(uint8_t(Flag::Lazy) | uint8_t(Flag::Missing)));
    return mayBe(Kind::Prom) ? r | val() : r;
}

PirType PirType::arith(PirType a, PirType b, bool division) {
    a = a.forced();
    b = b.forced();
    // objects dispatch to methods that may return anything
    if (a.may(Flag::Object) || b.may(Flag::Object)) return val();
    uint16_t k = (a.kinds_ | b.kinds_) & kNumeric;
    // (NULL counts as integer: 1L + NULL is integer(0))
    const uint16_t intLike = uint16_t(Kind::Lgl) | uint16_t(Kind::Int) | uint16_t(Kind::Nil);
    uint16_t r = 0;
    if (k & uint16_t(Kind::Cplx)) r |= uint16_t(Kind::Cplx);
    if (k & uint16_t(Kind::Real)) r |= uint16_t(Kind::Real);
    // an integer result needs integer-like operands on both sides (a double
    // on either makes a double)
    if ((a.kinds_ & intLike) && (b.kinds_ & intLike))
        r |= division ? uint16_t(Kind::Real) : uint16_t(Kind::Int);
    // (operands of other kinds raise an error; an integer result may be NA
    // after an overflow and a double one NaN, so NA is always possible)
    return PirType(r, ((a.flags_ | b.flags_) & kShape) | uint8_t(Flag::NA));
}

PirType PirType::compare(PirType a, PirType b) {
    a = a.forced();
    b = b.forced();
    if (a.may(Flag::Object) || b.may(Flag::Object)) return val();
    // (NA only from NA operands: logical, integer, double and string
    // elements compare to TRUE or FALSE otherwise)
    constexpr uint16_t ordered =
        uint16_t(Kind::Lgl) | uint16_t(Kind::Int) | uint16_t(Kind::Real) | uint16_t(Kind::Str);
    bool naFree = !a.may(Flag::NA) && !b.may(Flag::NA) && a.kinds_ && b.kinds_ &&
                  !(a.kinds_ & ~ordered) && !(b.kinds_ & ~ordered);
    return PirType(uint16_t(Kind::Lgl),
                   ((a.flags_ | b.flags_) & kShape) | (naFree ? 0 : uint8_t(Flag::NA)));
}

std::string PirType::str() const {
    if (isBottom()) return "void";
    if (*this == any()) return "any";
    if (kinds_ == 0 && flags_ == uint8_t(Flag::Missing)) return "missing";
    static const char* names[] = {"nil", "lgl", "int", "real", "cplx", "str",  "list", "clo",
                                  "blt", "env", "sym", "lang", "prom", "dots", "other"};
    std::string s;
    uint16_t valueKinds = kAllKinds & ~uint16_t(Kind::Prom);
    int n = 0;
    if ((kinds_ & valueKinds) == valueKinds) {
        s = "val";
        n = 1;
        if (kinds_ & uint16_t(Kind::Prom)) {
            s += "|prom";
            n = 2;
        }
    } else {
        for (int i = 0; i < 15; i++)
            if (kinds_ & (1 << i)) {
                if (n++) s += "|";
                s += names[i];
            }
    }
    if (n > 1) s = "(" + s + ")";
    if (n == 0) s = "none";
    if (!may(Flag::NotScalar)) s += "$";
    if (!may(Flag::Attrib) && !may(Flag::Object)) s += "'";
    if (!may(Flag::NA)) s += "-";
    if (may(Flag::Object)) s += "*";
    if (may(Flag::Lazy)) s += "~";
    if (may(Flag::Missing)) s += "?";
    return s;
}

}  // namespace pir
}  // namespace rir
