## seed 590746 (class 22, fixed), hand-reduced from the minimizer's output
## defs
`fzset<-` <- function(x, i, value) { x[[i]] <- value; x }
f <- function(a) { fzset(a, 1L) <- a; on.exit(str(a)); a[length(a) + 1L] <- integer(0) }
## steps
try(f(list(1)))
