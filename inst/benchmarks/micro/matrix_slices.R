# Whole columns, rows and slabs assigned in loops: `C[, j] <- v`,
# `C[i, ] <- w`, `X[, , k] <- M` (the target must be updated in place, not
# copied at each assignment).

matrix_slices <- function(n, reps) {
  C <- matrix(0, n, n)
  X <- array(0, c(n, n, 8))
  for (r in seq_len(reps)) {
    for (j in seq_len(n)) C[, j] <- C[, j] + j
    for (i in seq_len(n)) C[i, ] <- C[i, ] * 0.5
    for (k in 1:8) X[, , k] <- C + k
  }
  list(C = C, X = X)
}

bench <- list(
  run = function(n) {
    res <- matrix_slices(n, 10)
    C <- matrix(0, n, n)
    for (r in 1:10) C <- (C + rep(seq_len(n), each = n)) * 0.5
    if (!isTRUE(all.equal(res$C, C)) || !isTRUE(all.equal(res$X[, , 3], C + 3))) {
      stop("matrix_slices: wrong result")
    }
    invisible(sum(res$X))
  },
  default_n = 400,
  quick_n = 30
)
