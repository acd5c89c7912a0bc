# The user's knobs (see ?rir_options), checked in fresh processes.
run_r <- function(code, env = character()) {
  rscript <- file.path(R.home("bin"), "Rscript")
  out <- system2(rscript, c("-e", shQuote(code)), stdout = TRUE, stderr = TRUE, env = env)
  out[length(out)]
}

test_that("loading the namespace enables rir unless RIR_ENABLE=0 or options(rir.enable = FALSE)", {
  code <- "invisible(loadNamespace('rir')); cat(rir::is_enabled())"
  expect_identical(run_r(code), "TRUE")
  expect_identical(run_r(code, env = "RIR_ENABLE=0"), "FALSE")
  expect_identical(
    run_r("options(rir.enable = FALSE); invisible(loadNamespace('rir')); cat(rir::is_enabled())"),
    "FALSE"
  )
  expect_identical(
    run_r("options(rir.enable = TRUE); invisible(loadNamespace('rir')); cat(rir::is_enabled())",
      env = "RIR_ENABLE=0"
    ),
    "TRUE"
  )
})

test_that("status() reports the settings", {
  s <- attr(rir::status(), "settings")
  expect_true(all(c("enable", "opt_threshold", "native", "deopt_chaos", "debug") %in% names(s)))
})

test_that("closures run in rir after loading: GNU R's JIT hands them over", {
  code <- paste(
    "invisible(loadNamespace('rir'))",
    "f <- function(n) { s <- 0; for (i in seq_len(n)) s <- s + i; s }",
    "r <- f(10); r <- f(10)",
    "cat(rir::is_compiled(f), r, sum(rir::stats()[c('rir_calls', 'native_calls')]) >= 1)",
    sep = "; "
  )
  expect_identical(run_r(code), "TRUE 55 TRUE")
})

test_that("rir fixes glibc's malloc thresholds unless told not to or the environment sets them", {
  skip_if_not(grepl("linux", R.version$os), "glibc only")
  code <- "invisible(loadNamespace('rir')); cat(rir:::.rir$heap_tuned)"
  expect_identical(run_r(code), "TRUE")
  expect_identical(run_r(code, env = "RIR_HEAP_TUNING=0"), "FALSE")
  expect_identical(run_r(code, env = "MALLOC_TRIM_THRESHOLD_=1000000"), "FALSE")
  expect_identical(run_r(paste("options(rir.heap_tuning = FALSE);", code)), "FALSE")
  # The effect: matrices of 1.3 MB made and dropped in a loop reuse the
  # heap's memory instead of faulting fresh pages in after each collection
  # (without the fixed thresholds this loop faulted about 40,000 pages per
  # round under rir).
  loop <- paste(
    "invisible(loadNamespace('rir'))",
    "faults <- function() as.numeric(strsplit(readLines('/proc/self/stat'), ' ')[[1]][10])",
    "f <- function(n) { C <- matrix(0, n, n); X <- array(0, c(n, n, 8))",
    "  for (r in 1:10) for (k in 1:8) X[, , k] <- C + k",
    "  for (r in 1:10) C <- (C + rep(seq_len(n), each = n)) * 0.5; sum(X) }",
    "for (i in 1:3) f(400); before <- faults(); for (i in 1:3) f(400)",
    "cat((faults() - before) / 3)",
    sep = "\n"
  )
  expect_lt(as.numeric(run_r(loop)), 5000)
})
