# Differential tests: `x$name` and `x$name <- v` on environments and lists,
# and `l[[i]]` on what was always a list.
# While the interpreter's feedback saw only plain cases (a list's element of
# that exact name, an environment's ordinary binding, an assignment into
# another environment or a local list), the optimizer assumes they run no
# R code and change no variable of the function; each function runs enough
# times to be optimized in the modes with a low threshold, then meets what
# it did not see.

expect_all_same(list(
  "environments as records, then an active binding and a promise" = "
    mk <- function(x, v) {
      e <- new.env()
      e$x <- x
      e$v <- v
      e
    }
    step <- function(a, b, dt) {
      d <- a$x - b$x
      a$v <- a$v - d * dt
      b$v <- b$v + d * dt
      a$x <- a$x + a$v * dt
      b$x <- b$x + b$v * dt
      d * d
    }
    a <- mk(0, 1)
    b <- mk(3, -1)
    r <- vapply(1:20, function(k) step(a, b, 0.1), 0)
    makeActiveBinding('x', function() { cat('active x\\n'); 1.5 }, a)
    r2 <- step(a, b, 0.1)
    delayedAssign('x', { cat('forcing b$x\\n'); 2 }, assign.env = b)
    r3 <- step(b, mk(1, 1), 0.1)
    list(r, r2, r3, a$v, b$x, b$v)
  ",
  "lists: exact names, then a partial match and a data frame" = "
    get_ab <- function(l) l$abc + l$d
    r <- vapply(1:20, function(k) get_ab(list(abc = k, d = 0.5)), 0)
    list(r, get_ab(list(abcdef = 1, d = 2)), get_ab(list(d = 1)),
         get_ab(data.frame(abc = 1:2, d = 3)))
  ",
  "an assignment into the function's own environment" = "
    f <- function(k) {
      y <- 1
      e <- environment()
      for (i in 1:3) {
        e$y <- y + k
      }
      y
    }
    vapply(1:20, f, 0)
  ",
  "an assignment into an enclosing environment read as a free variable" = "
    z <- 1
    f <- function(n) {
      g <- globalenv()
      s <- 0
      for (i in seq_len(n)) {
        a <- z
        g$z <- z + 1
        s <- s + a + z
      }
      s
    }
    r <- vapply(1:10, function(k) f(3), 0)
    list(r, z)
  ",
  "an assignment meeting a locked binding, a locked environment, a promise" = "
    f <- function(e, v) {
      s <- 0
      for (i in 1:3) {
        e$w <- v * i
        s <- s + e$w
      }
      s
    }
    e <- new.env()
    r <- vapply(1:20, function(k) f(e, k), 0)
    lockBinding('w', e)
    r2 <- tryCatch(f(e, 2), error = function(c) conditionMessage(c))
    e2 <- new.env()
    lockEnvironment(e2)
    r3 <- tryCatch(f(e2, 2), error = function(c) conditionMessage(c))
    g <- function(env) {
      for (i in 1:2) env$q <- i
      env$q
    }
    r4 <- g({cat('forcing env\\n'); new.env()})
    list(r, r2, r3, r4)
  ",
  "[[ on what was a list, then an environment, a classed list, a vector" = "
    f <- function(l, i) {
      s <- 0
      for (k in 1:3) s <- s + l[[i]]
      s
    }
    r <- vapply(1:20, function(k) f(list(1, 2, 3), 2), 0)
    e <- new.env()
    makeActiveBinding('a', function() { cat('active\\n'); 5 }, e)
    `[[.myc` <- function(x, i) { cat('method\\n'); 10 }
    list(r, f(e, 'a'), f(structure(list(1, 2), class = 'myc'), 1), f(c(a = 1.5, b = 2), 'b'),
         tryCatch(f(list(1), 3), error = function(c) conditionMessage(c)))
  ",
  "a list updated in place through $<-, also when shared" = "
    f <- function(n) {
      l <- list(a = 0, b = 1)
      for (i in seq_len(n)) {
        l$a <- l$a + l$b
        l$b <- i
      }
      l
    }
    r <- lapply(1:20, f)
    keep <- list(a = 1, b = 2)
    g <- function(l) {
      l$a <- 5
      l
    }
    list(r[[20]], vapply(1:20, function(k) g(keep)$a, 0), keep)
  ",
  "copying insertion into nested lists (x$name <- v on a shared argument)" = "
    ins <- function(node, key) {
      if (is.null(node)) return(list(key = key, left = NULL, right = NULL))
      if (key < node$key) {
        node$left <- ins(node$left, key)
      } else if (key > node$key) {
        node$right <- ins(node$right, key)
      }
      node
    }
    keys_of <- function(node) {
      if (is.null(node)) return(numeric(0))
      c(keys_of(node$left), node$key, keys_of(node$right))
    }
    root <- NULL
    old <- NULL
    for (k in c(50, 20, 80, 10, 30, 70, 90, 25, 35, 75, 5, 60, 65, 95, 1)) {
      root <- ins(root, k)
      if (k == 30) old <- root
    }
    e <- new.env()
    e$key <- 40
    list(keys_of(root), keys_of(old), ins(e, 45)$right$key, ls(e),
         tryCatch(ins(structure(list(key = 1), class = 'node'), 2)$right,
                  error = function(c) conditionMessage(c)))
  "
,
  "x$name <- v copying a shared list: locals, arguments, then misses" = "
    set_a <- function(l, v) {
      l$a <- v
      l
    }
    keep <- list(a = 1, b = list(2))
    r <- lapply(1:20, function(k) set_a(keep, k))
    local_copy <- function(k) {
      x <- list(a = 0, b = k)
      y <- x
      x$a <- k
      x$b <- x
      list(x, y)
    }
    r2 <- lapply(1:20, local_copy)
    list(r[[20]], keep, r2[[20]],
         set_a(list(a = 1, b = 2), 3),
         set_a(keep, NULL), set_a(list(b = 2), 4),
         set_a(structure(list(a = 1), class = 'rec'), 7),
         set_a(list2env(list(a = 1)), 8)$a,
         tryCatch(set_a(, 1), error = function(c) conditionMessage(c)),
         keep)
  ",
  "x$name <- v on an argument whose default rebinds it, and a $<- method" = "
    f <- function(l = { l <- list(a = 10, b = 20); list(a = 1, b = 2) }) {
      l$b <- 5
      l
    }
    `$<-.rec` <- function(x, name, value) {
      cat('set', name, '\\n')
      y <- unclass(x)
      y[[name]] <- value * 2
      structure(y, class = 'rec')
    }
    g <- function(l, k) {
      l$a <- k
      l
    }
    shared <- list(a = 0, z = 1)
    r <- lapply(1:20, function(k) g(shared, k))
    list(lapply(1:3, function(k) f()), r[[20]], g(structure(shared, class = 'rec'), 3),
         shared)
  "
))
