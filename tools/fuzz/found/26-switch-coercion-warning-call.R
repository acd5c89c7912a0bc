## defs
f <- function(b, z) { b[NA] <- paste0(z, 1); switch(z, a = 1, 2) }
g <- function(z) switch(z, 1, 2, 3)
## steps
f(1, Inf)
f(1, Inf)
f(1, Inf)
g(1e10)
g(1e10)
g(1e10)
