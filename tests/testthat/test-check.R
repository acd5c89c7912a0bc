# rir::check(): another package's R CMD check with rir in every process it
# starts. The probe package's example and test fail unless rir is loaded
# and compiles their code.

make_probe_package <- function(dir) {
  pkg <- file.path(dir, "rirprobe")
  for (d in c("R", "man", "tests")) dir.create(file.path(pkg, d), recursive = TRUE)
  writeLines(c(
    "Package: rirprobe", "Version: 0.1", "Title: Probes Whether rir Runs Its Code",
    "Description: Its example and test fail unless rir is loaded.",
    "Authors@R: person(\"A\", \"B\", email = \"a@b.invalid\", role = c(\"aut\", \"cre\"))",
    "License: GPL-2", "Encoding: UTF-8"
  ), file.path(pkg, "DESCRIPTION"))
  writeLines("export(probe)", file.path(pkg, "NAMESPACE"))
  writeLines(c(
    "probe <- function(n) {",
    "  if (!\"rir\" %in% loadedNamespaces()) stop(\"rir is not loaded\")",
    "  s <- 0",
    "  for (i in seq_len(n)) s <- s + i",
    "  s",
    "}"
  ), file.path(pkg, "R", "probe.R"))
  writeLines(c(
    "\\name{probe}", "\\alias{probe}", "\\title{Probe}",
    "\\description{Sums 1 to n when rir is loaded.}", "\\usage{probe(n)}",
    "\\arguments{\\item{n}{a count.}}", "\\value{The sum.}",
    "\\examples{", "stopifnot(probe(10) == 55)", "}"
  ), file.path(pkg, "man", "probe.Rd"))
  writeLines(c(
    "library(rirprobe)",
    "stopifnot(probe(4) == 10)",
    "g <- function(x) x * 2",
    "for (i in 1:5) g(i)",
    "stopifnot(get(\"is_compiled\", envir = asNamespace(\"rir\"))(g))"
  ), file.path(pkg, "tests", "probe.R"))
  pkg
}

test_that("check() runs another package's check with rir loaded, in each mode", {
  skip_if(nzchar(Sys.getenv("RIR_OPT_THRESHOLD")), "R CMD check runs: once, in the default mode's run")
  dir <- tempfile("rir-check-test-")
  dir.create(dir)
  pkg <- make_probe_package(dir)
  on.exit(unlink(dir, recursive = TRUE))

  with_rir <- rir::check(pkg, check_dir = file.path(dir, "default"))
  expect_s3_class(with_rir, "rir_check")
  expect_identical(with_rir$errors, character(), label = paste(with_rir$output, collapse = "\n"))
  expect_identical(with_rir$exit_status, 0L)
  expect_true(file.exists(with_rir$log))
  expect_output(print(with_rir), "R CMD check of rirprobe with rir \\(mode default\\)")

  native <- rir::check(pkg, mode = "first_call", check_dir = file.path(dir, "first"))
  expect_identical(native$errors, character(), label = paste(native$output, collapse = "\n"))

  stock <- rir::check(pkg, mode = "gnur", check_dir = file.path(dir, "gnur"))
  expect_true("checking examples" %in% stock$errors)
  expect_true(any(grepl("checking tests", stock$errors)))
  expect_false(identical(stock$exit_status, 0L))
})

test_that("check() reads a check log's results", {
  log <- c(
    "* using R version 4.2.2", "* checking examples ... ERROR", "Running examples ...",
    "* checking tests ...", "  Running 'a.R'", " ERROR", "Running the tests failed.",
    "* checking Rd files ... NOTE", "* checking whatever ... WARNING", "Status: 2 ERRORs, 1 WARNING, 1 NOTE"
  )
  r <- rir:::parse_check_log(log)
  expect_identical(r$errors, c("checking examples", "checking tests"))
  expect_identical(r$warnings, "checking whatever")
  expect_identical(r$notes, "checking Rd files")
  expect_identical(r$status, "2 ERRORs, 1 WARNING, 1 NOTE")
  expect_error(rir::check(tempfile()), "needs the path")
})
