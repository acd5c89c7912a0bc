// helpers.h — the runtime helpers native code calls (C ABI), listed in one
// table (helpers()). Lowering (lower.cpp) calls them by address; each one
// does what the RIR interpreter does for the same operation, with the same
// errors, so that a value computed natively is the value RIR computes.
//
// Every helper may raise an R error (a longjmp through the native frames,
// which hold no C++ objects) unless its comment says otherwise.
#pragma once
#include <vector>

#include "../runtime/export.h"
#include "../runtime/rapi.h"

namespace rir {
struct BelowMemo;
struct Code;
struct DispatchTable;
struct Feedback;
namespace native {

#pragma GCC visibility push(default)
extern "C" {
// The frame's node-stack slots (every boxed value native code makes is
// stored in one, so the collector sees it): `n` slots, zeroed.
NodeStackSlot* rirn_enter(int n);
// Drops the slots (no error).
void rirn_leave(NodeStackSlot* base);
// Argument `sym` as the call bound it in the new environment (no error).
SEXP rirn_ldarg(SEXP env, SEXP sym);
// The environment's parent (no error).
SEXP rirn_enclos(SEXP env);
// A variable's binding value, lazy when it is a promise (errors: unbound,
// missing).
// `expr`: what its errors name (NULL: the symbol, shown as the function's
// call).
SEXP rirn_ldvar(SEXP sym, SEXP env, SEXP tramp, SEXP expr, NodeStackSlot* frame, const int* hold);
// The value of a possibly lazy value; `sym`: what errors of forcing name
// (the variable it was loaded from, or its expression), or NULL.
SEXP rirn_force(SEXP v, SEXP sym, SEXP tramp);
// x <- v in env (locked and active bindings as GNU R).
void rirn_stvar(SEXP sym, SEXP v, SEXP env, NodeStackSlot* frame, const int* hold);
// The same through the binding cell cached in *cache (a node-stack slot of
// the frame, R_NilValue until found), as the interpreter's binding cache:
// a removed binding's cell holds R_UnboundValue and is locked.
SEXP rirn_ldvar_cell(SEXP sym, SEXP env, SEXP tramp, SEXP expr, SEXP* cache, char* dirty,
                     NodeStackSlot* frame, const int* hold);
void rirn_stvar_cell(SEXP sym, SEXP v, SEXP env, SEXP* cache, char* dirty, NodeStackSlot* frame,
                     const int* hold);
// Does the own environment's binding of sym (cell cached) hold exactly v /
// a plain double scalar equal to x (bit for bit) / a plain int scalar equal
// to x? (BindingIs)
int rirn_binding_is(SEXP sym, SEXP env, SEXP v, SEXP* cache);
// is x a plain local vector? (IsPlainLocal; the binding cell cached)
int rirn_plain_local(SEXP sym, SEXP env, SEXP* cache);
// does the frame hold no active binding? (NoActiveBindings)
int rirn_no_active_bindings(SEXP env);
int rirn_binding_is_real(SEXP sym, SEXP env, double x, SEXP* cache);
int rirn_binding_is_int(SEXP sym, SEXP env, int x, SEXP* cache);
// x[i] <- v / x[[i]] <- v / m[i, j] <- v (j nullptr for one index) on the
// own environment's variable xsym, as the interpreter's subassign: in place
// where inplace.h allows (the frame's live slots frame[live[0..nlive)]
// counting as operand slots), else GNU R's `[<-`; *dirty set when R code
// may have run. Returns x's value after it (R_NilValue for an active
// binding, with *dirty set: it is not read).
SEXP rirn_subassign(int kind, SEXP xsym, SEXP env, SEXP v, SEXP i, SEXP j, SEXP setter, SEXP call,
                    SEXP tramp, SEXP* cache, NodeStackSlot* frame, const int* live, int nlive,
                    char* dirty);
// The same for a double computed unboxed (boxed only when the element
// store is not the in-place one).
SEXP rirn_subassign_real(int kind, SEXP xsym, SEXP env, double v, SEXP i, SEXP j, SEXP setter,
                         SEXP call, SEXP tramp, SEXP* cache, NodeStackSlot* frame, const int* live,
                         int nlive, char* dirty);
// A missing argument bound to the promise of its default.
void rirn_starg_default(SEXP sym, SEXP promise, SEXP env);
// A promise of `code` (a symbol, or a promise trampoline) in env.
SEXP rirn_mkarg(SEXP code, SEXP env);
// Arithmetic, comparison and unary operators (ArithOp), as RIR's binop /
// unop; `keep` bit 0 / 1: operand a / b is used again (GNU R's arithmetic
// must not write its result into it); the result may be written into
// `scratch` (the instruction's previous result when nothing refers to it any
// more, tested inline by the lowering: not counted, in none of the live
// slots; else nullptr). *dirty set when GNU R's arithmetic ran (it may
// dispatch to R code).
// An operand not used again is still kept when a live slot of the frame
// (frame[live[k]], k < nlive) holds the same object (two loads of one
// variable, the callee having let go of the binding's count).
SEXP rirn_binop(int op, SEXP a, SEXP b, SEXP call, SEXP env, SEXP tramp, int keep, SEXP scratch,
                char* dirty, NodeStackSlot* frame, const int* live, int nlive);
// Notes in the binop's feedback that its integer + - * overflowed, when
// r is NA from operands a and b that are not (no error).
void rirn_note_overflow(SEXP a, SEXP b, SEXP r, Feedback* fb);
SEXP rirn_unop(int op, SEXP a, SEXP call, SEXP env, SEXP tramp, int keep, NodeStackSlot* frame,
               const int* live, int nlive);
// The values of the frame's live slots count as referenced while an
// instruction that may run R code runs (inplace.h's holdSlots): rirn_hold
// copies them into the frame's slots from `copies` on (keeping them alive)
// and counts them; rirn_release counts those copies down and clears them.
void rirn_hold(NodeStackSlot* frame, const int* live, int nlive, int copies);
void rirn_release(NodeStackSlot* frame, int nlive, int copies);
// Variable loads and stores run R code only when they meet an active
// binding (or look beyond the frame, where one may be): their helpers take
// a hold list, {n, copies, slot 1, ..., slot n} (the frame's live slots and
// the first held-copy slot, as rirn_hold's arguments), and hold only around
// that lookup or store (holdLive/releaseLive).
void holdLive(NodeStackSlot* frame, const int* hold);
void releaseLive(NodeStackSlot* frame, const int* hold);
// The truth value of an if/while condition.
int rirn_astest(SEXP v, SEXP call);
// Does v have the PIR type (kinds, flags) (no error).
int rirn_istype(SEXP v, int kinds, int flags);
// is.integer(x) and kin (the builtin f, pir::kindTestOf) for x (no R code).
int rirn_kind_test(SEXP f, SEXP x);
// GNU R's AST interpreter on e.
SEXP rirn_eval(SEXP e, SEXP env);
// The function a call names (*dirty set when a promise was evaluated).
SEXP rirn_ldfun(SEXP sym, SEXP env, SEXP call, SEXP tramp, char* dirty);
// Does sym still name `expected` from env (the interpreter's guard_fun:
// stillNames)? (sets *dirty when the lookup evaluates a promise)
int rirn_still_names(SEXP sym, SEXP expected, SEXP env, SEXP call, SEXP tramp, char* dirty);
// The same without running R code: 0 where finding out would (no error).
int rirn_still_names_without_r(SEXP sym, SEXP expected, SEXP env);
// Is fun the closure clo, with the environment env clo had when the code
// was compiled, not marked for debugging (an inlined body may run instead
// of the call)? (no error)
int rirn_is_callee(SEXP fun, SEXP clo, SEXP env);
// lazyValue(v) (dispatch_table.h): 1 when forcing v may run R code.
int rirn_lazy_value(SEXP v);
// The call of RIR call site `site` of `code` to `fun`, its arguments made
// from the site as the RIR interpreter makes them.
SEXP rirn_call_site(Code* code, int site, SEXP fun, SEXP env, SEXP tramp);
// The same with some promises evaluated already: eager[k], when not null, is
// the value of argument k (the values are in the frame's slots).
SEXP rirn_call_site_eager(Code* code, int site, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager);
// A StaticCall (the same, fun known to be a rir closure whose formals the
// site's arguments match by position; eager may be null; ctx: the Context
// bits the arguments' types proved)
SEXP rirn_static_call(Code* code, int site, SEXP fun, SEXP env, SEXP tramp, const SEXP* eager,
                      uint64_t ctx);
// RIR_DEOPT_CHAOS: 1 when this Assume is to fail on purpose (no error).
int rirn_chaos();
// for(): the sequence (forSequence), its length (an integer scalar), its
// element i (i an integer scalar, 0-based), and from:to as `:` computes it.
SEXP rirn_forseq(SEXP v, SEXP call);
// LoopFits: 1 when a loop over v (b nullptr), or over v:b, has at most
// INT_MAX iterations; 0 where unsure. (no error)
int rirn_loop_fits(SEXP v, SEXP b);
void rirn_forend(SEXP seq);  // (no error)
SEXP rirn_forlength(SEXP seq);
// The sequence of a loop over an integer range native code did not build
// (start, step 1 or -1, len elements), as `:` builds it, counted as
// rirn_forseq counts its result: for a frame state (the interpreter's
// loop state reads the range from it).
SEXP rirn_range_seq(int start, int step, int len);
SEXP rirn_forelement(SEXP seq, SEXP i);
// The same, written into `prev` (the loop variable's value of the previous
// iteration, which nothing else holds uncounted: findLoopVarReuse) when
// that is a plain int or double scalar of seq's type that nothing counts
// but the binding cached in `*cell` (the loop variable's, or NULL), after
// the first iteration (i > 0); else a new scalar (no error).
SEXP rirn_forelement_reuse(SEXP seq, int i, SEXP prev, SEXP* cell);
// UseMethod(generic[, obj]) (obj nullptr: the first argument) in the body
// of the function running in env, as the interpreter's use_method: the
// method's value, else GNU R's UseMethod (which leaves with a jump).
SEXP rirn_use_method(SEXP generic, SEXP call, SEXP obj, SEXP env, SEXP tramp);
// x$name <- v by the RIR dollar_assign at pc of `code` when its fast path
// applies (dollarAssignLocal, or with `plain` dollarAssignPlain; the
// frame's live slots as operand slots): 1, else 0 (nothing assigned).
int rirn_dollar_assign(Code* code, int pc, SEXP v, SEXP env, SEXP tramp, NodeStackSlot* frame,
                       const int* live, int nlive, int plain);
// Complex assignments (the interpreter's start_assign, start_assign_super,
// getter_call and setter_call): x's value to start from; a getter's value;
// a replacement function's value, the target copied first unless it is a
// binding of the function's own frame (`own`) that nothing else counts, no
// live slot of the frame holds and the value is not.
// x[i] <- v by the interpreter's general path (subassignSlow): kind as
// its subassign's; xv: x's value pushed before the indices, or nullptr.
// (`memo`: the activation's BelowMemo, for the scans of the callers' slots
// that a store into a binding outside the frame makes; also below)
void rirn_subassign_general(int kind, SEXP xsym, SEXP env, SEXP v, SEXP xv, SEXP i, SEXP j,
                            SEXP setter, SEXP call, SEXP tramp, NodeStackSlot* frame,
                            const int* live, int nlive, BelowMemo* memo);
// .Internal(lapply(X, FUN)) and kin (runApplyInternal).
SEXP rirn_apply_internal(SEXP inner, SEXP call, SEXP env, SEXP tramp);
// A loop body run in a GNU R loop context (runLoopBody): 1 after a break.
int rirn_loop_body(SEXP body, SEXP env, SEXP tramp);
// ..N from env's `...` (dotsElement).
SEXP rirn_ldddvar(SEXP sym, SEXP env, SEXP tramp);
// X$name[i] <- v and kin (envSubassign).
void rirn_env_subassign(int kind, SEXP xsym, SEXP nameSym, SEXP call, SEXP v, SEXP i, SEXP env,
                        SEXP tramp, NodeStackSlot* frame, const int* live, int nlive,
                        BelowMemo* memo);
SEXP rirn_start_assign(SEXP sym, SEXP call, SEXP env, SEXP tramp);
SEXP rirn_start_assign_super(SEXP sym, SEXP call, SEXP env, SEXP tramp);
// force_target_ast (forceTargetAst).
void rirn_force_target_ast(SEXP sym, SEXP call, int super, SEXP env, SEXP tramp);
SEXP rirn_getter_call(Code* code, int site, SEXP fun, SEXP lhs, SEXP env, SEXP tramp);
SEXP rirn_setter_call(Code* code, int site, SEXP vexpr, SEXP fun, SEXP rhs, SEXP lhs, SEXP env,
                      SEXP tramp, NodeStackSlot* frame, const int* live, int nlive, int own,
                      BelowMemo* memo);
// x <<- v from env (GNU R's setVar from its enclosing environment).
void rirn_stvar_super(SEXP sym, SEXP v, SEXP env);
// switch(): the entry of the RIR switch_table at pc of `code` that EXPR
// `value` selects (switchEntry: errors and warnings), boxed.
SEXP rirn_switch_index(Code* code, int pc, SEXP value, SEXP tramp);
SEXP rirn_colon(SEXP from, SEXP to, SEXP call, SEXP env, SEXP tramp);
// A builtin called at RIR call site `site` of `code` with evaluated
// arguments (names from the site); bit k of `counted`: argument k was
// counted as referenced while later ones were computed (rirn_count), and
// is released before the call, as the interpreter does. *dirty is set when
// R code may run (an object argument, foreign code, standardGeneric).
SEXP rirn_call_builtin(Code* code, int site, SEXP fun, SEXP env, SEXP tramp, const SEXP* args,
                       int n, int counted, char* dirty);
void rirn_count(SEXP v);  // (no error)
// x$name as the interpreter's dollar (`call`: the whole x$name).
SEXP rirn_dollar(SEXP x, SEXP nameSym, SEXP call, SEXP env);
// x$name when it is plain (IsPlainMember: dollarPlain; `name` the CHARSXP).
int rirn_is_plain_member(SEXP x, SEXP name, SEXP nameSym);  // (no error)
// x$name when it is plain, else nullptr (no error).
SEXP rirn_plain_member(SEXP x, SEXP name, SEXP nameSym);
SEXP rirn_dollar_plain(SEXP x, SEXP name, SEXP nameSym);
// A closure of the function in `spec` (formals, body, srcref) in env.
SEXP rirn_mkcls(SEXP spec, SEXP env);
// && (kind 1) and || (2): a plain logical lhs `a` with the evaluated rhs
// `b` (lgl_second), or GNU R's operator on the evaluated lhs (lgl_slow).
SEXP rirn_lgl_combine(int kind, SEXP a, SEXP b, SEXP call, SEXP env, SEXP tramp);
SEXP rirn_lgl_slow(int kind, SEXP a, SEXP call, SEXP env, SEXP tramp);
// x[i] / x[[i]] / x[i, j] / x[[i, j]] (kind 1 or 2; args: x and the n
// indices) at RIR call site `site`, as the interpreter's subset; and the
// dispatching form for objects (subset_obj); scratch: as binop's.
SEXP rirn_subset(Code* code, int site, int kind, const SEXP* args, int n, SEXP env, SEXP tramp,
                 SEXP scratch);
SEXP rirn_subset_obj(int kind, SEXP x, SEXP call, SEXP env, SEXP tramp);
// A variable an index names: a missing argument is the empty index (sets
// *dirty when R code may have run).
SEXP rirn_ldvar_missok(SEXP sym, SEXP env, SEXP tramp, char* dirty, NodeStackSlot* frame,
                       const int* hold);
// New scalars (no error but R's allocation error).
SEXP rirn_box_real(double x);
SEXP rirn_box_int(int x);
// x <- (a double computed unboxed): written into the binding's value when
// inplace.h allows it (a plain double scalar only this binding counts, in
// none of the frame's live slots: frame[live[0..nlive)]), else boxed and
// bound; the value bound.
SEXP rirn_stvar_real(SEXP sym, double x, SEXP env, SEXP* cache, NodeStackSlot* frame,
                     const int* live, int nlive, char* dirty, const int* hold);
// The same for an int computed unboxed.
SEXP rirn_stvar_int(SEXP sym, int x, SEXP env, SEXP* cache, NodeStackSlot* frame, const int* live,
                    int nlive, char* dirty, const int* hold);
// A loop's back edge: polls for interrupts every so many (as RIR does).
void rirn_backedge();
// R_Srcref = s (no error).
void rirn_srcref(SEXP s);
// Leaves native code: resumes the baseline code at pc with the operand
// stack (values, bottom first) in env, and returns the function's result.
// Counts the deoptimization on the function's table (one that keeps
// deoptimizing loses its native code). `kinds` (SlotKind per stack value):
// the state of running for loops (sequence, length, counter) is rebuilt as
// the interpreter keeps it; loop slots lie below every other value.
// The frame goes on in a deoptless continuation when there is one for
// its state (goOnDeoptless; not from a deoptless continuation itself);
// else the interpreter resumes it. `continuation`: 0 the code deoptimizing is a function version, 1
// an OSR continuation, 2 a deoptless one; a version's resumed frame may go on in native code again
// at a loop header (a continuation's does not: the nesting stays bounded).
SEXP rirn_deopt(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp, const SEXP* stack,
                int n, const unsigned char* kinds, int continuation);

// An inlined call (PushContext / PopContext): the callee's environment
// made from the `n` arguments (one per formal; the missing marker for
// those not supplied) as a call of `fun` binds them, defaults included.
SEXP rirn_inlined_env(SEXP fun, const SEXP* args, int n);
// Pushes the function context of the call into `c` (native code's frame),
// the `n` supplied arguments its promargs; native code then calls
// sigsetjmp on its jump buffer, and rirn_enter_context when it returns 0.
void rirn_push_context(RContext* c, SEXP call, SEXP fun, SEXP newrho, SEXP env, const SEXP* args,
                       int n);
void rirn_enter_context(RContext* c);
// Pops the context after the inlined code returned `value`: the call's value.
SEXP rirn_pop_context(RContext* c, SEXP value, SEXP newrho);
// A jump aimed at the context landed (sigsetjmp returned again): the
// context is popped, and the caller's RIR code goes on after the call with
// the value the jump brought (`stack`: the caller's `n` values, the last
// slot for that value).
SEXP rirn_context_landed(RContext* c, SEXP newrho, Code* code, int pc, SEXP env, SEXP tramp,
                         SEXP* stack, int n, const unsigned char* kinds);
// A deoptimization in an inlined callee's code: its RIR code finishes from
// its frame state (code, pc, env, stack) inside the context `c`, which is
// popped, then the caller's code (callerCode ...) goes on after the call
// with the callee's value (the last of callerStack's callerN slots).
SEXP rirn_deopt_inlined(DispatchTable* t, Code* code, int pc, SEXP env, SEXP tramp,
                        const SEXP* stack, int n, const unsigned char* kinds, RContext* c,
                        Code* callerCode, int callerPc, SEXP callerEnv, SEXP* callerStack,
                        int callerN, const unsigned char* callerKinds);
}
#pragma GCC visibility pop

// Every helper native code calls, once: H(name, effects). The lowering
// calls them through this table (Lowering::call: the LLVM signature comes
// from the C++ prototype above), and helpers() lists them for the JIT's
// symbol table and for debugging. Effects, beyond reading the arguments:
//   kNoEffect   none: no error, no allocation, no R code
//   kAllocates  allocates R objects (the collector may run; R's allocation
//               error may be raised)
//   kMayRunR    may raise R errors and run R code (promises, active
//               bindings, methods, condition handlers), which reads and
//               writes any heap and any frame on the stack
enum HelperEffects : uint8_t { kNoEffect = 0, kAllocates = 1, kMayRunR = 3 };
#define RIRN_HELPERS(H)                      \
    H(rirn_enter, kAllocates)                \
    H(rirn_leave, kNoEffect)                 \
    H(rirn_hold, kNoEffect)                  \
    H(rirn_release, kNoEffect)               \
    H(rirn_ldarg, kNoEffect)                 \
    H(rirn_enclos, kNoEffect)                \
    H(rirn_ldvar, kMayRunR)                  \
    H(rirn_force, kMayRunR)                  \
    H(rirn_stvar, kMayRunR)                  \
    H(rirn_ldvar_cell, kMayRunR)             \
    H(rirn_stvar_cell, kMayRunR)             \
    H(rirn_starg_default, kMayRunR)          \
    H(rirn_mkarg, kAllocates)                \
    H(rirn_binop, kMayRunR)                  \
    H(rirn_note_overflow, kNoEffect)         \
    H(rirn_unop, kMayRunR)                   \
    H(rirn_astest, kMayRunR)                 \
    H(rirn_istype, kNoEffect)                \
    H(rirn_kind_test, kNoEffect)             \
    H(rirn_eval, kMayRunR)                   \
    H(rirn_ldfun, kMayRunR)                  \
    H(rirn_switch_index, kMayRunR)           \
    H(rirn_stvar_super, kMayRunR)            \
    H(rirn_subassign_general, kMayRunR)      \
    H(rirn_apply_internal, kMayRunR)         \
    H(rirn_loop_body, kMayRunR)              \
    H(rirn_ldddvar, kMayRunR)                \
    H(rirn_env_subassign, kMayRunR)          \
    H(rirn_start_assign, kMayRunR)           \
    H(rirn_start_assign_super, kMayRunR)     \
    H(rirn_force_target_ast, kMayRunR)       \
    H(rirn_getter_call, kMayRunR)            \
    H(rirn_setter_call, kMayRunR)            \
    H(rirn_use_method, kMayRunR)             \
    H(rirn_dollar_assign, kMayRunR)          \
    H(rirn_still_names, kMayRunR)            \
    H(rirn_is_callee, kNoEffect)             \
    H(rirn_lazy_value, kNoEffect)            \
    H(rirn_still_names_without_r, kNoEffect) \
    H(rirn_srcref, kNoEffect)                \
    H(rirn_deopt, kMayRunR)                  \
    H(rirn_inlined_env, kAllocates)          \
    H(rirn_push_context, kMayRunR)           \
    H(rirn_enter_context, kMayRunR)          \
    H(rirn_pop_context, kMayRunR)            \
    H(rirn_context_landed, kMayRunR)         \
    H(rirn_deopt_inlined, kMayRunR)          \
    H(rirn_backedge, kMayRunR)               \
    H(rirn_call_site, kMayRunR)              \
    H(rirn_call_site_eager, kMayRunR)        \
    H(rirn_static_call, kMayRunR)            \
    H(rirn_chaos, kNoEffect)                 \
    H(rirn_forseq, kMayRunR)                 \
    H(rirn_loop_fits, kNoEffect)             \
    H(rirn_forlength, kAllocates)            \
    H(rirn_forelement, kAllocates)           \
    H(rirn_forelement_reuse, kAllocates)     \
    H(rirn_colon, kMayRunR)                  \
    H(rirn_forend, kNoEffect)                \
    H(rirn_range_seq, kAllocates)            \
    H(rirn_call_builtin, kMayRunR)           \
    H(rirn_count, kNoEffect)                 \
    H(rirn_dollar, kMayRunR)                 \
    H(rirn_is_plain_member, kNoEffect)       \
    H(rirn_dollar_plain, kAllocates)         \
    H(rirn_plain_member, kNoEffect)          \
    H(rirn_mkcls, kAllocates)                \
    H(rirn_lgl_combine, kMayRunR)            \
    H(rirn_lgl_slow, kMayRunR)               \
    H(rirn_subset, kMayRunR)                 \
    H(rirn_subset_obj, kMayRunR)             \
    H(rirn_ldvar_missok, kMayRunR)           \
    H(rirn_box_real, kAllocates)             \
    H(rirn_box_int, kAllocates)              \
    H(rirn_stvar_real, kMayRunR)             \
    H(rirn_stvar_int, kMayRunR)              \
    H(rirn_binding_is, kNoEffect)            \
    H(rirn_binding_is_real, kNoEffect)       \
    H(rirn_binding_is_int, kNoEffect)        \
    H(rirn_no_active_bindings, kNoEffect)    \
    H(rirn_plain_local, kNoEffect)           \
    H(rirn_subassign, kMayRunR)              \
    H(rirn_subassign_real, kMayRunR)

enum class HelperId : uint16_t {
#define RIRN_HELPER_ID(name, effects) name,
    RIRN_HELPERS(RIRN_HELPER_ID)
#undef RIRN_HELPER_ID
};

struct Helper {
    const char* name;
    void* address;
    HelperEffects effects;
};
// Every helper, in the table's order (helpers()[int(HelperId::x)] is x).
RIR_EXPORT const std::vector<Helper>& helpers();

}  // namespace native
}  // namespace rir
