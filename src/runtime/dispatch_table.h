// dispatch_table.h — every rir closure body points (through its trampoline)
// at a DispatchTable. Version 0 is the baseline RIR code, compiled on the
// first call and always present afterwards; optimized versions, keyed by a
// Context, are kept sorted most-specific first (at most kMaxVersions).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "context.h"
#include "rapi.h"

namespace rir {

struct Code;
SEXP functionTag();

// The missing marker, or an unevaluated promise of code that may run R code
// when forced (a symbol, a call, byte code; GNU R's AST interpreter also
// wraps constant arguments in promises, whose forcing only takes the
// constant). (Reads only.)
inline bool lazyValue(SEXP v) {
    if (v == R_MissingArg) return true;
    if (ftype(v) != PROMSXP || fprvalue(v) != R_UnboundValue) return false;
    int t = ftype(fcdr(v));  // PRCODE
    return t == SYMSXP || t == LANGSXP || t == BCODESXP || t == PROMSXP || t == DOTSXP ||
           t == EXPRSXP;
}

struct DispatchTable {
    SEXP container;  // EXTPTRSXP, tag = rir_function, prot = list(formals, body, ...)
    Code* baseline = nullptr;
    uint64_t invocations = 0;
    int registryIndex = -1;
    std::string name;

    // The optimizing tier. `natives`: the function's body as native code,
    // one version per call Context it was compiled for (which arguments are
    // evaluated: contextOf), most specific first; a call runs the first
    // whose context its own satisfies, in the environment the call made (as
    // the baseline does). `optState`: see OptState. `completed`: calls of the baseline that
    // returned since the function was last retired (or made): a call that has not returned yet (say
    // the recursion of its first calls) has not given the feedback of what it runs after the
    // recursion. `deoptsSinceOptimized`: the deoptimizations of the current versions.
    typedef SEXP (*NativeEntry)(SEXP env, SEXP tramp);
    struct NativeVersion {
        Context context;
        NativeEntry entry;
    };
    static const size_t kMaxNativeVersions = 4;
    std::vector<NativeVersion> natives;
    enum class OptState : uint8_t {
        NotTried,     // not optimized yet
        Optimized,    // natives holds its versions
        Refused,      // the optimizer refused it (optRefusal says why)
        Retired,      // dropped after too many deoptimizations, for good
        RetiredAgain  // dropped, to be optimized again with the feedback the
                      // baseline gathers meanwhile (at most kMaxReoptimizations times)
    };
    OptState optState = OptState::NotTried;
    bool moreVersions = true;  // false once a version was refused, or natives is full
    static const uint32_t kMaxDeopts = 8;
    static const uint8_t kMaxReoptimizations = 2;
    uint64_t completed = 0;
    // a version is being made on the compile thread (no other is started);
    // `jobs`: versions and continuations being made (the finalizer then
    // leaves the table, `orphaned`, to the tiering policy, which deletes it
    // once they are done)
    bool compiling = false;
    uint16_t jobs = 0;
    bool orphaned = false;
    uint32_t deoptsSinceOptimized = 0;
    uint8_t reoptimizations = 0;
    // One of the versions deoptimized: after kMaxDeopts, they are dropped
    // (calls running them go on: the code stays), to be made again with
    // the feedback gathered from then on, for good after
    // kMaxReoptimizations.
    void noteDeopt() {
        deopts++;
        if (++deoptsSinceOptimized < kMaxDeopts || natives.empty()) return;
        natives.clear();
        deoptsSinceOptimized = 0;
        completed = 0;
        moreVersions = true;
        if (reoptimizations < kMaxReoptimizations) {
            reoptimizations++;
            optState = OptState::RetiredAgain;
        } else {
            optState = OptState::Retired;
        }
    }
    // May a call whose context no version fits get one compiled?
    bool mayOptimize() const {
        if (compiling) return false;
        return optState == OptState::NotTried || optState == OptState::RetiredAgain ||
               (optState == OptState::Optimized && moreVersions &&
                natives.size() < kMaxNativeVersions);
    }
    // The version for a call in context `call`, or nullptr.
    NativeEntry nativeFor(Context call) const {
        for (const NativeVersion& v : natives)
            if (call.smaller(v.context)) return v.entry;
        return nullptr;
    }
    bool hasNative(Context c) const {
        for (const NativeVersion& v : natives)
            if (v.context == c) return true;
        return false;
    }
    // Adds the version for context c, most specific first (replacing one
    // for the same context; when full, the least specific is dropped).
    void addNative(Context c, NativeEntry e) {
        for (NativeVersion& v : natives)
            if (v.context == c) {
                v.entry = e;
                return;
            }
        if (natives.size() == kMaxNativeVersions) natives.pop_back();
        auto at = natives.begin();
        while (at != natives.end() && !contextBefore(c, at->context)) ++at;
        natives.insert(at, NativeVersion{c, e});
    }
    // Calls f(binding cell) for the bindings of the formals in the call's
    // frame, in the formals' order. A frame lists them in that order, but
    // S3 dispatch defines .Generic, .Class, ... in a method's frame first;
    // a frame that does not follow the formals (a closure whose formals
    // were replaced) stops early: false.
    template <typename F>
    bool forEachBinding(SEXP env, F f, int max = -1) const {
        SEXP fs = formals();
        SEXP b = fcar(env);
        if (fs != R_NilValue)
            while (b != R_NilValue && ftag(b) != ftag(fs)) b = fcdr(b);
        for (int k = 0; fs != R_NilValue && k != max; fs = fcdr(fs), b = fcdr(b), k++) {
            if (b == R_NilValue || ftag(b) != ftag(fs)) return false;
            f(b);
        }
        return true;
    }
    // Calls f(k, value) for the bindings of the first `max` formals, k the
    // formal's position (as forEachBinding).
    template <typename F>
    bool forEachArg(SEXP env, int max, F f) const {
        int k = 0;
        return forEachBinding(
            env, [&](SEXP b) { f(k++, fcar(b)); }, max);
    }
    // The context of a call, from its frame: OnlyFormals when the frame
    // binds nothing but the formals; Eager for each of the first
    // arguments that is neither missing nor a promise whose forcing may
    // run R code (lazyValue), and of such an argument's value whether it
    // is not an object (NotObject), a double or integer scalar without
    // attributes, not ALTREP (SimpleReal, SimpleInt; NA or not); and the
    // number of formals at the end of the list that are missing (bound to
    // the missing marker, or to a default's promise: unsupplied). (Reads
    // only.)
    Context contextOf(SEXP env) const {
        Context c;
        // (bindings added after the arguments were matched come first)
        SEXP first = fcar(env);
        if (first == R_NilValue ? formals() == R_NilValue
                                : formals() != R_NilValue && ftag(first) == ftag(formals()))
            c.set(CallFlag::OnlyFormals);
        // one walk over the formals' bindings: the first ones' flags, and
        // the run of missing ones at the end (at most kMaxMissing; none when
        // the frame is not in the formals' order)
        int k = 0, missingRun = 0;
        bool inOrder = forEachBinding(env, [&](SEXP b) {
            SEXP v = fcar(b);
            bool missing = v == R_MissingArg || (hdr(b)->gp & kMissingMask);
            missingRun = missing ? missingRun + 1 : 0;
            int arg = k++;
            if (arg >= Context::kMaxArgs || lazyValue(v)) return;
            c.set(arg, ArgFlag::Eager);
            // (a promise not lazy: its value, or the constant it evaluates)
            if (ftype(v) == PROMSXP) v = fprvalue(v) != R_UnboundValue ? fprvalue(v) : fcdr(v);
            if (fobject(v)) return;
            c.set(arg, ArgFlag::NotObject);
            if (simpleScalar(v, REALSXP)) c.set(arg, ArgFlag::SimpleReal);
            if (simpleScalar(v, INTSXP)) c.set(arg, ArgFlag::SimpleInt);
        });
        if (inOrder) c.setMissing(std::min(missingRun, Context::kMaxMissing));
        return c;
    }
    std::string optRefusal;
    uint32_t deopts = 0;
    // of those, the ones a deoptless continuation went on from (the code
    // that deoptimized stays: its common case is still right; one whose
    // deoptless continuation deoptimized too does not)
    uint32_t deoptlessCovered = 0;
    double optSeconds = 0;

