# Scalar arithmetic in a loop: integer and double operations, comparisons and
# a branch. The result is checked against a closed form.

scalar_arith <- function(n) {
  sum_sq <- 0
  sum_odd <- 0L
  alternating <- 0
  for (i in seq_len(n)) {
    x <- i * 0.5
    sum_sq <- sum_sq + x * x
    if (i %% 2L == 1L) {
      sum_odd <- sum_odd + 1L
      alternating <- alternating + x
    } else {
      alternating <- alternating - x
    }
  }
  list(sum_sq = sum_sq, sum_odd = sum_odd, alternating = alternating)
}

bench <- list(
  run = function(n) {
    res <- scalar_arith(n)
    expected_sq <- n * (n + 1) * (2 * n + 1) / 6 / 4
    expected_odd <- (n + 1) %/% 2
    # sum over i of (-1)^(i+1) * i / 2
    expected_alt <- if (n %% 2 == 0) -n / 4 else (n + 1) / 4
    if (abs(res$sum_sq - expected_sq) > 1e-9 * expected_sq ||
      res$sum_odd != expected_odd || abs(res$alternating - expected_alt) > 1e-6) {
      stop("scalar_arith: wrong result")
    }
    invisible(res)
  },
  default_n = 3e6,
  quick_n = 1e5
)
