// constant_branches.cpp — tests whose outcome the types already decide
// become constants, and a Branch on a constant becomes a Jump (the other
// successor loses this predecessor; blocks left unreachable are removed by
// the dead-code pass).
//
//   before                                   after
//     %1 = LdArg 0  (real$'- by context)       %1 = LdArg 0
//     %4 = IsType %1, (real$'-)                %9 = LdConst TRUE
//     %5 = Branch %4 -> BB1, BB2               %5 = Jump -> BB1
//
// Folded: IsType when the operand's type is within the tested one (TRUE),
// or cannot overlap it (FALSE); IsKind (is.integer(x), ...) likewise by
// kinds; IsForced of a value known to be forced (by its type, or by a Force
// of it that runs before on every path); AsTest and LglIs of logical
// constants (also through a Phi of one value). Folding repeats until
// nothing changes.
#include "../../runtime/rapi.h"
#include "pass.h"

namespace rir {
namespace pir {

namespace {

// TRUE, FALSE, or nullptr when unknown.
SEXP knownTest(const Instruction* i) {
    auto lglConstant = [](const Instruction* c) -> int {
        // (through a Phi whose operands are all one value: a block's only
        // predecessor's)
        for (int depth = 0; c->op == Opcode::Phi && !c->args.empty() && depth < 8; depth++) {
            for (const Instruction* a : c->args)
                if (a != c->args[0]) return -1;
            c = c->args[0];
        }
        if (c->op != Opcode::LdConst || !c->constant || TYPEOF(c->constant) != LGLSXP ||
            XLENGTH(c->constant) != 1 || ATTRIB(c->constant) != R_NilValue)
            return -1;
        int v = LOGICAL(c->constant)[0];
        return v == NA_LOGICAL ? -1 : v != 0;
    };
    switch (i->op) {
        case Opcode::LdConst: {
            int v = lglConstant(i);
            return v < 0 ? nullptr : v ? R_TrueValue : R_FalseValue;
        }
        case Opcode::IsType: {
            PirType t = i->args[0]->type, want = i->carriedType;
            if (t.isBottom()) return nullptr;
            if (t.isSubtypeOf(want)) return R_TrueValue;
            bool lazy = t.may(Flag::Lazy) || t.mayBe(Kind::Prom);
            bool missingOverlap = t.may(Flag::Missing) && want.may(Flag::Missing);
            if (!lazy && !missingOverlap && (t.kinds() & want.kinds()) == 0) return R_FalseValue;
            return nullptr;
        }
        case Opcode::IsKind: {
            const KindTest* k = kindTestOf(i->constant);
            PirType t = i->args[0]->type;
            if (!k || t.isBottom()) return nullptr;
            if ((t.kinds() & ~k->sure) == 0 && !(k->notFactor && t.may(Flag::Object)))
                return R_TrueValue;
            if ((t.kinds() & (k->sure | k->maybe)) == 0) return R_FalseValue;
            return nullptr;
        }
        case Opcode::IsForced: {
            PirType t = i->args[0]->type;
            return !t.isBottom() && t.isSubtypeOf(PirType::val()) ? R_TrueValue : nullptr;
        }
        case Opcode::AsTest: {
            int v = lglConstant(i->args[0]);
            return v < 0 ? nullptr : v ? R_TrueValue : R_FalseValue;
        }
        case Opcode::LglIs: {
            int v = lglConstant(i->args[0]);
            return v < 0 ? nullptr : v == i->lglValue() ? R_TrueValue : R_FalseValue;
        }
        default:
            return nullptr;
    }
}

// Was `a` forced by a Force that runs before i on every path? (It then
// holds its value: a promise forced once stays forced.)
bool forcedBefore(Function& f, const Dominators& dom, const Instruction* i) {
    const Instruction* a = i->args[0];
    for (auto& b : f.blocks)
        for (size_t k = 0; k < b->insns.size(); k++) {
            Instruction* x = b->insns[k];
            if (!x->is(Opcode::Force) || x->args[0] != a) continue;
            if (b.get() != i->bb) {
                if (dom.dominates(b.get(), i->bb)) return true;
                continue;
            }
            for (size_t j = k + 1; j < b->insns.size(); j++)
                if (b->insns[j] == i) return true;
        }
    return false;
}

bool foldOnce(Function& f) {
    bool changed = false;
    Dominators dom(f);
    for (auto& bp : f.blocks) {
        BB* b = bp.get();
        for (size_t k = 0; k < b->insns.size(); k++) {
            Instruction* i = b->insns[k];
            if (isOp(i, {Opcode::IsType, Opcode::IsKind, Opcode::AsTest, Opcode::LglIs,
                         Opcode::IsForced})) {
                SEXP v = knownTest(i);
                if (!v && i->op == Opcode::IsForced && forcedBefore(f, dom, i)) v = R_TrueValue;
                if (!v) continue;
                // the folded test goes (a folded AsTest had a TRUE or FALSE
                // constant: it cannot raise its error)
                Instruction* c = f.newInsn(Opcode::LdConst);
                c->constant = v;
                c->bb = b;
                c->type = c->ruleType();
                b->insns[k] = c;
                i->bb = nullptr;
                replaceUses(f, i, c);
                changed = true;
            }
        }
        Instruction* t = b->terminator();
        if (t && t->op == Opcode::Branch) {
            SEXP v = knownTest(t->args[0]);
            if (!v) continue;
            BB* taken = b->succ[v == R_TrueValue ? 0 : 1];
            BB* other = b->succ[v == R_TrueValue ? 1 : 0];
            if (taken != other) removePhiInputsFrom(other, b);
            t->op = Opcode::Jump;
            t->args.clear();
            b->succ = {taken};
            changed = true;
        }
    }
    f.computePreds();
    if (changed) removeUnreachable(f);
    return changed;
}

}  // namespace

bool constantBranches(Function& f) {
    // (a folded test makes the tests of its value constants too: is.integer(x)
    // folded, then `&&`'s test of it)
    bool changed = false;
    for (int round = 0; round < 8 && foldOnce(f); round++) changed = true;
    return changed;
}

}  // namespace pir
}  // namespace rir
