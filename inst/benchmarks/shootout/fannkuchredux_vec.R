# Benchmarks game "fannkuch-redux", the way an R user might shorten it: the
# permutation order is the same as in the scalar version, but prefixes are
# flipped and rotated with vector indexing (rev() and c()).

fannkuch <- function(n) {
  perm1 <- 0:(n - 1)
  count <- integer(n)
  max_flips <- 0
  checksum <- 0
  perm_count <- 0
  r <- n
  repeat {
    if (r > 1) {
      count[2:r] <- 2:r
      r <- 1
    }
    perm <- perm1
    flips <- 0
    while ((k <- perm[[1]]) != 0) {
      idx <- seq_len(k + 1)
      perm[idx] <- perm[rev(idx)]
      flips <- flips + 1
    }
    max_flips <- max(max_flips, flips)
    checksum <- checksum + if (perm_count %% 2 == 0) flips else -flips
    repeat {
      if (r == n) return(c(checksum = checksum, max_flips = max_flips))
      idx <- seq_len(r + 1)
      perm1[idx] <- perm1[c(idx[-1], 1)]
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
      stop("fannkuchredux_vec: expected ", paste(expected, collapse = "/"), ", got ",
        paste(result, collapse = "/"))
    }
    invisible(result)
  },
  default_n = 8,
  quick_n = 7
)
