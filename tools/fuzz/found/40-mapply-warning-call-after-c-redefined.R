## seed 41016349 (class 40, open), not reduced: after the program redefines
## c() at top level, the warning mapply's internal raises names the body of
## that closure (base::c(..., 0L)) under rir, mapply's call under GNU R;
## default and native2 modes at f485f83 (the other modes not yet run).
## defs
fz_count <- 0L
fz_id <- function(a, b) list(a, b)
fz_second_first <- function(a, b) { b; cat("a", format(a), "\n"); a }
fz_lazy <- function(a, b) if (isTRUE(all(a > 0))) a else b
fz_sq <- function(x) -x * x + 0.5
f <- function(a, ...) {
  v1 <- c(lapply(is.na(list(a = 1L, b = list(2))), function(e) e[NA]), mapply(function(p, q) c(p, q), 1.5 < 5:1, switch(format(NA_integer_), a = list(2.5), b = , c = list(1, "a"), list(a = 1L, b = list(2))), SIMPLIFY = FALSE))
  if (isTRUE(any(2.5 != integer(0)))) {
    print(fz_sq(is.na(list(a = 1L, b = list(2)) %in% -0)))
    v2 <- list(local({ a <- a; a }), a)
  }
  a[1L] <- paste(-0 >= 7L, if (isTRUE(c(TRUE, NA, FALSE))) v1 else v1, collapse = "|")
  v1$a <- switch(format(1:3), a = which(c(FALSE, TRUE)), b = , c = c(2L, NA, -1L) * integer(0))
  g3 <- function(y) vapply(c("x", "y", NA), function(e) length(e), integer(1)) >= 0L
  k4 <- 0L
  while (k4 < 1L) {
    k4 <- k4 + 1L
    v5 <- v1
    print(c(v1, { v1[1L] <- g3(list(1, "a")); v1 }))
  }
  if (isTRUE(Inf != NA_integer_)) numeric(0) > 7L
}
## steps
f("bb")
f("bb")
f("bb")
c <- function(...) base::c(..., 0L)
f("bb")
f("bb")
