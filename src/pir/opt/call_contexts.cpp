// call_contexts.cpp — the Context of each StaticCall: what the types of its
// arguments prove about the call, stated as the dispatch Context the callee
// will compute from its frame (contextOf). A value or a promise with its
// value is evaluated (Eager); one whose type excludes objects is NotObject;
// a constant plain double or integer scalar is SimpleReal or SimpleInt
// (computed values may be ALTREP wrappers: left to the callee's test). The
// frame the StaticCall makes binds only the formals (OnlyFormals), and the
// formals after the arguments given (or given missing) are missing. Runs
// last: the types are final. Native code passes the context to the call,
// which checks it against the callee's frame in verifying builds.
//
//   before                                   after
//     %7 = LdConst 2                           %7 = LdConst 2
//     %9 = MkArg 3, <x>, %6, %2 (%6 real)      %9 = MkArg 3, <x>, %6, %2
//     %10 = StaticCall h, %2, %4, %7, %9       %10 = StaticCall h, %2, %4, %7, %9
//                                                    <formals,eager(0),notObj(0),
//                                                     real(0),eager(1),notObj(1)>
#include <algorithm>

#include "../../runtime/context.h"
#include "../../runtime/rapi.h"
#include "pass.h"

namespace rir {
namespace pir {

namespace {

// (a MkArg whose value is the missing marker is a promise not evaluated)
bool missingArg(const Instruction* a) {
    return a->op == Opcode::LdConst && a->constant == R_MissingArg;
}

Context contextOf(const Instruction* call) {
    Context c;
    c.set(CallFlag::OnlyFormals);
    for (size_t k = 2; k < call->args.size() && k - 2 < size_t(Context::kMaxArgs); k++) {
        int arg = int(k - 2);
        const Instruction* a = call->args[k];
        if (a->op == Opcode::LdConst) {
            SEXP v = a->constant;
            if (v == R_MissingArg) continue;
            c.set(arg, ArgFlag::Eager);
            if (OBJECT(v)) continue;
            c.set(arg, ArgFlag::NotObject);
            if (simpleScalar(v, REALSXP)) c.set(arg, ArgFlag::SimpleReal);
            if (simpleScalar(v, INTSXP)) c.set(arg, ArgFlag::SimpleInt);
            continue;
        }
        if (a->op != Opcode::MkArg) continue;
        const Instruction* v = a->args[0];
        if (v->op == Opcode::LdConst && v->constant == R_MissingArg) continue;
        c.set(arg, ArgFlag::Eager);
        PirType t = v->type;
        if (!t.isBottom() && !t.may(Flag::Object) && !t.may(Flag::Lazy) && !t.may(Flag::Missing))
            c.set(arg, ArgFlag::NotObject);
    }
    // the formals left unsupplied, and the missing arguments before them
    // (the frame binds the missing marker or a default's promise)
    if (call->args[1]->op != Opcode::LdConst) return c;
    int formals = 0;
    for (SEXP f = FORMALS(call->args[1]->constant); f != R_NilValue; f = CDR(f)) formals++;
    int missing = formals - int(call->args.size() - 2);
    for (size_t k = call->args.size(); k > 2 && missingArg(call->args[k - 1]); k--) missing++;
    c.setMissing(std::min(missing, Context::kMaxMissing));
    return c;
}

}  // namespace

bool callContexts(Function& f) {
    bool changed = false;
    for (auto& b : f.blocks)
        for (Instruction* i : b->insns) {
            if (i->op != Opcode::StaticCall) continue;
            uint64_t bits = contextOf(i).bits;
            changed = changed || bits != i->context;
            i->context = bits;
        }
    return changed;
}

}  // namespace pir
}  // namespace rir
