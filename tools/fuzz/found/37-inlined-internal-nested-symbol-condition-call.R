## seed 37000141 (class 37, fixed), hand-reduced: identical() and the other
## simple .Internal wrappers are inlined into the caller (as GNU R's
## compiler does); a missing variable that is a direct argument names the
## inlined call, but one inside a nested expression names the function's call
## defs
f <- function(a, b, z) {
  for (i1 in 1:3) {
    v5 <- identical(z + (z <- c(1.5, NA, 3)), 2)
  }
}
g <- function(a, z) {
  for (i in 1) v <- nchar(z + (z <- 1))
  for (i in 1) v <- inherits(if (a) z, "a")
  1
}
h <- function(z) {
  for (i in 1) v <- identical(z, 2)
  1
}
## steps
f(FALSE, 2.5)
f(FALSE, 2.5)
g(TRUE)
g(TRUE)
h()
h()
