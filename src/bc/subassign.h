// subassign.h — element stores and complex assignments of the RIR
// interpreter (subassign.cpp), and the index helpers they share with the
// subset fast paths of interp.cpp.
//
// All of this was file-local in interp.cpp: it stays internal to rir.so
// (hidden visibility), so calls from the dispatch loop stay direct calls.
#pragma once

#include "code.h"
#include "inplace.h"

namespace rir {

#pragma GCC visibility push(hidden)

// subassign kind flags (the low two bits: 1 for [<-, 2 for [[<-)
const int kSuperAssign = 4;  // subassign kind flag: x[i] <<- v
const int kPushedX = 8;      // subassign kind flag: x's value pushed by start_assign

// A positive in-range scalar index (1-based) as a 0-based offset, or -1.
inline R_xlen_t scalarIndex(SEXP i, R_xlen_t len) {
    R_xlen_t idx;
    if (simpleScalar(i, INTSXP)) {
        int v = fival(i);
        if (v == NA_INTEGER || v < 1) return -1;
        idx = v - 1;
    } else if (simpleScalar(i, REALSXP)) {
        double d = fdval(i);
        if (!(d >= 1) || d >= 4503599627370496.0) return -1;
        idx = R_xlen_t(d) - 1;
    } else {
        return -1;
    }
    return idx < len ? idx : -1;
}

// The dims of a plain matrix whose only attribute is dim, else false.
inline bool plainMatrix(SEXP x, int* nrow, int* ncol) {
    SexpHeader* h = hdr(x);
    if (h->alt || h->obj) return false;
    SEXP a = h->attrib;
    if (a == R_NilValue || ftag(a) != R_DimSymbol || fcdr(a) != R_NilValue) return false;
    SEXP dim = fcar(a);
    if (ftype(dim) != INTSXP || hdr(dim)->alt || flength(dim) != 2) return false;
    *nrow = static_cast<int*>(fdata(dim))[0];
    *ncol = static_cast<int*>(fdata(dim))[1];
    return true;
}

// The 0-based offset of m[i, j] in a plain matrix m for in-range scalar
// indices, or -1.
inline R_xlen_t matrixIndex(SEXP m, SEXP i, SEXP j) {
    int nrow, ncol;
    if (!plainMatrix(m, &nrow, &ncol)) return -1;
    R_xlen_t r = scalarIndex(i, nrow), c = scalarIndex(j, ncol);
    return r < 0 || c < 0 ? -1 : r + c * R_xlen_t(nrow);
}

// Shared with interp.cpp (were static there):
// The element of list/vector x named by the scalar string i (first match,
// compared as cached CHARSXPs), or -1 (not found, NA, or not comparable
// that way: GNU R decides then).
R_xlen_t nameIndex(SEXP x, SEXP i);

// The first element of x whose name is the CHARSXP `name` (compared as
// cached CHARSXPs, exactly), or -1 (none, or x has no names).
R_xlen_t namedElement(SEXP x, SEXP name);

R_xlen_t storeIndex(int kind, SEXP x, SEXP i, SEXP j, SEXP v);

void storeAt(int kind, SEXP x, R_xlen_t idx, SEXP v);

// el$field <- v (field: a scalar string) where el is a plain list that has
// the field already, in place; el lives in binding `cell` or in slot k of
// list `parent` and is copied into it first when something else refers to
// it. NULL (deletion) and everything else: GNU R.
bool storeField(SEXP el, SEXP field, SEXP v, SEXP cell, SEXP parent, R_xlen_t k,
                const InPlaceScope& s);

// The common element store, in place: x[i] <- v (j nullptr) or x[i, j] <- v
// for a double or integer scalar v (its header byte kv, REALSXP or INTSXP
// with kScalarBit, and its value d or n; v itself without attributes) at
// in-range scalar indices of the double / integer vector x (not an object;
// for two indices a plain matrix: dim its only attribute) that ordinary
// binding `cell` holds, when only that binding counts x and no operand slot
// holds it. False: nothing was done.
inline bool storeScalarElement(SEXP cell, SEXP i, SEXP j, unsigned char kv, double d, int n,
                               const InPlaceScope& s) {
    if (!plainWritableCell(cell)) return false;
    SEXP x = fcar(cell);
    SexpHeader* hx = hdr(x);
    if (hx->named != 1 || hx->alt || hx->obj) return false;            // (x's own attributes stay)
    const unsigned char kReal = REALSXP | 0x20, kInt = INTSXP | 0x20;  // type, scalar bit
    if (!((hx->type == REALSXP && (kv == kReal || kv == kInt)) ||
          (hx->type == INTSXP && kv == kInt)))
        return false;
    R_xlen_t idx = j ? matrixIndex(x, i, j) : scalarIndex(i, flength(x));
    if (idx < 0 || s.heldOnStack(x)) return false;
    if (hx->type == INTSXP)
        static_cast<int*>(fdata(x))[idx] = n;
    else
        static_cast<double*>(fdata(x))[idx] = kv == kReal ? d : n == NA_INTEGER ? NA_REAL : n;
    hdr(cell)->gp &= ~kMissingMask;  // as defineVar: no longer missing
    return true;
}

// Stores into the value of an ordinary binding, copying it first if shared.
bool storeIntoBinding(int kind, SEXP cell, SEXP i, SEXP j, SEXP v, const InPlaceScope& s);

// e[["name"]] <- v on an environment: GNU R defines the variable (errors
// for locked environments and bindings are left to it).
bool storeIntoEnv(SEXP e, SEXP i, SEXP v);

// x[i] <- v etc. on the variable x (kind & kSuperAssign: x[i] <<- v, x is
// looked up from the enclosing environment on). As GNU R's complex
// assignment does, an argument (promise) is forced and a value that
// something else refers to is copied (shallowly) and bound before it is
// modified; an environment bound through a promise is bound directly.
// `known`: x's local binding cell when the binding cache has it, or nullptr.
bool fastSubassign(int kind, SEXP xsym, SEXP env, SEXP i, SEXP j, SEXP v, SEXP tramp,
                   const InPlaceScope& s, SEXP known = nullptr);

// Is x bound in env's own frame (an ordinary binding: not active, not
// locked) to a vector no subassignment dispatches on or forces: a plain
// logical, integer, double, complex, character, raw vector, list or
// expression vector, or NULL, without a class? x[i] <- v on such an x runs
// no R code (dfltSubassign calls the base `[<-` on it; at most a warning or
// an error). The interpreter records in the subassign's feedback when x was
// not (kSubassignNotPlain), the optimizer speculates that it is.
// `known`: x's binding cell there when the caller has it.
bool plainLocalVector(SEXP xsym, SEXP env, SEXP known = nullptr);

// The value x[i] <- v starts from when i is evaluated after looking x up
// (GNU R's STARTASSIGN with EnsureLocal): an argument is forced (and a
// shared value copied and bound locally), a variable of an enclosing frame
// is copied into the local frame; an unbound x is GNU R's error.
SEXP startAssign(SEXP xsym, SEXP env, SEXP tramp);

// x[i] <- v after start_assign pushed x's value `xv` (see subassign.cpp).
bool subassignPushed(int kind, SEXP xsym, SEXP xv, SEXP env, SEXP i, SEXP j, SEXP v,
                     const InPlaceScope& s);

// x[i] <- v, x[[i]] <- v, m[i, j] <- v (`kind`: the subassign's, with
// kSuperAssign for <<-) past the common scalar store: with x's value `xv`
// pushed before the indices (else nullptr), rir's fast paths, then the
// default `[<-` / `[[<-`, then GNU R's own assignment. `known`: x's binding
// cell in env when the caller has it.
void subassignSlow(int kind, SEXP xsym, SEXP env, SEXP xv, SEXP i, SEXP j, SEXP v, SEXP setter,
                   SEXP tramp, const InPlaceScope& scope, SEXP call, SEXP known);

// X$name[i] <- v (kind 2), X$name[[i]] <- v (1), X$name$f <- v (3, i the
// field's name) with X an environment or a local list (the interpreter's
// env_subassign): in place where rir may, else GNU R's assignment. `local`:
// where uncounted references to the values of a local list can be (the
// frame's operand slots), `wide`: to an environment's (any frame's).
void envSubassign(int kind, SEXP xsym, SEXP nameSym, SEXP call, SEXP v, SEXP i, SEXP env,
                  SEXP tramp, const InPlaceScope& local, const InPlaceScope& wide);

// The value f(x) <<- v starts from (GNU R's STARTASSIGN2): x's value from
// env's enclosing environment on (a promise forced); a missing argument or
// an unbound x is GNU R's error, naming the assignment `call`.
SEXP startAssignSuper(SEXP xsym, SEXP call, SEXP env, SEXP tramp);

// force_target_ast: in code GNU R leaves to its AST interpreter, the
// unforced promise x of a complex assignment is bound to (locally, else
// from env's parent on; `super`: from the parent on) is forced inside a
// context whose call is the assignment `call`, as that interpreter's
// applydefine forces it (its errors and warnings name the assignment).
// Active bindings are left alone (the assignment reads them itself).
void forceTargetAst(SEXP xsym, SEXP call, bool super, SEXP env, SEXP tramp);

// The fallback of every compiled complex assignment: GNU R performs
// `lhs <- rhs` with the right-hand side (and the first `nidx` computed
// indices of lhs) passed as already evaluated promises, so nothing is
// evaluated twice. `call` is the original assignment.
void assignByGnuR(SEXP call, SEXP v, int nidx, SEXP i, SEXP j, SEXP env);

// x[i] <- v / x[[i]] <- v / x[i, j] <- v on a local variable whose value
// is not an object, when the in-place fast paths do not apply (vector
// indices, type changes, ...): GNU R's `[<-` / `[[<-` is called on x's value
// directly, as its byte code's default subassign does, with the setter call
// `[<-`(`*tmp*`, i, value = v) (marked as an assignment call, so an unshared
// x is modified in place) and `[<-`(x, i, value = v) as the current
// expression (see setterCalls), and the result is bound to x. Instead of
// evaluating the whole assignment with the AST interpreter.
bool dfltSubassign(int kind, SEXP xsym, SEXP env, SEXP i, SEXP j, SEXP v, SEXP setter, SEXP tramp,
                   const InPlaceScope& s, SEXP call);

// The object X of a complex assignment `X$name <- v` / `X$name[i] <- v`
// that rir may update itself, or nullptr (GNU R then does the assignment):
// - X's own binding, if it is an ordinary one;
// - X bound to a promise (an argument) whose value is an environment: GNU R
//   forces it and, its assignment ending with `X <- *tmp*`, leaves X bound
//   to that environment; rir does the same;
// - an environment found in an enclosing frame: GNU R's complex assignment
//   binds it locally first (EnsureLocal), then assigns into it.
SEXP localAssignTarget(SEXP env, SEXP xsym, SEXP tramp);

// x$name <- v (dollar_assign's fast path): into an environment x, or into
// a plain list x (named `name`: a CHARSXP; nameSym its symbol) with an
// element named `name`, replaced in place when nothing in `scope` holds x,
// else in a shallow copy bound to x. False: nothing was assigned (the
// general complex assignment takes over).
bool dollarAssignLocal(SEXP env, SEXP xsym, SEXP name, SEXP nameSym, SEXP v, SEXP tramp,
                       const InPlaceScope& scope);

// dollarAssignLocal when no R code can run for it and only x's value
// changes (its binding does not): x's binding in env an ordinary one (not
// a promise, active or locked) holding a list or another environment (not
// env itself), assigned in place. What the optimizer speculates
// (kDollarNotPlain); false: nothing was assigned.
bool dollarAssignPlain(SEXP env, SEXP xsym, SEXP name, SEXP nameSym, SEXP v,
                       const InPlaceScope& scope);

// The assignment itself, into the environment or list x.
bool dollarAssignInto(SEXP x, SEXP name, SEXP nameSym, SEXP v, const InPlaceScope& scope);

// Stores v at x[i] / x[[i]] / x[i, j] in place when x is a plain vector that
// nothing but its one binding refers to (see storeIndex for the rest).
inline bool storeInto(int kind, SEXP x, SEXP i, SEXP j, SEXP v, const InPlaceScope& s) {
    if (!mayModifyInPlace(x, s)) return false;
    R_xlen_t idx = storeIndex(kind, x, i, j, v);
    if (idx < 0) return false;
    storeAt(kind, x, idx, v);
    return true;
}

#pragma GCC visibility pop

}  // namespace rir
