# Differential tests for calls rir makes itself (argument matching, frame,
# context, non-local returns, promise forcing) between rir closures.

expect_all_same(list(
  "direct: positional, named, defaults" = "
    f <- function(a, b = a * 2, c = 3) c(a, b, c)
    list(f(1), f(1, 5), f(c = 9, 1), f(b = 2, a = 7), f(1, , 4))",
  "direct: missing() on defaults and supplied missing" = "
    f <- function(x, y = 2) c(missing(x), missing(y))
    g <- function(x, y) f(x, y)
    list(f(), f(1), f(, 3), g(), g(1))",
  "direct: dots with names pass through" = "
    f <- function(x, ..., last = 0) list(x = x, dots = list(...), last = last)
    g <- function(...) f(...)
    list(g(1, 2, a = 3), g(last = 5, 1), g(x = 'x', 9, 8))",
  "direct: dots after formals, exact names behind dots" = "
    f <- function(..., sep = '-') paste(..., sep = sep)
    c(f('a', 'b'), f('a', 'b', sep = '+'), f(se = 'x', 'y'))",
  "direct: partial matching left to GNU R" = "
    f <- function(value, verbose = FALSE) list(value, verbose)
    g <- function(ab, ...) list(ab, ...)
    list(f(val = 1, verb = TRUE), g(ab = 1, a = 2), g(a = 3))",
  "direct: argument errors" = "
    f <- function(x, y) x
    tryCatch(f(1, 2, 3), error = function(e) conditionMessage(e))",
  "direct: unused named argument error" = "f <- function(x) x; f(1, zz = 2)",
  "direct: formal matched twice" = "f <- function(x, y) x; f(x = 1, x = 2)",
  "direct: missing argument without default" = "f <- function(x) x * 2; g <- function() f(); g()",
  "direct: return() from a promise (tryCatch)" = "
    f <- function(x) { tryCatch(return(x * 2), error = function(e) 'no'); 'not reached' }
    g <- function(v) f(v) + 1
    g(20)",
  "direct: exiting handler value" = "
    f <- function() tryCatch(stop('boom'), error = function(e) paste('caught', conditionMessage(e)))
    g <- function() f()
    g()",
  "direct: UseMethod from a rir generic" = "
    area <- function(s, ...) UseMethod('area')
    area.square <- function(s, ...) s$side^2
    area.default <- function(s, ...) NA
    h <- function(x) area(x)
    list(h(structure(list(side = 3), class = 'square')), h(1))",
  "direct: NextMethod chain" = "
    desc <- function(x) UseMethod('desc')
    desc.b <- function(x) c('b', NextMethod())
    desc.a <- function(x) c('a', NextMethod())
    desc.default <- function(x) 'default'
    k <- function(o) desc(o)
    k(structure(1, class = c('b', 'a')))",
  "direct: on.exit runs and sees returnValue" = "
    f <- function(x) { on.exit(cat('exit', returnValue(), '\\n')); x + 1 }
    g <- function() f(1) * 10
    g()",
  "direct: return() inside on.exit" = "
    f <- function() { on.exit(return(5)); 1 }
    g <- function() f() + 100
    g()",
  "direct: on.exit during an error unwind" = "
    f <- function() { on.exit(cat('cleanup\\n')); stop('bad') }
    g <- function() tryCatch(f(), error = function(e) conditionMessage(e))
    g()",
  "direct: sys.call, sys.function, match.call, nargs" = "
    f <- function(x, y = 2, ...) list(sys.call(), is.function(sys.function()), match.call(), nargs())
    g <- function(a) f(a + 1, z = 3)
    g(1)",
  "direct: parent.frame is the caller" = "
    f <- function() parent.frame()
    g <- function() { here <- environment(); identical(f(), here) }
    g()",
  "direct: Recall" = "
    f <- function(n) if (n <= 1) 1 else n * Recall(n - 1)
    g <- function() f(6)
    g()",
  "direct: substitute sees promise code" = "
    f <- function(x) deparse(substitute(x))
    g <- function(y) f(y + 1)
    g(2)",
  "direct: promise evaluated once, in the caller" = "
    n <- 0
    bump <- function() { n <<- n + 1; n }
    f <- function(x) c(x, x, x)
    g <- function() f(bump())
    c(g(), n)",
  "direct: interrupted promise restarts with a warning" = "
    f <- function(x) {
      r <- tryCatch(x, error = function(e) 'first failed')
      c(r, tryCatch(x, error = function(e) 'second failed'))
    }
    g <- function() f(stop('boom'))
    g()",
  "direct: default arguments as compiled promises" = "
    n <- 0
    f <- function(x, y = x * 2, z = { n <<- n + 1; y + 1 }, w = stop('unused')) list(x, y, z, missing(y), substitute(z))
    g <- function() list(f(1), f(1, 5), f(2, z = 0), n)
    g()",
  "direct: default arguments see the frame, parent.frame and sys.call" = "
    f <- function(x, env = parent.frame(), cl = sys.call(), k = length(ls())) list(identical(env, globalenv()), cl, k)
    h <- function() f(3)
    list(f(1), h())",
  "direct: default argument errors and restarts" = "
    f <- function(x = stop('no x')) { r <- tryCatch(x, error = function(e) conditionMessage(e)); c(r, tryCatch(x, error = function(e) 'again')) }
    g <- function(a, b = a + c, c = b) b
    list(f(), tryCatch(g(1), error = function(e) conditionMessage(e)))",
  "direct: match.arg with a default vector" = "
    f <- function(type = c('linear', 'quad')) match.arg(type)
    g <- function() c(f(), f('quad'))
    g()",
  "direct: formals<- on a compiled closure" = "
    f <- function(x, y = x + 1) y
    h <- function() f(1)
    a <- h()
    formals(f)$y <- quote(x * 100)
    c(a, h(), f(2))",
  "direct: promise interrupted in a rir callee, forced again" = "
    k <- function(x) { keep <<- environment(); x }
    g <- function() tryCatch(k(stop('boom')), error = function(e) conditionMessage(e))
    r1 <- g()
    list(r1, tryCatch(get('x', envir = keep), error = function(e) conditionMessage(e)))",
  "direct: default argument left by return(), forced again" = "
    f <- function(x = return(5)) { keep <<- environment(); x; 10 }
    g <- function() f()
    r1 <- g()
    list(r1, tryCatch(get('x', envir = keep), error = function(e) conditionMessage(e)))",
  "direct: nested promises interrupted by one error" = "
    k <- function(x) { keep1 <<- environment(); x }
    m <- function(y) { keep2 <<- environment(); k(y + stop('inner')) }
    g <- function() tryCatch(m(1), error = function(e) conditionMessage(e))
    list(g(), tryCatch(get('x', envir = keep1), error = function(e) conditionMessage(e)))",
  "direct: recursive default argument" = "
    f <- function(a = a) a
    g <- function() f()
    g()",
  "direct: arguments stay unshared after calls" = "
    touch <- function(v) length(v)
    f <- function() { x <- c(1, 2, 3); touch(x); x[2] <- 10; x }
    g <- function() f()
    g()",
  "direct: closures capture the frame" = "
    make <- function(k) function(x) x + k
    g <- function() { add <- make(5); add(1) }
    g()",
  "direct: errors name the callee's call" = "
    f <- function(x) x + 'a'
    g <- function() f(1)
    g()",
  "direct: warnings name the callee's call" = "
    f <- function(x) as.integer(x)
    g <- function() f('z')
    g()",
  "direct: deep recursion" = "
    f <- function(n) if (n == 0) 0 else 1 + f(n - 1)
    f(500)",
  "direct: invisible results" = "
    f <- function(x) invisible(x)
    g <- function() f(3)
    g()",
  "direct: visible after assignment function" = "
    f <- function(x) { y <- x }
    g <- function() f(3)
    withVisible(g())$visible",
  "direct: restarts" = "
    f <- function() withRestarts(invokeRestart('myR', 7), myR = function(v) v * 6)
    g <- function() f()
    g()",
  "env argument: X$a <- v rebinds X to the environment" = "
    f <- function(e) { e$x <- 1; e$y <- e$x + 1; list(is.environment(substitute(e)), e$y) }
    g <- function() { ee <- new.env(); f(ee) }
    g()",
  "env argument: X$a[i] <- v and a lazy env argument" = "
    f <- function(e) { e$v[2] <- 5; e$v }
    g <- function() { f(local({ h <- new.env(); h$v <- c(1, 2, 3); h })) }
    g()",
  "env argument: non-environment argument falls back" = "
    f <- function(l) { l$a <- 2; l }
    g <- function() { x <- list(a = 1); list(f(x), x) }
    g()",
  "direct: delayed promise of a local variable" = "
    f <- function(x) { force(x); x }
    g <- function() { v <- 1:3; r <- f(v); v[1] <- 10L; list(r, v) }
    g()"
))

