## defs
f <- function() { a <- list(b = 1:3); v <- c(NaN, NaN); a$b[1] <- v; a }
## steps
f()
f()
f()