    // Continuations (OSR-in, see interp.h's osrHook): the baseline's rest
    // from a loop header `pc` as native code, for frames binding exactly
    // `bindings` (in the frame's order, each an ordinary binding with a
    // value of type `types`); entry(env, tramp, inputs) takes the operand stack there as
    // values (a for loop's length and counter as integer scalars). A null
    // entry: refused, or dropped after kMaxContinuationDeopts calls that
    // deoptimized (compiled again with the feedback gathered since, at
    // most kMaxContinuationRecompiles times).
    typedef SEXP (*ContinuationEntry)(SEXP env, SEXP tramp, const SEXP* inputs);
    // What a continuation assumes of a binding's value at its entry.
    // (a value, not a promise: Value; a vector without attributes of one of
    // the unboxable types: by its type; a promise evaluated already:
    // ForcedPromise; anything else, a promise to evaluate: Any)
    enum class EntryType : uint8_t {
        Any,
        SimpleReal,
        SimpleInt,
        RealVector,
        IntVector,
        LglVector,
        Value,
        ForcedPromise
    };
    static EntryType entryType(SEXP v) {
        if (simpleScalar(v, REALSXP)) return EntryType::SimpleReal;
        if (simpleScalar(v, INTSXP)) return EntryType::SimpleInt;
        if (TYPEOF(v) == PROMSXP)
            return PRVALUE(v) != R_UnboundValue ? EntryType::ForcedPromise : EntryType::Any;
        if (ATTRIB(v) == R_NilValue) {
            if (TYPEOF(v) == REALSXP) return EntryType::RealVector;
            if (TYPEOF(v) == INTSXP) return EntryType::IntVector;
            if (TYPEOF(v) == LGLSXP) return EntryType::LglVector;
        }
        return EntryType::Value;
    }
    // Whether a continuation compiled for values of type `general` takes
    // a value of type `specific` (Any takes everything; Value every value
    // that is not a promise; a vector type its scalars).
    static bool covers(EntryType general, EntryType specific) {
        if (general == specific || general == EntryType::Any) return true;
        switch (specific) {
            case EntryType::SimpleReal:
                return general == EntryType::RealVector || general == EntryType::Value;
            case EntryType::SimpleInt:
                return general == EntryType::IntVector || general == EntryType::Value;
            case EntryType::RealVector:
            case EntryType::IntVector:
            case EntryType::LglVector:
                return general == EntryType::Value;
            default:
                return false;
        }
    }
    static bool covers(const std::vector<EntryType>& general,
                       const std::vector<EntryType>& specific) {
        if (general.size() != specific.size()) return false;
        for (size_t k = 0; k < general.size(); k++)
            if (!covers(general[k], specific[k])) return false;
        return true;
    }
    struct Continuation {
        int pc;
        std::vector<SEXP> bindings;
        std::vector<EntryType> types;  // of the bindings' values
        // the operand stack's slots at pc, bottom first (bc/verifier.h's
        // SlotKind: a value, or a for loop's sequence, length, counter)
        std::vector<uint8_t> stack;
        ContinuationEntry entry = nullptr;
        uint32_t deopts = 0;
        uint8_t recompiles = 0;
        bool compiling = false;  // on the compile thread (entry null until it is done)
        // A deoptless continuation (native/deoptless.cpp): entered by a
        // deoptimization at pc, specialized to the types of the operand
        // stack's values too (`stackTypes`, Any for a loop's slots), and
        // `reason`, what failed (DeoptTrigger's name).
        bool deoptless = false;
        std::vector<EntryType> stackTypes;
        const char* reason = "";
    };
    static const size_t kMaxContinuations = 8;
    static const size_t kMaxDeoptless = 5;
    static const uint32_t kMaxContinuationDeopts = 1;
    static const uint8_t kMaxContinuationRecompiles = 3;
    std::vector<Continuation> continuations;
    // GNU R runs this closure in its AST interpreter, never compiling it
    // (a small closure not defined at top level that the AST interpreter
    // made: see astInterpreted in bc/calls.cpp), while rir runs it compiled:
    // its conditions are named as the AST interpreter names them where the
    // two engines differ and rir knows it (superassignment).
    bool astFlavor = false;
    // Argument feedback, recorded at the baseline's entries until the
    // function is optimized: bit k of `lazyArgs` set once argument k (< 32)
    // was missing or a promise whose forcing may run R code (lazyValue);
    // `argSamples` entries seen.
    uint32_t lazyArgs = 0;
    uint32_t argSamples = 0;
    void recordArgs(SEXP env) {
        bool inOrder = forEachArg(env, 32, [&](int k, SEXP v) {
            if (lazyValue(v)) lazyArgs |= 1u << k;
        });
        // (a frame not in the formals' order: no evidence of evaluation)
        if (!inOrder) lazyArgs = ~0u;
        argSamples++;
    }

