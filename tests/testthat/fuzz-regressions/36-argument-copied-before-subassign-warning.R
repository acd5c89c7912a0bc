## defs
g2 <- function(y) { y[2L] <- c(TRUE, NA, FALSE); 1 }
g3 <- function(y) { y[[2L]] <- c(TRUE, NA, FALSE); 1 }
h <- function(y) { z <- y; y[2L] <- 5; length(z) }
## steps
old <- mem.maxVSize()
invisible(mem.maxVSize(4096))
g2(2147483646:3)
g2(2147483646:3)
g3(2147483646:3)
g3(2147483646:3)
h(2147483646:3)
invisible(mem.maxVSize(old))
