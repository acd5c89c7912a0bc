# Closure calls exercising argument matching: positional, named, defaults,
# missing() and `...` forwarding.

make_scaler <- function(factor) {
  function(x, offset = 0, ...) {
    extra <- list(...)
    total <- x * factor + offset
    if (length(extra) > 0) total <- total + extra[[1]]
    total
  }
}

with_default <- function(a, b = a * 2, c) {
  if (missing(c)) a + b else a + b + c
}

forward <- function(f, ...) f(...)

dots_sum <- function(...) {
  n_args <- ...length()
  if (n_args == 0) 0 else ..1 + n_args
}

closure_args <- function(n) {
  scale3 <- make_scaler(3)
  total <- 0
  for (i in seq_len(n)) {
    total <- total + scale3(i)                       # 3i
    total <- total + scale3(offset = 1, x = i)       # 3i + 1
    total <- total + with_default(i)                 # 3i
    total <- total + with_default(i, c = 1)          # 3i + 1
    total <- total + with_default(b = 1, a = i)      # i + 1
    total <- total + forward(scale3, i, 2, 1)        # 3i + 3
    total <- total + dots_sum(i, 1, 2)               # i + 3
  }
  total
}

bench <- list(
  run = function(n) {
    total <- closure_args(n)
    expected <- 17 * n * (n + 1) / 2 + 9 * n
    if (total != expected) stop("closure_args: expected ", expected, " got ", total)
    invisible(total)
  },
  default_n = 2e5,
  quick_n = 5e3
)
