# Differential tests: calls of small arithmetic closures, which the
# optimizer inlines once the feedback has seen the callee (the callee's
# body and its arguments' promise code translated in the caller). Each
# caller runs enough times to be optimized with feedback in the modes with
# a low threshold, and each snippet changes something the inlined code
# assumed: the callee, its arguments' types, laziness, missingness.

expect_all_same(list(
  "the inlined body computes what the call does, and a new callee is called" = "
    eval_a <- function(i, j) 1 / ((i + j) * (i + j + 1) / 2 + i + 1)
    times <- function(v) {
      n <- length(v)
      out <- numeric(n)
      for (i in seq_len(n)) {
        s <- 0
        for (j in seq_len(n)) s <- s + eval_a(i - 1, j - 1) * v[j]
        out[i] <- s
      }
      out
    }
    r <- lapply(1:4, function(k) times(rep(1, 6)))
    eval_a <- function(i, j) i - j
    c(r[[4]], times(rep(1, 6)), times(c(1, 2)))
  ",
  "arguments of other types than the feedback saw" = "
    add <- function(a, b) a + b
    f <- function(x, y) add(x, y)
    r <- vapply(1:5, function(k) f(k + 0.5, 2), 0)
    list(r, f(2L, 3L), f(TRUE, 1), f(NA, 1), f(c(1, 2), 1), f(1:3, 0.5),
      tryCatch(f('a', 1), error = function(e) conditionMessage(e)),
      f(.Machine$integer.max, 1L), f(structure(1, names = 'n'), 2))
  ",
  "an argument that is an unforced promise, forced in the callee's order" = "
    add <- function(a, b) b * 10 + a
    f <- function(x, y) add(x, y)
    for (k in 1:4) print(f(k + 0.5, 2))
    f({cat('x forced\\n'); 1.5}, {cat('y forced\\n'); 2.5})
  ",
  "an argument never used is never evaluated" = "
    first <- function(a, b) a * 2
    f <- function(x) first(x, stop('not evaluated'))
    vapply(1:5, function(k) f(k + 0.5), 0)
  ",
  "errors name the call: an unbound variable, a missing argument" = "
    sq <- function(x) x * x
    g <- function() sq(zz + 1)
    zz <- 2
    r <- vapply(1:4, function(k) g(), 0)
    rm(zz)
    e <- tryCatch(g(), error = function(e) e)
    h <- function(a) sq(a)
    r2 <- vapply(1:4, function(k) h(k + 0.5), 0)
    e2 <- tryCatch(h(), error = function(e) e)
    list(r, conditionMessage(e), conditionCall(e), r2, conditionMessage(e2), conditionCall(e2))
  ",
  "an object argument dispatches to its method, in the callee's frame" = "
    twice <- function(x) x * 2
    f <- function(y) twice(y)
    r <- vapply(1:4, function(k) f(k + 0.5), 0)
    `*.myc` <- function(e1, e2) {
      cat('method called from', deparse(sys.call(-1)), '\\n')
      42
    }
    list(r, f(structure(1, class = 'myc')), f(3))
  ",
  "visibility of the inlined call's value" = "
    inc <- function(x) x + 1
    w <- function(x) inc(x)
    for (k in 1:4) w(k + 0.5)
    w(2.5)
    withVisible(w(3.5))
  ",
  "an active binding read by an inlined argument" = "
    sq <- function(x) x * x
    f <- function() {
      makeActiveBinding('ab', function() { cat('ab read\\n'); 3 }, environment())
      sq(ab + 0.5)
    }
    for (k in 1:4) print(f())
  ",
  "the callee's argument names and defaults" = "
    lin <- function(a, b = 10) a * 2 + b
    f <- function(x) lin(x, 1)
    g <- function(x) lin(b = x, a = 1)
    r <- vapply(1:5, function(k) f(k + 0.5) + g(k + 0.5), 0)
    list(r, f(2), g(2))
  ",
  "promises the caller evaluates before the call: substitute, missing, values" = "
    g <- function(a, b) list(substitute(a), missing(b), a, substitute(b))
    f <- function(x) {
      s <- 0
      for (i in 1:3) s <- s + g(x * 2, i + 1)[[3]]
      list(s, g(x * 2, i + 1), g(x - 1))
    }
    lapply(1:5, function(k) f(k + 0.5))
  ",
  "an argument the callee never uses: an unbound variable, a forced promise" = "
    h <- function(a, b) a * 2
    f <- function(x) h(x + 1, undefined_var + 1)
    g <- function(x, y) h(x + 1, y * 2)
    r <- vapply(1:5, function(k) f(k + 0.5), 0)
    list(r, g(1.5, {cat('y forced\n'); 2}), g(2.5, stop('not forced')))
  ",
  "recursion with arithmetic arguments" = "
    fib <- function(k) if (k < 2) k else fib(k - 1) + fib(k - 2)
    fibi <- function(k) if (k < 2L) k else fibi(k - 1L) + fibi(k - 2L)
    list(vapply(1:12, fib, 0), vapply(1:12, fibi, 0L), fib(15.5), fibi(.Machine$integer.max - 1L < 0L))
  ",
  "closures from one factory: same body, different environments" = "
    mk <- function(k) function(x) x * k
    a <- mk(2)
    b <- mk(3)
    f <- function(g, v) g(v + 0.5)
    r <- vapply(1:5, function(i) f(a, i), 0)
    c(r, f(b, 1), f(a, 1))
  "
,
  "a callee that branches: both ways, NA and NaN conditions, other types" = "
    mx <- function(a, b) if (a > b) a else b
    f <- function(x, y) mx(x, y) + 1
    r <- vapply(1:6, function(k) f(k + 0.5, 3.25), 0)
    list(r, f(2L, 1L), f(-Inf, Inf), f(1, 1),
      tryCatch(f(NA_real_, 1), error = function(e) list(conditionMessage(e), conditionCall(e))),
      tryCatch(f(NaN, 1), error = function(e) conditionMessage(e)),
      tryCatch(f(c(1, 2), 1), error = function(e) conditionMessage(e)),
      f('b', 'a'))
  ",
  "a callee that loops, and one that returns early" = "
    tri <- function(n) { s <- 0; i <- 0; while (i < n) { s <- s + i; i <- i + 1 }; s }
    g <- function(k) { t <- 0; for (j in 1:k) t <- t + tri(j * 1.5); t }
    ab <- function(x) { if (x < 0) return(-x); x }
    h <- function(v) ab(v) * 2
    r <- lapply(1:5, function(k) c(g(k), h(k - 2.5)))
    list(r, g(3), h(-0), h(NA_real_), tri(-1), tryCatch(h(NA), error = function(e) conditionMessage(e)),
      tryCatch(g(1) + tri(NA), error = function(e) conditionMessage(e)))
  ",
  "a callee assigning its formal and a variable on one path only" = "
    clamp <- function(x, lo) { if (x < lo) x <- lo; x * 2 }
    odd <- function(x) { if (x > 0) y <- x * 3; if (x > 0) y else -x }
    f <- function(v) clamp(v, 1.5) + odd(v)
    r <- vapply(c(0.5, 2.5, -1.5, 3.5, 0.25), f, 0)
    list(r, f(1.5), f(NaN > 1))
  ",
  "the inlined callee is redefined, or gets an object, or a promise with effects" = "
    sgn <- function(x) if (x > 0) 1 else if (x < 0) -1 else 0
    f <- function(v) { s <- 0; for (e in v) s <- s + sgn(e * 2); s }
    r1 <- vapply(1:5, function(k) f(c(-1.5, 0, 2.5, k)), 0)
    sgn <- function(x) 42
    r2 <- f(c(1, 2))
    sgn <- function(x) if (x > 0) 1 else -1
    `>.myc` <- function(e1, e2) { cat('dispatched\n'); TRUE }
    r3 <- f(structure(1, class = 'myc'))
    g <- function(x) sgn(x)
    r4 <- vapply(1:5, function(k) g(k - 2.5), 0)
    list(r1, r2, r3, r4, g({cat('forced\n'); -3}))
  ",
  "a result that is invisible" = "
    setv <- function(x) { if (x > 1) y <- x else y <- 0; invisible(y) }
    f <- function(v) setv(v * 2)
    for (k in 1:4) f(k)
    withVisible(f(2.5))
  "
,
  "an argument a branching callee uses on one path only: missing, failing" = "
    sel <- function(c, a, b) if (c > 0) a else b
    h <- function(c, x, y) { c <- c + 0; sel(c, x, y) }
    r <- vapply(1:6, function(i) h(i - 3.5, 1, 2), 0)
    list(r, h(1, 5), h(-1, , 5), tryCatch(h(1, , 5), error = function(e) conditionMessage(e)))
  ",
  "argument code that fails on some values is not computed before the call" = "
    pick <- function(c, a, b) if (c > 0) a else b
    h <- function(c) { c <- c * 1; off <- NULL; if (c > 10) off <- 5; pick(c - 10, -off, 0) }
    pick2 <- function(c, a, b) { length(c); if (c > 0) a else b }
    h2 <- function(c) { c <- c * 1; off <- NULL; if (c > 10) off <- 5; pick2(c - 10, -off, 0) }
    list(vapply(1:6, function(i) h(i * 3), 0), vapply(1:6, function(i) h2(i * 3), 0))
  "
))
