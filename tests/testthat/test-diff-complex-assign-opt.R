# Complex assignments in functions that run often enough to be optimized:
# the optimizer translates them (StartAssign, GetterCall, SetterCall, then
# a store), and native code decides whether a replacement function may
# modify the target in place from the values still live in its frame, as
# the interpreter decides from its operand stack. Each snippet checks a way
# the target's old value can still be seen, or R code run by the
# assignment.

expect_all_same(list(
  "a copy in another variable keeps the old value, in a loop" = "
    f <- function(n) {
      x <- c(a = 1, b = 2)
      out <- list()
      for (i in 1:n) {
        y <- x
        names(x)[1] <- paste0('k', i)
        attr(x, 'i') <- i
        out[[i]] <- list(x, y)
      }
      out
    }
    r <- lapply(1:4, f)
    r[[4]]
  ",
  "a double computed in registers, then an attribute" = "
    f <- function(a) {
      x <- a + 1
      attr(x, 'u') <- 'v'
      y <- x * 2
      z <- x
      x <- a * 3
      x <- x + 1
      list(x, y, z)
    }
    lapply(c(1.5, 2.5, 3.5, 4.5, 5.5), f)
  ",
  "the target as its own value" = "
    f <- function(x) { names(x) <- x; levels(x) <- x; x }
    g <- function(x) { attr(x, 'self') <- x; x }
    lapply(1:5, function(i) list(f(letters[1:i]), g(c(i, i + 1))))
  ",
  "a getter that returns the target itself" = "
    id <- function(x) x
    `id<-` <- function(x, value) value
    f <- function(v) { w <- v; id(v)[1] <- 0; names(id(v)) <- 'n'; list(v, w) }
    lapply(1:5, function(i) f(c(i, i + 1)))
  ",
  "the old value held by a call being built" = "
    f <- function(x) list(x, { names(x) <- c('p', 'q'); x }, x, { attr(x, 'a') <- 1; x })
    lapply(1:4, function(i) f(c(a = i, b = 2)))
  ",
  "a promise argument forced by the assignment, once" = "
    n <- 0
    mk <- function(i) { n <<- n + 1; c(u = i) }
    f <- function(d) { names(d) <- 'w'; attr(d, 'k') <- n; d }
    r <- lapply(1:5, function(i) f(mk(i)))
    list(r, n)
  ",
  "the target found in the global environment, copied locally" = "
    x <- c(1, 2, 3)
    f <- function(k) { names(x)[k] <- 'z'; x }
    r <- lapply(1:3, f)
    list(r, x)
  ",
  "<<- complex assignments in a loop of a closure" = "
    mk <- function() {
      acc <- list(v = numeric(0))
      add <- function(i) { acc$v[i] <<- i * 1.5; names(acc$v)[i] <<- paste0('e', i); invisible(NULL) }
      get <- function() acc
      list(add = add, get = get)
    }
    o <- mk()
    for (i in 1:6) o$add(i)
    o$get()
  ",
  "errors of a replacement function leave the target as it was" = "
    f <- function(x, v) {
      r <- tryCatch({ dim(x) <- v; 'ok' }, error = function(e) conditionMessage(e))
      list(r, x, dim(x))
    }
    lapply(list(c(2, 2), c(2, 2), c(3, 3), c(1, 4), 5), function(v) f(1:4, v))
  ",
  "warnings of a replacement function, and its visibility" = "
    f <- function(x) { x[[3]] <- 1:2; levels(x)[4] <- 'd'; x }
    g <- function(x) withVisible(names(x) <- c('a', 'b'))
    list(withCallingHandlers(lapply(1:3, function(i) f(list(i))),
           warning = function(w) invokeRestart('muffleWarning')),
      lapply(1:3, function(i) g(c(i, i))))
  ",
  "a replacement function that changes other variables of the caller" = "
    `meddle<-` <- function(x, value) { assign('y', 'changed', envir = parent.frame()); x[1] <- value; x }
    f <- function(i) { y <- i * 2; x <- c(i, i); meddle(x) <- 0; list(x, y, y + 0) }
    lapply(1:5, function(i) f(i + 0.5))
  ",
  "type and class changes inside a loop" = "
    f <- function(n) {
      x <- 1:3
      for (i in 1:n) {
        if (i == 3) class(x) <- 'thing'
        if (i == 4) x <- unclass(x)
        attr(x, 'step') <- i
        dim(x) <- NULL
        x[i] <- i * 10L
      }
      x
    }
    lapply(1:6, f)
  ",
  "a matrix filled through dim and dimnames in a loop" = "
    f <- function(n) {
      m <- numeric(n * n)
      dim(m) <- c(n, n)
      for (i in 1:n) for (j in 1:n) m[i, j] <- i * 10 + j
      dimnames(m) <- list(letters[1:n], LETTERS[1:n])
      diag(m) <- 0
      m
    }
    lapply(1:4, f)
  "
,
  "an index computed by a call, x looked up before it" = "
    f <- function(n) {
      x <- numeric(n)
      y <- x
      for (i in 1:n) x[min(i + 1L, n)] <- i * 0.5
      x[which.max(x)] <- -1
      list(x, y)
    }
    g <- function(x) { x[{ x <- c(9, 9, 9); 2 }] <- 0; x }
    lapply(1:5, function(i) list(f(i + 1L), g(c(1, 2, 3) * i)))
  ",
  "element stores with <<- into a closure's variable" = "
    mk <- function(n) {
      v <- numeric(n); m <- matrix(0L, 2, 2)
      set <- function(i, x) { v[i] <<- x; m[1 + i %% 2, 1] <<- i; v[[1]] <<- v[[1]] + 1 }
      list(set = set, get = function() list(v, m))
    }
    o <- mk(4); w <- o$get()
    for (i in 1:4) o$set(i, i * 2.5)
    list(o$get(), w)
  "
,
  "X$name[i] <- v on a local list and on an environment, in loops" = "
    f <- function(n) {
      st <- list(v = numeric(n), w = list(a = 1))
      old <- st
      e <- new.env(); e$v <- integer(n); ev <- e$v
      for (i in 1:n) {
        st$v[i] <- i / 2
        st$w[['b']] <- i
        st$w$c <- -i
        e$v[[i]] <- i * 3L
      }
      list(st, old, e$v, ev)
    }
    lapply(1:5, f)
  ",
  "X$name[i] <- v where X is an argument, shared, or from outside" = "
    g <- function(s, i) { s$v[i] <- 0; s$k$m <- i; s }
    cfg <- list(v = c(1, 2, 3), k = list())
    r <- lapply(1:3, function(i) g(cfg, i))
    e <- new.env(); e$v <- c(5, 6)
    h <- function(i) { e$v[i] <- i; e$v }
    list(r, cfg, h(1), h(2), e$v)
  "
))
