## defs
f <- function(a, b) sapply(b, function(e) e)
## steps
f(1)
