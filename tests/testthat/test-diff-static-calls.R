# Differential tests: calls of closures the feedback saw alone, which the
# optimizer compiles as static calls (a guard checks the function is still
# that closure; the arguments are matched to its formals when compiling;
# the call carries the context their types prove). Each caller runs enough
# times to be optimized with feedback in the modes with a low threshold,
# and each snippet changes something the static call assumed or looks at
# what the callee sees of its call.

expect_all_same(list(
  "an argument the callee keeps unevaluated sees the caller's later assignments" = "
    mk <- function(a) function() a
    u <- function(x) {
      f <- mk(x + 1)
      x <- 100
      f()
    }
    adder <- function(n) function(x) x + n
    make_adders <- function(k) {
      fs <- list()
      for (i in 1:k) fs[[i]] <- adder(i * 10)
      fs
    }
    two <- function(a, b) function() a + b
    v <- function(x) {
      f <- two(x * 2, x)
      x <- 100
      f()
    }
    r <- lapply(1:6, function(i) list(u(i), sapply(make_adders(3), function(f) f(1)), v(i)))
    r[[6]]
  ",
  "an argument forced after code that may assign the caller's variable" = "
    first <- function(a, b) {
      a
      b
    }
    g <- function(a) {
      assign('x', 100, envir = parent.frame())
      a
    }
    f <- function(x) c(first(x <- x * 3, x + 1), g(x + 1), x)
    for (i in 1:6) r <- f(i)
    r
  ",
  "missing arguments, defaults and an empty `...` in the callee" = "
    h <- function(x, y = x * 2, ..., z) {
      if (missing(z)) z <- -1
      c(x, y, z, length(list(...)), missing(y))
    }
    f <- function(a) h(a)
    g <- function(a) h(a, , )
    k <- function(a) h(a, a + 1)
    r <- lapply(1:5, function(i) list(f(i), g(i + 0.5), k(i)))
    r[[5]]
  ",
  "the callee is replaced: the new one is called" = "
    h <- function(x) if (x > 0) x else -x
    f <- function(a) h(a) + 1
    r <- vapply(1:5, function(i) f(i - 3), 0)
    h <- function(x) x * 100
    h2 <- h
    list(r, f(2), f(-2))
  ",
  "the name finds a builtin or a non-function later" = "
    h <- function(x) if (x > 0) x else -x
    f <- function(a) h(a)
    r <- vapply(1:5, function(i) f(i - 3), 0)
    h <- abs
    r2 <- f(-4)
    h <- 3
    e <- tryCatch(f(1), error = function(e) conditionMessage(e))
    list(r, r2, e)
  ",
  "sys.call, match.call, sys.function and parent.frame in the callee" = "
    h <- function(x, y) {
      list(sys.call(), match.call(), identical(sys.function(), h),
        exists('marker', envir = parent.frame(), inherits = FALSE), nargs())
    }
    f <- function(a) {
      marker <- 1
      h(a + 1, 2)
    }
    for (i in 1:5) r <- f(i)
    r
  ",
  "the callee's frame: ls, environment, substitute, on.exit" = "
    h <- function(x, y) {
      on.exit(cat('exit', x, '\\n'))
      list(ls(), substitute(x), substitute(y), environmentName(parent.env(environment())))
    }
    f <- function(a) h(a * 2, a)
    for (i in 1:5) r <- f(i)
    r
  ",
  "errors and warnings in the callee name its call" = "
    h <- function(x) {
      if (x > 3) warning('big ', x)
      if (x > 4) stop('too big ', x)
      x
    }
    f <- function(a) h(a) * 2
    r <- list()
    for (i in 1:6) r[[i]] <- tryCatch(withCallingHandlers(f(i),
      warning = function(w) { print(conditionCall(w)); invokeRestart('muffleWarning') }),
      error = function(e) conditionCall(e))
    r
  ",
  "a promise argument is forced by the callee, at most once, in its order" = "
    h <- function(x, y) if (y > 0) x else 0
    f <- function(a) h({cat('x', a, '\\n'); a}, {cat('y', a, '\\n'); a - 2})
    vapply(1:5, f, 0)
  ",
  "argument types the caller proved, and others" = "
    h <- function(x, y) if (is.numeric(x)) x + y else paste(x, y)
    f <- function(a) h(a + 0.5, 1L)
    r <- vapply(1:5, f, 0)
    g <- function(a) h(a, 1L)
    list(r, g(1L), g(2.5), g('s'), g(structure(1, class = 'foo')), g(1:3), g(NA))
  ",
  "an object argument dispatches in the callee" = "
    h <- function(x) x + 1
    f <- function(a) h(a)
    r <- vapply(1:5, function(i) f(i + 0.5), 0)
    `+.money` <- function(e1, e2) structure(unclass(e1) * 10, class = 'money')
    list(r, unclass(f(structure(2, class = 'money'))))
  ",
  "recursion through a static call" = "
    fib <- function(k) if (k < 2) k else fib(k - 1) + fib(k - 2)
    r <- vapply(1:12, fib, 0)
    fibi <- function(k) if (k < 2L) k else fibi(k - 1L) + fibi(k - 2L)
    list(r, fibi(15L), fib(15.5))
  ",
  "debug state and formals changed after the caller was optimized" = "
    h <- function(x, y = 1) if (x > 0) x + y else y
    f <- function(a) h(a)
    r <- vapply(1:5, f, 0)
    formals(h)$y <- 100
    r2 <- f(3)
    h <- function(y, x) y - 1
    list(r, r2, f(3))
  ",
  "return() from a promise passed to the callee leaves the caller" = "
    h <- function(x) if (is.null(x)) 0 else x + 1
    f <- function(a) {
      h(if (a > 3) return('early') else a)
      'late'
    }
    vapply(1:6, f, '')
  ",
  "a missing argument named like the function: GNU R's error, not the global closure" = "
    h <- function(x) if (x) 1 else 2
    sq <- function(x) x * x
    f <- function(a, h) h(a)
    g <- function(a, sq) sq(a)
    r <- lapply(1:5, function(i) list(do.call(f, list(TRUE, h)), do.call(g, list(i + 0.5, sq))))
    list(r[[5]], tryCatch(f(TRUE), error = function(e) conditionMessage(e)),
      tryCatch(g(2.5), error = function(e) conditionMessage(e)))
  ",
  "a function passed as an argument, then another one" = "
    ap <- function(f, x) f(x) + 1
    sq <- function(x) if (x > 0) x * x else 0
    s <- 0
    for (i in 1:20) s <- s + ap(sq, i)
    list(s, ap(function(x) -x, 3), ap(abs, -2),
      tryCatch(ap(3, 1), error = function(e) conditionMessage(e)))
  ",
  "the callee's local closure keeps its frame" = "
    h <- function(x) { k <- x * 2; function() k }
    f <- function(a) h(a)()
    vapply(1:6, f, 0)
  "
))
