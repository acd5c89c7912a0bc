# Cost of entering rir from GNU R code.
#
# GNU R's own do_lapply (`.Internal(lapply(X, FUN))` evaluated by GNU R's
# interpreter through eval(), so rir does not run the loop) calls FUN once
# per element. Run once under stock R and once with rir loaded; under rir
# FUN is a rir closure, so every element pays the entry (GNU R's
# applyClosure, the trampoline's byte code, .External2, rir's entry).
#
# Usage: Rscript inst/benchmarks/entry_cost.R [--rir] [n] [runs]
# Prints one line per closure: nanoseconds per call (median over the runs).

args <- commandArgs(trailingOnly = TRUE)
use_rir <- "--rir" %in% args
nums <- suppressWarnings(as.numeric(args[args != "--rir"]))
n <- if (length(nums) >= 1 && !is.na(nums[[1]])) nums[[1]] else 1e6
runs <- if (length(nums) >= 2 && !is.na(nums[[2]])) nums[[2]] else 7

closures <- list(
  "function(x) x" = function(x) x,
  "function(x) x + 1" = function(x) x + 1
)
if (use_rir) {
  library(rir)
  closures <- lapply(closures, rir::compile)
}

# the frame lapply would have: X, FUN and `...`
gnur_lapply <- function(X, FUN, ...) eval(quote(.Internal(lapply(X, FUN))))

per_call_ns <- function(fun) {
  xs <- seq_len(n)
  gnur_lapply(xs, fun) # warm-up
  times <- vapply(seq_len(runs), function(i) {
    system.time(gnur_lapply(xs, fun))[["elapsed"]]
  }, numeric(1))
  median(times) / n * 1e9
}

for (name in names(closures)) {
  cat(sprintf(
    "%-20s %s %7.0f ns per call\n", name, if (use_rir) "rir  " else "GNU R",
    per_call_ns(closures[[name]])
  ))
}
if (use_rir) {
  cat(sprintf("entries from GNU R: %.0f\n", rir::stats()[["gnur_entries"]]))
}
