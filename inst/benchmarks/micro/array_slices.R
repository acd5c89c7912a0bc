# Slices of a three-dimensional array assigned and read in a loop
# (X[, , k] <- v, X[i, , k]), and a column of a matrix updated from a
# slice of another: slice assignment must not copy the whole array.

bench <- list(
  run = function(n) {
    depth <- 40L
    X <- array(0, dim = c(60, 50, depth))
    M <- matrix(0, 60, depth)
    base <- outer(1:60, 1:50) / 1000
    s <- 0
    for (r in seq_len(n)) {
      for (k in seq_len(depth)) {
        X[, , k] <- k + r + base
        M[, k] <- X[, 7, k]
      }
      for (k in seq_len(depth)) for (i in c(1, 30, 60)) s <- s + X[i, 3, k]
    }
    expected <- sum(vapply(seq_len(n), function(r) sum(outer(c(1, 30, 60), seq_len(depth),
      function(i, k) k + r + i * 3 / 1000)), 0))
    if (abs(s - expected) > 1e-6 * expected) stop("array_slices: ", s, " vs ", expected)
    if (abs(sum(M) - sum(X[, 7, ])) > 1e-6) stop("array_slices: column sums differ")
    invisible(s)
  },
  default_n = 450,
  quick_n = 3
)
