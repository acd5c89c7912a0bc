# Differential tests: code that changes a function's own frame behind its
# back (active bindings, delayed assignments, assign() through
# parent.frame()). The optimizer forwards stored values to later loads; after
# anything that may run such code, a store may call an active binding's
# function instead of binding the value, and a load may return a new value
# each time. Each function runs enough times to be optimized in every mode.

expect_all_same(list(
  "active binding made by a callee, then stored and loaded" = "
    h <- function() {
      g <- function() makeActiveBinding('w', function(v) {
        if (missing(v)) 7 else cat('store', v, '\n')
      }, parent.frame())
      g()
      w <- 5
      w
    }
    vapply(1:6, function(i) h(), 0)
  ",
  "active binding made in a loop: each load calls it" = "
    f <- function(n) {
      cnt <- 0
      g <- function() makeActiveBinding('x', function(v) {
        if (missing(v)) {
          cnt <<- cnt + 1
          cnt * 100
        } else cat('set', v, '\n')
      }, parent.frame())
      s <- 0
      for (i in 1:n) {
        if (i == 3) g()
        if (i >= 3) x <- i
        y <- i
        if (i >= 3) {
          y <- x
          z <- x
        } else z <- i
        s <- s + y + z
      }
      s
    }
    c(f(5), f(5), f(6), f(2), f(5))
  ",
  "active binding made by a function passed as an argument" = "
    f <- function(cb) {
      cb()
      w <- 5
      u <- w
      u + w
    }
    mk <- function() makeActiveBinding('w', function(v) if (missing(v)) 10 else NULL, parent.frame())
    c(f(function() 1), f(function() 2), f(mk), f(mk), f(function() 3))
  ",
  "active binding made by a promise forced in the frame" = "
    f <- function(a) {
      a
      w <- 5
      u <- w
      u + w
    }
    g <- function(k) f(if (k > 2) makeActiveBinding('w', function(v) if (missing(v)) 10 else NULL,
      sys.frame(-1)) else k)
    vapply(1:5, g, 0)
  ",
  "assign() into the caller's frame between a store and a load" = "
    f <- function(k) {
      x <- 1
      g <- function() assign('x', 99, envir = parent.frame())
      if (k > 3) g()
      x + 1
    }
    vapply(1:6, f, 0)
  ",
  "delayedAssign() into the caller's frame, then a store and loads" = "
    f <- function(k) {
      g <- function() delayedAssign('x', {cat('forced\n'); 5}, assign.env = parent.frame())
      if (k > 2) g()
      y <- if (k > 2) x else 0
      y + if (k > 2) x else 0
    }
    vapply(1:5, f, 0)
  ",
  "an active binding removed again: stores bind plainly" = "
    f <- function(k) {
      makeActiveBinding('v', function(x) if (missing(x)) 3 else cat('set\n'), environment())
      a <- v
      v <- 4
      rm('v')
      v <- 8
      a + v
    }
    vapply(1:5, f, 0)
  "
,
  "an element store on a variable that becomes an object with a `[<-` method" = "
    `[<-.tracked` <- function(x, i, value) {
      cat('method', i, '\n')
      y <- unclass(x)
      y[i] <- value * 10
      class(y) <- 'tracked'
      y
    }
    f <- function(n) {
      x <- numeric(3)
      for (i in 1:n) {
        if (i == 4) class(x) <- 'tracked'
        x[i %% 3 + 1] <- i
      }
      unclass(x)
    }
    list(f(3), f(3), f(3), f(6), f(6), f(2))
  ",
  "an element store on a variable that becomes an environment or a list" = "
    f <- function(n) {
      x <- c(a = 1, b = 2)
      for (i in 1:n) {
        if (i == 3) x <- new.env()
        if (i == 5) x <- list(a = 0)
        x[['a']] <- i
      }
      if (is.environment(x)) x$a else x
    }
    list(f(2), f(2), f(2), f(3), f(4), f(6))
  ",
  "an element store on a variable that becomes an active binding" = "
    f <- function(k) {
      x <- c(1, 2, 3)
      for (i in 1:2) x[i] <- i * 10
      if (k > 3) {
        rm('x')
        store <- c(7, 8, 9)
        makeActiveBinding('x', function(v) if (missing(v)) store else {
          cat('set', v, '\n')
          store <<- v
        }, environment())
      }
      for (i in 1:2) x[i] <- i * 100
      x
    }
    lapply(1:5, f)
  "
,
  "a guarded builtin redefined in an enclosing environment during a loop" = "
    e <- environment()
    h <- function(n, k, e) {
      s <- 0
      for (i in 1:n) {
        s <- s + sqrt(i)
        if (i == k) e[['sqrt']] <- function(x) -1
      }
      s
    }
    g <- function(n, k) {
      s <- 0
      for (i in 1:n) {
        s <- s + sqrt(i)
        if (i == k) assign('sqrt', function(x) -2, envir = e)
      }
      s
    }
    r <- c(h(5, 9, e), h(5, 9, e), h(5, 9, e))
    r <- c(r, h(5, 2, e), h(5, 2, e))
    rm('sqrt')
    c(r, g(5, 9), g(5, 9), g(5, 9), g(5, 3), g(5, 3))
  "
,
  "a `[<-` method that removes and rebinds the variable it assigns" = "
    `[<-.zap` <- function(x, i, value) {
      e <- parent.frame()
      if (exists('x', envir = e, inherits = FALSE)) rm('x', envir = e)
      assign('x', c(7, 7), envir = e)
      unclass(x)
    }
    f <- function(k) {
      x <- structure(c(1, 2), class = if (k > 2) 'zap' else 'plain')
      x[1] <- 5
      list(x, get('x'))
    }
    g <- function(k) {
      x <- structure(c(1, 2), class = if (k > 2) 'zap' else 'plain')
      h <- function() x[1] <<- 5
      h()
      get('x')
    }
    list(lapply(1:5, f), lapply(1:5, g))
  "
,
  "an active binding of another environment read by [[ and $" = "
    ee <- new.env()
    makeActiveBinding('a', function() {
      fr <- sys.frames()
      assign('x', 99, envir = fr[[length(fr) - 1L]])
      5
    }, ee)
    f <- function() {
      x <- 1
      y <- ee[['a']]
      x + y
    }
    g <- function() {
      x <- 1
      y <- ee$a
      x + y
    }
    c(vapply(1:4, function(i) f(), 0), vapply(1:4, function(i) g(), 0))
  ",
  "a global active binding reads the loop's frame while its stores may wait" = "
    makeActiveBinding('peek', function() get('x', envir = sys.frame(-1)), environment())
    f <- function(n) {
      s <- 0
      for (i in 1:n) {
        x <- i * 2
        s <- s + peek
      }
      s
    }
    g <- function(n) {
      x <- 0
      for (i in 1:n) {
        x <- x + 1
        y <- peek
      }
      c(x, y)
    }
    c(vapply(1:5, function(k) f(10), 0), vapply(1:5, function(k) g(10)[2], 0))
  "
))

expect_all_same(list(
  "a binding changed behind the loop's back after a folded type test" = "
    poke <- function() assign('acc', 100.5, envir = parent.frame())
    f <- function(n, k) {
      acc <- 0.5
      for (i in seq_len(n)) {
        if (is.integer(acc)) acc <- as.double(acc)
        if (i == k) poke()
        acc <- acc + 1
      }
      acc
    }
    r <- NULL
    for (j in 1:30) r <- c(r, f(10L, if (j > 20) 5L else 0L))
    r
  "
))
