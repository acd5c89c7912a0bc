## defs
f <- function(a) {
  x <- a * 2
  list(x, { x <- x + 1; x })
}
## steps
f(1)
