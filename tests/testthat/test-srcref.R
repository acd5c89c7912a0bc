# Source references (keep.source): calls made from rir code carry the srcref
# GNU R records in their contexts (sys.calls(), traceback()), in both the
# default mode and with everything handed to rir at its first call.

run_script <- function(lines, use_rir, env = character()) {
  file <- tempfile(fileext = ".R")
  on.exit(unlink(file))
  writeLines(c(if (use_rir) "library(rir)", lines), file)
  rscript <- file.path(R.home("bin"), "Rscript")
  suppressWarnings(system2(rscript, file, stdout = TRUE, stderr = TRUE, env = env))
}

test_that("sys.calls() and .traceback() see the srcrefs GNU R records", {
  lines <- c(
    "options(keep.source = TRUE)",
    "f <- function() .traceback(1)",
    "g <- function() f()",
    "x <- g(); x <- g(); x <- g()",
    "print(inherits(attr(x[[1]], 'srcref'), 'srcref'))",
    "h <- function() {",
    "  y <- 1",
    "  sys.calls()",
    "}",
    "k <- function() { h() }",
    "for (i in 1:3) s <- k()",
    "print(lapply(s, function(c) as.character(attr(c, 'srcref'))))"
  )
  ref <- run_script(lines, FALSE)
  expect_true(any(grepl("TRUE", ref)))
  for (env in list(character(), "RIR_OPT_THRESHOLD=0")) {
    expect_identical(run_script(lines, TRUE, env), ref)
  }
})
