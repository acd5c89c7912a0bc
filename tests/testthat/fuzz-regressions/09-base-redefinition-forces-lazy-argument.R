## defs
f <- function() length({ cat("forced\n"); 1:3 })
## steps
f()
length <- function(x) 99L
f()
