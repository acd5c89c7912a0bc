# Matrix form of the convolution update: m[i, j] <- m[i, j] + a[i] * b[j]
# (read-modify-write of a matrix element in a double loop).

matrix_update <- function(a, b, reps) {
  m <- matrix(0, length(a), length(b))
  for (r in seq_len(reps)) {
    for (j in seq_along(b)) {
      for (i in seq_along(a)) {
        m[i, j] <- m[i, j] + a[i] * b[j]
      }
    }
  }
  m
}

bench <- list(
  run = function(n) {
    a <- as.double(seq_len(n)) / n
    b <- rev(a)
    res <- matrix_update(a, b, 4)
    if (!isTRUE(all.equal(res, 4 * outer(a, b), tolerance = 1e-12))) {
      stop("matrix_update: wrong result")
    }
    invisible(sum(res))
  },
  default_n = 800,
  quick_n = 40
)
