# Groups the failures of fuzz runs by a rough class (see docs/fuzzing.md):
#   Rscript tools/fuzz/triage.R [DIR]
# prints, per class, the number of failures and the smallest program. The
# classes are heuristics on the first differing field of each .diff file;
# "other-*" classes need a human (minimize.R first).

fz_call_msg <- function(x) {
  # "call | message" strings as dput() wrote them
  x <- gsub("^\\s*(GNU R|rir):\\s*", "", x)
  x <- gsub("^c\\(|\\)$", "", x)
  list(call = sub(" \\| .*", "", x), msg = sub(".* \\| ", "", x))
}

fz_classify <- function(diff, prog) {
  lines <- readLines(diff)
  if (grepl("^(crash|time limit)", lines[[1]])) return(sub(" .*", "", paste("crash", lines[[1]])))
  field <- sub("^\\[(.*)\\]$", "\\1", lines[[2]])
  ref <- lines[[3]]
  got <- lines[[grep("^\\s*rir:", lines)[1]]]
  redef <- any(grepl("^(length|sum|abs|is.na|max|paste0|`\\+`|c|format|isTRUE|`\\[`|list) <- function", readLines(prog)))
  if (field %in% c("warnings", "error")) {
    r <- fz_call_msg(ref)
    g <- fz_call_msg(got)
    if (grepl("not subsettable|cannot set attribute on a symbol|applied to a non-vector", ref) &&
      grepl("is missing, with no default", got)) {
      return("missing-arg-as-assignment-target")
    }
    if (grepl("`\\*vtmp\\*`", ref)) return("nested-replacement-call")
    if (grepl(" <- ", ref) && grepl(" <<- ", got)) return("superassign-call-arrow")
    if (grepl(" <<?- ", ref) && grepl(" <<?- ", got)) return("assignment-call-shows-values")
    if (grepl("lapply\\(X = X|mapply\\(FUN = f|lapply\\(x, f\\)", got)) return("apply-error-call")
    if (grepl("is missing, with no default|not found|promise already under", ref)) return("error-call-of-forced-promise")
    return(paste0("other-", field, if (redef) "-with-base-redefinition"))
  }
  if (redef) return(paste0("other-", field, "-with-base-redefinition"))
  paste0("other-", field)
}

args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args)) args[[1]] else "fuzz-out"
diffs <- list.files(dir, pattern = "^[a-z0-9]+-[0-9]+\\.diff$", full.names = TRUE)
progs <- sub("\\.diff$", ".R", diffs)
cls <- mapply(fz_classify, diffs, progs)
size <- file.size(progs)
for (k in sort(unique(cls))) {
  in_k <- which(cls == k)
  best <- in_k[which.min(size[in_k])]
  cat(sprintf("%-45s %4d  e.g. %s\n", k, length(in_k), progs[[best]]))
}
invisible(cls)