test_that("direct calls count as rir calls and skip GNU R's entry", {
  # (environment<- would drop the compiled body, as it does for GNU R byte code)
  f <- rir::compile(function(n) if (n < 2) n else f(n - 1) + f(n - 2))
  f(2)
  rir::reset_stats()
  f(10)
  s <- rir::stats()
  # each call runs in RIR or, once optimized, as native code
  expect_equal(unname(s[["rir_calls"]] + s[["native_calls"]]), 177)
  expect_equal(unname(s[["gnur_entries"]]), 1)
})

expect_all_same(list(
  "forwarded arguments: chains of promises forced once, in order" = "
    n <- 0
    tick <- function(v) { n <<- n + 1; v * 10 }
    l3 <- function(x, y) c(y, x)
    l2 <- function(x, y) l3(x, y)
    l1 <- function(a, b) l2(a, b)
    g <- function() list(l1(tick(1), tick(2)), n, l1(3, tick(4)), n)
    g()",
  "forwarded arguments: substitute, missing and defaults through the chain" = "
    l2 <- function(x) list(substitute(x), missing(x))
    l1 <- function(a) l2(a)
    d <- function(a = 5) l2(a)
    m <- function(a) l2(a)
    list(l1(1 + 2), d(), d(7), tryCatch(m(), error = function(e) conditionMessage(e)),
         (function(a) (function(x) x)(a))(quote(sym)))",
  "forwarded arguments: errors, restarts and recursion" = "
    l2 <- function(x) { r <- tryCatch(x, error = function(e) 'first'); c(r, tryCatch(x, error = function(e) 'again')) }
    l1 <- function(a) l2(a)
    g <- function() l1(stop('boom'))
    k2 <- function(x) x
    k1 <- function(a) { keep <<- environment(); k2(a) }
    h <- function() tryCatch(k1(stop('inner')), error = function(e) conditionMessage(e))
    r <- function(a = b, b = a) (function(x) x)(a)
    list(g(), h(), tryCatch(get('a', envir = keep), error = function(e) conditionMessage(e)),
         tryCatch(r(), error = function(e) conditionMessage(e)))",
  "forwarded arguments: delayedAssign, active bindings and visibility" = "
    l2 <- function(x) x
    f <- function() { delayedAssign('p', invisible(7)); l2(p) }
    e <- function() { makeActiveBinding('ab', function() 42, environment()); l2(ab) }
    v <- function(a) l2(a)
    list(withVisible(f()), e(), withVisible(v(invisible(3))))"
))
