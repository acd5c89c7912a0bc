# Differential tests: a warning runs R code (its calling handlers), which
# may read and assign any frame on the stack through sys.frames() and then
# return to the code that warned. Optimized code must neither keep using a
# value cached before the warning (the handler may have assigned the
# variable) nor hide a value it has not written yet (the handler may read
# it). Each function first runs quietly (so that it is optimized for the
# quiet case), then warns.

handler_prelude <- "
  setv <- function(nm, val) {
    for (fr in rev(sys.frames()))
      if (exists(nm, envir = fr, inherits = FALSE)) {
        assign(nm, val, envir = fr)
        return(invisible())
      }
  }
  getv <- function(nm) {
    for (fr in rev(sys.frames()))
      if (exists(nm, envir = fr, inherits = FALSE)) return(get(nm, envir = fr))
    NULL
  }
  wr <- function(e) withCallingHandlers(e, warning = function(w) {
    setv('x', 1000L)
    invokeRestart('muffleWarning')
  })
  seen <- NULL
  rd <- function(e) withCallingHandlers(e, warning = function(w) {
    seen <<- c(seen, getv('x'))
    invokeRestart('muffleWarning')
  })
"

# `body` defines f(n) (quiet for n = 2, warning for n = 4) and is run with
# `call` for n = 2 five times, then n = 4 five times.
handler_case <- function(body, call = "wr(f(n))") {
  paste0(handler_prelude, body, "
    out <- list()
    for (k in 1:10) {
      n <- if (k > 5) 4L else 2L
      out[[k]] <- ", call, "
    }
    list(out, seen)
  ")
}

expect_all_same(list(
  "a handler assigns a variable cached across an integer overflow (loop)" = handler_case("
    f <- function(n) {
      x <- 0L
      big <- .Machine$integer.max - 2L
      for (i in 1:n) {
        y <- big + i
        x <- x + 1L
      }
      x
    }
  "),
  "a handler assigns a variable cached across an integer overflow (straight line)" =
    handler_case("
    f <- function(n) {
      x <- 1L
      y <- (.Machine$integer.max - 3L) + n
      x <- x + 1L
      x
    }
  "),
  "a handler assigns a variable across an overflowing integer product" = handler_case("
    f <- function(n) {
      x <- 0L
      b <- 50000L
      for (i in 1:n) {
        y <- b * (i * 20000L)
        x <- x + 1L
      }
      x
    }
  "),
  "a handler assigns a variable across NaNs produced" = handler_case("
    f <- function(n) {
      x <- 0
      for (i in 1:n) {
        y <- sqrt(i - 3)
        x <- x + 1
      }
      x
    }
  "),
  "a handler assigns a variable across a coercion warning" = handler_case("
    f <- function(n) {
      x <- 0L
      for (i in 1:n) {
        y <- as.integer(if (i > 2) 'zz' else '1')
        x <- x + 1L
      }
      x
    }
  "),
  "a handler assigns a variable across %% losing accuracy" = handler_case("
    f <- function(n) {
      x <- 0
      for (i in 1:n) {
        y <- (if (i > 2) 1e17 else 10) %% 3.1
        x <- x + 1
      }
      x
    }
  "),
  "a handler assigns a variable across a recycling comparison" = handler_case("
    f <- function(n) {
      x <- 0
      for (i in 1:n) {
        y <- (if (i > 2) 1:3 else 1) == 1:2
        x <- x + 1
      }
      x
    }
  "),
  "a handler assigns a variable across from:to with a vector" = handler_case("
    f <- function(n) {
      x <- 0L
      for (i in 1:n) {
        y <- 1:(if (i > 2) c(2, 3) else 2)
        x <- x + 1L
      }
      x
    }
  "),
  "a handler assigns a variable of the caller of the function that warns" = handler_case("
    inner <- function(i) {
      z <- .Machine$integer.max - 1L
      z + i
    }
    f <- function(n) {
      x <- 0L
      for (i in 1:n) {
        y <- inner(i)
        x <- x + 1L
      }
      x
    }
  "),
  "a handler reads a variable the function has not written yet" = handler_case("
    f <- function(n) {
      x <- 0L
      big <- .Machine$integer.max - 2L
      for (i in 1:n) {
        x <- x + 10L
        y <- big + i
      }
      x
    }
  ", call = "rd(f(n))"),
  "a handler reads a variable before a coercion warning" = handler_case("
    f <- function(n) {
      x <- 0
      for (i in 1:n) {
        x <- x + 0.5
        y <- as.integer(if (i > 2) 'zz' else '1')
      }
      x
    }
  ", call = "rd(f(n))"),
  "an error's calling handler reads a variable after an overflow warning" = "
    getv <- function(nm) {
      for (fr in rev(sys.frames()))
        if (exists(nm, envir = fr, inherits = FALSE)) return(get(nm, envir = fr))
      NULL
    }
    f <- function(n) {
      x <- 0L
      big <- .Machine$integer.max - 2L
      for (i in 1:n) {
        x <- x + 1L
        y <- big + i
        if (is.na(y)) stop('overflowed')
      }
      x
    }
    out <- list()
    for (k in 1:10) {
      n <- if (k > 5) 4L else 2L
      out[[k]] <- tryCatch(
        withCallingHandlers(f(n),
          warning = function(w) invokeRestart('muffleWarning'),
          error = function(e) print(getv('x'))),
        error = function(e) conditionMessage(e))
    }
    out
  ",
  "a handler assigns a variable across && of a longer operand" = handler_case("
    f <- function(n) {
      x <- 0
      for (i in 1:n) {
        y <- (if (i > 2) c(TRUE, FALSE) else TRUE) && TRUE
        x <- x + 1
      }
      x
    }
  "),
  "a handler assigns a variable across a recycling element store" = handler_case("
    f <- function(n) {
      x <- 0
      v <- numeric(3)
      for (i in 1:n) {
        v[1:3] <- if (i > 2) 1:2 else 1
        x <- x + 1
      }
      x
    }
  "),
  "a handler assigns a variable stored before and after the overflow (while loop)" =
    handler_case("
    f <- function(n) {
      x <- 0L
      i <- 0L
      big <- .Machine$integer.max - 2L
      while (i < n) {
        i <- i + 1L
        x <- x + 1L
        y <- big + i
        x <- x * 2L
      }
      x
    }
  "),
  "a handler binds a local variable that hid a global one" = "
    x <- 5
    g <- function(n) {
      marker <- TRUE
      s <- 0
      big <- .Machine$integer.max - 2L
      for (i in 1:n) {
        y <- big + i
        s <- s + x
      }
      s
    }
    out <- list()
    for (k in 1:10) out[[k]] <- withCallingHandlers(g(if (k > 5) 4L else 2L),
      warning = function(w) {
        for (fr in rev(sys.frames()))
          if (exists('marker', envir = fr, inherits = FALSE)) assign('x', 100, envir = fr)
        invokeRestart('muffleWarning')
      })
    out
  ",
  "a handler removes a local variable, uncovering a global one" = "
    x <- 5
    g <- function(n) {
      marker <- TRUE
      x <- 1
      s <- 0
      big <- .Machine$integer.max - 2L
      for (i in 1:n) {
        y <- big + i
        s <- s + x
      }
      s
    }
    out <- list()
    for (k in 1:10) out[[k]] <- withCallingHandlers(g(if (k > 5) 4L else 2L),
      warning = function(w) {
        for (fr in rev(sys.frames()))
          if (exists('marker', envir = fr, inherits = FALSE) &&
              exists('x', envir = fr, inherits = FALSE)) rm('x', envir = fr)
        invokeRestart('muffleWarning')
      })
    out
  ",
  "a handler muffles a warning in a loop of integer sums that do not overflow" = handler_case("
    f <- function(n) {
      x <- 0L
      for (i in 1:(n * 1000L)) x <- x + i
      x
    }
  ")
))
