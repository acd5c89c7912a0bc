# One batch of fuzz programs in this process (started by run.R):
#   Rscript worker.R DIR FROM TO PROGRESS OUT MODE
# Appends "start SEED" before and "done SEED ok|mismatch" after each program
# to PROGRESS, and "phase SEED ref|rir|ast" when GNU R's run, rir's run or
# GNU R's AST-interpreter rerun starts, so that run.R can tell which program
# a crash or time-out interrupted, and in whose run.
args <- commandArgs(trailingOnly = TRUE)
dir <- args[[1]]
from <- as.integer(args[[2]])
to <- as.integer(args[[3]])
progress <- args[[4]]
out <- args[[5]]
mode <- args[[6]]
# A program that allocates without bound (a loop growing a vector) stops at
# R's memory limit error, the same in both runs, instead of taking the
# machine's memory: 4 GB of vectors, 50 million cons cells.
invisible(mem.maxVSize(4096))
invisible(mem.maxNSize(5e7))
suppressPackageStartupMessages(library(rir))
rir::disable()
source(file.path(dir, "generate.R"))
source(file.path(dir, "compare.R"))
fz_compile_harness()
for (seed in seq(from, to)) {
  cat("start", seed, "\n", file = progress, append = TRUE)
  # self-test of run.R's crash handling: FUZZ_CRASH_SEED=k kills program k
  if (identical(Sys.getenv("FUZZ_CRASH_SEED"), as.character(seed))) tools::pskill(Sys.getpid(), tools::SIGSEGV)
  text <- fz_generate(seed)
  note <- function(phase) cat("phase", seed, phase, "\n", file = progress, append = TRUE)
  d <- tryCatch(fz_check(text, note = note), error = function(e) {
    # the harness itself failed (say the time limit hit between steps)
    setTimeLimit()
    if (rir::is_enabled()) rir::disable()
    NULL
  })
  engines <- isTRUE(d$gnur_engines_disagree)
  if (!is.null(d)) {
    base <- file.path(out, sprintf("%s-%d%s", mode, seed, if (engines) ".gnur-engines" else ""))
    writeLines(text, paste0(base, ".R"))
    writeLines(fz_diff_text(d, text), paste0(base, ".diff"))
  }
  status <- if (is.null(d)) "ok" else if (engines) "gnur-engines" else paste(c("mismatch", d$fields), collapse = ",")
  cat("done", seed, status, "\n", file = progress, append = TRUE)
}
