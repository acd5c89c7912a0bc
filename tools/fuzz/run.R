# Differential fuzzer driver (see docs/fuzzing.md):
#   Rscript tools/fuzz/run.R --n N --seed S --mode default|threshold0|native2|chaos|osr|deoptless|all
#     [--out DIR] [--batch B] [--jobs J] [--minimize] [--ignore-calls]
# (--mode all: the same N programs in every mode; --jobs J: J modes at a
# time, each in its own forked process (default 1: one after the other);
# --ignore-calls: compare warnings and errors by message only, to find what
# a difference in a condition's call hides)
# Program k (0-based) of a run is generated from seed S + k. Batches of B
# programs run in Rscript subprocesses with the mode's environment; when a
# subprocess dies (a crash, or the time limit), the program it was running
# is re-run alone and reported as a crash, and the batch resumes after it.
# Every failure leaves MODE-SEED.R (the program) and MODE-SEED.diff in DIR.
# Exit status 1 on any mismatch or crash.

# The test modes: process-level environment variables. Adding a mode is one
# line here.
fz_modes <- list(
  default = character(),
  threshold0 = c(RIR_OPT_THRESHOLD = "0", RIR_NATIVE = "1"),
  # optimized after two calls, with the feedback of those calls
  native2 = c(RIR_OPT_THRESHOLD = "2", RIR_NATIVE = "1"),
  # optimized after two calls (with feedback), one speculation in 5 failing
  chaos = c(RIR_OPT_THRESHOLD = "2", RIR_DEOPT_CHAOS = "5", RIR_NATIVE = "1"),
  # function bodies never optimized at their entry: every loop goes on in
  # native code (a continuation) from its first jump back, one speculation
  # in 5 failing
  osr = c(
    RIR_OPT_THRESHOLD = "1e9", RIR_NATIVE = "1", RIR_OSR_THRESHOLD = "0",
    RIR_DEOPT_CHAOS = "5"
  ),
  # optimized after two calls, one speculation in 5 failing, and each
  # failure going on in a deoptless continuation (RIR_DEOPTLESS)
  deoptless = c(
    RIR_OPT_THRESHOLD = "2", RIR_NATIVE = "1", RIR_DEOPT_CHAOS = "5", RIR_DEOPTLESS = "1"
  )
)

fz_args <- function(args) {
  opt <- list(
    n = 100L, seed = 1L, mode = "default", out = "fuzz-out", batch = 200L, jobs = 1L, minimize = FALSE,
    ignore_calls = FALSE
  )
  i <- 1L
  while (i <= length(args)) {
    key <- sub("^--", "", args[[i]])
    if (key %in% c("minimize", "ignore-calls")) {
      opt[[sub("-", "_", key)]] <- TRUE
      i <- i + 1L
      next
    }
    if (!key %in% names(opt) || i == length(args)) stop("bad argument: ", args[[i]], call. = FALSE)
    val <- args[[i + 1L]]
    opt[[key]] <- if (is.integer(opt[[key]])) as.integer(val) else val
    i <- i + 2L
  }
  if (!opt$mode %in% c("all", names(fz_modes))) {
    stop("unknown mode ", opt$mode, "; known: ", paste(names(fz_modes), collapse = ", "), call. = FALSE)
  }
  opt
}

fz_script_dir <- function() {
  file <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)[1])
  normalizePath(dirname(file))
}

fz_env <- function(mode, ignore_calls = FALSE) {
  vars <- fz_modes[[mode]]
  if (ignore_calls) vars <- c(vars, FUZZ_IGNORE_CALLS = "1")
  if (length(vars)) paste0(names(vars), "=", vars) else character()
}

# runs seeds from..to in one subprocess; returns the progress lines and
# the exit status
fz_spawn <- function(dir, from, to, opt, limit) {
  progress <- tempfile("fuzz-progress-")
  file.create(progress)
  on.exit(unlink(progress))
  status <- suppressWarnings(system2(
    "timeout", c("-k", "5", limit, file.path(R.home("bin"), "Rscript"), "--vanilla",
      file.path(dir, "worker.R"), dir, from, to, progress, opt$out, opt$mode),
    env = fz_env(opt$mode, opt$ignore_calls), stdout = FALSE, stderr = FALSE
  ))
  list(lines = readLines(progress), status = status)
}

# the last phase ("ref", "rir", "ast") the worker reported for a program,
# or "setup" before any
fz_phase <- function(lines, seed) {
  p <- grep(sprintf("^phase %d ", seed), lines, value = TRUE)
  if (length(p)) trimws(sub("^phase [0-9]+ ", "", p[length(p)])) else "setup"
}

fz_record_crash <- function(opt, dir, seed, status, alone) {
  source(file.path(dir, "generate.R"), local = TRUE)
  base <- file.path(opt$out, sprintf("%s-%d", opt$mode, seed))
  writeLines(fz_generate(seed), paste0(base, ".R"))
  what <- if (status == 124L || status == 137L) "time limit exceeded (hang?)" else sprintf("crash (exit status %d)", status)
  writeLines(
    sprintf("%s under rir%s", what, if (alone) "" else "; only in its batch, not when run alone"),
    paste0(base, ".diff")
  )
}

