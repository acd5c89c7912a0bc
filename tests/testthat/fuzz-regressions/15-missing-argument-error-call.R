## defs
f <- function(a, z) nchar(z)
## steps
f(1)
