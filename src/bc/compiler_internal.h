// compiler_internal.h — the Compiler class shared by the files of the
// byte-code compiler: compiler.cpp (expressions, calls, control flow) and
// compile_assign.cpp (assignments). Not for use outside the compiler; see
// compiler.h for its interface.
//
// The emission helpers (emit, labels, pools) are inline here, so both files
// generate code the same way, e.g. for `x <- 1`:
//   emit(Op::push, {constant(one)}); emit(Op::dup);
//   emit(Op::stvar, {sym(x), cache(x)}); emit(Op::invisible);
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "../runtime/stats.h"
#include "code.h"
#include "insns.h"

namespace rir {

// Internal to the compiler's files: not exported from the shared library
// (these were file-local in compiler.cpp).
#pragma GCC visibility push(hidden)

struct Loop {
    bool barrier;  // a promise or function boundary, not a loop
    int breakLabel;
    int nextLabel;
    int depth;      // stack depth expected at both labels
    bool poisoned;  // break/next seen behind a barrier, or eval(): compile with a context
};

struct Shared {
    SEXP env;
    // the code's environment is a namespace (GNU R: the base and imported
    // functions it finds are the namespace's, never guarded). Not for code
    // whose environment is a frame under a namespace: that frame may bind
    // the name after the code was compiled (a local function named like a
    // base one, defined after a nested function's first call).
    bool nsCode = false;
    std::unordered_set<SEXP> locals;
    // Nested functions: the language functions shadowed where the enclosing
    // function was compiled.
    bool nested = false;
    std::unordered_set<SEXP> outer;
    std::unordered_map<SEXP, bool> baseCache;
    std::unordered_set<SEXP> scratchSet;
    // the C stack got too deep (see cStackTooDeep): the body is left to GNU
    // R's evaluator
    bool tooDeep = false;
    std::vector<Loop> loops;
    // a closure GNU R runs in its AST interpreter (DispatchTable::astFlavor)
    bool astFlavor = false;
};

class Compiler {
  public:
    Compiler(Code* code, Shared& sh) : code_(code), sh_(sh) {}
    bool broken = false;  // the stack model disagreed with itself
    static constexpr int kNoDepth = -100000;
    void compileBody(SEXP e);
    int defaultArg(SEXP e);

  private:
    Code* code_;
    Shared& sh_;
    int depth_ = 0;
    std::vector<int> labels_;
    std::vector<size_t> starts_;  // start of each instruction emitted by emit()
    std::vector<int> labelDepth_;
    std::vector<std::pair<size_t, int>> patches_;
    std::unordered_map<SEXP, int> symPool_;
    std::unordered_map<SEXP, int> constPool_;
    std::unordered_map<SEXP, int> cachePool_;
    int assignTarget_ = 0;
    bool stmtPos_ = false;       // the expression being compiled is a statement
    bool binopOperand_ = false;  // ... is an operand of a binop
    int loopSlots_ = 0;          // stack slots held by enclosing for loops
    SEXP curCall_ = R_NilValue;  // inlined call whose arguments are compiled

