# The convolution of two vectors from "Writing R Extensions": a double loop
# updating ab[i + j] in place, over as.double() of integer sequences (which
# GNU R keeps as compact ALTREP sequences). Verified against the same sum
# computed with vectorized shifts.

convolve <- function(a, b) {
  a <- as.double(a)
  b <- as.double(b)
  na <- length(a)
  nb <- length(b)
  ab <- double(na + nb)
  for (i in 1:na) for (j in 1:nb) ab[i + j] <- ab[i + j] + a[i] * b[j]
  ab
}

convolve_shifts <- function(a, b) {
  a <- as.double(a)
  b <- as.double(b)
  ab <- double(length(a) + length(b))
  for (i in seq_along(a)) {
    idx <- i + seq_along(b)
    ab[idx] <- ab[idx] + a[i] * b
  }
  ab
}

bench <- list(
  run = function(n) {
    a <- seq_len(n)
    b <- rev(seq_len(n)) / 7
    res <- NULL
    for (r in 1:4) res <- convolve(a, b)
    if (!isTRUE(all.equal(res, convolve_shifts(a, b), tolerance = 1e-12))) {
      stop("convolve_vec: wrong result")
    }
    invisible(sum(res))
  },
  default_n = 1000,
  quick_n = 60
)
