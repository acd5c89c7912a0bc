// trampoline.h — GNU R byte code objects that enter rir.
//
// A rir-compiled closure keeps a real BCODESXP as its body. Its constant
// pool entry 0 is the source expression (so body(), deparse(), debug() and
// substitute() see the AST) and its code is, in GNU R byte-code terms:
//
//     GETBUILTIN .External2; PUSHCONSTARG <entry>; PUSHCONSTARG <target>
//     CALLBUILTIN; LDCONST <visible flag>; BRIFNOT L; RETURN; L: INVISIBLE; RETURN
//
// so GNU R's bcEval calls rir's entry with the closure environment, and the
// visibility that the RIR code produced survives .External2 (which would
// otherwise force the result visible). An expressionsIndex table maps every
// pc to the .External2 call, which makes errors raised with Rf_error() report
// the enclosing function's call, exactly as for GNU R's own byte code.
//
// Serialized, a trampoline is written as outdated byte code, which GNU R
// reads back as its source: a saved rir closure loads as a plain R closure
// in any session (trampoline.cpp explains how).
#pragma once

#include "rapi.h"

namespace rir {

// `templ` is the unencoded instruction vector (built in R from the compiler
// package's opcode table); `entry` is the native symbol of the entry routine.
void trampolineInit(SEXP templ, SEXP entry);
void trampolineRegisterClasses(DllInfo* dll);
bool trampolineReady();

// A BCODESXP for `ast` that calls the entry with `target` (an EXTPTRSXP,
// kept in the constants inside a wrapper that serializes as integer(0)).
SEXP makeTrampoline(SEXP ast, SEXP target);

// The target of a trampoline made by makeTrampoline, or nullptr.
SEXP trampolineTarget(SEXP body);

// Layout of a trampoline's constant pool.
enum TrampolineConst {
    kSource = 0,
    kExternal2,
    kEntry,
    kTarget,
    kCall,
    kVisible,
    kExprIndex,
    kNConst
};
extern SEXP trampolineEntryRoutine;
extern SEXP trampolineTargetClass;  // the ALTREP class wrapping targets

// The target wrapped in a trampoline's kTarget constant (an ALTREP object
// that serializes as integer(0), see trampoline.cpp), or nullptr.
SEXP trampolineTargetSlow(SEXP wrapper);
inline SEXP unwrapTarget(SEXP wrapper) {
    return hdr(wrapper)->alt && ftag(wrapper) == trampolineTargetClass ? fcar(wrapper) : nullptr;
}

// trampolineTarget() for hot paths: inline checks for the common case.
inline SEXP trampolineTargetFast(SEXP body) {
    if (ftype(body) != BCODESXP) return nullptr;
    SEXP consts = fcdr(body);
    if (ftype(consts) != VECSXP || hdr(consts)->alt || flength(consts) != kNConst) return nullptr;
    SEXP* e = static_cast<SEXP*>(fdata(consts));
    if (e[kEntry] != trampolineEntryRoutine) return nullptr;
    return unwrapTarget(e[kTarget]);
}
bool isTrampoline(SEXP body);

// The trampoline's current-expression slot: GNU R's getCurrentCall() reads it
// (through the expressionsIndex table) when an error or warning has no call.
void setTrampolineExpr(SEXP tramp, SEXP expr);
// The current expression set last (nullptr for no trampoline). An
// activation that shares the slot (a direct call from rir code, another
// activation of the same trampoline) restores it when it returns: GNU R's
// byte code keeps its current expression per activation, and a builtin that
// calls R code and then warns (mapply) names the expression of its caller.
SEXP trampolineExpr(SEXP tramp);
inline SEXP trampolineConsts(SEXP tramp) {
    return CDR(tramp);
}

// The flag read by the trampoline after the entry returns.
void setTrampolineVisible(bool visible);

}  // namespace rir
