# lapply / sapply / vapply / Map over closures (and closures that capture
# variables of the enclosing call).

apply_family <- function(n) {
  xs <- as.numeric(seq_len(n))
  offset <- 1
  add_offset <- function(x) x + offset
  squares <- lapply(xs, function(x) x * x)
  shifted <- sapply(xs, add_offset)
  halves <- vapply(xs, function(x) x / 2, numeric(1))
  flags <- vapply(xs, function(x) x %% 3 == 0, logical(1))
  pairs <- Map(function(a, b) a * b, xs, halves)
  c(
    squares = sum(unlist(squares)),
    shifted = sum(shifted),
    halves = sum(halves),
    flags = sum(flags),
    pairs = sum(unlist(pairs))
  )
}

bench <- list(
  run = function(n) {
    res <- apply_family(n)
    sq <- n * (n + 1) * (2 * n + 1) / 6
    expected <- c(
      squares = sq, shifted = n * (n + 1) / 2 + n, halves = n * (n + 1) / 4,
      flags = n %/% 3, pairs = sq / 2
    )
    if (any(abs(res - expected) > 1e-9 * abs(expected))) stop("apply_family: wrong result")
    invisible(res)
  },
  default_n = 2e5,
  quick_n = 5e3
)
