# Other packages' R CMD check under stock GNU R and under rir in each mode
# (rir::check()), for the README's table:
#   R_LIBS=$PWD/.rlib Rscript tools/check-cran.R DIR [PACKAGE ...]
# downloads the source tarballs of the packages (by default R6, magrittr,
# glue, withr, jsonlite) into DIR, checks each in the modes gnur, default,
# first_call and deopt_chaos (--no-manual --ignore-vignettes, suggested
# packages not forced) and writes DIR/results.tsv, one line per check, and a
# markdown table. Install the packages' dependencies first.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1) stop("usage: Rscript tools/check-cran.R DIR [PACKAGE ...]")
dir <- args[[1]]
pkgs <- if (length(args) > 1) args[-1] else c("R6", "magrittr", "glue", "withr", "jsonlite")
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
got <- utils::download.packages(pkgs, destdir = dir, type = "source",
  repos = "https://cloud.r-project.org")
modes <- c("gnur", "default", "first_call", "deopt_chaos")
out <- file.path(dir, "results.tsv")
unlink(out)
rows <- NULL
for (p in got[, 2]) for (m in modes) {
  r <- rir::check(p, mode = m, args = c("--no-manual", "--ignore-vignettes"),
    check_dir = file.path(dir, "out", sub("\\.tar\\.gz$", "", basename(p)), m),
    env = c(`_R_CHECK_FORCE_SUGGESTS_` = "false"))
  row <- data.frame(package = sub("\\.tar\\.gz$", "", basename(p)), mode = m, status = r$status,
    errors = paste(r$errors, collapse = "; "), warnings = paste(r$warnings, collapse = "; "),
    notes = paste(r$notes, collapse = "; "), seconds = round(r$seconds))
  print(row)
  rows <- rbind(rows, row)
  utils::write.table(rows, out, sep = "\t", row.names = FALSE, quote = FALSE)
}
cat("\n| package | stock GNU R | rir default | rir first_call | rir deopt_chaos | same as stock |\n")
cat("|:--|:--|:--|:--|:--|:--|\n")
for (p in unique(rows$package)) {
  x <- rows[rows$package == p, ]
  key <- paste(x$status, x$errors, x$warnings, x$notes)
  same <- all(key == key[x$mode == "gnur"])
  cat(sprintf("| %s | %s |\n", p, paste(c(x$status[match(modes, x$mode)], if (same) "yes" else "**no**"), collapse = " | ")))
}
