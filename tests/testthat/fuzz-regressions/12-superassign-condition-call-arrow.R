## defs
f <- function(a) {
  g <- function() a[1L] <<- c(5, 6)
  g()
  a
}
## steps
f(c(1, 2))
