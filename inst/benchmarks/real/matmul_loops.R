# Matrix multiplication written as a triple loop over matrix elements
# (A[i, k] * B[k, j]), with a running sum in a scalar, checked against %*%:
# a scalar numeric kernel over two-dimensional indexing.

matmul <- function(A, B) {
  n <- nrow(A)
  m <- ncol(B)
  p <- ncol(A)
  C <- matrix(0, n, m)
  for (i in 1:n) {
    for (j in 1:m) {
      s <- 0
      for (k in 1:p) s <- s + A[i, k] * B[k, j]
      C[i, j] <- s
    }
  }
  C
}

bench <- list(
  run = function(n) {
    A <- matrix(sin(seq_len(n * n)), n, n)
    B <- matrix(cos(seq_len(n * n)), n, n)
    C <- matmul(A, B)
    if (max(abs(C - A %*% B)) > 1e-9) stop("matmul_loops: wrong product")
    invisible(sum(C))
  },
  default_n = 190,
  quick_n = 8
)
