// pir_check.cpp — predicates over a function's optimized PIR (rir::pir_check),
// for tests of the optimizer: does the PIR the optimizing tier would compile
// for f (its RIR code and feedback now) still hold an environment, a promise,
// a variable load, a call, ...?
//
//   f <- function() { a <- 42; a }
//   pir_check(f, c("NoLoad", "ReturnsConstant"))   # TRUE: `a` is resolved
//
// Each check is a function of the whole optimized PIR function; the R side
// (R/api.R) names them and documents them in man/pir_check.Rd.
#include <functional>
#include <map>
#include <set>

#include "../bc/compiler.h"
#include "../pir/opt/pass.h"
#include "../pir/rir2pir.h"
#include "../pir/verifier.h"
#include "api_util.h"

using namespace rir;

namespace {

using pir::Opcode;

bool none(const pir::Function& fn, std::function<bool(const pir::Instruction*)> bad) {
    for (auto& b : fn.blocks)
        for (const pir::Instruction* i : b->insns)
            if (bad(i)) return false;
    return true;
}

bool any(const pir::Function& fn, std::function<bool(const pir::Instruction*)> good) {
    return !none(fn, good);
}

// arithmetic, a comparison or a unary operator (not & and |)
bool isArithmetic(const pir::Instruction* i) {
    return pir::isArithmetic(i->op) || pir::isComparison(i->op) || pir::isUnaryOperator(i->op);
}

// in a block that only leaves for the baseline (the generic operation it
// redoes there is what the baseline would have computed)
bool onDeoptPath(const pir::Instruction* i) {
    return !i->bb->insns.empty() && i->bb->insns.back()->op == Opcode::Deopt;
}

// b reaches itself (it is in a loop)
bool inLoop(const pir::BB* b) {
    std::vector<const pir::BB*> work(b->succ.begin(), b->succ.end());
    std::set<const pir::BB*> seen;
    while (!work.empty()) {
        const pir::BB* x = work.back();
        work.pop_back();
        if (!x || !seen.insert(x).second) continue;
        if (x == b) return true;
        work.insert(work.end(), x->succ.begin(), x->succ.end());
    }
    return false;
}

// every operand a plain logical, integer or double scalar (computed on
// unboxed values by the native tier)
bool unboxedOperands(const pir::Instruction* i) {
    for (const pir::Instruction* a : i->args)
        if (!a->type.isUnboxable()) return false;
    return true;
}

const std::map<std::string, std::function<bool(const pir::Function&)>>& checks() {
    static const std::map<std::string, std::function<bool(const pir::Function&)>> all = {
        {"NoEnvironment",
         [](const pir::Function& fn) {
             // (an environment only deoptimization writes, for the
             // interpreter to go on in, is not one the optimized code has)
             std::map<const pir::Instruction*, bool> used;
             for (auto& b : fn.blocks)
                 for (const pir::Instruction* i : b->insns)
                     if (i->op != Opcode::FrameState && !onDeoptPath(i))
                         for (const pir::Instruction* a : i->args) used[a] = true;
             return none(fn, [&](const pir::Instruction* i) {
                 return pir::isOp(i, {Opcode::MkEnv, Opcode::MaterializeEnv}) && used[i];
             });
         }},
        {"NoPromise",
         [](const pir::Function& fn) {
             return none(fn, [](const pir::Instruction* i) { return i->op == Opcode::MkArg; });
         }},
        {"NoForce",
         [](const pir::Function& fn) {
             return none(fn, [](const pir::Instruction* i) {
                 return i->is(Opcode::Force) || i->op == Opcode::ForceOrMissing;
             });
         }},
        {"NoLoad",
         [](const pir::Function& fn) {
             return none(fn, [](const pir::Instruction* i) {
                 return i->is(Opcode::LdVar) || i->op == Opcode::LdVarSuper;
             });
         }},
        {"NoStore",
         [](const pir::Function& fn) {
             return none(fn, [](const pir::Instruction* i) {
                 return (pir::isOp(i, {Opcode::StVar, Opcode::StVarSuper, Opcode::StArgDefault}) ||
                         i->is(Opcode::SubassignVar)) &&
                        !onDeoptPath(i);
             });
         }},
        {"NoClosureCall",
         [](const pir::Function& fn) {
             return none(fn, [](const pir::Instruction* i) {
                 return pir::isOp(i, {Opcode::Call, Opcode::StaticCall, Opcode::EvalAst});
             });
         }},
        {"NoInlinedContext",
         [](const pir::Function& fn) {
             // (no call inlined with its environment and function context)
             return none(fn,
                         [](const pir::Instruction* i) { return i->op == Opcode::PushContext; });
         }},
        {"StaticCalls",
         [](const pir::Function& fn) {
             // (calls of a closure, known by a guard: no dynamic Call left
             // where the optimized code goes on)
             return any(fn,
                        [](const pir::Instruction* i) { return i->op == Opcode::StaticCall; }) &&
                    none(fn, [](const pir::Instruction* i) {
                        return i->op == Opcode::Call && !onDeoptPath(i);
                    });
         }},
        {"NoExternalCall",
         [](const pir::Function& fn) {
             return none(fn, [](const pir::Instruction* i) {
                 return pir::isOp(i, {Opcode::Call, Opcode::StaticCall, Opcode::EvalAst,
                                      Opcode::CallBuiltin, Opcode::CallSafeBuiltin});
             });
         }},
        {"NoAssume",
         [](const pir::Function& fn) {
             return none(fn, [](const pir::Instruction* i) { return i->op == Opcode::Assume; });
         }},
        {"NoLoop",
         [](const pir::Function& fn) {
             // a back edge: a jump to a block earlier in reverse post-order
             std::vector<pir::BB*> order = const_cast<pir::Function&>(fn).rpo();
             std::map<const pir::BB*, size_t> at;
             for (size_t k = 0; k < order.size(); k++) at[order[k]] = k;
             for (pir::BB* b : order)
                 for (pir::BB* s : b->succ)
                     if (s && at.count(s) && at[s] <= at[b]) return false;
             return true;
         }},
        {"NoConfirmationInLoop",
         [](const pir::Function& fn) {
             // (no BindingIs in a block of a loop: after an effect, a loop's
             // loads of the own environment were confirmed at every
             // iteration, see scope_resolution.cpp)
             for (auto& b : fn.blocks) {
                 bool confirms = false;
                 for (const pir::Instruction* i : b->insns)
                     if (i->op == Opcode::BindingIs) confirms = true;
                 if (confirms && inLoop(b.get())) return false;
             }
             return true;
         }},
        {"UnboxedArithmetic",
         [](const pir::Function& fn) {
             return any(fn,
                        [](const pir::Instruction* i) {
                            return isArithmetic(i) && !onDeoptPath(i);
                        }) &&
                    none(fn, [](const pir::Instruction* i) {
                        return isArithmetic(i) && !onDeoptPath(i) && !unboxedOperands(i);
                    });
         }},
        {"ReturnsConstant",
         [](const pir::Function& fn) {
             return any(fn, [](const pir::Instruction* i) { return i->op == Opcode::Return; }) &&
                    none(fn, [](const pir::Instruction* i) {
                        return i->op == Opcode::Return && i->args[0]->op != Opcode::LdConst;
                    });
         }},
    };
    return all;
}

}  // namespace

