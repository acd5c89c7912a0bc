# Empty `for` loop over a sequence: measures the raw loop overhead.

for_empty <- function(n) {
  for (i in seq_len(n)) {
  }
  i
}

bench <- list(
  run = function(n) {
    last <- for_empty(n)
    if (!identical(last, as.integer(n))) {
      stop("for_empty: expected last index ", n, " but got ", last)
    }
    invisible(last)
  },
  default_n = 1e8,
  quick_n = 1e6
)
