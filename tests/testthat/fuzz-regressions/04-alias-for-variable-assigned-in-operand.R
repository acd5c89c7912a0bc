## defs
f <- function(v) {
  r <- numeric()
  for (i in v) r[length(r) + 1L] <- i + ({ i <- floor(i) })
  r
}
## steps
f(c(2.5, 4.5))
