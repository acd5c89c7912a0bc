# `..N` used as a value is compiled (ldddvar) with GNU R's lookup: promises
# forced once, in order of use; its errors are GNU R's.

expect_all_same(list(
  "dots: ..1 and ..2 as values" = "
    f <- function(...) ..1 + ..2
    g <- function(...) { s <- 0; for (i in 1:3) s <- s + ..1; s }
    h <- function(a, ...) list(a, ..2, ..1)
    list(f(1, 2), f(1L, 2.5), g(4), h('a', 'b', 'c'))",
  "dots: promises forced once, lazily" = "
    n <- 0; side <- function(v) { n <<- n + 1; v }
    f <- function(...) { a <- ..1; b <- ..1; c(a, b, n) }
    g <- function(...) if (FALSE) ..2 else 'skipped'
    list(f(side(5)), n, g(1, stop('never')))",
  "dots: errors of ..N" = "
    f <- function(...) ..3
    g <- function() ..1
    h <- function(...) ..1
    list(tryCatch(f(1, 2), error = function(e) conditionMessage(e)),
         tryCatch(g(), error = function(e) conditionMessage(e)),
         tryCatch(h(), error = function(e) conditionMessage(e)),
         tryCatch(h(, 2), error = function(e) conditionMessage(e)))",
  "dots: ..N forwarded through calls" = "
    inner <- function(x, y) x * y
    outer <- function(...) inner(..2, ..1)
    vap <- function(...) vapply(1:3, function(i) i + ..1, 0)
    list(outer(3, 4), vap(10))"
))

expect_all_same(list(
  "dots: error calls of ..N" = "h <- function(...) ..1; h(, 2)",
  "dots: error calls of ..N, too few" = "h <- function(...) ..2 + 1; h(1)"
))
