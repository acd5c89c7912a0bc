# Differential tests: calls of closures that call other functions, which
# the optimizer inlines with the callee's own environment and function
# context once the feedback has seen the callee (PushContext / PopContext).
# Everything that looks at the stack of calls must see the callee's frame
# as GNU R makes it; a jump aimed at the callee's context (return() in a
# promise) must land there; a deoptimization inside the callee's code must
# finish it in its context and the caller after it. Each caller runs enough
# times to be optimized with feedback in the modes with a low threshold.

expect_all_same(list(
  "a callee that calls: values, and a new callee afterwards" = "
    g <- function(a) a * 2
    h <- function(a) g(a) + 1
    f <- function(x) h(x) + h(x + 1)
    r <- vapply(1:8, function(k) f(k + 0.5), 0)
    h <- function(a) a - 1
    list(r, f(2), f(3L))
  ",
  "sys.call, sys.function, match.call and parent.frame in the callee" = "
    h <- function(a, b = 2) list(sys.call(), match.call(), identical(sys.function(), h),
      identical(parent.frame(), globalenv()), nargs())
    f <- function(x) h(x + 1)
    r <- lapply(1:6, function(k) f(k))
    h2 <- function(a) parent.frame()
    f2 <- function(x) identical(h2(x), environment())
    list(r[[6]], vapply(1:6, function(k) f2(k), TRUE))
  ",
  "the callee's output, warnings and errors name its call" = "
    h <- function(a) {
      cat('h got', a, '\\n')
      if (a > 5) warning('large a: ', a)
      if (a > 7) stop('too large: ', a)
      sqrt(a)
    }
    f <- function(x) h(x) * 2
    for (k in 1:6) print(f(k))
    w <- tryCatch(f(6), warning = function(w) w)
    e <- tryCatch(f(8), error = function(e) e)
    list(conditionMessage(w), conditionCall(w), conditionMessage(e), conditionCall(e))
  ",
  "on.exit code of the callee runs when it returns, and on errors" = "
    h <- function(a) {
      on.exit(cat('leaving h with', a, '\\n'))
      if (a > 5) stop('no')
      abs(a) + 1
    }
    f <- function(x) h(x) * 2
    for (k in 1:5) print(f(k))
    try(f(6), silent = TRUE)
    f(2)
  ",
  "return() in a promise leaves the callee with its value" = "
    k <- function(p) p
    h <- function(a) {
      k(if (a > 2) return(a * 10) else a)
      -1
    }
    f <- function(x) h(x) + 1
    vapply(1:8, function(i) f(i), 0)
  ",
  "a return() landing after a deoptimization in the callee: the caller's boxed values survive" = "
    k <- function(p) force(p)
    churn <- function() { for (i in 1:20000) x <- c(i * 1.5); x }
    h <- function(a) { r <- a + 1; gc(); churn(); k(return(r)); 0 }
    f <- function(x, a) x * 3 + h(a)
    for (i in 1:10) f(i + 0.5, i + 0.25)
    for (i in 1:4) print(f(1.5, 2L))
  ",
  "missing arguments, defaults, missing()" = "
    h <- function(a, b = a * 2) c(missing(a), missing(b), if (!missing(a)) b)
    f <- function(x) h(x)
    f0 <- function() h()
    r <- lapply(1:6, function(k) list(f(k), f0()))
    h3 <- function(a, b) { if (missing(b)) length(a) else b }
    f3 <- function(x) h3(x)
    list(r[[6]], vapply(1:6, function(k) f3(1:k), 0L))
  ",
  "arguments forced lazily in the callee's order, or never" = "
    h <- function(a, b) { cat('in h\\n'); if (a > 0) b else 0 }
    f <- function(x) h({cat('a\\n'); x}, {cat('b\\n'); x * 2})
    for (k in c(1, 2, 3, 4, -1, 5)) print(f(k))
  ",
  "the callee's value is visible or not as the call's" = "
    h <- function(a) invisible(a + 1)
    f <- function(x) h(x)
    for (k in 1:6) f(k)
    withVisible(f(2))
  ",
  "recursion: a function inlined into itself once" = "
    fib <- function(n) if (n < 2) n else fib(n - 1) + fib(n - 2)
    r <- vapply(1:15, fib, 0)
    list(r, fib(18))
  ",
  "variables of the callee and the caller stay apart" = "
    h <- function(a) { x <- a * 3; y <- x + 1; c(x, y) }
    f <- function(x) { y <- x; z <- h(x); c(x, y, z) }
    r <- lapply(1:6, function(k) f(k))
    r[[6]]
  ",
  "a callee that assigns into its caller's frame" = "
    h <- function(a) assign('seen', a, envir = parent.frame())
    f <- function(x) { seen <- 0; h(x); seen }
    vapply(1:8, function(k) f(k), 0L)
  ",
  "the callee's types change after it was inlined" = "
    h <- function(a) abs(a) + 1
    f <- function(x) h(x)
    r <- vapply(1:6, function(k) f(k + 0.5), 0)
    list(r, f(-2L), f(c(-1, 2)), f(TRUE), tryCatch(f('a'), error = function(e) conditionMessage(e)))
  ",
  "sys.calls and sys.frames see the callee's frame" = "
    h <- function(a) list(sys.nframe(), sys.call(-1), identical(sys.frame(-1), parent.frame()))
    f <- function(x) { n <- sys.nframe(); r <- h(x); r[[1]] <- r[[1]] - n; r }
    r <- lapply(1:6, function(k) f(k))
    r[[6]]
  "
))
