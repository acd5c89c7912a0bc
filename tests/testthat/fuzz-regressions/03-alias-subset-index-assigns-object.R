## defs
f <- function(a) {
  v <- a + 1L
  v[{ v <- 99L; 1L }]
}
## steps
f(1L)
