// pir_entry.cpp — .Call entry points of the optimizing tier's PIR (registered
// in ../init.cpp).
#include <map>

#include "../bc/compiler.h"
#include "../pir/insns.h"
#include "../pir/opt/pass.h"
#include "../pir/printer.h"
#include "../pir/rir2pir.h"
#include "../pir/selftest.h"
#include "../pir/verifier.h"
#include "../runtime/stats.h"
#include "api_util.h"

using namespace rir;

// Why compiled function bodies were not translated, with counts.
static std::map<std::string, double> untranslatedReasons;

// RIR_DEBUG=verify: every function body compiled is translated to PIR, the
// translation verified, optimized and verified after every pass (counted
// in stats(); a rejection is reported: it is a bug of the translator, a
// pass or the verifier). RIR_DEBUG=pir prints the PIR after translation
// and after each pass.
static void checkTranslation(const Code* code, SEXP formalsList) {
    static std::string report;
    report.clear();
    {
        pir::Function fn;
        fn.name = "<compiled>";
        std::string problem = pir::rir2pir(code, formalsList, &fn);
        if (!problem.empty()) {
            stats.pir_untranslated++;
            untranslatedReasons[problem]++;
            if (debugFlags.pir) report = "rir: PIR: not translated: " + problem + "\n";
        } else {
            stats.pir_translated++;
            problem = pir::verify(fn);
            std::string trace;
            if (debugFlags.pir) trace = "== translated\n" + pir::print(fn);
            if (problem.empty())
                problem = pir::optimize(fn, debugFlags.verify, debugFlags.pir ? &trace : nullptr);
            if (!problem.empty()) {
                stats.pir_verify_failures++;
                report = "rir: PIR verifier: " + problem + "\n";
            }
            report = trace + report;
        }
    }
    // (no R error can happen in REprintf's output of a plain string)
    if (!report.empty()) REprintf("%s", report.c_str());
}

void registerPirHooks() {
    pir::rir2pirInit();
    compiledFunctionHook = checkTranslation;
}

extern "C" {

// The PIR self-test (src/pir/selftest.cpp): a list with one element per
// case, each list(printed, problem, dot). `f`: a rir-compiled closure whose
// baseline code the frame-state cases name, or NULL to leave them out.
SEXP rir_pir_selftest(SEXP f) {
    // every R value first: no R call may fail while C++ objects are alive
    pir::SelftestInputs in;
    in.code = f == R_NilValue ? nullptr : baselineOrError(f);
    in.x = Rf_install("x");
    in.globalEnv = R_GlobalEnv;
    in.one = PROTECT(Rf_ScalarReal(1));
    in.zeroInt = PROTECT(Rf_ScalarInteger(0));
    in.oneInt = PROTECT(Rf_ScalarInteger(1));
    in.tenInt = PROTECT(Rf_ScalarInteger(10));
    in.trueValue = R_TrueValue;
    std::vector<pir::SelftestCase> cases = pir::selftest(in);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, cases.size()));
    SEXP names = PROTECT(Rf_allocVector(STRSXP, cases.size()));
    for (size_t k = 0; k < cases.size(); k++) {
        SEXP one = Rf_allocVector(STRSXP, 3);
        SET_VECTOR_ELT(out, k, one);
        SET_STRING_ELT(one, 0, Rf_mkChar(cases[k].printed.c_str()));
        SET_STRING_ELT(one, 1, Rf_mkChar(cases[k].problem.c_str()));
        SET_STRING_ELT(one, 2, Rf_mkChar(cases[k].dot.c_str()));
        SET_STRING_ELT(names, k, Rf_mkChar(cases[k].name.c_str()));
    }
    Rf_setAttrib(out, R_NamesSymbol, names);
    UNPROTECT(6);
    return out;
}

// The PIR instruction table: name, operands, result rule, successors,
// reads, writes, flags (numbers as in src/pir/insns.h), description.
SEXP rir_pir_insn_table() {
    int n = int(pir::Opcode::kCount);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 4));
    SEXP name = Rf_allocVector(STRSXP, n);
    SET_VECTOR_ELT(out, 0, name);
    SEXP ops = Rf_allocVector(STRSXP, n);
    SET_VECTOR_ELT(out, 1, ops);
    SEXP flags = Rf_allocVector(INTSXP, n);
    SET_VECTOR_ELT(out, 2, flags);
    SEXP doc = Rf_allocVector(STRSXP, n);
    SET_VECTOR_ELT(out, 3, doc);
    for (int k = 0; k < n; k++) {
        const pir::InsnInfo& i = pir::info(pir::Opcode(k));
        SET_STRING_ELT(name, k, Rf_mkChar(i.name));
        SET_STRING_ELT(ops, k, Rf_mkChar(i.operands));
        INTEGER(flags)[k] = i.flags;
        SET_STRING_ELT(doc, k, Rf_mkChar(i.description));
    }
    SEXP nm = PROTECT(Rf_allocVector(STRSXP, 4));
    SET_STRING_ELT(nm, 0, Rf_mkChar("name"));
    SET_STRING_ELT(nm, 1, Rf_mkChar("operands"));
    SET_STRING_ELT(nm, 2, Rf_mkChar("flags"));
    SET_STRING_ELT(nm, 3, Rf_mkChar("description"));
    Rf_setAttrib(out, R_NamesSymbol, nm);
    UNPROTECT(2);
    return out;
}
}

extern "C" {

// f's RIR code translated into PIR: c(printed, problem, dot), where problem
// is why it could not be translated, or the PIR verifier's verdict ("" when
// the translation is well formed).
// `traceIt`: also the function after translation and after each pass.
SEXP rir_pir_translate(SEXP f, SEXP optimizeIt, SEXP traceIt) {
    Code* code = baselineOrError(f);
    uint32_t eager = pir::eagerArgs(tableOrError(f));
    bool optimize = Rf_asLogical(optimizeIt) == TRUE;
    bool withTrace = Rf_asLogical(traceIt) == TRUE;
    std::string printed, problem, dot, trace;
    {
        pir::Function fn;
        fn.name = "f";
        if (optimize) {
            problem =
                pir::rir2pirOptimized(code, FORMALS(f), &fn, true, withTrace ? &trace : nullptr,
                                      eager, pir::feedbackContext(eager));
            if (problem.rfind("after ", 0) == 0) problem = "PIR verifier: " + problem;
        } else {
            problem = pir::rir2pir(code, FORMALS(f), &fn);
            if (problem.empty()) {
                problem = pir::verify(fn);
                if (withTrace) trace = "== translated\n" + pir::print(fn);
                if (!problem.empty()) problem = "PIR verifier: " + problem;
            }
        }
        printed = pir::print(fn);
        dot = pir::printDot(fn);
    }
    SEXP out = PROTECT(Rf_allocVector(STRSXP, 4));
    SET_STRING_ELT(out, 0, Rf_mkChar(printed.c_str()));
    SET_STRING_ELT(out, 1, Rf_mkChar(problem.c_str()));
    SET_STRING_ELT(out, 2, Rf_mkChar(dot.c_str()));
    SET_STRING_ELT(out, 3, Rf_mkChar(trace.c_str()));
    UNPROTECT(1);
    return out;
}
}

extern "C" {

// Why function bodies compiled under RIR_DEBUG=verify were not translated
// to PIR: a count per reason (since the package was loaded).
SEXP rir_pir_untranslated() {
    return reasonCounts(untranslatedReasons);
}
}
