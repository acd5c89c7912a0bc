## defs
f <- function(a, b) {
  b[1L] <- a
  b
}
## steps
f(1)
