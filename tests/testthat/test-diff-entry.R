# Differential tests: what the optimizer speculates at a function's entry
# and in its guards. Arguments the feedback never saw lazy are assumed
# evaluated at the entry (a promise forced there is no effect in a loop);
# a base function's guard gives up (and the interpreter looks the function
# up) rather than force a promise or call an active binding. Each function
# runs enough times to be optimized in the modes with a low threshold, then
# is called in a way its speculation did not see.

expect_all_same(list(
  "an argument seen evaluated, later passed as a promise with an effect" = "
    f <- function(n, dt) {
      s <- 0
      for (i in seq_len(n)) s <- s + dt * i
      s
    }
    r <- vapply(1:5, function(k) f(10, 0.5), 0)
    list(r, f(3, {cat('forcing dt\\n'); 0.25}), f(2, 1L), f(0, stop('never forced')))
  ",
  "an argument seen as a promise stays lazy" = "
    f <- function(n, dt) {
      s <- 0
      for (i in seq_len(n)) s <- s + dt * i
      s
    }
    g <- function(n) f(n, {cat('dt\\n'); n * 0.1})
    vapply(1:5, function(k) g(4), 0)
  ",
  "an argument seen present, later missing (its default)" = "
    h <- function(a, b = a * 2) {
      s <- 0
      for (i in 1:3) s <- s + a + b
      s
    }
    r <- vapply(1:5, function(k) h(k, 1), 0)
    list(r, h(2), tryCatch(h(), error = function(e) conditionMessage(e)))
  ",
  "a builtin's guard meeting a promise of the same name" = "
    mk <- function(sqrt) function(x) {
      s <- 0
      for (i in 1:3) s <- s + sqrt(x)
      s
    }
    k <- mk({cat('forcing the promise\\n'); function(v) v * 100})
    list(vapply(1:5, function(j) k(4), 0), k(9))
  ",
  "a builtin's guard meeting an active binding of the same name" = "
    f <- function(x) {
      s <- 0
      for (i in 1:3) s <- s + sqrt(x)
      s
    }
    r <- vapply(1:5, function(j) f(4), 0)
    e <- new.env()
    makeActiveBinding('sqrt', function() { cat('active sqrt\\n'); function(v) -v }, e)
    environment(f) <- e
    list(r, f(4))
  ",
  "an index argument seen evaluated, later missing or a promise" = "
    h <- function(v, i) {
      s <- 0
      for (k in 1:3) s <- s + sum(v[i])
      s
    }
    r <- vapply(1:5, function(k) h(c(1, 2, 3), 2L), 0)
    list(r, h(c(1, 2, 3)), h(c(1, 2, 3), {cat('i forced\n'); 3L}), h(c(4, 5), -1))
  ",
  "arguments loaded for a builtin, changed by a later argument" = "
    f <- function(x) {
      y <- x * 2
      c(y, { y[1] <- 5; y }, y)
    }
    lapply(1:5, function(k) f(c(k, 2)))
  "
))

expect_all_same(list(
  "an argument a callee forced, loaded in a loop; later not forced before the loop" = "
    peek <- function(x) length(x)
    f <- function(v, n, first) {
      if (first) m <- peek(v)
      cat('before the loop\\n')
      s <- 0
      for (i in seq_len(n)) s <- s + v[[i]] * 2
      s
    }
    r <- vapply(1:20, function(k) f(c(1, 2, 3), 3, TRUE), 0)
    list(r, f({cat('forcing v\\n'); c(4, 5)}, 2, FALSE),
         f({cat('forcing v once\\n'); c(4, 5)}, 2, TRUE),
         tryCatch(f(stop('v fails'), 1, FALSE), error = function(e) conditionMessage(e)))
  ",
  "a vector, then a list, an object and a matrix subset in a loop" = "
    g <- function(x, n) {
      s <- 0
      for (i in seq_len(n)) s <- s + x[i] + x[[i]]
      s
    }
    r <- vapply(1:20, function(k) g(c(1.5, 2.5, 3.5), 3), 0)
    `[.tagged` <- function(x, i) { cat('method [\\n'); 1 }
    list(r, g(1:3, 3), tryCatch(g(list(1, 2), 2), error = function(e) conditionMessage(e)),
         g(structure(c(1, 2), class = 'tagged'), 2), g(matrix(1:4 + 0.5, 2), 4))
  "
))

expect_all_same(list(
  "an S3 method's frame starts with dispatch's variables; a default reads a local" = "
    print.myw <- function(x, header = ngettext(n, 'one\\n', 'many\\n'), ...) {
      if (n <- length(x)) cat(header)
      invisible(x)
    }
    for (k in 1:5) print(structure(1:k, class = 'myw'))
    summary.myw <- function(object, scale = n * 2, ...) {
      n <- length(object)
      sum(unclass(object)) * scale
    }
    vapply(1:5, function(k) summary(structure(c(1, k), class = 'myw')), 0)
  "
))
