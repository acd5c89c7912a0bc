# Worker for the benchmark runner: runs ONE benchmark in THIS (fresh) R process.
#
# Usage: Rscript harness.R <benchmark-file> <size> <iterations> [--rir]
#   <size>  is "default", "quick" or a number (the `n` passed to run()).
#   --rir   loads the rir namespace first (which enables the rir JIT).
#
# Every line of machine-readable output starts with "@@BENCH ", followed by a
# key and values separated by single spaces:
#   @@BENCH n <n>
#   @@BENCH iter <i> <elapsed seconds>
#   @@BENCH compile <seconds or NA>
#   @@BENCH optimize <seconds or NA>          (R's thread)
#   @@BENCH optimize_thread <seconds or NA>   (rir's compile thread)
#   @@BENCH continuations <seconds or NA>     (of optimize: continuations)
#   @@BENCH rss_kb <peak resident set size in kB or NA>
#   @@BENCH status ok | @@BENCH status FAILED <message>
# The process exits with status 0 on success and 1 on failure.

# All helpers live in a private environment: the benchmark file is sourced into
# the global environment (like a script run with Rscript), so its definitions
# cannot clash with the harness.
local({

emit <- function(...) {
  cat("@@BENCH", ..., "\n")
  flush(stdout())
}

one_line <- function(x) {
  gsub("[[:space:]]+", " ", paste(x, collapse = " "))
}

peak_rss_kb <- function() {
  status <- tryCatch(readLines("/proc/self/status"), error = function(e) character())
  line <- grep("^VmHWM:", status, value = TRUE)
  if (length(line) == 0) return(NA_real_)
  as.numeric(gsub("[^0-9]", "", line[[1]]))
}

# rir's time compiling to its bytecode ("compile_seconds") or optimizing
# to native code ("opt_seconds": PIR and LLVM, continuations included)
rir_seconds <- function(what = "compile_seconds") {
  if (!("rir" %in% loadedNamespaces())) return(NA_real_)
  tryCatch({
    stats_fun <- getExportedValue("rir", "stats")
    s <- stats_fun()
    value <- s[[what]]
    if (is.null(value)) NA_real_ else as.numeric(value)[[1]]
  }, error = function(e) NA_real_)
}

now <- function() as.numeric(Sys.time())

main <- function(args) {
  if (length(args) < 3) {
    stop("usage: Rscript harness.R <benchmark-file> <size> <iterations> [--rir]")
  }
  file <- args[[1]]
  size <- args[[2]]
  iterations <- as.integer(args[[3]])
  use_rir <- "--rir" %in% args

  if (use_rir) {
    loadNamespace("rir")
  }

  sys.source(file, envir = globalenv(), keep.source = FALSE)
  bench <- get0("bench", envir = globalenv(), inherits = FALSE)
  if (!is.list(bench) || !is.function(bench$run)) {
    stop("benchmark file does not define `bench <- list(run = function(n) ...)`")
  }

  n <- switch(size,
    default = bench$default_n,
    quick = if (is.null(bench$quick_n)) bench$default_n else bench$quick_n,
    as.numeric(size)
  )
  if (is.null(n) || is.na(n)) stop("no problem size for mode '", size, "'")
  emit("n", format(n, scientific = FALSE))

  for (i in seq_len(iterations)) {
    # a full collection before each timed iteration, as system.time() does by
    # default: an iteration is not charged for the previous one's garbage,
    # and the heap size R's collector settles on does not drift between
    # iterations (see README.md)
    invisible(gc())
    start <- now()
    bench$run(n)
    elapsed <- now() - start
    emit("iter", i, format(elapsed, digits = 7, scientific = FALSE))
  }
}

args <- commandArgs(trailingOnly = TRUE)
ok <- tryCatch({
  main(args)
  TRUE
}, error = function(e) {
  emit("status", "FAILED", one_line(conditionMessage(e)))
  FALSE
})
emit("compile", format(rir_seconds("compile_seconds"), digits = 7))
emit("optimize", format(rir_seconds("opt_seconds"), digits = 7))
# (LLVM's time on rir's compile thread, beside R's)
emit("optimize_thread", format(rir_seconds("opt_thread_seconds"), digits = 7))
# (the part of R's thread's time that made continuations: OSR, deoptless)
emit("continuations", format(rir_seconds("continuation_seconds"), digits = 7))
# rir's counters: closure bodies run by rir and expressions it left to GNU
# R's AST interpreter (the runner reports their ratio).
if ("rir" %in% loadedNamespaces()) {
  s <- getExportedValue("rir", "stats")()
  emit("rir_stats", format(s[["rir_calls"]], scientific = FALSE),
       format(s[["ast_evals"]], scientific = FALSE))
}
emit("rss_kb", format(peak_rss_kb()))
if (ok) {
  emit("status", "ok")
  quit(save = "no", status = 0)
} else {
  quit(save = "no", status = 1)
}

})
