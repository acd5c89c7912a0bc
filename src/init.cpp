// init.cpp — registration of rir's native routines (R_init_rir). The
// implementations live in api/ (the .Call entry points) and bc/ (the
// trampoline entry, rir_entry).
#include <R_ext/Rdynload.h>

#include "bc/interp.h"
#include "runtime/trampoline.h"

using namespace rir;

extern "C" {

SEXP rir_init(SEXP);
SEXP rir_set_enabled(SEXP);
SEXP rir_tune_heap(SEXP);
SEXP rir_finish_compiles();
SEXP rir_bc_version(SEXP);
SEXP rir_compile_closure(SEXP, SEXP);
SEXP rir_compile_toplevel(SEXP, SEXP);
SEXP rir_is_compiled(SEXP);
SEXP rir_disassemble(SEXP);
SEXP rir_stats();
SEXP rir_reset_stats();
SEXP rir_status();
SEXP rir_compile_env(SEXP);
SEXP rir_ast_sites(SEXP);
SEXP rir_context_make(SEXP, SEXP, SEXP);
SEXP rir_context_smaller(SEXP, SEXP);
SEXP rir_context_str(SEXP);
SEXP rir_table_test(SEXP, SEXP);
SEXP rir_insn_table();
SEXP rir_set_debug(SEXP);
SEXP rir_set_tiering(SEXP, SEXP, SEXP, SEXP, SEXP, SEXP, SEXP);
SEXP rir_opt_refusals();
SEXP rir_optimize(SEXP);
SEXP rir_verify(SEXP, SEXP, SEXP);
SEXP rir_bytecode(SEXP);
SEXP rir_resume(SEXP, SEXP, SEXP, SEXP);
SEXP rir_resume_inlined(SEXP, SEXP, SEXP, SEXP, SEXP, SEXP, SEXP);
SEXP rir_source_at(SEXP, SEXP);
SEXP rir_set_interrupt_pending();
SEXP rir_extra_depth();
SEXP rir_pir_selftest(SEXP);
SEXP rir_pir_insn_table();
SEXP rir_pir_translate(SEXP, SEXP, SEXP);
SEXP rir_pir_untranslated();
SEXP rir_pir_check(SEXP, SEXP);
SEXP rir_pir_check_names();

static const R_CallMethodDef callMethods[] = {
    {"rir_init", (DL_FUNC)&rir_init, 1},
    {"rir_set_enabled", (DL_FUNC)&rir_set_enabled, 1},
    {"rir_tune_heap", (DL_FUNC)&rir_tune_heap, 1},
    {"rir_finish_compiles", (DL_FUNC)&rir_finish_compiles, 0},
    {"rir_bc_version", (DL_FUNC)&rir_bc_version, 1},
    {"rir_compile_closure", (DL_FUNC)&rir_compile_closure, 2},
    {"rir_compile_toplevel", (DL_FUNC)&rir_compile_toplevel, 2},
    {"rir_is_compiled", (DL_FUNC)&rir_is_compiled, 1},
    {"rir_disassemble", (DL_FUNC)&rir_disassemble, 1},
    {"rir_stats", (DL_FUNC)&rir_stats, 0},
    {"rir_reset_stats", (DL_FUNC)&rir_reset_stats, 0},
    {"rir_status", (DL_FUNC)&rir_status, 0},
    {"rir_compile_env", (DL_FUNC)&rir_compile_env, 1},
    {"rir_ast_sites", (DL_FUNC)&rir_ast_sites, 1},
    {"rir_context_make", (DL_FUNC)&rir_context_make, 3},
    {"rir_context_smaller", (DL_FUNC)&rir_context_smaller, 2},
    {"rir_context_str", (DL_FUNC)&rir_context_str, 1},
    {"rir_table_test", (DL_FUNC)&rir_table_test, 2},
    {"rir_insn_table", (DL_FUNC)&rir_insn_table, 0},
    {"rir_set_debug", (DL_FUNC)&rir_set_debug, 1},
    {"rir_set_tiering", (DL_FUNC)&rir_set_tiering, 7},
    {"rir_opt_refusals", (DL_FUNC)&rir_opt_refusals, 0},
    {"rir_optimize", (DL_FUNC)&rir_optimize, 1},
    {"rir_verify", (DL_FUNC)&rir_verify, 3},
    {"rir_bytecode", (DL_FUNC)&rir_bytecode, 1},
    {"rir_resume", (DL_FUNC)&rir_resume, 4},
    {"rir_resume_inlined", (DL_FUNC)&rir_resume_inlined, 7},
    {"rir_source_at", (DL_FUNC)&rir_source_at, 2},
    {"rir_set_interrupt_pending", (DL_FUNC)&rir_set_interrupt_pending, 0},
    {"rir_extra_depth", (DL_FUNC)&rir_extra_depth, 0},
    {"rir_pir_selftest", (DL_FUNC)&rir_pir_selftest, 1},
    {"rir_pir_insn_table", (DL_FUNC)&rir_pir_insn_table, 0},
    {"rir_pir_translate", (DL_FUNC)&rir_pir_translate, 3},
    {"rir_pir_untranslated", (DL_FUNC)&rir_pir_untranslated, 0},
    {"rir_pir_check", (DL_FUNC)&rir_pir_check, 2},
    {"rir_pir_check_names", (DL_FUNC)&rir_pir_check_names, 0},
    {nullptr, nullptr, 0}};

static const R_ExternalMethodDef externalMethods[] = {{"rir_entry", (DL_FUNC)&rir_entry, -1},
                                                      {nullptr, nullptr, 0}};

__attribute__((visibility("default"))) void R_init_rir(DllInfo* dll) {
    R_registerRoutines(dll, nullptr, callMethods, nullptr, externalMethods);
    R_useDynamicSymbols(dll, FALSE);
    trampolineRegisterClasses(dll);
}

}  // extern "C"
