## defs
f <- function(a) identical(a, nosuchvar)
## steps
f(1)
