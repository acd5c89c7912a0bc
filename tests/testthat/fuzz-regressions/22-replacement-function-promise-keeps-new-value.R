## defs
`fzset<-` <- function(x, i, value) { x[[i]] <- value; x }
`fzget` <- function(x, i) x[[i]]
`fzget<-` <- function(x, i, value) { x[[i]] <- value; x }
f <- function(a) { fzset(a, 1L) <- a; on.exit(str(a)); a[length(a) + 1L] <- integer(0) }
g <- function(a, v) { fzset(a, 2L) <- v; on.exit(str(a)); a[length(a) + 1L] <- integer(0) }
h <- function(a) { fzget(a, 1L)[[1L]] <- a; on.exit(str(a)); a[length(a) + 1L] <- integer(0) }
k <- function(a) { b <- a; fzset(a, 1L) <- b; on.exit(str(list(a, b))); a[length(a) + 1L] <- integer(0) }
## steps
try(f(list(1)))
try(f(list(1, "x")))
try(g(list(1), list(2)))
try(g(list(1), 3))
try(h(list(list(1))))
try(k(list(1)))
