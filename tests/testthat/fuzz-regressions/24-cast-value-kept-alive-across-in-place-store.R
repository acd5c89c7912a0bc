## defs
f <- function(x) {
  v1 <- Inf
  v2 <- list(v1[{ v1 <- 1.5; 1L }])
  v2[[1]]
}
g <- function(x) {
  v <- c(1, 2)
  w <- v[{ v[1] <- 10; 1L }] + v[2]
  c(w, v)
}
h <- function(n) {
  a <- 0.5
  r <- a * (function() { a <<- 9; 1 })()
  for (i in seq_len(n)) r <- r + a[{ a <- i + 0.25; 1L }]
  c(r, a)
}
## steps
f(1)
f(1)
f(1)
g(1)
g(1)
h(3)
h(3)
h(0)
