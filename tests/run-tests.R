# Runs the testthat suite against the installed rir and prints a closing line
# "N passed, M failed" (CI reads it). Exit status is non-zero on failure.
library(testthat)
library(rir)
filter <- Sys.getenv("RIR_TEST_FILTER", "")
res <- as.data.frame(test_dir(
  "testthat",
  reporter = "summary", stop_on_failure = FALSE,
  filter = if (nzchar(filter)) filter else NULL
))
failed <- sum(res$failed) + sum(res$error)
passed <- sum(res$passed)
skipped <- sum(res$skipped)
cat(sprintf("\nmode: RIR_OPT_THRESHOLD=%s\n", Sys.getenv("RIR_OPT_THRESHOLD", "default")))
cat(sprintf("%d passed, %d failed, %d skipped\n", passed, failed, skipped))
quit(status = if (failed > 0) 1 else 0)
