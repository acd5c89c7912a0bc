## seed 18, 167, 405 of CI's fuzz budget (class 41, fixed), hand-reduced:
## a for() loop whose body always leaves it (`break` first) has no back
## edge, so the Phi of its element is in the exit block, after the element;
## the native loop variable's box reuse took it for the header's Phi and
## read its value before it was lowered (a crash while compiling).
## defs
f <- function(a, ...) {
  for (i in seq_len(2L)) {
    break
    v <- i; i[1L] <- 3L; v <- list(i, v)
  }
  for (j in 1:3) {
    if (a > 0) break else break
  }
  list(if (exists("i")) i, j)
}
## steps
f(1L)
f(1L)
f(1L)
f(-1)
f(1L)
