## defs
f <- function(b) { print(c(b, { b[1L] <- NA_integer_; b })); c <- 1; invisible() }
g <- function(b) { x <- list(b, { b[[1L]] <- 9; b }); list <- 0; x }
h <- function() { v <- c(1, 2); r <- paste(v, { v[1] <- 5; v }); paste <- 1; r }
## steps
f(list(2.5))
f(list(2.5))
g(list(1, 2))
g(c(1, 2))
h()
h()
