// source_map.cpp — see source_map.h. Walks the instructions from the start
// (pcs are only meaningful at instruction boundaries) and reads the
// operand the table marks.
#include "source_map.h"

#include "insns.h"

namespace rir {

SEXP sourceAt(const Code* c, int pc) {
    size_t at = 0;
    const size_t n = c->bc.size();
    while (at < n && int(at) < pc) {
        int32_t raw = c->bc[at];
        if (raw < 0 || raw >= int32_t(Op::num_ops)) return nullptr;
        at += 1 + info(Op(raw)).operands;
    }
    if (int(at) != pc || at >= n) return nullptr;
    const InsnInfo& in = info(Op(c->bc[at]));
    const int32_t* ops = &c->bc[at + 1];
    for (int i = 0; i < in.operands; i++) {
        if (in.operandKinds[i] == 'c') return c->poolAt(ops[i]);
        if (in.operandKinds[i] == 's') {
            const CallSite& cs = c->calls[ops[i]];
            return c->poolAt(cs.expr >= 0 ? cs.expr : cs.ast);
        }
    }
    return nullptr;
}

}  // namespace rir
