## defs
f <- function(a) { a[2L] <- NA; delayedAssign("v", a + (a <- 2.5)); list(a, v) }
g <- function(a) { a <- c(a, 1); delayedAssign("v", a * (a <- 2)); x <- list(a, v); list <- 0; x }
h <- function(a) { a <- c(a, 1); delayedAssign("v", -(a <- 3) + a); c(a, v, a) }
k <- function(a) { a <- a + 0; delayedAssign("v", { b <- a; a <- 0; b + 1 }); paste(a, v) }
## steps
f(2.5)
f(2.5)
g(c(1.5, 2))
g(c(1.5, 2))
h(1)
k(c(1, 2))
k(c(1, 2))
