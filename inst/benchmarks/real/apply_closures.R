# The apply family over closures: vapply, lapply, Map, Filter and Reduce
# with anonymous functions that capture variables, and a function factory
# of polynomial evaluators; functional-style R.

make_poly <- function(coefs) {
  force(coefs)
  function(x) {
    acc <- 0
    for (c in rev(coefs)) acc <- acc * x + c
    acc
  }
}

bench <- list(
  run = function(n) {
    polys <- lapply(1:20, function(k) make_poly(c(k, 1, -0.5, 0.25 / k)))
    xs <- seq(-1, 1, length.out = n)
    total <- 0
    for (p in polys) {
      ys <- vapply(xs, p, numeric(1))
      total <- total + sum(ys)
    }
    pairs <- Map(function(a, b) a * b + 1, xs, rev(xs))
    big <- Filter(function(v) v > 1, pairs)
    s <- Reduce(function(acc, v) acc + v, big, accumulate = FALSE)
    scaled <- unlist(lapply(seq_along(xs), function(i) xs[i] * i))
    check <- sum(vapply(polys, function(p) p(0.5), 0))
    expected <- sum(vapply(1:20, function(k) k + 0.5 - 0.125 + 0.25 / k * 0.125, 0))
    if (abs(check - expected) > 1e-9) stop("apply_closures: ", check, " vs ", expected)
    invisible(total + s + sum(scaled))
  },
  default_n = 8000,
  quick_n = 100
)
