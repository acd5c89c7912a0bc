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
