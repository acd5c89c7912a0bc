# Benchmarks game "spectral-norm", scalar version: power iteration with the
# matrix entries computed on the fly in nested loops.

eval_a <- function(i, j) {
  # i, j are 0-based
  1 / ((i + j) * (i + j + 1) / 2 + i + 1)
}

times_av <- function(v) {
  n <- length(v)
  out <- numeric(n)
  for (i in seq_len(n)) {
    sum <- 0
    for (j in seq_len(n)) sum <- sum + eval_a(i - 1, j - 1) * v[j]
    out[i] <- sum
  }
  out
}

times_atv <- function(v) {
  n <- length(v)
  out <- numeric(n)
  for (i in seq_len(n)) {
    sum <- 0
    for (j in seq_len(n)) sum <- sum + eval_a(j - 1, i - 1) * v[j]
    out[i] <- sum
  }
  out
}

times_atav <- function(v) times_atv(times_av(v))

spectralnorm <- function(n) {
  u <- rep(1, n)
  for (i in 1:10) {
    v <- times_atav(u)
    u <- times_atav(v)
  }
  vbv <- 0
  vv <- 0
  for (i in seq_len(n)) {
    vbv <- vbv + u[i] * v[i]
    vv <- vv + v[i] * v[i]
  }
  sqrt(vbv / vv)
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
      if (abs(result - expected) > 1e-9) stop("spectralnorm: expected ", expected, ", got ", result)
    } else if (abs(result - 1.2742) > 1e-3) {
      stop("spectralnorm: implausible result ", result)
    }
    invisible(result)
  },
  default_n = 150,
  quick_n = 50
)
