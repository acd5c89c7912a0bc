# Are-we-fast-yet "Permute": generates all permutations of a 6-element vector
# recursively by swapping, counting the calls.

permute_benchmark <- function() {
  state <- new.env()
  state$count <- 0
  state$v <- integer(6)

  swap <- function(i, j) {
    tmp <- state$v[i + 1]
    state$v[i + 1] <- state$v[j + 1]
    state$v[j + 1] <- tmp
  }

  permute <- function(n) {
    state$count <- state$count + 1
    if (n != 0) {
      n1 <- n - 1
      permute(n1)
      for (i in n1:0) {
        swap(n1, i)
        permute(n1)
        swap(n1, i)
      }
    }
  }

  permute(6)
  state$count
}

bench <- list(
  run = function(n) {
    for (i in seq_len(n)) {
      result <- permute_benchmark()
      if (result != 8660) stop("permute: expected 8660, got ", result)
    }
    invisible(result)
  },
  default_n = 50,
  quick_n = 1
)
