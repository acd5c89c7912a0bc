# Differential tests: calls, arguments, promises, closures.

expect_all_same(list(
  "positional and named" = "f <- function(a, b = 2, c) a + b; c(f(1), f(1, 3), f(b = 10, a = 1))",
  "partial matching" = "f <- function(value, verbose = FALSE) c(value, verbose); f(val = 1, verb = TRUE)",
  "missing argument" = "f <- function(x, y) missing(y); c(f(1), f(1, 2))",
  "missing argument error" = "f <- function(x) x + 1; f()",
  "defaults evaluated in callee" = "f <- function(x, y = x * 2) { x <- 10; y }; f(1)",
  "lazy arguments" = "f <- function(x) 'not used'; f(stop('never'))",
  "promise evaluated once" = "n <- 0; g <- function() { n <<- n + 1; n }; f <- function(x) c(x, x); f(g())",
  "dots" = "f <- function(...) sum(...); g <- function(...) f(...); g(1, 2, 3)",
  "dots names" = "f <- function(...) names(list(...)); f(a = 1, 2, b = 3)",
  "dots ..1" = "f <- function(...) ..2; f(1, 'two', 3)",
  "dots length" = "f <- function(...) ...length(); f(1, 2, 3)",
  "nargs" = "f <- function(a, b, c) nargs(); c(f(), f(1), f(1, 2, 3))",
  "sys.call" = "f <- function(x, ...) sys.call(); f(1 + 2, y = 3)",
  "match.call" = "f <- function(x, y, ...) match.call(); f(1, z = 2, 3)",
  "sys.function" = "f <- function() sys.function(); is.function(f())",
  "parent.frame" = "g <- function() parent.frame(); f <- function() { e <- g(); identical(e, environment()) }; f()",
  "closures capture" = "make <- function(n) function(x) x + n; add2 <- make(2); add2(40)",
  "counter closure" = "make <- function() { i <- 0; function() { i <<- i + 1; i } }; cnt <- make(); cnt(); cnt(); cnt()",
  "recursion" = "fib <- function(n) if (n < 2) n else fib(n - 1) + fib(n - 2); fib(15)",
  "Recall" = "f <- function(n) if (n <= 1) 1 else n * Recall(n - 1); f(10)",
  "substitute" = "f <- function(x) substitute(x); f(a + b)",
  "deparse substitute" = "f <- function(x) deparse(substitute(x)); f(mean(1:10))",
  "match.arg" = "f <- function(type = c('linear', 'quad')) match.arg(type); c(f(), f('quad'))",
  "match.arg error" = "f <- function(type = c('linear', 'quad')) match.arg(type); f('zzz')",
  "on.exit" = "f <- function() { on.exit(cat('bye\\n')); cat('hi\\n'); 1 }; f()",
  "on.exit add after" = "f <- function() { on.exit(cat('1\\n')); on.exit(cat('2\\n'), add = TRUE, after = FALSE); 0 }; f()",
  "eval and evalq" = "x <- 1; e <- new.env(); assign('x', 2, e); c(eval(quote(x)), evalq(x, e), eval(quote(x + 1), list(x = 10)))",
  "local" = "y <- local({ a <- 2; a * 3 }); y",
  "environment manipulation" = "f <- function() { e <- environment(); assign('z', 5, envir = e); z }; f()",
  "do.call" = "do.call(paste, list('a', 'b', sep = '-'))",
  "lapply sapply vapply" = "list(lapply(1:3, function(i) i^2), sapply(1:3, function(i) i * 2), vapply(1:3, function(i) i + 0.5, numeric(1)))",
  "Map Reduce Filter" = "list(Map(function(a, b) a + b, 1:3, 4:6), Reduce(`+`, 1:5, accumulate = TRUE), Filter(function(x) x > 2, 1:5))",
  "apply to non-function" = "x <- 1; x(2)",
  "unknown function" = "not_a_function_qq(1)",
  "function returning function call" = "f <- function() function(x) x * 3; f()(4)",
  "anonymous function call" = "(function(x, y) x - y)(10, 3)",
  "builtin with named args" = "round(3.14159, digits = 2)",
  "primitive arity error" = "length(1, 2)",
  "stop with call" = "f <- function() stop('custom failure'); f()",
  "stop call. = FALSE" = "f <- function() stop('plain', call. = FALSE); f()",
  "warning in function" = "f <- function() { warning('careful'); 1 }; f()",
  "as.integer coercion warning" = "f <- function(x) as.integer(x); f('a')",
  "log warning" = "f <- function(x) log(x); f(-1)",
  # GNU R's byte code drops the NaN warning of sqrt() on an integer scalar
  # (its MATH1 instruction); rir follows GNU R's builtin, so use doubles here.
  "sqrt in loop warning" = "r <- 0; for (i in c(1, 2)) r <- r + sqrt(-i); r",
  "deep recursion" = "f <- function(n) if (n == 0) 0 else 1 + f(n - 1); f(200)",
  "vapply error" = "vapply(1:3, function(i) 'a', numeric(1))"
))

