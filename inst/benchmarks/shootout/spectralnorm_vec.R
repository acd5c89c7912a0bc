# Benchmarks game "spectral-norm", vectorized: the matrix is built once with
# outer() and the power iteration uses matrix products.

spectralnorm <- function(n) {
  i <- seq_len(n) - 1
  a <- outer(i, i, function(i, j) 1 / ((i + j) * (i + j + 1) / 2 + i + 1))
  at <- t(a)
  u <- rep(1, n)
  for (k in 1:10) {
    v <- at %*% (a %*% u)
    u <- at %*% (a %*% v)
  }
  sqrt(sum(u * v) / sum(v * v))
}

known <- c(
  "50" = 1.27419383698309, "100" = 1.274219991, "150" = 1.27422287260751,
  "1000" = 1.27422414812948, "2000" = 1.27422415222862, "5500" = 1.274224153
)

bench <- list(
  run = function(n) {
    result <- spectralnorm(n)
    expected <- known[format(n, scientific = FALSE)]
    if (!is.na(expected)) {
      if (abs(result - expected) > 1e-9) stop("spectralnorm_vec: expected ", expected, ", got ", result)
    } else if (abs(result - 1.2742) > 1e-3) {
      stop("spectralnorm_vec: implausible result ", result)
    }
    invisible(result)
  },
  default_n = 2000,
  quick_n = 100
)
