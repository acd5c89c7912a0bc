# Vectorized & and |, and ..N, in functions that run often enough to be
# optimized (the optimizer translates them; the feedback sees plain scalars
# first, then something else).

expect_all_same(list(
  "& and | on scalars in a loop, then NA, vectors and other types" = "
    f <- function(a, b) list(a & b, a | b, !a & b, (a | b) & !(a & b))
    r <- lapply(1:6, function(i) f(i %% 2 == 0, i > 3))
    list(r[[6]], f(NA, TRUE), f(NA, FALSE), f(c(TRUE, NA, FALSE), TRUE),
      f(0L, 2.5), f(c(a = 1, b = 0), c(x = 1)), f(logical(0), TRUE),
      f(1i, FALSE), f(matrix(c(TRUE, FALSE), 1), TRUE))
  ",
  "& and | on raw vectors give raw" = "
    f <- function(a, b) list(a & b, a | b)
    r <- lapply(1:4, function(i) f(i > 2, TRUE))
    list(r, f(as.raw(12), as.raw(10)), f(as.raw(c(1, 2, 3)), as.raw(6)))
  ",
  "& and | errors and warnings" = "
    f <- function(a, b) a & b
    g <- function(a, b) a | b
    for (i in 1:4) f(TRUE, i > 1)
    list(tryCatch(f('a', TRUE), error = function(e) conditionMessage(e)),
      tryCatch(g(list(1), TRUE), error = function(e) conditionMessage(e)),
      tryCatch(f(as.raw(1), TRUE), error = function(e) conditionMessage(e)),
      withCallingHandlers(f(c(TRUE, FALSE, TRUE), c(TRUE, FALSE)),
        warning = function(w) { cat('warning:', conditionMessage(w), '\\n'); invokeRestart('muffleWarning') }))
  ",
  "& and | dispatch to Ops methods" = "
    Ops.flag <- function(e1, e2) { cat('Ops', .Generic, '\\n'); structure(get(.Generic)(unclass(e1), unclass(e2)), class = 'flag') }
    f <- function(a, b) list(a & b, a | b)
    for (i in 1:4) f(i > 1, TRUE)
    x <- structure(TRUE, class = 'flag')
    f(x, FALSE)
  ",
  "& and | in a loop condition whose operand types change" = "
    f <- function(v, w) {
      n <- 0L
      for (i in seq_along(v)) if (v[i] & w[i] | i == 1L) n <- n + 1L
      n
    }
    list(f(c(TRUE, FALSE, TRUE), c(TRUE, TRUE, FALSE)), f(1:4, c(0, 1, 1, 0)),
      f(c(TRUE, FALSE, TRUE), c(TRUE, TRUE, FALSE)),
      tryCatch(f(c(NA, TRUE), c(TRUE, NA)), error = function(e) conditionMessage(e)))
  ",
  "..N in a loop, its promises forced once, and its errors" = "
    k <- 0
    side <- function(v) { k <<- k + 1; v }
    f <- function(...) ..1 * 2 + ..2
    g <- function(...) { s <- 0; for (i in 1:3) s <- s + ..1; s }
    h <- function(...) ..3
    r <- vapply(1:5, function(i) f(side(i), 1), 0)
    list(r, k, g(side(2)), k,
      tryCatch(h(1, 2), error = function(e) conditionMessage(e)),
      tryCatch(f(1), error = function(e) conditionMessage(e)),
      tryCatch(f(, 2), error = function(e) conditionMessage(e)),
      tryCatch((function() ..1)(), error = function(e) conditionMessage(e)))
  ",
  "..N visibility and lazy values" = "
    f <- function(...) ..1
    g <- function(...) { ..2; ..1 }
    for (i in 1:4) f(i)
    list(withVisible(f(invisible(3))), withVisible(f(5)), withVisible(g(invisible(1), 2)),
      f(quote(sym)), f(NULL))
  "
,
  "subsetting with named arguments and more than two indices" = "
    f <- function(m, i) list(m[i, , drop = FALSE], m[i, 1, drop = TRUE], m[[i, 2, exact = TRUE]])
    g <- function(a, i) { s <- 0; for (k in 1:2) s <- s + a[i, k, 1] + a[[1, k, i]]; s }
    h <- function(l, nm) list(l[[nm, exact = FALSE]], l[nm], l[[1, exact = TRUE]])
    m <- matrix(1:6, 2, dimnames = list(c('a', 'b'), NULL))
    a <- array(as.numeric(1:12), c(2, 2, 3))
    l <- list(alpha = 1, beta = 'b')
    list(lapply(1:2, function(i) f(m, i)), vapply(1:2, function(i) g(a, i), 0),
      lapply(c('al', 'beta', 'be'), function(nm) h(l, nm)),
      tryCatch(g(a, 5), error = function(e) conditionMessage(e)),
      tryCatch(f(m, 3), error = function(e) conditionMessage(e)),
      h(structure(list(x = 1), class = 'rec'), 'x'))
  "
))
