## defs
f <- function(x) { x$a[1] <- 1; x }
g <- function(x) { x$a$b <- 1; x }
h <- function(x, y) { x$a[y] <- 2; x }
## steps
f()
f()
f()
g()
g()
h(, 1)
h(list(a = 1:3), 2)
h(list(a = 1:3), 2)
