# A for() loop's variable: native code writes each element into the box of
# the previous iteration's value when nothing else can hold that box
# without counting it (rirn_forelement_reuse). Every other holder must see
# its own value: another variable, a list element, a closure, a method that
# returns or keeps the index, the value after the loop, a deoptimization.

expect_all_same(list(
  "the variable read by arithmetic, after the loop, in nested loops" = "
    f <- function(n) { s <- 0; for (i in seq_len(n)) s <- s + i; c(s, i) }
    g <- function(x) { s <- 0; for (v in x) s <- s + v * v; c(s, v) }
    h <- function(n) { s <- 0L; for (i in 1:n) for (j in 1:i) s <- s + i * j; c(s, i, j) }
    e <- function(n) { for (i in seq_len(n)) {}; i }
    r <- NULL
    for (k in 1:6) r <- list(f(k * 3), g(c(1.5, 2.5, k)), h(k), e(k), e(0))
    r
  ",
  "the variable copied into other variables, lists and closures" = "
    f <- function(n) { for (i in seq_len(n)) { y <- i }; c(y, i) }
    g <- function(n) { l <- list(); for (i in seq_len(n)) l[[length(l) + 1L]] <- i; l }
    h <- function(n) { fs <- list(); for (i in seq_len(n)) fs[[i]] <- local({ j <- i; function() j }); sapply(fs, function(q) q()) }
    k <- function(x) { m <- NULL; for (v in x) { if (is.null(m) || v > m) m <- v }; m }
    u <- function(n) { a <- 0; b <- 0; for (i in seq_len(n)) { a <- b; b <- i }; c(a, b) }
    w <- function(n) { v <- numeric(n); for (i in seq_len(n)) v[i] <- i; v }
    r <- NULL
    for (q in 1:6) r <- list(f(q), g(q), h(q), k(c(3, 9, 2, q)), u(q), w(q))
    r
  ",
  "the index of a subset whose method returns or keeps it" = "
    `[.keep` <- function(x, i) { kept[[length(kept) + 1L]] <<- i; i }
    kept <- list()
    f <- function(x, n) { s <- 0; for (i in seq_len(n)) s <- s + x[i]; s }
    g <- function(x, n) { r <- 0; for (i in seq_len(n)) r <- x[i]; r }
    x <- structure(1:5, class = 'keep')
    r <- NULL
    for (q in 1:5) r <- list(f(x, 3), g(x, 4), f(as.numeric(1:5), 5))
    list(r, kept[1:6])
  ",
  "ranges: compact, expanded, descending, of doubles; vectors; a binding kept across rounds" = "
    f <- function(r) { s <- 0L; for (i in r) s <- s + i; c(s, i) }
    g <- function(r, x) { s <- 0; for (i in r) s <- s + x[i] * i; c(s, i) }
    h <- function(n) { last <- NULL; for (i in seq_len(n)) { if (i %% 3L == 0L) last <- i }; c(last, i) }
    e <- 1:40; invisible(e + 0L)
    x <- as.numeric(1:40) / 7
    r <- NULL
    for (q in 1:6) r <- list(f(1:40), f(e), f(40:1), f(seq(1.5, 30.5)), f(c(5L, 9L, 2L)),
                             f(seq_len(q)), g(seq_along(x), x), g(e, x), h(10 + q))
    r
  ",
  "from:to ranges native code does not build: whole, fractional, NA, reversed, empty, deoptimized" = "
    f <- function(a, b) { s <- 0; for (i in a:b) s <- s + i; c(s, i) }
    g <- function(n) { s <- 0; for (r in 1:n) for (j in (r + 1):(n + 1)) s <- s + r * j; c(s, r, j) }
    h <- function(a, b) { l <- list(); for (i in a:b) l[[length(l) + 1L]] <- i; l }
    k <- function(n, x) { s <- 0; for (i in 1:n) s <- s + x[[i]]; s }
    m <- function(a, b) tryCatch({ for (i in a:b) {}; i }, error = function(e) conditionMessage(e))
    w <- function(n) { out <- 0; for (i in 1:n) { if (i == 3L) out <- out + 0.5; out <- out + i }; out }
    r <- NULL
    for (q in 1:6) r <- list(f(1, q), f(q, 1), f(1L, q), f(1.5, q + 2), f(-q, q), f(q, q),
                             f(2147483640, 2147483647), g(q), h(q, 2), h(3L, q),
                             k(q, c(1:5, 2.5)), m(1, NA), m(NA_integer_, 3L), m(0.5, 3),
                             w(q + 3))
    r
  ",
  "the variable handed to calls" = "
    f <- function(n) { r <- list(); for (i in seq_len(n)) r[[i]] <- identity(i); r }
    g <- function(n) { y <- 0; for (i in seq_len(n)) y <- (i); y }
    h <- function(x) { out <- c(); for (v in x) out <- c(out, v); out }
    r <- NULL
    for (q in 1:6) r <- list(f(q), g(q), h(c(q, 2.5, 7)))
    r
  "
))
