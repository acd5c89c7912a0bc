## seed 38005217 (class 38, fixed), hand-reduced: a small closure that GNU
## R's AST interpreter made (on.exit code runs there) is never compiled by
## GNU R's JIT, so `a[1L] <<- e`'s warning names the assignment as written;
## rir compiles it once rir code calls it (lapply, made rir code by the
## sapply call before) and named the byte code's `a[1L] <- e`
## defs
f <- function(a, b, z) {
  on.exit(cat("exit", format(lapply(list(x = 1:2, y = "z"), function(e) { a[1L] <<- e; sum(a) })), "\n"), add = TRUE)
  v4 <- tryCatch({
    a <- c(a, { a[1L] <- sapply(a[1L], function(e) { a[1L] <<- e; sum(a) }); a })
    "done"
  }, error = function(e) conditionMessage(e))
  1
}
g <- function(a) {
  h <- function(e) { names(a)[1L] <<- e; 1 }
  h(c("x", "y"))
}
k <- function(a) {
  for (i in 1) r <- sapply(list(1:2), function(e) { a[1L] <<- e; 1 })
  r
}
## steps
f(0, FALSE)
f(0, FALSE)
g(c(u = 1))
g(c(u = 1))
k(0)
k(0)
