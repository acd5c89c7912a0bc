# Benchmarks game "fannkuch-redux", scalar version: generates the permutations
# in the standard order with a counter vector and flips prefixes with an
# explicit swap loop; computes the checksum and the maximum number of flips.

fannkuch <- function(n) {
  perm1 <- 0:(n - 1)
  count <- integer(n)
  max_flips <- 0
  checksum <- 0
  perm_count <- 0
  r <- n
  repeat {
    while (r != 1) {
      count[r] <- r
      r <- r - 1
    }
    perm <- perm1
    flips <- 0
    k <- perm[1]
    while (k != 0) {
      # reverse perm[1..k+1]
      lo <- 1
      hi <- k + 1
      while (lo < hi) {
        tmp <- perm[lo]
        perm[lo] <- perm[hi]
        perm[hi] <- tmp
        lo <- lo + 1
        hi <- hi - 1
      }
      flips <- flips + 1
      k <- perm[1]
    }
    if (flips > max_flips) max_flips <- flips
    checksum <- checksum + if (perm_count %% 2 == 0) flips else -flips
    # next permutation: rotate the first r + 1 elements
    repeat {
      if (r == n) return(c(checksum = checksum, max_flips = max_flips))
      perm0 <- perm1[1]
      for (i in seq_len(r)) perm1[i] <- perm1[i + 1]
      perm1[r + 1] <- perm0
      count[r + 1] <- count[r + 1] - 1
      if (count[r + 1] > 0) break
      r <- r + 1
    }
    perm_count <- perm_count + 1
  }
}

known <- list(
  "7" = c(228, 16), "8" = c(1616, 22), "9" = c(8629, 30), "10" = c(73196, 38)
)

bench <- list(
  run = function(n) {
    result <- fannkuch(n)
    expected <- known[[format(n, scientific = FALSE)]]
    if (!is.null(expected) && any(result != expected)) {
      stop("fannkuchredux: expected ", paste(expected, collapse = "/"), ", got ",
        paste(result, collapse = "/"))
    }
    invisible(result)
  },
  default_n = 9,
  quick_n = 7
)
