# Every failure the differential fuzzer found and that is fixed becomes a
# regression test: the minimized programs in fuzz-regressions/ (copies of
# tools/fuzz/found/, see tools/fuzz/FOUND.md) must give GNU R's results under
# rir, compared field by field as the fuzzer compares them (values, output,
# visibility, messages, warnings and errors with their calls).

fuzz_dir <- normalizePath(file.path("..", "..", "tools", "fuzz"), mustWork = FALSE)
skip_if_not(dir.exists(fuzz_dir), "tools/fuzz not available (installed package tests)")
fz <- new.env()
sys.source(file.path(fuzz_dir, "compare.R"), envir = fz)

for (file in list.files("fuzz-regressions", pattern = "\\.R$", full.names = TRUE)) {
  test_that(paste("fuzz regression", basename(file)), {
    text <- paste(readLines(file), collapse = "\n")
    # (the programs' try() would print their errors into the test log)
    old <- options(try.outFile = nullfile())
    on.exit(options(old))
    d <- fz$fz_check(text)
    expect_null(d, label = if (is.null(d)) basename(file) else fz$fz_diff_text(d, text))
  })
}
