## defs
f <- function(v) { r <- 0; for (i in 1:3) r <- r + 1; if (!v) "yes" else "no" }
g <- function(v) { w <- sapply(1, function(e) if (!v) e else -e); w }
## steps
try(f(logical(0)))
try(f(c(TRUE, FALSE)))
f(FALSE)
f(1L)
try(f(NA))
try(g(logical(0)))
g(TRUE)