    // ---- emission -------------------------------------------------------
    void adjust(int d) {
        depth_ += d;
        if (depth_ > code_->maxStack) code_->maxStack = depth_;
    }
    // The stack effect of the instruction just emitted at `at` (the table's,
    // its pop count from its operands).
    void account(size_t at) {
        Op op = Op(code_->bc[at]);
        adjust(-popCount(op, &code_->bc[at + 1]));
        adjust(info(op).pushes);
    }
    void emit(Op op, std::initializer_list<int32_t> ops = {}) {
        if (op == Op::pop && popAfterStore()) return;
        size_t at = code_->bc.size();
        starts_.push_back(at);
        code_->bc.push_back(int32_t(op));
        for (int32_t o : ops) code_->bc.push_back(o);
        account(at);
    }
    int newLabel() {
        labels_.push_back(-1);
        labelDepth_.push_back(kNoDepth);
        return int(labels_.size() - 1);
    }
    // Verifier: every jump to a label and the label itself must agree on the
    // stack depth; a disagreement is a compiler bug and makes the whole
    // function fall back to GNU R's evaluator (see compileWith).
    void expectDepth(int l, int d) {
        if (labelDepth_[l] == kNoDepth)
            labelDepth_[l] = d;
        else if (labelDepth_[l] != d)
            broken = true;
    }
    void bind(int l) {
        labels_[l] = int(code_->bc.size());
        expectDepth(l, depth_);
    }
    // Emits op, whose first operand is a label, and its other operands.
    // The label expects the depth after the instruction's stack effect, or
    // `labelDepth` when the jump leaves another (dollar_assign keeps v).
    void emitJump(Op op, int label, std::initializer_list<int32_t> rest = {},
                  int labelDepth = kNoDepth) {
        size_t at = code_->bc.size();
        starts_.push_back(at);
        code_->bc.push_back(int32_t(op));
        patches_.push_back({code_->bc.size(), label});
        code_->bc.push_back(-1);
        for (int32_t o : rest) code_->bc.push_back(o);
        account(at);
        expectDepth(label, labelDepth == kNoDepth ? depth_ : labelDepth);
    }
    bool popAfterStore();
    void resolve();
    int fb() {
        code_->feedback.emplace_back();
        return int(code_->feedback.size() - 1);
    }
    int constant(SEXP c) {
        auto it = constPool_.find(c);
        if (it != constPool_.end()) return it->second;
        MARK_NOT_MUTABLE(c);
        int i = code_->addPool(c);
        constPool_[c] = i;
        return i;
    }
    int sym(SEXP s) {
        auto it = symPool_.find(s);
        if (it != symPool_.end()) return it->second;
        int i = code_->addPool(s);
        symPool_[s] = i;
        return i;
    }
    // Binding-cache slot for a symbol of this code object.
    int cache(SEXP s) {
        auto it = cachePool_.find(s);
        if (it != cachePool_.end()) return it->second;
        int i = code_->nCache++;
        cachePool_[s] = i;
        return i;
    }
    void evalAst(SEXP e, AstReason why);
    static SEXP forceBody(void* v);
    static SEXP baseValue(SEXP s);
    static SEXP statsNamespace(void*);
    bool isBase(SEXP s);
    SEXP definitionOf(SEXP s);
    int guard(SEXP s, SEXP def, SEXP e);
    void endGuard(int l);
    bool isBaseSetter(SEXP getter);
    static bool hasNames(SEXP args);
    static bool hasDots(SEXP args);
    static bool hasDotsOrMissing(SEXP args);
    bool simpleIndex(SEXP e);
    bool simpleOperand(SEXP e, int32_t* spec);
    void expr(SEXP e);
    void index(SEXP e);
    void call(SEXP e);
    static SEXP definitionOfCb(SEXP s, void* self);
    bool inlineBase(SEXP e, int target, bool stmt, bool operand);

    void builtinCall(SEXP e, SEXP inner = nullptr, SEXP fun = nullptr, bool operand = false,
                     SEXP errExpr = nullptr);
    void logic2(SEXP e, int kind);
    void block(SEXP args, bool stmt, SEXP e = R_NilValue);
    void ifThenElse(SEXP e, bool stmt);
    bool switchCall(SEXP e);

    struct Mark {
        size_t bc, patches;
        int depth;
    };
    Mark mark() { return {code_->bc.size(), patches_.size(), depth_}; }
    void rollback(const Mark& m);
    // Compiles a loop with `body`. When a break/next of this loop sits
    // behind a promise or function boundary (`f(if (a) break)`), the loop is
    // compiled again with its body as separate code run by `loop_body` in a
    // GNU R loop context per iteration, which GNU R's break/next find.
    template <typename F>
    void loop(SEXP e, F body) {
        Mark m = mark();
        size_t idx = sh_.loops.size();
        bool outer = ctxLoop_;
        ctxLoop_ = false;
        body(idx);
        bool poisoned = sh_.loops[idx].poisoned;
        sh_.loops.pop_back();
        if (poisoned) {
            rollback(m);
            ctxLoop_ = true;
            body(idx);
            sh_.loops.pop_back();
        }
        ctxLoop_ = outer;
    }
    // The body of a loop: inline with its value dropped, or in context mode
    // as separate code that `loop_body` runs, jumping to lEnd on break
    // (otherwise execution goes on to the next step).
    void loopBody(SEXP body, int lEnd);
    bool ctxLoop_ = false;

    void forLoop(SEXP e);
    void whileLoop(SEXP e);
    void repeatLoop(SEXP e);
    bool breakNext(SEXP e, bool isBreak);
    void evalInLoop(SEXP fn);

    // A complex assignment consumes its value; unless it is a statement (its
    // value dropped), a copy stays as the value of the assignment, invisible.
    // A statement pushes NULL instead, which the following pop cancels (see
    // popAfterStore).
    void keepValue(bool stmt) {
        if (!stmt) emit(Op::dup);
    }
    void assigned(bool stmt) { emit(stmt ? Op::push_null : Op::invisible); }

    void assign(SEXP e, bool super, bool stmt);
    bool subset(SEXP e, int kind, bool operand);
    static bool asciiName(SEXP nm);
    void dollar(SEXP e);
    void function(SEXP e);
    void genericCall(SEXP e);
    CallArg callArg(SEXP v, SEXP tag);
    bool complexAssign(SEXP e, bool super, bool stmt, bool rhsPushed = false);
    // In the AST flavor: force_target_ast for the target x of assignment e.
    void forceTargetAst(SEXP x, SEXP e, bool super);
    int promise(SEXP ast);
};

#pragma GCC visibility pop

}  // namespace rir
