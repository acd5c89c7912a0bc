## seed 41016349 (class 40, fixed), hand-reduced: once the program binds its
## own c(), the promise `mapply(...)` is forced inside that closure, and
## mapply's internal calls FUN, which calls c() again; the inner activation
## of c() set the current-expression slot the outer activations share, so
## the warning mapply's internal raises afterwards named `base::c(..., 0L)`
## (GNU R: mapply's call, its byte code keeping the expression per
## activation).
## defs
f <- function(a, ...) {
  v1 <- c(1, mapply(function(p, q) c(p, q), 1.5 < 5:1, list(1, "a"), SIMPLIFY = FALSE))
  1
}
## steps
f("bb")
f("bb")
f("bb")
c <- function(...) base::c(..., 0L)
f("bb")
f("bb")
