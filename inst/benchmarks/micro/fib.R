# Naive doubly recursive Fibonacci: function call overhead.

fib <- function(k) {
  if (k < 2) k else fib(k - 1) + fib(k - 2)
}

fib_iterative <- function(k) {
  a <- 0
  b <- 1
  for (i in seq_len(k)) {
    t <- a + b
    a <- b
    b <- t
  }
  a
}

bench <- list(
  run = function(n) {
    value <- fib(n)
    if (value != fib_iterative(n)) stop("fib: fib(", n, ") gave ", value)
    invisible(value)
  },
  default_n = 28,
  quick_n = 15
)
