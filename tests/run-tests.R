# Runs the testthat suite against the installed rir and prints a closing line
# "N passed, M failed" (CI reads it). Exit status is non-zero on failure.
#
# The mode is the environment: RIR_OPT_THRESHOLD=0 (every closure compiled at
# its first call) or unset (default tiering). With RIR_DEBUG=verify (as
# `make test` runs it) the bytecode verifier checks all compiled code. The end of this file checks
# that the mode took effect, so a mode that silently ran what the default
# runs fails.
library(testthat)
library(rir)
# the package's edition, also where no DESCRIPTION is found above tests/
testthat::local_edition(3)
filter <- Sys.getenv("RIR_TEST_FILTER", "")
chaos <- as.numeric(Sys.getenv("RIR_DEOPT_CHAOS", "0"))
chaos_mode <- !is.na(chaos) && chaos > 0
# one file at a time: the deoptimizations each file caused are counted
# (RIR_DEOPT_CHAOS mode checks that they happened)
files <- list.files("testthat", pattern = "^test.*\\.[rR]$")
if (nzchar(filter)) files <- files[grepl(filter, sub("^test-?", "", sub("\\.[rR]$", "", files)))]
deopts_in <- setNames(numeric(length(files)), files)
res <- NULL
for (file in files) {
  before <- rir::stats()[["deopts"]]
  r <- as.data.frame(test_file(
    file.path("testthat", file),
    reporter = "summary", stop_on_failure = FALSE
  ))
  deopts_in[[file]] <- rir::stats()[["deopts"]] - before
  res <- rbind(res, r[, c("passed", "failed", "error", "skipped")])
}
failed <- sum(res$failed) + sum(res$error)
passed <- sum(res$passed)
skipped <- sum(res$skipped)
mode_zero <- identical(Sys.getenv("RIR_OPT_THRESHOLD"), "0")
cat(sprintf("\nmode: RIR_OPT_THRESHOLD=%s\n", Sys.getenv("RIR_OPT_THRESHOLD", "default")))

# A small closure defined at top level: GNU R's JIT offers it to rir only at
# its second call. With RIR_OPT_THRESHOLD=0 rir has it handed over at its
# first call; by default it is still GNU R's after one call.
rir_mode_probe <- function(x) x + 1
probe_before <- rir::is_compiled(rir_mode_probe)
probe_value <- rir_mode_probe(1)
probe_after <- rir::is_compiled(rir_mode_probe)
mode_stats <- rir::stats()
cat(sprintf(
  "mode check: probe compiled before / after its first call: %s / %s; eager marks: %d; rir calls: %.0f\n",
  probe_before, probe_after, as.integer(mode_stats[["eager_compiled"]]), mode_stats[["rir_calls"]]
))
mode_ok <- !probe_before && probe_value == 2 && if (mode_zero) {
  probe_after && mode_stats[["eager_compiled"]] > 0
} else {
  !probe_after && mode_stats[["eager_compiled"]] == 0
}
if (!mode_ok) {
  cat("mode check FAILED: this mode did not change what ran\n")
  failed <- failed + 1
}
# RIR_DEBUG=verify (set by `make test`): the bytecode verifier checked every
# code the suite compiled in this process, and rejected none
if (grepl("verify", Sys.getenv("RIR_DEBUG"))) {
  cat(sprintf(
    "bytecode verifier: %.0f codes checked, %.0f rejected\n",
    mode_stats[["verified"]], mode_stats[["verify_failures"]]
  ))
  if (mode_stats[["verified"]] == 0 || mode_stats[["verify_failures"]] > 0) {
    cat("bytecode verifier check FAILED\n")
    failed <- failed + 1
  }
  # and every function body was translated to PIR where the translator
  # handles it, and the PIR verifier accepted every translation
  cat(sprintf(
    "PIR: %.0f function bodies translated and verified, %.0f rejected by the PIR verifier, %.0f not translatable yet\n",
    mode_stats[["pir_translated"]], mode_stats[["pir_verify_failures"]],
    mode_stats[["pir_untranslated"]]
  ))
  reasons <- rir:::pir_untranslated()
  if (length(reasons)) {
    cat("  most frequent reasons:\n")
    top <- utils::head(reasons, 6)
    cat(sprintf("  %6.0f  %s\n", top, names(top)), sep = "")
  }
  if (mode_stats[["pir_translated"]] == 0 || mode_stats[["pir_verify_failures"]] > 0) {
    cat("PIR translation check FAILED\n")
    failed <- failed + 1
  }
}
# The optimizing tier: functions given native code and native calls (in
# this process; RIR_OPT_THRESHOLD=0 optimizes every function at its first
# call, so the probe above ran native code)
cat(sprintf(
  "native tier: %.0f functions optimized, %.0f refused; native calls since the last stats reset: %.0f\n",
  mode_stats[["optimized"]], mode_stats[["opt_refused"]], mode_stats[["native_calls"]]
))
refusals <- rir:::opt_refusals()
if (length(refusals)) {
  cat("  most frequent refusals:\n")
  top <- utils::head(refusals, 6)
  cat(sprintf("  %6.0f  %s\n", top, names(top)), sep = "")
}
# LLVM's verifier rejecting a function is a bug of the lowering (a helper
# called with arguments its prototype does not take, say), never a limit
llvm_rejected <- refusals[startsWith(names(refusals), "LLVM verifier")]
if (length(llvm_rejected)) {
  cat("native tier check FAILED: LLVM's verifier rejected", sum(llvm_rejected), "functions\n")
  failed <- failed + 1
}
# (the native tier is on unless RIR_NATIVE turns it off)
native_on <- !tolower(Sys.getenv("RIR_NATIVE", "1")) %in% c("0", "false", "no", "off")
# (native code: optimized functions' versions, or continuations entered
# from the interpreter's loops)
ran_native <- mode_stats[["optimized"]] + mode_stats[["osr_compiled"]] > 0 &&
  mode_stats[["native_calls"]] + mode_stats[["osr_entries"]] > 0
if (native_on && !ran_native) {
  cat("native tier check FAILED: the native tier is on and ran no native code\n")
  failed <- failed + 1
}
if (chaos_mode && native_on) {
  cat(sprintf(
    "deoptimization chaos (RIR_DEOPT_CHAOS=%s): %.0f deoptimizations in %d of %d test files\n",
    Sys.getenv("RIR_DEOPT_CHAOS"), sum(deopts_in), sum(deopts_in > 0), length(files)
  ))
  none <- names(deopts_in)[deopts_in == 0]
  if (length(none)) cat("  files without one:", none, "\n")
  if (sum(deopts_in) == 0) {
    cat("chaos mode check FAILED: no deoptimization happened\n")
    failed <- failed + 1
  }
}
cat(sprintf("%d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0) 1 else 0)
