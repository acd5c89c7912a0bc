## seed 451739
## defs
fz_count <- 0L
fz_id <- function(a, b) list(a, b)
fz_second_first <- function(a, b) { b; cat("a", format(a), "\n"); a }
fz_lazy <- function(a, b) if (isTRUE(all(a > 0))) a else b
fz_default <- function(a, b = a * 2, c = { a <- a + 1; b }) list(a, b, c)
f <- function(a, ...) {
  if (isTRUE(any(c(FALSE, TRUE)) & is.na(list(2.5)))) {
    v1 <- sapply(seq_along(a), function(i) { a[i] <<- match(NA_character_, NA_character_); length(a) })
  }
  on.exit(cat("exit", format((-Inf + a)), "\n"), add = TRUE)
  a[3] <- a
  cat(a[(a <- a + (a <- 2L)) > 0], sep = " "); cat("\n")
  v2 <- switch(NA_integer_, sprintf("%5.1f", a), "a")
  a <- a[(a <- a) > 0]
  g3 <- function(y) {
    for (i4 in list(1, "a", NULL)) {
      v5 <- switch(3, v5, list(a = 1L, b = list(2))[-1L])
    }
    k6 <- 0L
    repeat {
      k6 <- k6 + 1L
      if (k6 > 4L) break
      v7 <- list(fz_default(a))
      for (i8 in 1:3) {
        v7 <- list(missing(y), length(as.numeric(FALSE)))
        v9 <- list(i8, { i8 <- i8 + 1; i8 })
        print(a >= length("10"))
      }
    }
    { a <- a; a } - if (isTRUE(TRUE)) -.Machine$integer.max else 5:1
  }
  a <- if (isTRUE(c(TRUE, NA, FALSE))) NA_integer_ else c(1L, 4L)
}
## steps
f(c(1L, 4L))
f(c(1L, 4L))
f(c(1L, 4L))
