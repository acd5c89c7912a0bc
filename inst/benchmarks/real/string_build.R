# Repeated string building: a report assembled piece by piece with paste0
# and sprintf in loops, a CSV line built field by field and parsed back,
# and a string reversed character by character; code that grows strings
# instead of vectorizing.

bench <- list(
  run = function(n) {
    out <- ""
    total <- 0
    for (i in seq_len(n)) {
      field <- sprintf("%05d", i)
      line <- ""
      for (j in 1:6) line <- paste0(line, if (j > 1) "," else "", field, j)
      parts <- strsplit(line, ",", fixed = TRUE)[[1]]
      total <- total + sum(as.integer(substr(parts, 1, 5)))
      if (i %% 50L == 0L) out <- paste0(out, substr(line, 1, 8), "\n")
      rev_chars <- character(8)
      chars <- strsplit(field, "")[[1]]
      for (k in seq_along(chars)) rev_chars[k] <- chars[length(chars) - k + 1L]
      if (paste(rev(rev_chars[seq_along(chars)]), collapse = "") != field) stop("string_build: reverse")
    }
    if (total != 6 * n * (n + 1) / 2) stop("string_build: total ", total)
    invisible(nchar(out))
  },
  default_n = 12000,
  quick_n = 200
)
