## defs
f <- function(a) {
  a[length(a) + 1L] <- a * 2
  a
}
## steps
f(c(1, 2))
