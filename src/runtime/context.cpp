// context.cpp — printing and ordering of Contexts.
#include "context.h"

namespace rir {

bool contextBefore(const Context& a, const Context& b) {
    if (a == b) return false;
    if (a.smaller(b)) return true;
    if (b.smaller(a)) return false;
    if (a.specificity() != b.specificity()) return a.specificity() > b.specificity();
    if (a.missing() != b.missing()) return a.missing() > b.missing();
    return a.bits < b.bits;
}

std::string Context::str() const {
    static const char* argNames[] = {"eager", "notObj", "int", "real"};
    static const char* callNames[] = {"noExplMissing", "correctOrder", "notTooMany", "noReflective",
                                      "formals"};
    std::string s;
    for (int i = 0; i < 5; i++)
        if (has(CallFlag(i))) s += std::string(s.empty() ? "" : ",") + callNames[i];
    for (int a = 0; a < kMaxArgs; a++)
        for (int f = 0; f < 4; f++)
            if (has(a, ArgFlag(f)))
                s +=
                    std::string(s.empty() ? "" : ",") + argNames[f] + "(" + std::to_string(a) + ")";
    if (missing()) s += std::string(s.empty() ? "" : ",") + "missing=" + std::to_string(missing());
    return "<" + s + ">";
}

}  // namespace rir
