# Re-checks the minimized reproducers in tools/fuzz/found/ (one failure
# class each, see FOUND.md):
#   Rscript tools/fuzz/found.R          # "still fails" or "fixed" per file
#   Rscript tools/fuzz/found.R --md     # the same as Markdown, for FOUND.md
# Exit status 1 while any still fails. Run it in each mode's environment.
suppressPackageStartupMessages(library(rir))
rir::disable()
dir <- dirname(normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)[1])))
source(file.path(dir, "compare.R"))
fz_compile_harness()
md <- "--md" %in% commandArgs(trailingOnly = TRUE)
files <- list.files(file.path(dir, "found"), pattern = "\\.R$", full.names = TRUE)
failing <- 0L
for (f in files) {
  text <- paste(readLines(f), collapse = "\n")
  d <- fz_check(text)
  failing <- failing + !is.null(d)
  name <- sub("\\.R$", "", basename(f))
  if (!md) {
    cat(sprintf("%-50s %s\n", name, if (is.null(d)) "fixed" else paste("still fails:", paste(d$fields, collapse = ","))))
    next
  }
  cat(sprintf("### %s\n\n```r\n%s\n```\n\n", name, sub("^(## seed.*\n)?## defs\n", "", text)))
  cat(if (is.null(d)) "Fixed (GNU R and rir agree).\n\n" else sprintf("```\n%s\n```\n\n", fz_diff_text(d, text)))
}
quit(status = if (failing > 0L) 1L else 0L)
