## defs
f <- function(a) {
  v <- list(a, "a")
  c(v, { v[1L] <- list(2); v })
}
## steps
f(1)
