# Nested loops reading and writing matrix elements with `m[i, j]`.

matrix_loop <- function(n) {
  m <- matrix(0, n, n)
  for (j in seq_len(n)) {
    for (i in seq_len(n)) {
      m[i, j] <- i * j
    }
  }
  trace <- 0
  total <- 0
  for (i in seq_len(n)) {
    trace <- trace + m[i, i]
    for (j in seq_len(n)) {
      total <- total + m[i, j]
    }
  }
  c(trace = trace, total = total)
}

bench <- list(
  run = function(n) {
    res <- matrix_loop(n)
    expected <- c(trace = n * (n + 1) * (2 * n + 1) / 6, total = (n * (n + 1) / 2)^2)
    if (any(res != expected)) stop("matrix_loop: wrong result")
    invisible(res)
  },
  default_n = 1800,
  quick_n = 100
)
