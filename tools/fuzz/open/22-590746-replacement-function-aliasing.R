## seed 590746
## defs
`fzset<-` <- function(x, i, value) { x[[i]] <- value; x }
fz_id <- function(a, b) list(a, b)
f <- function(a, b, z = mapply(function(p, q) c(p, q), -Inf, FALSE, SIMPLIFY = FALSE), ...) {
  v1 <- fz_id(a, { a <- a
a })
  message("m ", format(mean(c(a, { a[1L] <- v1
a }))))
  k4 <- 0L
  while (k4 < 2L) {
    k4 <- k4 + 1L
    for (i6 in 1:3) {
      fzset(a, 1L) <- a
      on.exit(cat("exit", format(a != -0), "\n"), add = TRUE)
    }
  }
  v10 <- withCallingHandlers({
    k7 <- 0L
    while (k7 < 4L) {
      a[length(a) + 1L] <- vapply(names(numeric(0)), function(e) length(e), integer(1))
    }
invokeRestart("muffleWarning") })
}
## steps
f(-.Machine$integer.max, list(1, "a"), list(2.5))
