// subassign.cpp — element stores and complex assignments done by the
// interpreter itself, with GNU R's semantics: the slow and medium paths of
// the subassign, dollar_assign and env_subassign instructions.
//
//   x[i] <- v (x an unshared plain vector, i in range, v fitting x's type):
//     stored in place (storeInto); x[[length(x) + 1]] <- v grows x as GNU R
//     does (appendTo); x[c(1, 3)] <- v stores several elements at once
//     (storeVectorIndex); shared x: copied and bound first (storeCopy).
//   Otherwise GNU R's `[<-` is called on x's value (dfltSubassign), or the
//   whole assignment is left to GNU R (assignByGnuR).
//
// The dispatch loop in interp.cpp calls in here; see subassign.h.
#include "subassign.h"

#include <cstdlib>
#include <cstring>

#include "../runtime/r_messages.h"
#include "../runtime/stats.h"
#include "../runtime/trampoline.h"
#include "calls.h"
#include "promises.h"

namespace rir {

// The element of list/vector x named by the scalar string i (first match,
// compared as cached CHARSXPs), or -1 (not found, NA, or not comparable
// that way: GNU R decides then).
R_xlen_t nameIndex(SEXP x, SEXP i) {
    if (!simpleScalar(i, STRSXP)) return -1;
    SEXP name = STRING_ELT(i, 0);
    if (name == NA_STRING || !(hdr(name)->gp & kAsciiMask)) return -1;
    return namedElement(x, name);
}

R_xlen_t namedElement(SEXP x, SEXP name) {
    int t = ftype(x);
    SEXP names = t == VECSXP || t == EXPRSXP || Rf_isVectorAtomic(x) ? readNames(x) : nullptr;
    if (!names) names = Rf_getAttrib(x, R_NamesSymbol);
    if (TYPEOF(names) != STRSXP) return -1;
    R_xlen_t len = XLENGTH(names);
    for (R_xlen_t k = 0; k < len; k++)
        if (STRING_ELT(names, k) == name) return k;
    return -1;
}

// Where x[i] <- v / x[[i]] <- v / x[i, j] <- v would store v in place, or
// -1 when GNU R must do it: x must be a plain vector (a matrix for [i, j]),
// the index a positive in-range number or an existing element name, and v a
// scalar of a type that fits without coercing x (for lists: any value but
// NULL with [[, a length-1 plain list with [).
// Can v be stored as one element of the plain vector x without coercion?
static bool valueFits(int kind, SEXP x, SEXP v) {
    SexpHeader* h = hdr(x);
    if (h->alt || h->obj) return false;
    switch (h->type) {
        case INTSXP:
            return simpleScalar(v, INTSXP);
        case LGLSXP:
            return simpleScalar(v, LGLSXP);
        case REALSXP:
            return simpleScalar(v, REALSXP) || simpleScalar(v, INTSXP);
        case STRSXP:
            return simpleScalar(v, STRSXP);
        case VECSXP:
            if (v == x) return false;
            return kind == 2 ? v != R_NilValue
                             : ftype(v) == VECSXP && flength(v) == 1 && !hdr(v)->alt &&
                                   fattrib(v) == R_NilValue;
        default:
            return false;
    }
}

R_xlen_t storeIndex(int kind, SEXP x, SEXP i, SEXP j, SEXP v) {
    if (!valueFits(kind, x, v)) return -1;
    if (j) return matrixIndex(x, i, j);
    R_xlen_t idx = scalarIndex(i, flength(x));
    return idx >= 0 ? idx : nameIndex(x, i);
}

void storeAt(int kind, SEXP x, R_xlen_t idx, SEXP v) {
    switch (TYPEOF(x)) {
        case INTSXP:
            INTEGER(x)[idx] = fival(v);
            break;
        case LGLSXP:
            LOGICAL(x)[idx] = fival(v);
            break;
        case REALSXP:
            if (ftype(v) == REALSXP) {
                REAL(x)[idx] = fdval(v);
            } else {
                int iv = fival(v);
                REAL(x)[idx] = iv == NA_INTEGER ? NA_REAL : iv;
            }
            break;
        case STRSXP:
            SET_STRING_ELT(x, idx, STRING_ELT(v, 0));
            break;
        case VECSXP:
            SET_VECTOR_ELT(x, idx, kind == 2 ? v : VECTOR_ELT(v, 0));
            break;
    }
}

// x[i] <- v in place for a vector index: x an unshared plain vector (not
// ALTREP, not an object), i integers or doubles without attributes, all of
// them positive and in range (doubles truncated as GNU R does), v of x's
// type (integers into doubles too) whose length divides the number of
// indices (GNU R recycles it without a warning then). Everything is checked
// before anything is stored; otherwise GNU R's `[<-` does it.
static bool storeVectorIndex(SEXP x, SEXP i, SEXP v, const InPlaceScope& s) {
    if (!mayModifyInPlace(x, s) || hdr(x)->alt || hdr(x)->obj || x == i || x == v || fobject(v) ||
        fattrib(i) != R_NilValue)
        return false;
    SEXPTYPE xt = ftype(x), vt = ftype(v), it = ftype(i);
    if (it != INTSXP && it != REALSXP) return false;
    if (!(vt == xt || (xt == REALSXP && vt == INTSXP))) return false;
    switch (xt) {
        case LGLSXP:
        case INTSXP:
        case REALSXP:
        case STRSXP:
        case VECSXP:
            break;
        default:
            return false;
    }
    R_xlen_t n = XLENGTH(i), nv = XLENGTH(v), len = XLENGTH(x);
    if (nv == 0 || n % nv != 0) return false;
    const int* ip = it == INTSXP && !hdr(i)->alt ? INTEGER(i) : nullptr;
    const double* dp = it == REALSXP && !hdr(i)->alt ? REAL(i) : nullptr;
    auto at = [&](R_xlen_t k) -> R_xlen_t {
        if (it == INTSXP) {
            int e = ip ? ip[k] : INTEGER_ELT(i, k);
            return e >= 1 && e <= len ? e - 1 : -1;
        }
        double d = dp ? dp[k] : REAL_ELT(i, k);
        return d >= 1 && d < double(len) + 1 ? R_xlen_t(d) - 1 : -1;
    };
    for (R_xlen_t k = 0; k < n; k++)
        if (at(k) < 0) return false;
    // x is a plain vector: its elements are written through its data
    // pointer; v's are read the same way unless it is ALTREP
    const bool vPlain = !hdr(v)->alt;
#define RIR_STORE_LOOP(body)                                                   \
    for (R_xlen_t k = 0, kv = 0; k < n; k++, kv = kv + 1 == nv ? 0 : kv + 1) { \
        R_xlen_t e = at(k);                                                    \
        body;                                                                  \
    }
    switch (xt) {
        case LGLSXP:
        case INTSXP: {
            int* xp = static_cast<int*>(fdata(x));
            const int* vp = vPlain ? static_cast<int*>(fdata(v)) : nullptr;
            if (vp)
                RIR_STORE_LOOP(xp[e] = vp[kv])
            else if (xt == LGLSXP)
                RIR_STORE_LOOP(xp[e] = LOGICAL_ELT(v, kv))
            else
                RIR_STORE_LOOP(xp[e] = INTEGER_ELT(v, kv))
            break;
        }
        case REALSXP: {
            double* xp = static_cast<double*>(fdata(x));
            if (vt == REALSXP) {
                const double* vp = vPlain ? static_cast<double*>(fdata(v)) : nullptr;
                if (vp)
                    RIR_STORE_LOOP(xp[e] = vp[kv])
                else
                    RIR_STORE_LOOP(xp[e] = REAL_ELT(v, kv))
            } else {
                RIR_STORE_LOOP({
                    int iv = INTEGER_ELT(v, kv);
                    xp[e] = iv == NA_INTEGER ? NA_REAL : iv;
                })
            }
            break;
        }
        case STRSXP:
            RIR_STORE_LOOP(SET_STRING_ELT(x, e, STRING_ELT(v, kv)))
            break;
        default:
            RIR_STORE_LOOP(SET_VECTOR_ELT(x, e, VECTOR_ELT(v, kv)))
            break;
    }
#undef RIR_STORE_LOOP
    return true;
}

// el$field <- v (field: a scalar string) where el is a plain list that has
// the field already, in place; el lives in binding `cell` or in slot k of
// list `parent` and is copied into it first when something else refers to
// it. NULL (deletion) and everything else: GNU R.
bool storeField(SEXP el, SEXP field, SEXP v, SEXP cell, SEXP parent, R_xlen_t k,
                const InPlaceScope& s) {
    if (ftype(el) != VECSXP || hdr(el)->obj || hdr(el)->alt || v == R_NilValue || v == el)
        return false;
    R_xlen_t idx = nameIndex(el, field);
    if (idx < 0) return false;
    if (!mayModifyInPlace(el, s)) {
        el = Rf_shallow_duplicate(el);
        if (cell) {
            SETCAR(cell, el);
        } else {
            SET_VECTOR_ELT(parent, k, el);
        }
        if (frefcnt(el) != 1) return false;
    }
    SET_VECTOR_ELT(el, idx, v);
    return true;
}

// Binds a shallow copy of x to `cell` and stores into the copy (what GNU R's
// complex assignment does when x is shared).
static bool storeCopy(int kind, SEXP cell, SEXP x, SEXP i, SEXP j, SEXP v) {
    R_xlen_t idx = storeIndex(kind, x, i, j, v);
    if (idx < 0) return false;
    SEXP copy = Rf_shallow_duplicate(x);
    SETCAR(cell, copy);
    hdr(cell)->gp &= ~kMissingMask;  // as defineVar: no longer missing
    if (frefcnt(copy) != 1) return false;
    storeAt(kind, copy, idx, v);
    return true;
}

// x[[n + 1]] <- v on an unshared attribute-free vector of length n, grown
// as GNU R grows it (EnlargeVector): in place while the vector has spare
// capacity (a "growable" vector), else into a new one with 5% extra
// capacity (R_EXPAND_FRAC), bound to `cell`. Not with options(check.bounds).
static bool appendTo(int kind, SEXP cell, SEXP x, SEXP i, SEXP v, const InPlaceScope& s) {
    static SEXP checkBounds = Rf_install("check.bounds");
    if (!mayModifyInPlace(x, s) || x == v || fattrib(x) != R_NilValue || !valueFits(kind, x, v))
        return false;
    R_xlen_t len = XLENGTH(x);
    if (scalarIndex(i, len + 1) != len || len >= R_LEN_T_MAX - 1) return false;
    SEXP cb = Rf_GetOption1(checkBounds);
    if (TYPEOF(cb) != LGLSXP || XLENGTH(cb) < 1 || LOGICAL(cb)[0] != FALSE) return false;
    if ((hdr(x)->gp & kGrowable) && XTRUELENGTH(x) > len) {
        SETLENGTH(x, len + 1);
        storeAt(kind, x, len, v);
        return true;
    }
    static double expand = 0;
    if (expand == 0) {
        const char* e = getenv("R_EXPAND_FRAC");
        expand = e ? atof(e) : 1.05;
        if (expand < 1 || expand > 2) expand = 1.05;
    }
    R_xlen_t cap = R_xlen_t((len + 1) * expand);
    if (cap < len + 1) cap = len + 1;
    SEXP nx = PROTECT(Rf_allocVector(TYPEOF(x), cap));
    switch (TYPEOF(x)) {
        case INTSXP:
        case LGLSXP:
            if (len) memcpy(INTEGER(nx), INTEGER(x), len * sizeof(int));
            break;
        case REALSXP:
            if (len) memcpy(REAL(nx), REAL(x), len * sizeof(double));
            break;
        case STRSXP:
            for (R_xlen_t k = 0; k < len; k++) SET_STRING_ELT(nx, k, STRING_ELT(x, k));
            break;
        case VECSXP:
            for (R_xlen_t k = 0; k < len; k++) SET_VECTOR_ELT(nx, k, VECTOR_ELT(x, k));
            break;
    }
    if (cap > len + 1) {
        SETLENGTH(nx, len + 1);
        SET_TRUELENGTH(nx, cap);
        hdr(nx)->gp |= kGrowable;
    }
    storeAt(kind, nx, len, v);
    SETCAR(cell, nx);
    hdr(cell)->gp &= ~kMissingMask;
    UNPROTECT(1);
    return true;
}

// Stores into the value of an ordinary binding, copying it first if shared.
bool storeIntoBinding(int kind, SEXP cell, SEXP i, SEXP j, SEXP v, const InPlaceScope& s) {
    SEXP x = fcar(cell);
    if (frefcnt(x) < 2 && !s.heldOnStack(x))
        return storeInto(kind, x, i, j, v, s) || (!j && appendTo(kind, cell, x, i, v, s)) ||
               (!j && kind == 1 && storeVectorIndex(x, i, v, s));
    return storeCopy(kind, cell, x, i, j, v);
}

// e[["name"]] <- v on an environment: GNU R defines the variable (errors
// for locked environments and bindings are left to it).
bool storeIntoEnv(SEXP e, SEXP i, SEXP v) {
    if (hdr(e)->obj || !simpleScalar(i, STRSXP) || STRING_ELT(i, 0) == NA_STRING) return false;
    SEXP sym = Rf_installTrChar(STRING_ELT(i, 0));
    R_varloc_t b = R_findVarLocInFrame(e, sym);
    bool exists = b.cell && b.cell != R_NilValue;
    if (exists ? (hdr(b.cell)->gp & (kActiveBinding | kBindingLock)) != 0
               : R_EnvironmentIsLocked(e) != FALSE)
        return false;
    Rf_defineVar(sym, v, e);
    return true;
}

// The types whose values the base `[<-` / `[[<-` modifies (dfltSubassign)
static bool vectorType(int t) {
    switch (t) {
        case NILSXP:
        case LGLSXP:
        case INTSXP:
        case REALSXP:
        case CPLXSXP:
        case STRSXP:
        case RAWSXP:
        case VECSXP:
        case EXPRSXP:
            return true;
        default:
            return false;
    }
}

bool plainLocalVector(SEXP xsym, SEXP env, SEXP known) {
    SEXP cell = known ? known : R_findVarLocInFrame(env, xsym).cell;
    if (!cell || cell == R_NilValue || !plainWritableCell(cell)) return false;
    SEXP x = fcar(cell);
    return !fobject(x) && vectorType(ftype(x));
}

// After forcing x's promise rebound x (its code assigned x): a complex
// assignment goes on from the promise's value pv, as GNU R's does from the
// value its lookup returned, so x is bound to pv for the general paths
// (an active or locked binding is left as it is: GNU R reports those).
static void rebindForced(SEXP env, SEXP xsym, SEXP pv) {
    PROTECT(pv);
    SEXP now = R_findVarLocInFrame(env, xsym).cell;
    if (!now || now == R_NilValue) {
        Rf_defineVar(xsym, pv, env);
    } else if (plainWritableCell(now)) {
        SETCAR(now, pv);
        hdr(now)->gp &= ~kMissingMask;
    }
    UNPROTECT(1);
}

// x[i] <- v etc. on the variable x (kind & kSuperAssign: x[i] <<- v, x is
// looked up from the enclosing environment on). As GNU R's complex
// assignment does, an argument (promise) is forced and a value that
// something else refers to is copied (shallowly) and bound before it is
// modified; an environment bound through a promise is bound directly.
// `known`: x's local binding cell when the binding cache has it, or nullptr.
bool fastSubassign(int kind, SEXP xsym, SEXP env, SEXP i, SEXP j, SEXP v, SEXP tramp,
                   const InPlaceScope& s, SEXP known) {
    bool super = kind & kSuperAssign;
    kind &= 3;
    SEXP cell;
    if (super) {
        if (env == R_GlobalEnv || env == R_EmptyEnv) return false;
        cell = R_findVarLoc(xsym, ENCLOS(env)).cell;
        if (!cell || TYPEOF(cell) != LISTSXP) return false;  // unbound, or a base binding
    } else {
        cell = known ? known : R_findVarLocInFrame(env, xsym).cell;
        if ((cell == nullptr || cell == R_NilValue) && env != R_GlobalEnv) {
            // not bound here: GNU R copies it from an enclosing frame first
            // (or reports it unbound, naming the function's call)
            startAssign(xsym, env, tramp);
            cell = R_findVarLocInFrame(env, xsym).cell;
        }
        if (cell == nullptr || cell == R_NilValue) return false;
    }
    if (!plainWritableCell(cell)) return false;
    SEXP x = fcar(cell);
    if (ftype(x) == PROMSXP) {
        PROTECT(x);
        SEXP pv = forcePromise(x, tramp);
        UNPROTECT(1);
        if (fcar(cell) != x) {
            // The promise's code rebound x (`function(z = {z <- 1:3; 2})`):
            // GNU R assigns into the value it looked up, the promise's, and
            // binds the result to x. x is bound to that value first, and the
            // general paths (dfltSubassign, GNU R) assign into it.
            if (!super) rebindForced(env, xsym, pv);
            return false;
        }
        if (ftype(pv) == ENVSXP && kind == 2 && !j) {
            if (!storeIntoEnv(pv, i, v)) return false;
            SETCAR(cell, pv);
            hdr(cell)->gp &= ~kMissingMask;
            return true;
        }
        if (frefcnt(pv) < 2) return false;  // GNU R would modify the promise's value
        return storeCopy(kind, cell, pv, i, j, v);
    }
    if (ftype(x) == ENVSXP) return kind == 2 && !j && storeIntoEnv(x, i, v);
    return storeIntoBinding(kind, cell, i, j, v, s);
}

// The value x[i] <- v starts from when i is evaluated after looking x up
// (GNU R's STARTASSIGN with EnsureLocal): an argument is forced (and a
// shared value copied and bound locally), a variable of an enclosing frame
// is copied into the local frame; an unbound x is GNU R's error.
SEXP startAssign(SEXP xsym, SEXP env, SEXP tramp) {
    SEXP cell = R_findVarLocInFrame(env, xsym).cell;
    if (cell && cell != R_NilValue && plainCell(cell)) {
        SEXP x = fcar(cell);
        if (ftype(x) != PROMSXP) return x;
        PROTECT(x);
        SEXP v = PROTECT(forcePromise(x, tramp));
        if (frefcnt(v) > 1 && fcar(cell) == x && !(hdr(cell)->gp & kBindingLock)) {
            // (as EnsureLocal: a wrapper whose data are copied when first
            // written, so that [<-'s checks and warnings come first)
            v = R_shallow_duplicate_attr(v);
            SETCAR(cell, v);
            hdr(cell)->gp &= ~kMissingMask;
        }
        UNPROTECT(2);
        return v;
    }
    if (cell && cell != R_NilValue) {
        // An active binding (or an immediate value): GNU R's EnsureLocal
        // reads it twice, once to see it is bound and once to evaluate it
        // (each read runs an active binding's function), then binds a shared
        // value's shallow copy back (running the binding's function with it).
        Rf_findVarInFrame(env, xsym);
        SEXP v = PROTECT(Rf_eval(xsym, env));
        if (frefcnt(v) > 1) {
            v = R_shallow_duplicate_attr(v);
            UNPROTECT(1);
            PROTECT(v);
            Rf_defineVar(xsym, v, env);
        }
        UNPROTECT(1);
        return v;
    }
    if (env == R_GlobalEnv) return Rf_eval(xsym, env);
    SEXP v = PROTECT(Rf_eval(xsym, ENCLOS(env)));
    v = Rf_shallow_duplicate(v);
    UNPROTECT(1);
    PROTECT(v);
    Rf_defineVar(xsym, v, env);
    UNPROTECT(1);
    return v;
}

// x[i] <- v after start_assign pushed x's value `xv`: in place when x is
// still bound to xv in the local frame (see fastSubassign); otherwise GNU R
// assigns into xv (x is bound to it again first: the index may have
// rebound x, but GNU R modifies the value it looked up before).
bool subassignPushed(int kind, SEXP xsym, SEXP xv, SEXP env, SEXP i, SEXP j, SEXP v,
                     const InPlaceScope& s) {
    SEXP cell = R_findVarLocInFrame(env, xsym).cell;
    if (!cell || cell == R_NilValue || !plainWritableCell(cell)) return false;
    if (fcar(cell) == xv) {
        if (ftype(xv) == ENVSXP) return kind == 2 && !j && storeIntoEnv(xv, i, v);
        return storeIntoBinding(kind, cell, i, j, v, s);
    }
    if (ftype(fcar(cell)) == PROMSXP && fprvalue(fcar(cell)) == xv) return false;
    SETCAR(cell, xv);
    return false;
}

void subassignSlow(int kind, SEXP xsym, SEXP env, SEXP xv, SEXP i, SEXP j, SEXP v, SEXP setter,
                   SEXP tramp, const InPlaceScope& scope, SEXP call, SEXP known) {
    int nidx = j ? 2 : 1;
    if (xv) {
        if (!subassignPushed(kind & 3, xsym, xv, env, i, j, v, scope) &&
            !dfltSubassign(kind, xsym, env, i, j, v, setter, tramp, scope, call))
            assignByGnuR(call, v, nidx, i, j, env);
    } else if (!fastSubassign(kind, xsym, env, i, j, v, tramp, scope, known) &&
               !dfltSubassign(kind, xsym, env, i, j, v, setter, tramp, scope, call)) {
        assignByGnuR(call, v, nidx, i, j, env);
    }
}

void envSubassign(int kind, SEXP xsym, SEXP nameSym, SEXP call, SEXP v, SEXP i, SEXP env,
                  SEXP tramp, const InPlaceScope& local, const InPlaceScope& wide) {
    bool done = false;
    // The environment X (X$name[i] <- v): a local binding, or one found in an
    // enclosing frame, which GNU R's complex assignment then binds locally.
    SEXP E = localAssignTarget(env, xsym, tramp);
    if (E == R_MissingArg) {
        // a missing argument: GNU R's byte code takes the missing marker (a
        // symbol) as the target's value and its getter fails on it
        static SEXP tmpSym = Rf_install("*tmp*");
        SEXP getter = PROTECT(Rf_lang3(R_DollarSymbol, tmpSym, nameSym));
        Rf_errorcall(getter, _("object of type '%s' is not subsettable"), Rf_type2char(SYMSXP));
    }
    // an environment's values may be on any frame's stack; a local list's
    // elements on this frame's
    const InPlaceScope& scope = E && ftype(E) == VECSXP ? local : wide;
    if (E && ftype(E) == ENVSXP && !fobject(E)) {
        R_varloc_t b = R_findVarLocInFrame(E, nameSym);
        if (b.cell && b.cell != R_NilValue && plainWritableCell(b.cell))
            done = kind == 3 ? storeField(fcar(b.cell), i, v, b.cell, nullptr, 0, scope)
                             : storeIntoBinding(kind, b.cell, i, nullptr, v, scope);
    } else if (E && ftype(E) == VECSXP && !hdr(E)->obj && !hdr(E)->alt &&
               mayModifyInPlace(E, scope)) {
        // X a local list: its element `name`, updated in place (copied into
        // X first when something else refers to it)
        SEXP nm = PROTECT(Rf_ScalarString(PRINTNAME(nameSym)));
        R_xlen_t k = nameIndex(E, nm);
        UNPROTECT(1);
        if (k >= 0) {
            SEXP el = VECTOR_ELT(E, k);
            if (kind == 3) {
                done = storeField(el, i, v, nullptr, E, k, scope);
            } else if (mayModifyInPlace(el, scope)) {
                done = storeInto(kind, el, i, nullptr, v, scope);
            } else {
                R_xlen_t idx = storeIndex(kind, el, i, nullptr, v);
                if (idx >= 0) {
                    SEXP copy = Rf_shallow_duplicate(el);
                    SET_VECTOR_ELT(E, k, copy);
                    storeAt(kind, copy, idx, v);
                    done = true;
                }
            }
        }
    }
    if (!done) assignByGnuR(call, v, 1, i, nullptr, env);
}

SEXP startAssignSuper(SEXP xsym, SEXP call, SEXP env, SEXP tramp) {
    SEXP v = Rf_findVar(xsym, ENCLOS(env));
    if (v == R_MissingArg)  // fuzzer class 20: GNU R's error, naming the assignment
        Rf_errorcall(call, _("argument \"%s\" is missing, with no default"), CHAR(PRINTNAME(xsym)));
    if (v == R_UnboundValue)  // GNU R's error (STARTASSIGN2), naming the assignment
        Rf_errorcall(call, _("object '%s' not found"), CHAR(PRINTNAME(xsym)));
    if (ftype(v) == PROMSXP) {
        PROTECT(v);
        v = forcePromise(v, tramp);
        UNPROTECT(1);
    }
    return v;
}

void forceTargetAst(SEXP xsym, SEXP call, bool super, SEXP env, SEXP tramp) {
    if (TYPEOF(env) != ENVSXP || env == R_EmptyEnv) return;
    SEXP cell = super ? nullptr : R_findVarLocInFrame(env, xsym).cell;
    if ((!cell || cell == R_NilValue) && (!super || env != R_GlobalEnv))
        cell = R_findVarLoc(xsym, ENCLOS(env)).cell;
    if (!cell || cell == R_NilValue || TYPEOF(cell) != LISTSXP || !plainCell(cell)) return;
    SEXP p = fcar(cell);
    if (ftype(p) != PROMSXP || fprvalue(p) != R_UnboundValue) return;
    // (GNU R reaches applydefine through eval(), so its byte code is
    // inactive: conditions name the context's call)
    PROTECT(p);
    struct Target {
        SEXP p, call, tramp;
    } t{p, call, tramp};
    callOutsideByteCode(
        [](void* d) {
            auto* t = static_cast<Target*>(d);
            RContext c;
            Rf_begincontext(&c, CTXT_CCODE, t->call, R_BaseEnv, R_BaseEnv, R_NilValue, R_NilValue);
            forcePromise(t->p, t->tramp);
            Rf_endcontext(&c);
        },
        &t);
    UNPROTECT(1);
}

// The fallback of every compiled complex assignment: GNU R performs
// `lhs <- rhs` with the right-hand side (and the first `nidx` computed
// indices of lhs) passed as already evaluated promises, so nothing is
// evaluated twice. `call` is the original assignment.
void assignByGnuR(SEXP call, SEXP v, int nidx, SEXP i, SEXP j, SEXP env) {
    // x[i] <<- v with no x from the enclosing environment on: GNU R's byte
    // code's error names the assignment (its AST interpreter's would show
    // the evaluated promises below)
    static SEXP superArrow = Rf_install("<<-");
    if (CAR(call) == superArrow) {
        SEXP x = CADR(call);
        while (TYPEOF(x) == LANGSXP && CDR(x) != R_NilValue) x = CADR(x);
        if (TYPEOF(x) == STRSXP && XLENGTH(x) == 1) x = Rf_installTrChar(STRING_ELT(x, 0));
        if (TYPEOF(x) == SYMSXP && env != R_GlobalEnv && env != R_EmptyEnv) {
            // (the binding only: an active one's function is not called)
            SEXP cell = R_findVarLoc(x, ENCLOS(env)).cell;
            bool unbound = !cell || cell == R_NilValue ||
                           (TYPEOF(cell) == SYMSXP ? SYMVALUE(cell) : CAR(cell)) == R_UnboundValue;
            if (unbound) Rf_errorcall(call, _("object '%s' not found"), CHAR(PRINTNAME(x)));
        }
    }
    stats.ast_evals++;
    astByReason[int(AstReason::AssignFallback)]++;
    SEXP prom = PROTECT(R_mkEVPROMISE(CADDR(call), v));
    SEXP lhs = CADR(call);
    if (nidx > 0) {
        lhs = Rf_shallow_duplicate(lhs);
        PROTECT(lhs);
        SEXP a = CDDR(lhs);
        for (int k = 0; k < nidx; k++, a = CDR(a))
            if (TYPEOF(CAR(a)) == LANGSXP) SETCAR(a, R_mkEVPROMISE(CAR(a), k == 0 ? i : j));
    } else {
        PROTECT(lhs);
    }
    // GNU R's `<-` is called with the original assignment as its call and
    // the arguments above: the context its complex assignment runs in names
    // the assignment as written (conditions of the setters show `v`, not the
    // value; the byte code's current expression for x$a[i] <- v is the same)
    SEXP op = SYMVALUE(CAR(call));
    if (TYPEOF(op) == SPECIALSXP) {
        SEXP args = PROTECT(Rf_list2(lhs, prom));
        R_Visible = TRUE;
        const void* vmax = vmaxget();
        primFun(op)(call, op, args, env);
        vmaxset(vmax);
    } else {
        SEXP e = PROTECT(Rf_lang3(CAR(call), lhs, prom));
        Rf_eval(e, env);
    }
    UNPROTECT(3);
}

// x[i] <- v / x[[i]] <- v / x[i, j] <- v on a local variable whose value
// is not an object, when the in-place fast paths do not apply (vector
// indices, type changes, ...): GNU R's `[<-` / `[[<-` is called on x's value
// directly, as its byte code's default subassign does, with the setter call
// `[<-`(`*tmp*`, i, value = v) (marked as an assignment call, so an unshared
// x is modified in place) and `[<-`(x, i, value = v) as the current
// expression (see setterCalls), and the result is bound to x. Instead of
// evaluating the whole assignment with the AST interpreter.
bool dfltSubassign(int kind, SEXP xsym, SEXP env, SEXP i, SEXP j, SEXP v, SEXP setter, SEXP tramp,
                   const InPlaceScope& s, SEXP call) {
    bool super = kind & kSuperAssign;
    SEXP cell;
    if (super) {
        // x[i] <<- v: the binding found from the enclosing environment on
        // (GNU R's STARTASSIGN2 / ENDASSIGN2)
        if (env == R_GlobalEnv || env == R_EmptyEnv) return false;
        cell = R_findVarLoc(xsym, ENCLOS(env)).cell;
        if (!cell || TYPEOF(cell) != LISTSXP) return false;  // unbound, or a base binding
    } else {
        cell = R_findVarLocInFrame(env, xsym).cell;
    }
    if (!cell || cell == R_NilValue || !plainWritableCell(cell)) return false;
    SEXP x = fcar(cell);
    if (super && x == R_MissingArg)  // GNU R's lookup for <<- (STARTASSIGN2)
        Rf_errorcall(call, _("argument \"%s\" is missing, with no default"), CHAR(PRINTNAME(xsym)));
    if (ftype(x) == PROMSXP && super) {
        // forced; copied below when something else refers to the value
        PROTECT(x);
        SEXP pv = forcePromise(x, tramp);
        UNPROTECT(1);
        if (fcar(cell) != x) return false;  // forcing changed the binding
        x = pv;
    } else if (ftype(x) == PROMSXP) {
        // an argument: forced, and copied and bound locally when shared
        // (GNU R's STARTASSIGN); the assignment then replaces the promise
        x = startAssign(xsym, env, tramp);
        if (R_findVarLocInFrame(env, xsym).cell != cell) return false;
    }
    if (s.heldOnStack(x) || x == v || (super && frefcnt(x) > 1)) {
        // an operand slot refers to x: GNU R's [<- must not modify it
        x = Rf_shallow_duplicate(x);
        SETCAR(cell, x);
        hdr(cell)->gp &= ~15u;
    }
    // (a missing argument: GNU R's [<- gets its value, the empty symbol,
    // and reports it as not subsettable; <<- reports it missing when it
    // looks it up: GNU R does that)
    if (!vectorType(ftype(x)) && (x != R_MissingArg || super)) return false;
    static SEXP valueSym = Rf_install("value");
    SEXP tmpCall = VECTOR_ELT(setter, 0);
    SEXP op = SYMVALUE(CAR(tmpCall));
    if (TYPEOF(op) != SPECIALSXP) return false;
    // arguments: values that evaluate to themselves, else evaluated promises
    auto arg = [](SEXP a) {
        switch (TYPEOF(a)) {
            case SYMSXP:
            case LANGSXP:
            case PROMSXP:
            case DOTSXP:
            case BCODESXP:
                return a == R_MissingArg ? a : R_mkEVPROMISE(a, a);
            default:
                return a;
        }
    };
    PROTECT_INDEX ipx;
    SEXP args = consNR(arg(v), R_NilValue);
    PROTECT_WITH_INDEX(args, &ipx);
    SET_TAG(args, valueSym);
    if (j) REPROTECT(args = consNR(arg(j), args), ipx);
    REPROTECT(args = consNR(arg(i), args), ipx);
    // an object reaches its method as an evaluated promise of `*tmp*`, as
    // from GNU R's byte code (dispatch happens inside the primitive)
    static SEXP tmpSym = Rf_install("*tmp*");
    SEXP xarg = x == R_MissingArg ? R_mkEVPROMISE(xsym, x)
                : fobject(x)      ? R_mkEVPROMISE(tmpSym, x)
                                  : x;
    REPROTECT(args = consNR(xarg, args), ipx);
    setTrampolineExpr(tramp, VECTOR_ELT(setter, 1));
    const void* vmax = vmaxget();
    if (fobject(x)) {
        // a method sees the value itself in its call, as GNU R's byte code
        // dispatches it (`[<-.cls`(`*tmp*`, i, value = <the value>))
        SEXP orig = tmpCall;
        tmpCall = Rf_shallow_duplicate(orig);
        SETLEVELS(tmpCall, LEVELS(orig));               // still marked as an assignment call
        REPROTECT(args = Rf_cons(tmpCall, args), ipx);  // keeps the copy alive
        args = CDR(args);
        SEXP last = tmpCall;
        while (CDR(last) != R_NilValue) last = CDR(last);
        SETCAR(last, v);
    }
    bool object = fobject(x);
    SEXP r = primFun(op)(tmpCall, op, args, env);
    vmaxset(vmax);
    // A method is R code: it may have removed x's binding (and made a new
    // one). GNU R's byte code then binds the result to x as found now.
    SEXP rho = super ? ENCLOS(env) : env;
    if (object && (super ? R_findVarLoc(xsym, rho) : R_findVarLocInFrame(rho, xsym)).cell != cell) {
        PROTECT(r);
        if (super)
            Rf_setVar(xsym, r, rho);
        else
            Rf_defineVar(xsym, r, rho);
        UNPROTECT(1);
    } else if (fcar(cell) != r) {
        SETCAR(cell, r);
        hdr(cell)->gp &= ~kMissingMask;  // as defineVar: no longer missing
    }
    UNPROTECT(1);
    R_Visible = FALSE;
    return true;
}

// The object X of a complex assignment `X$name <- v` / `X$name[i] <- v`
// that rir may update itself, or nullptr (GNU R then does the assignment):
// - X's own binding, if it is an ordinary one;
// - X bound to a promise (an argument) whose value is an environment: GNU R
//   forces it and, its assignment ending with `X <- *tmp*`, leaves X bound
//   to that environment; rir does the same;
// - an environment found in an enclosing frame: GNU R's complex assignment
//   binds it locally first (EnsureLocal), then assigns into it.
SEXP localAssignTarget(SEXP env, SEXP xsym, SEXP tramp) {
    R_varloc_t loc = R_findVarLocInFrame(env, xsym);
    SEXP cell = loc.cell;
    if (cell && cell != R_NilValue) {
        if (!plainWritableCell(cell)) return nullptr;
        SEXP x = fcar(cell);
        if (ftype(x) != PROMSXP) return x;
        PROTECT(x);
        SEXP pv = forcePromise(x, tramp);
        UNPROTECT(1);
        if (R_findVarLocInFrame(env, xsym).cell != cell || fcar(cell) != x) {
            rebindForced(env, xsym, pv);
            return nullptr;
        }
        if (ftype(pv) != ENVSXP || fobject(pv)) return nullptr;
        SETCAR(cell, pv);
        hdr(cell)->gp &= ~kMissingMask;  // as defineVar: no longer missing
        return pv;
    }
    if (env == R_GlobalEnv) return nullptr;
    SEXP e0 = Rf_findVar(xsym, ENCLOS(env));
    if (ftype(e0) != ENVSXP || fobject(e0)) return nullptr;
    Rf_defineVar(xsym, e0, env);
    return e0;
}

// x$name <- v on a shared plain list x bound at `cell` (or held by the
// promise bound there) whose element `name` exists: x copied (shallowly),
// the copy bound and stored into, as GNU R's `$<-` does to a shared list.
static bool dollarAssignCopy(SEXP cell, SEXP x, SEXP name, SEXP v) {
    if (ftype(x) != VECSXP || fobject(x) || hdr(x)->alt || v == R_NilValue) return false;
    R_xlen_t k = namedElement(x, name);
    if (k < 0) return false;
    PROTECT(v);
    SEXP copy = PROTECT(Rf_shallow_duplicate(x));
    SET_VECTOR_ELT(copy, k, v);
    SETCAR(cell, copy);
    hdr(cell)->gp &= ~kMissingMask;  // as defineVar: no longer missing
    UNPROTECT(2);
    return true;
}

bool dollarAssignPlain(SEXP env, SEXP xsym, SEXP name, SEXP nameSym, SEXP v,
                       const InPlaceScope& scope) {
    SEXP cell = R_findVarLocInFrame(env, xsym).cell;
    if (!cell || cell == R_NilValue || !plainWritableCell(cell)) return false;
    SEXP x = fcar(cell);
    if (ftype(x) == ENVSXP && (fobject(x) || x == env)) return false;
    if (ftype(x) != ENVSXP && ftype(x) != VECSXP) return false;
    return dollarAssignInto(x, name, nameSym, v, scope);
}

bool dollarAssignLocal(SEXP env, SEXP xsym, SEXP name, SEXP nameSym, SEXP v, SEXP tramp,
                       const InPlaceScope& scope) {
    SEXP x = localAssignTarget(env, xsym, tramp);
    if (x && dollarAssignInto(x, name, nameSym, v, scope)) return true;
    // a list something else holds too (an argument's, forced by now): a
    // copy is bound to x (one only the promise holds GNU R would modify in
    // place: left to the general assignment)
    SEXP cell = R_findVarLocInFrame(env, xsym).cell;
    if (!cell || cell == R_NilValue || !plainWritableCell(cell)) return false;
    x = fcar(cell);
    if (ftype(x) == PROMSXP) {
        x = fprvalue(x);
        if (x == R_UnboundValue || frefcnt(x) < 2) return false;
    } else if (mayModifyInPlace(x, scope)) {
        return false;  // (not refused for being shared)
    }
    return dollarAssignCopy(cell, x, name, v);
}

bool dollarAssignInto(SEXP x, SEXP name, SEXP nameSym, SEXP v, const InPlaceScope& scope) {
    if (ftype(x) == ENVSXP && !fobject(x)) {
        // e$name <- v: define in e (unless that would need an error).
        R_varloc_t b = R_findVarLocInFrame(x, nameSym);
        bool exists = b.cell && b.cell != R_NilValue;
        if (exists ? !(hdr(b.cell)->gp & (kActiveBinding | kBindingLock))
                   : !R_EnvironmentIsLocked(x)) {
            // an ordinary binding of a frame the global cache does not
            // hold: its value replaced, as defineVar does then (the
            // binding no longer missing)
            if (exists && ftype(b.cell) == LISTSXP && !hdr(b.cell)->extra &&
                !(hdr(x)->gp & kGlobalFrame) && x != R_GlobalEnv) {
                SETCAR(b.cell, v);
                hdr(b.cell)->gp &= ~kMissingMask;
                return true;
            }
            Rf_defineVar(nameSym, v, x);
            return true;
        }
        return false;
    }
    if (ftype(x) == VECSXP && !fobject(x) && !hdr(x)->alt && mayModifyInPlace(x, scope) &&
        v != R_NilValue && v != x) {
        R_xlen_t k = namedElement(x, name);
        if (k >= 0) {
            SET_VECTOR_ELT(x, k, v);
            return true;
        }
    }
    return false;
}

}  // namespace rir