expect_all_same(list(
  "missing with default" = "f <- function(x = 1, y) c(missing(x), missing(y)); list(f(), f(2), f(y = 3))",
  "missing passed down" = "g <- function(a) missing(a); f <- function(b) g(b); c(f(), f(1))",
  "default refers to later local" = "f <- function(x, n = length(v)) { v <- 1:x; n }; f(4)",
  "on.exit sees return value" = "f <- function() { on.exit(print(returnValue())); invisible(42) }; withVisible(f())",
  "on.exit modifies local" = "f <- function() { x <- 1; on.exit(x <- 2); x }; f()",
  "sys.function in nested" = "f <- function() { g <- function() sys.function(); identical(g(), g) }; f()",
  "parent.frame of promise" = "f <- function(x) x; g <- function() { here <- environment(); f(identical(parent.frame(), globalenv()) || TRUE) }; g()",
  "environment of closure" = "mk <- function() { v <- 7; function() environment() }; e <- mk()(); get('v', envir = parent.env(e))",
  "dots in nested calls" = "f <- function(...) g(..., z = 3); g <- function(...) list(...); f(1, b = 2)",
  "dots missing element" = "f <- function(...) c(...); f(1, , 3)",
  "named dot-dot-number" = "f <- function(...) ..1 + ..2; f(5, 6)",
  "dot-dot out of range" = "f <- function(...) ..3; f(1)",
  "formals with dots after" = "f <- function(x, ..., last = 'L') c(x, last); c(f(1, 2, 3), f(1, last = 'Z'))",
  "Recall with defaults" = "f <- function(n, acc = 1) if (n <= 1) acc else Recall(n - 1, acc * n); f(6)",
  "do.call with names" = "f <- function(a, b) a - b; do.call(f, list(b = 1, a = 10))",
  "closure returned invisible through call" = "f <- function() invisible(1); g <- function() f(); withVisible(g())$visible",
  "assignment function value" = "f <- function() { x <- 1:3; names(x) <- c('a', 'b', 'c'); x }; f()"
))

expect_all_same(list(
  ".Internal builtins called inline" = "
    list(numeric(3), vector('list', 2), bitwAnd(12L, 10L), nchar(c('a', 'bb')), rev(1:3))",
  ".Internal errors and warnings" = "vector('foo', 1)",
  ".Internal error call" = "f <- function() as.vector(1, 'nonsense'); f()",
  ".Internal from user code" = "g <- function(n) .Internal(vector('integer', n)); g(2)",
  "math1 on plain scalars" = "
    list(floor(2.5), ceiling(-1.5), sqrt(16), exp(0), cos(0), sin(0), tan(0), atan(1),
         abs(-3L), abs(NA_integer_), abs(-2.5), floor(NA_real_), sqrt(NaN))",
  "math1 warnings and non-plain arguments" = "
    Math.myc <- function(x, ...) paste('Math', .Generic)
    list(sqrt(-1), cos(Inf), floor(2L), sqrt(c(a = 4)), floor(structure(1.5, class = 'myc')),
         abs(TRUE), sqrt(4+0i))",
  "math1 argument name" = "sqrt(x = 9)",
  "math1 wrong argument name" = "sqrt(y = 9)"
))

expect_all_same(list(
  "math1 on integers and NA" = "
    list(sqrt(-1L), exp(2L), sqrt(NA_integer_), floor(NA_integer_), cos(3L), sign(-2.5), sign(0L),
         atan(NA_real_), expm1(1e-10), log1p(-2))",
  "math1 vectors" = "list(floor(c(1.5, -1.5)), sqrt(c(4, -1)), cos(integer()))"
))

