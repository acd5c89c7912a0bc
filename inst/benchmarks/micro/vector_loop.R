# Element-wise loops over vectors: fill a vector with `x[i] <- ...`, then read
# it back in a second loop (prefix sums).

vector_loop <- function(n) {
  x <- numeric(n)
  for (i in seq_len(n)) {
    x[i] <- i * 2
  }
  prefix <- numeric(n)
  acc <- 0
  for (i in seq_along(x)) {
    acc <- acc + x[i]
    prefix[i] <- acc
  }
  prefix
}

bench <- list(
  run = function(n) {
    prefix <- vector_loop(n)
    k <- c(1, n %/% 2, n)
    if (length(prefix) != n || any(prefix[k] != k * (k + 1))) {
      stop("vector_loop: wrong prefix sums")
    }
    invisible(prefix[[n]])
  },
  default_n = 4e6,
  quick_n = 5e4
)
