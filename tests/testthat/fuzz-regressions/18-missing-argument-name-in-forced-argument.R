## defs
f <- function(a, b) format(log(b))
## steps
f(1)
