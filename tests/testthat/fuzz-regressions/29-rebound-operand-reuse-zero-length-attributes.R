## defs
f <- function(a, b) {
  attr(b, "self") <- b
  v2 <- list(b + (b <- b[(b <- b) > 0]))
}
## steps
f(c(a = 1L, b = 2L), integer(0))
f(c(a = 1L, b = 2L), integer(0))
f(c(a = 1L, b = 2L), integer(0))
f(c(a = 1L, b = 2L), integer(0))