main <- function() {
  opt <- fz_args(commandArgs(trailingOnly = TRUE))
  modes <- if (opt$mode == "all") names(fz_modes) else opt$mode
  one_mode <- function(m) {
    opt$mode <- m
    fz_run_mode(opt)
  }
  failed <- if (opt$jobs > 1L && length(modes) > 1L) {
    res <- parallel::mclapply(modes, one_mode, mc.cores = opt$jobs, mc.preschedule = FALSE)
    # a mode whose process died counts as failed
    vapply(res, function(r) if (is.numeric(r)) as.integer(r) else 1L, 1L)
  } else {
    vapply(modes, one_mode, 1L)
  }
  quit(status = if (sum(failed) > 0L) 1L else 0L)
}

# runs the programs in one mode; returns the number of failures
fz_run_mode <- function(opt) {
  dir <- fz_script_dir()
  dir.create(opt$out, showWarnings = FALSE, recursive = TRUE)
  opt$out <- normalizePath(opt$out)
  start <- Sys.time()
  last <- opt$seed + opt$n - 1L
  mismatches <- integer()
  crashes <- integer()
  engines <- integer()  # GNU R's byte code and AST interpreter disagree
  gnur_slow <- integer()  # killed while GNU R ran the program
  next_seed <- opt$seed
  while (next_seed <= last) {
    to <- min(last, next_seed + opt$batch - 1L)
    r <- fz_spawn(dir, next_seed, to, opt, limit = 120 + (to - next_seed + 1))
    done <- grep("^done ", r$lines, value = TRUE)
    bad <- grep("mismatch", done, value = TRUE)
    mismatches <- c(mismatches, as.integer(sub("^done ([0-9]+) .*", "\\1", bad)))
    eng <- grep("gnur-engines", done, value = TRUE)
    engines <- c(engines, as.integer(sub("^done ([0-9]+) .*", "\\1", eng)))
    finished <- as.integer(sub("^done ([0-9]+) .*", "\\1", done))
    if (r$status == 0L && length(finished) && max(finished) == to) {
      next_seed <- to + 1L
      next
    }
    # the subprocess died: the program it had started last is the suspect
    started <- as.integer(sub("^start ([0-9]+).*", "\\1", grep("^start ", r$lines, value = TRUE)))
    suspect <- if (length(started)) max(started) else next_seed
    alone <- fz_spawn(dir, suspect, suspect, opt, limit = 60)
    alone_crashed <- alone$status != 0L
    # killed by the time limit while GNU R itself ran the program (its
    # reference run, or the AST-interpreter rerun), say stuck in C code that
    # never checks the time limit: the program cannot be tested, rir did not
    # run it. A crash (not a time-out) counts wherever it happened: rir may
    # have corrupted the heap in an earlier program.
    died <- if (alone_crashed) alone else r
    timed_out <- died$status %in% c(124L, 137L)
    if (timed_out && fz_phase(died$lines, suspect) %in% c("ref", "ast")) {
      gnur_slow <- c(gnur_slow, suspect)
      cat(sprintf("fuzz: program %d: killed in GNU R's own run (not counted)\n", suspect))
    } else {
      fz_record_crash(opt, dir, suspect, if (alone_crashed) alone$status else r$status, alone_crashed)
      crashes <- c(crashes, suspect)
      cat(sprintf("fuzz: crash in program %d (exit status %d)\n", suspect, r$status))
    }
    next_seed <- suspect + 1L
  }
  secs <- as.numeric(difftime(Sys.time(), start, units = "secs"))
  for (s in mismatches) cat(sprintf("fuzz: mismatch in program %d: %s\n", s, file.path(opt$out, sprintf("%s-%d.R", opt$mode, s))))
  for (s in engines) {
    cat(sprintf(
      "fuzz: program %d: GNU R's byte code and AST interpreter disagree, rir differs only where it agrees with the AST interpreter (not counted): %s\n",
      s, file.path(opt$out, sprintf("%s-%d.gnur-engines.R", opt$mode, s))
    ))
  }
  if (opt$minimize && length(c(mismatches, crashes))) {
    for (s in c(mismatches, crashes)) {
      f <- file.path(opt$out, sprintf("%s-%d.R", opt$mode, s))
      system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", file.path(dir, "minimize.R"), f),
        env = fz_env(opt$mode, opt$ignore_calls)
      )
    }
  }
  cat(sprintf(
    "fuzz: %d programs, mode %s, seed %d: %d mismatches, %d crashes, %d GNU R engine disagreements, %d killed in GNU R's own run, %.0f seconds\n",
    opt$n, opt$mode, opt$seed, length(mismatches), length(crashes), length(engines), length(gnur_slow), secs
  ))
  length(mismatches) + length(crashes)
}

main()
