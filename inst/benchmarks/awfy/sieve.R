# Are-we-fast-yet "Sieve": sieve of Eratosthenes with scalar loops over a
# logical vector.

sieve <- function(size) {
  flags <- rep(TRUE, size)
  prime_count <- 0
  for (i in 2:size) {
    if (flags[i - 1]) {
      prime_count <- prime_count + 1
      k <- i + i
      while (k <= size) {
        flags[k - 1] <- FALSE
        k <- k + i
      }
    }
  }
  prime_count
}

bench <- list(
  run = function(n) {
    for (i in seq_len(n)) {
      result <- sieve(5000)
      if (result != 669) stop("sieve: expected 669 primes, got ", result)
    }
    invisible(result)
  },
  default_n = 600,
  quick_n = 3
)
