# A running total kept as an integer while it fits, switched to a double
# when the next addition would overflow: the loop's arithmetic starts on
# integers and goes on with doubles midway through every call.

safe_total <- function(x) {
  acc <- 0L
  for (v in x) {
    if (is.integer(acc) && acc > .Machine$integer.max - v) acc <- as.double(acc)
    acc <- acc + v
  }
  acc
}

bench <- list(
  run = function(n) {
    x <- rep(c(40000L, 50000L, 60000L), length.out = n)
    total <- 0
    for (k in 1:4) total <- total + safe_total(x)
    if (total != 4 * sum(as.double(x))) stop("int_overflow: wrong result")
    invisible(total)
  },
  default_n = 2e6,
  quick_n = 1e5
)
