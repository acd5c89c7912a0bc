## defs
f <- function(a) {
  r1$a <- sapply(NaN, function(e) { v3[1L] <<- e; 1 })
}
g <- function(a) { zz[[1L]] <<- a; 1 }
h <- function(a) { names(zz)[1L] <<- a; 1 }
k <- function(a) { zz$b <<- a; 1 }
m <- function(a) { zz[1L, 2L] <<- a; 1 }
## steps
f(1)
g(1)
h(1)
k(1)
m(1)
m(1)
