// inline_body.h — the translation of an inlined closure's body that
// branches or loops (see inline_body.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "../bc/code.h"
#include "builder.h"

namespace rir {
namespace pir {

// What the body's translation asks of the caller's translator.
struct InlineBodyHooks {
    // the value of formal k (computed once, before the body)
    std::function<Instruction*(size_t)> argument;
    // op on a and b, speculated on with the feedback `types` (its
    // assumptions leave through the call's checkpoint)
    std::function<Instruction*(Opcode, Instruction*, Instruction*, SEXP call, uint32_t types)>
        arith;
};

// Translates the body `c` of a closure with formals `formals` in place,
// its variables kept as SSA values (the body is one inlinableBody()
// admitted: it reads only its formals and the variables it assigns). The
// body's value (a Phi of its returns), or nullptr with the reason in *why
// (a variable read where a path has not assigned it).
Instruction* translateInlineBody(Builder& b, const Code* c, const std::vector<SEXP>& formals,
                                 const InlineBodyHooks& hooks, std::string* why);

}  // namespace pir
}  // namespace rir