expect_all_same(list(
  "inlined internals: values" = "
    set.seed(1)
    list(inherits(1, 'numeric'), inherits(structure(1, class = 'a'), c('b', 'a'), TRUE),
         identical(list(1), list(1)), identical(y = 2, x = 2L), vector('list', 2), typeof(1L),
         match(3, 1:5), rep_len(1:3, 7), rep.int(2, 3), nchar('abc'), which.max(c(1, 5, 2)),
         choose(5, 2), atan2(1, 1), dnorm(0), pnorm(1.96), qnorm(0.975), runif(2), rnorm(2, mean = 3))",
  "inlined internals: errors name the caller (GNU R byte code)" = "f <- function() vector('foo', 2); f()",
  "inlined internals: argument errors" = "f <- function(x) inherits(x); f(1)",
  "inlined internals: unknown argument" = "f <- function(x) identical(x, 1, bogus = 2); f(1)",
  "inlined internals: no frame of their own" = "
    f <- function() { k <- function() sys.call(-1); identical(k(), 1) }
    g <- function() { k <- function() deparse(sys.call(-1)); vector('character', nchar(k())) }
    list(f(), g())",
  "inlined internals: shadowed functions are called" = "
    f <- function(x) { inherits <- function(x, what) 'mine'; inherits(x, 'a') }
    g <- function() { vector <- function(...) 'local'; vector('list', 1) }
    list(f(1), g())",
  "inlined internals: evaluation order of arguments" = "
    f <- function() identical(y = { cat('y\\n'); 1 }, x = { cat('x\\n'); 1 })
    f()"
))

expect_all_same(list(
  ".Internal: warnings and errors name the inner call" = "
    f <- function(x) { old <- options(warn = 2); on.exit(options(old)); body(x) }
    f(NULL)",
  ".Internal: body() warning" = "body(1)"
))

expect_all_same(list(
  "calls: local() as GNU R's compiler inlines it" = "
    f <- function(a) { y <- local({ z <- a + 1; z * 2 }); w <- local(as.numeric('b')); list(y, w, exists('z')) }
    f(1)"
))

expect_all_same(list(
  "calls: a missing argument passed on names the call it was passed to" = "
    g <- function(...) list(...)
    h <- function(...) g(...)
    k <- function(x) x
    f1 <- function(z) Map(function(p) p, z)
    f2 <- function(z) g(z)
    f3 <- function(z) h(z)
    f4 <- function(z) k(z)
    f5 <- function(a, b) sapply(b, function(e) e)
    lapply(list(f1, f2, f3, f4), function(f) tryCatch(f(), error = function(e) conditionCall(e)))",
  "calls: an unbound variable passed on names the call it was passed to" = "
    k <- function(x) { y <- 1; x + y }
    f <- function() k(nosuchvar)
    tryCatch(f(), error = function(e) list(conditionCall(e), conditionMessage(e)))"
))

expect_all_same(list(
  "calls: an argument whose lookup failed warns when it is forced again" = "
    f <- function(x) { r <- tryCatch(x, error = function(e) conditionMessage(e)); c(r, tryCatch(x, error = function(e) 'again')) }
    g <- function(z) f(z)
    k <- function() f(nosuchvar)
    list(g(), k())"
))

expect_all_same(list(
  "calls: a missing argument of log() is named (GNU R's LOG and LOGBASE instructions)" = "
    f1 <- function(a, b) log(b)
    f2 <- function(a, b) format(log(b))
    f3 <- function(a, b) log(a, b)
    f4 <- function(a, b) log(nosuchvar)
    lapply(list(f1, f2, f3, f4), function(f) tryCatch(f(8), error = function(e) list(conditionCall(e), conditionMessage(e))))",
  "calls: log() with evaluated arguments, its fast path and its fallbacks" = "
    Math.zzz <- function(x, ...) list(.Generic, substitute(x))
    f <- function(a) log(a)
    g <- function(a, b) log(a, b)
    s <- 0; for (i in 1:10) s <- s + log(i)
    list(s, f(8), f(8L), f(0), f(-1), f(NA), f(NaN), f(NA_integer_), f(c(x = 2)), f(1:3), f(2+0i),
         f(structure(8, class = 'zzz')), g(8, 2), g(8, base = 2), log(x = 8), log(8, base = 2),
         tryCatch(f('a'), error = conditionMessage), tryCatch(f(quote(x)), error = conditionMessage))"
))
