# Runs the benchmark runner (inst/benchmarks/run.R) in --quick mode on one
# small benchmark per suite and checks its outputs.

test_that("benchmark runner runs a small quick selection and writes its outputs", {
  run_r <- system.file("benchmarks", "run.R", package = "rir")
  skip_if_not(nzchar(run_r), "inst/benchmarks/run.R is not installed with the rir package")

  out_dir <- tempfile("bench-results-")
  on.exit(unlink(out_dir, recursive = TRUE), add = TRUE)
  filter <- "^(awfy/sieve|shootout/pidigits|real/convolution|micro/fib)$"
  configs <- c("gnur-ast", "gnur-bc")
  iterations <- 2L

  rscript <- file.path(R.home("bin"), "Rscript")
  output <- suppressWarnings(system2(rscript,
    c(shQuote(run_r), "--quick", "--filter", shQuote(filter),
      "--configs", paste(configs, collapse = ","),
      "--iterations", iterations, "--out", shQuote(out_dir)),
    stdout = TRUE, stderr = TRUE, timeout = 300
  ))
  status <- attr(output, "status")
  if (is.null(status)) status <- 0L
  expect_equal(status, 0L, info = paste(output, collapse = "\n"))

  results_csv <- file.path(out_dir, "results.csv")
  summary_csv <- file.path(out_dir, "summary.csv")
  expect_true(file.exists(results_csv))
  expect_true(file.exists(summary_csv))
  expect_true(file.exists(file.path(out_dir, "results.md")))

  results <- utils::read.csv(results_csv, stringsAsFactors = FALSE)
  expect_true(all(c("suite", "benchmark", "id", "config", "n", "iteration", "seconds", "status")
    %in% names(results)))
  expected_ids <- c("awfy/sieve", "micro/fib", "real/convolution", "shootout/pidigits")
  expect_setequal(unique(results$id), expected_ids)
  expect_setequal(unique(results$config), configs)
  expect_equal(nrow(results), length(expected_ids) * length(configs) * iterations)
  expect_true(all(results$status == "ok"))
  expect_true(all(is.finite(results$seconds) & results$seconds >= 0))

  summary <- utils::read.csv(summary_csv, stringsAsFactors = FALSE)
  expect_true(all(c("id", "config", "status", "first_s", "peak_s", "first_speedup",
    "peak_speedup", "compile_s", "peak_rss_mb") %in% names(summary)))
  expect_equal(nrow(summary), length(expected_ids) * length(configs))
  expect_equal(summary$peak_speedup[summary$config == "gnur-bc"], rep(1, length(expected_ids)))

  if (isTRUE(capabilities("png"))) {
    expect_true(file.exists(file.path(out_dir, "speedup.png")))
    expect_true(file.exists(file.path(out_dir, "warmup.png")))
  }
})
