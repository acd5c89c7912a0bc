## defs
f <- function(a) {
  names(a)[2L] <- "b"
  a
}
## steps
f(1)
