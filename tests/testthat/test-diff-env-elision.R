# Differential tests: the optimizer defers a function's stores to its own
# environment until something can look at the environment (R code, a
# condition handler, a deoptimization, a closure or promise that keeps it,
# the return when R code may have kept it). Whatever looks must see exactly
# the values GNU R's frame would hold at that moment. Each function runs
# enough times to be optimized in every mode.

expect_all_same(list(
  "a warning's calling handler sees the loop's current values" = "
    peek <- function(names) {
      for (e in rev(sys.frames()))
        if (exists('marker', envir = e, inherits = FALSE))
          return(mget(names, envir = e))
      NULL
    }
    f <- function(n, big) {
      marker <- TRUE
      b <- big + 0L
      s <- 0
      k <- 0L
      for (i in 1:n) {
        s <- s + i * 0.5
        k <- k + b
      }
      s
    }
    seen <- list()
    r <- withCallingHandlers(
      vapply(1:6, function(j) f(4, if (j > 4) .Machine$integer.max else 1L), 0),
      warning = function(w) {
        seen[[length(seen) + 1]] <<- peek(c('s', 'i', 'k'))
        invokeRestart('muffleWarning')
      }
    )
    list(r, seen)
  ",
  "an error's calling handler sees the values at the error" = "
    peek <- function(names) {
      for (e in rev(sys.frames()))
        if (exists('marker', envir = e, inherits = FALSE))
          return(mget(names, envir = e))
      NULL
    }
    g <- function(n) {
      marker <- TRUE
      s <- 0
      for (i in 1:n) {
        s <- s + i
        if (s > 10) stop('too big')
      }
      s
    }
    out <- list()
    for (n in c(3, 4, 5, 6)) {
      out[[length(out) + 1]] <- tryCatch(
        withCallingHandlers(g(n), error = function(e) print(peek(c('s', 'i')))),
        error = function(e) conditionMessage(e)
      )
    }
    out
  ",
  "an if condition's NA error: its calling handler sees the loop's values" = "
    peek <- function(names) {
      for (e in rev(sys.frames()))
        if (exists('marker', envir = e, inherits = FALSE))
          return(unlist(mget(names, envir = e)))
      NULL
    }
    g <- function(n, limit) {
      marker <- TRUE
      lim <- limit + 0
      s <- 0
      for (i in 1:n) {
        s <- s + i * 0.5
        if (s > lim) s <- s - 1
      }
      s
    }
    out <- list()
    for (l in c(100, 100, 2, 100, NA, 3)) {
      out[[length(out) + 1]] <- tryCatch(
        withCallingHandlers(g(5, l), error = function(e) print(peek(c('s', 'i')))),
        error = function(e) conditionMessage(e)
      )
    }
    out
  ",
  "a promise forced in the loop sees the values so far" = "
    peek <- function(names) {
      for (e in rev(sys.frames()))
        if (exists('marker', envir = e, inherits = FALSE))
          return(unlist(mget(names, envir = e)))
      NULL
    }
    f <- function(n, p) {
      marker <- TRUE
      s <- 0
      for (i in 1:n) {
        s <- s + i
        if (i == 3) p
      }
      s
    }
    lapply(1:4, function(j) list(f(5, print(peek(c('s', 'i')))), j))
  ",
  "a closure made in the function sees the final values" = "
    mk <- function(n) {
      s <- 0
      for (i in 1:n) s <- s + i / 2
      function() c(s, i)
    }
    t(vapply(1:6, function(j) mk(j)(), c(0, 0)))
  ",
  "environment() after a loop holds its values" = "
    f <- function(n) {
      s <- 0
      k <- 1L
      for (i in 1:n) {
        s <- s + i * 1.5
        k <- k + 1L
      }
      e <- environment()
      c(e$s, e$k, e$i, e$n)
    }
    lapply(1:5, f)
  ",
  "on.exit code reads the variables the body left" = "
    f <- function(n) {
      on.exit(cat('exit', s, i, '\\n'))
      s <- 0
      for (i in 1:n) s <- s + i / 4
      s
    }
    vapply(1:5, f, 0)
  ",
  "sys.function and parent.frame callers see the frame" = "
    look <- function() get('s', envir = parent.frame())
    f <- function(n) {
      s <- 0
      i <- 0
      while (i < n) {
        i <- i + 1
        s <- s + i * 2
      }
      c(look(), s)
    }
    lapply(1:5, f)
  ",
  "a type change mid-loop leaves for the interpreter with the values" = "
    f <- function(x) {
      s <- 0
      k <- 0L
      for (i in seq_along(x)) {
        s <- s + x[[i]]
        k <- k + 1L
      }
      c(s, k)
    }
    r <- list()
    for (j in 1:4) r[[j]] <- f(c(1.5, 2.5, 3))
    r[[5]] <- f(list(1.5, 2L, TRUE))
    r[[6]] <- tryCatch(f(list(1, 'a')), error = function(e) conditionMessage(e))
    r
  ",
  "a value kept unbound is not overwritten by arithmetic on it" = "
    f <- function(n) {
      i <- 0L
      k <- 0
      while (i < n) {
        i <- i + 1L
        if (i %% 2L == 0L) k <- k + i else k <- k - 0.5
      }
      list(i, k)
    }
    list(f(0L), f(1L), f(5L), f(6), f(2.5), f(7L))
  ",
  "variables assigned on one branch only" = "
    f <- function(n, flag) {
      s <- 0
      for (i in 1:n) {
        if (flag && i > 2) t <- i * 2 else s <- s + i
      }
      if (exists('t', inherits = FALSE)) c(s, t) else s
    }
    list(f(4, TRUE), f(4, FALSE), f(2, TRUE), f(5, TRUE), f(3, FALSE))
  ",
  "a value kept unboxed is not overwritten through its variable's box" = "
    g0 <- function() invisible(NULL)
    f <- function(a) {
      x <- a + 1
      y <- x
      g0()
      x <- x * 2
      y
    }
    lapply(c(1, 2, 3, 4, 5.5), f)
  ",
  "an S3 method sees the generic's local variables" = "
    y <- 'global'
    g <- function(x) {
      y <- 'generic'
      UseMethod('g')
    }
    g.default <- function(x) y
    h <- function(x) paste(y, x)
    lapply(1:5, function(k) list(g(k), h(k)))
  ",
  "the frame read as an environment value" = "
    f <- function(a) {
      x <- 0
      e <- environment()
      x <- a + 1
      r <- e$x
      x <- 5
      c(r, x, e$x)
    }
    lapply(1:5, f)
  ",
  "double %% that warns sees the frame's values" = "
    f <- function(x) {
      y <- x * 2
      y %% 3
    }
    seen <- logical()
    r <- withCallingHandlers(vapply(c(1, 2, 3, 1e20, 4), f, 0), warning = function(w) {
      seen <<- c(seen, any(vapply(sys.frames(), exists, NA, x = 'y', inherits = FALSE)))
      invokeRestart('muffleWarning')
    })
    list(r, seen)
  ",
  "a value made outside a loop and used once inside it" = "
    f <- function(n, a) {
      v <- a * 2L
      s <- 0L
      for (i in 1:n) s <- s + v %% 7L
      c(s, v)
    }
    lapply(1:5, function(k) f(k + 2L, k + 10L))
  ",
  "an active binding made by a callee after stores were deferred" = "
    f <- function(n) {
      a <- 1
      b <- 2
      for (i in 1:n) a <- a + b
      mk <- function() makeActiveBinding('b', function(v) if (missing(v)) 100 else cat('set b', v, '\\n'), parent.frame())
      if (n > 2) mk()
      b <- 5
      for (i in 1:n) a <- a + b
      c(a, b)
    }
    lapply(1:4, f)
  "
))