    // (slots read inline: an EXTPTRSXP's CDR is its protected value)
    SEXP slot(int i) const { return static_cast<SEXP*>(fdata(fcdr(container)))[i]; }
    SEXP formals() const { return slot(0); }
    SEXP body() const { return VECTOR_ELT(R_ExternalPtrProtected(container), 1); }
    // Slot 2 keeps the baseline Code's extptr alive, slot 3 the optimized ones.
    void setBaseline(Code* c, SEXP codeContainer);
    // Slot 4: the trampoline body that enters this table.
    SEXP trampoline() const { return slot(4); }
    void setTrampoline(SEXP t) { SET_VECTOR_ELT(R_ExternalPtrProtected(container), 4, t); }
    // Slot 5: the body the closure had before rir took it over. It must stay
    // alive: an invocation of the old (GNU R byte-code) body may still be
    // running when the closure is switched to rir.
    void keepOriginalBody(SEXP b) { SET_VECTOR_ELT(R_ExternalPtrProtected(container), 5, b); }
    // Slot 6: the environment the baseline is compiled for (the closure's
    // when rir took it over; GNU R's JIT cache may hand this body to other
    // closures whose local bindings are a subset of it), or NULL: the
    // environment of the first call (nested functions).
    SEXP compileEnv() const {
        SEXP p = R_ExternalPtrProtected(container);
        return XLENGTH(p) > 6 ? VECTOR_ELT(p, 6) : R_NilValue;
    }
    void setCompileEnv(SEXP env) {
        SEXP p = R_ExternalPtrProtected(container);
        if (XLENGTH(p) > 6) SET_VECTOR_ELT(p, 6, env);
    }
    // Slot 7: a list of the language functions (`+`, `if`, ...) that are
    // local variables of the functions this one is nested in (known when
    // the enclosing function was compiled), or NULL: not inlined here.
    SEXP outerLocals() const {
        SEXP p = R_ExternalPtrProtected(container);
        return XLENGTH(p) > 7 ? VECTOR_ELT(p, 7) : R_NilValue;
    }
    void setOuterLocals(SEXP l) {
        SEXP p = R_ExternalPtrProtected(container);
        if (XLENGTH(p) > 7) SET_VECTOR_ELT(p, 7, l);
    }
    // What GNU R runs for this closure while rir is disabled: the body it
    // had before (byte code or AST), else the source.
    SEXP originalBody() const { return originalBodyOf(container); }
    // The same, read from a container whose table is gone (R's exit
    // finalizers delete tables, and R code may still run afterwards).
    static SEXP originalBodyOf(SEXP container) {
        SEXP prot = R_ExternalPtrProtected(container);
        SEXP b = VECTOR_ELT(prot, 5);
        return b != R_NilValue ? b : VECTOR_ELT(prot, 1);
    }

    static DispatchTable* create(SEXP formals, SEXP body, const std::string& name);
    static DispatchTable* unpack(SEXP extptr);
    // unpack() for hot paths (an EXTPTRSXP's CAR is its address, TAG its tag).
    static DispatchTable* unpackFast(SEXP extptr) {
        return ftype(extptr) == EXTPTRSXP && ftag(extptr) == functionTag()
                   ? static_cast<DispatchTable*>(static_cast<void*>(fcar(extptr)))
                   : nullptr;
    }
};

}  // namespace rir
