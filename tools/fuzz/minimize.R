# Shrinks a failing fuzz program (see docs/fuzzing.md):
#   Rscript tools/fuzz/minimize.R fuzz-out/default-123.R
# writes fuzz-out/default-123.min.R. Run it with the same environment as
# the failing run (RIR_OPT_THRESHOLD=0 for the threshold0 mode).
#
# Delta debugging on lines: a candidate (some lines of the definitions and
# steps deleted) is kept when it still parses and still fails the same way:
# a mismatch in the same fields, or a crash when the original crashed
# (crashes are checked in a subprocess). Lines holding `a; b` are first
# split into separate statements where that keeps the failure.

fz_dir <- function() {
  file <- sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)[1])
  normalizePath(dirname(file))
}

suppressPackageStartupMessages(library(rir))
rir::disable()
dir <- fz_dir()
source(file.path(dir, "compare.R"))
fz_compile_harness()

args <- commandArgs(trailingOnly = TRUE)

# --check FILE: exit status 3 on a mismatch (used for crash candidates)
if (args[[1]] == "--check") {
  d <- fz_check(paste(readLines(args[[2]]), collapse = "\n"))
  quit(status = if (is.null(d)) 0L else 3L)
}

file <- args[[1]]
text <- paste(readLines(file), collapse = "\n")
diff_file <- sub("\\.R$", ".diff", file)
crash <- file.exists(diff_file) && any(grepl("^(crash|time limit)", readLines(diff_file)))

lines <- strsplit(text, "\n", fixed = TRUE)[[1]]
head <- lines[1:2]
body <- lines[-(1:2)]
steps_at <- match("## steps", body)

fz_text <- function(b) paste(c(head, b), collapse = "\n")

fz_fails_as <- function(b, want) {
  t <- fz_text(b)
  ok <- tryCatch({
    fz_parse_program(t)
    TRUE
  }, error = function(e) FALSE)
  if (!ok) return(FALSE)
  if (crash) {
    tmp <- tempfile(fileext = ".R")
    writeLines(t, tmp)
    on.exit(unlink(tmp))
    status <- suppressWarnings(system2(
      "timeout", c("-k", "5", "60", file.path(R.home("bin"), "Rscript"), "--vanilla",
        file.path(dir, "minimize.R"), "--check", tmp),
      stdout = FALSE, stderr = FALSE
    ))
    return(!status %in% c(0L, 3L))
  }
  d <- tryCatch(fz_check(t, limit = 1), error = function(e) {
    setTimeLimit()
    NULL
  })
  !is.null(d) && identical(d$fields, want)
}

want <- if (crash) NULL else fz_check(text)$fields
if (!crash && is.null(want)) {
  cat("minimize: the program does not fail here (wrong mode?)\n")
  quit(status = 1)
}

# split `a; b` lines (statements inside a function, steps) where the pieces
# parse and still fail; one-line top-level definitions stay whole
for (i in rev(seq_along(body))) {
  if (!grepl("; ", body[[i]], fixed = TRUE) || body[[i]] %in% c("## defs", "## steps")) next
  if (i < steps_at && !grepl("^\\s", body[[i]])) next
  pieces <- strsplit(body[[i]], "; ", fixed = TRUE)[[1]]
  cand <- append(body[-i], pieces, after = i - 1L)
  if (fz_fails_as(cand, want)) body <- cand
}

# ddmin over the lines except the two section markers
n <- 2L
repeat {
  idx <- which(!body %in% c("## defs", "## steps"))
  if (length(idx) == 0L) break
  chunks <- split(idx, cut(seq_along(idx), min(n, length(idx)), labels = FALSE))
  reduced <- FALSE
  for (ch in chunks) {
    cand <- body[-ch]
    if (fz_fails_as(cand, want)) {
      body <- cand
      n <- max(n - 1L, 2L)
      reduced <- TRUE
      break
    }
  }
  if (!reduced) {
    if (n >= length(idx)) break
    n <- min(length(idx), 2L * n)
  }
}

# lines that only go together (a block's opening and closing lines): try
# deleting runs of two and three adjacent lines
for (width in 3:2) {
  i <- 1L
  while (i + width - 1L <= length(body)) {
    run <- i:(i + width - 1L)
    if (!any(body[run] %in% c("## defs", "## steps")) && fz_fails_as(body[-run], want)) {
      body <- body[-run]
    } else {
      i <- i + 1L
    }
  }
}

out <- sub("\\.R$", ".min.R", file)
writeLines(fz_text(body), out)
if (!crash) {
  d <- fz_check(fz_text(body))
  writeLines(fz_diff_text(d, fz_text(body)), sub("\\.R$", ".min.diff", file))
}
# A regression-test candidate in the style of tests/testthat/test-diff-*.R:
# the definitions and the steps up to the failing one, as the body of one
# function (expect_same() runs it twice under GNU R and under rir). It is
# checked with tests/testthat/helper-diff.R; a failure that needs the
# program's steps as separate top-level calls may not reproduce this way.
helper <- file.path(dir, "..", "..", "tests", "testthat", "helper-diff.R")
if (!crash && file.exists(helper)) {
  d <- fz_check(fz_text(body))
  code_lines <- body[!body %in% c("## defs", "## steps")]
  n_defs <- match("## steps", body) - 1L
  code_lines <- code_lines[seq_len(n_defs + d$step)]
  code <- paste(code_lines, collapse = "\n")
  hd <- new.env()
  sys.source(helper, envir = hd)
  ref <- hd$gnur_reference(code, times = 2)
  rir::enable()
  got <- tryCatch(hd$run_body(code, use_rir = TRUE, times = 2), error = function(e) NULL)
  rir::disable()
  same <- !is.null(got) && all(vapply(
    c("value", "visible", "output", "warnings", "error"),
    function(f) identical(fz_norm(ref[[f]]), fz_norm(got[[f]])), TRUE
  ))
  name <- sub("\\.R$", "", basename(file))
  writeLines(c(
    if (same) "# NOTE: as a snippet this does NOT fail; keep the steps separate" else
      "# fails under rir as it stands: a regression test once fixed",
    sprintf("  \"fuzz %s: %s\" = r\"-(", name, paste(d$fields, collapse = ", ")),
    paste0("    ", code_lines),
    "  )-\","
  ), sub("\\.R$", ".test.R", file))
}

cat("minimize: ", length(lines), " -> ", length(body) + 2L, " lines: ", out, "\n", sep = "")