extern "C" {

// The names of the checks pir_check knows.
SEXP rir_pir_check_names() {
    const auto& all = checks();
    SEXP out = PROTECT(Rf_allocVector(STRSXP, all.size()));
    R_xlen_t k = 0;
    for (auto& c : all) SET_STRING_ELT(out, k++, Rf_mkChar(c.first.c_str()));
    UNPROTECT(1);
    return out;
}

// f's RIR code translated to PIR and optimized, then each check in `which`
// (a character vector of names from rir_pir_check_names) evaluated: a
// logical vector; or a string saying why f has no optimized PIR.
SEXP rir_pir_check(SEXP f, SEXP which) {
    Code* code = baselineOrError(f);
    uint32_t eager = pir::eagerArgs(tableOrError(f));
    SEXP formals = FORMALS(f);
    // (kept outside the stack: R calls below may leave by longjmp)
    static std::string problem;
    static std::vector<int> results;
    problem.clear();
    results.clear();
    {
        std::vector<std::string> names;
        for (R_xlen_t k = 0; k < XLENGTH(which); k++) names.push_back(CHAR(STRING_ELT(which, k)));
        pir::Function fn;
        fn.name = "f";
        problem = pir::rir2pirOptimized(code, formals, &fn, true, nullptr, eager,
                                        pir::feedbackContext(eager));
        if (problem.empty()) {
            const auto& all = checks();
            for (const std::string& n : names) {
                auto it = all.find(n);
                results.push_back(it == all.end() ? NA_LOGICAL : it->second(fn) ? 1 : 0);
            }
        }
    }
    if (!problem.empty()) return Rf_mkString(problem.c_str());
    SEXP out = PROTECT(Rf_allocVector(LGLSXP, results.size()));
    for (size_t k = 0; k < results.size(); k++) LOGICAL(out)[k] = results[k];
    UNPROTECT(1);
    return out;
}
}
