## defs
f <- function(a) {
  x <- a + 1
  x + (x <- 10)
}
## steps
f(1)
