# Empty `while` loop with a scalar counter.

while_empty <- function(n) {
  i <- 0
  while (i < n) {
    i <- i + 1
  }
  i
}

bench <- list(
  run = function(n) {
    last <- while_empty(n)
    if (last != n) stop("while_empty: expected ", n, " but got ", last)
    invisible(last)
  },
  default_n = 3e7,
  quick_n = 3e5
)
