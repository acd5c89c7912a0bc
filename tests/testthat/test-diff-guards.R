# Differential tests: compile-time assumptions that a symbol names a base
# function. GNU R's byte code (optimize level 2, the JIT's) guards every base
# function it inlines (BASEGUARD) except the "language" ones (`+`, `if`,
# `[`, ...), which it inlines when no local binding is visible at compile
# time and never checks again. rir must behave the same.

# Functions called with one vector argument; the redefinition returns a
# marker so that a stale inlined version shows.
guarded_funs <- c(
  "length", "sum", "c", "is.null", "seq_along", "max", "abs", "is.na",
  "nchar", "names", "exp", "sqrt", "floor", "typeof", "inherits_1"
)

call_of <- function(f) {
  if (f == "inherits_1") "inherits(x, 'numeric')" else paste0(f, "(x)")
}
fname <- function(f) if (f == "inherits_1") "inherits" else f

guard_snippets <- list()
for (f in guarded_funs) {
  cl <- call_of(f)
  fn <- fname(f)
  q <- paste0("`", fn, "`")
  # redefined in the global environment after the first calls
  guard_snippets[[paste(f, "redefined globally")]] <- paste0(
    "x <- c(a = 4, b = 9.5)\n",
    "h <- function(x) { r <- list(); for (i in 1:3) r[[i]] <- ", cl, "; r }\n",
    "a <- h(x)\n",
    "assign('", fn, "', function(...) 'redefined', envir = globalenv())\n",
    "on.exit(rm(list = '", fn, "', envir = globalenv()))\n",
    "b <- h(x)\n",
    "h2 <- function(x) { r <- list(); for (i in 1:3) r[[i]] <- ", cl, "; r }\n",
    "list(a, b, h2(x))"
  )
  # assigned in the function's own frame at run time (not a local variable
  # the compiler can see) and as a local variable
  guard_snippets[[paste(f, "assigned in own frame")]] <- paste0(
    "x <- c(a = 4, b = 9.5)\n",
    "h <- function(x, redef) { r <- list(); for (i in 1:2) { r[[i]] <- ", cl, "; ",
    "if (redef) assign('", fn, "', function(...) 'redefined') }; r }\n",
    "list(h(x, FALSE), h(x, TRUE), h(x, FALSE))"
  )
  guard_snippets[[paste(f, "local variable")]] <- paste0(
    "x <- c(a = 4, b = 9.5)\n",
    "h <- function(x, redef) { r <- list(); for (i in 1:2) { r[[i]] <- ", cl, "; ",
    "if (redef) ", q, " <- function(...) 'redefined' }; r }\n",
    "list(h(x, FALSE), h(x, TRUE), h(x, FALSE))"
  )
  # defined in an enclosing closure's frame after the nested function ran
  guard_snippets[[paste(f, "in enclosing closure")]] <- paste0(
    "x <- c(a = 4, b = 9.5)\n",
    "mk <- function() { g <- function(x) ", cl, "; r1 <- g(x); ",
    q, " <- function(...) 'redefined'; list(r1, g(x)) }\n",
    "mk2 <- function() { g <- function(x) ", cl, "; r1 <- g(x); ",
    "assign('", fn, "', function(...) 'redefined'); list(r1, g(x)) }\n",
    "list(mk(), mk(), mk2(), mk2())"
  )
  # a shadowing binding that exists when the function is compiled
  guard_snippets[[paste(f, "shadowed at compile time")]] <- paste0(
    "x <- c(a = 4, b = 9.5)\n",
    "e <- new.env(); assign('", fn, "', function(...) 'redefined', envir = e)\n",
    "h <- function(x) ", cl, "\n",
    "environment(h) <- e\n",
    "a <- h(x); rm(list = '", fn, "', envir = e); list(a, h(x))"
  )
  # defined later in a hashed enclosing environment (as S4 generics have)
  guard_snippets[[paste(f, "defined later in a hashed environment")]] <- paste0(
    "x <- c(a = 4, b = 9.5)\n",
    "e <- new.env(hash = TRUE)\n",
    "h <- function(x) { r <- list(); for (i in 1:2) r[[i]] <- ", cl, "; r }\n",
    "environment(h) <- e\n",
    "a <- h(x); b <- h(x); assign('", fn, "', function(...) 'redefined', envir = e)\n",
    "list(a, b, h(x))"
  )
}
expect_all_same(guard_snippets)

# GNU R inlines the language functions without a guard: a redefinition after
# compilation is not seen by compiled code, one visible at compile time is.
expect_all_same(list(
  "+ redefined globally after compilation" = paste(
    "h <- function(x) { r <- 0; for (i in 1:3) r <- r + x; r }",
    "a <- h(1)",
    "assign('+', function(e1, e2) 42, envir = globalenv())",
    "on.exit(rm('+', envir = globalenv()))",
    "c(a, h(1))",
    sep = "\n"
  ),
  "+ defined globally before compilation" = paste(
    "assign('+', function(e1, e2) 42, envir = globalenv())",
    "on.exit(rm('+', envir = globalenv()))",
    "h <- function(x) { r <- 0; for (i in 1:3) r <- r + x; r }",
    "h(1)",
    sep = "\n"
  ),
  "+ as a local variable" = paste(
    "h <- function(x, redef) { if (redef) `+` <- function(e1, e2) 42; x + 1 }",
    "c(h(1, FALSE), h(1, TRUE), h(1, FALSE))",
    sep = "\n"
  ),
  "+ assigned in own frame" = paste(
    "h <- function(x) { assign('+', function(e1, e2) 42); x + 1 }",
    "c(h(1), h(1))",
    sep = "\n"
  ),
  "+ local in the enclosing function" = paste(
    "mk <- function(redef) { g <- function(x) x + 1; r1 <- g(1)",
    "  if (redef) `+` <- function(e1, e2) 42",
    "  c(r1, g(1)) }",
    "c(mk(FALSE), mk(TRUE), mk(FALSE))",
    sep = "\n"
  ),
  "+ in an enclosing environment at compile time" = paste(
    "e <- new.env(); assign('+', function(e1, e2) 42, envir = e)",
    "h <- function(x) x + 1; environment(h) <- e",
    "a <- h(1); rm('+', envir = e); c(a, h(1))",
    sep = "\n"
  ),
  "if redefined in the enclosing function" = paste(
    "mk <- function() { `if` <- function(c, a, b) 'mine'; g <- function(x) if (x) 1 else 2; g(TRUE) }",
    "mk()",
    sep = "\n"
  ),
  "[ redefined at compile time" = paste(
    "e <- new.env(); assign('[', function(x, i) 'mine', envir = e)",
    "h <- function(x) x[2]; environment(h) <- e",
    "h(1:3)",
    sep = "\n"
  ),
  "[<- redefined at compile time" = paste(
    "e <- new.env(); assign('[<-', function(x, i, value) 'mine', envir = e)",
    "h <- function(x) { x[2] <- 5; x }; environment(h) <- e",
    "h(1:3)",
    sep = "\n"
  ),
  "quote redefined after compilation" = paste(
    "h <- function() quote(a)",
    "a <- h(); assign('quote', function(x) 'mine', envir = globalenv())",
    "on.exit(rm('quote', envir = globalenv()))",
    "list(a, h())",
    sep = "\n"
  ),
  ".Internal redefined after compilation" = paste(
    "h <- function(x) .Internal(typeof(x))",
    "a <- h(1); assign('.Internal', function(x) 'mine', envir = globalenv())",
    "on.exit(rm('.Internal', envir = globalenv()))",
    "list(a, h(1))",
    sep = "\n"
  ),
  "UseMethod redefined after compilation" = paste(
    "gen <- function(x) UseMethod('gen'); gen.default <- function(x) 'default'",
    "a <- gen(1); assign('UseMethod', function(g, o) 'mine', envir = globalenv())",
    "on.exit(rm('UseMethod', envir = globalenv()))",
    "list(a, gen(1))",
    sep = "\n"
  ),
  "dnorm redefined after compilation" = paste(
    "h <- function(x) dnorm(x)",
    "a <- h(0); assign('dnorm', function(x) 'mine', envir = globalenv())",
    "on.exit(rm('dnorm', envir = globalenv()))",
    "list(a, h(0))",
    sep = "\n"
  ),
  "closures of one function expression in different environments" = paste(
    "mk <- function(shadow) { if (shadow) length <- function(x) 'mine'; function(x) length(x) }",
    "f1 <- mk(FALSE); f2 <- mk(TRUE)",
    "list(f1(1:3), f2(1:3), f1(1:3))",
    sep = "\n"
  ),
  "guard failure with an error in the redefinition" = paste(
    "h <- function(x) sqrt(x)",
    "a <- h(4); assign('sqrt', function(x) stop('no roots'), envir = globalenv())",
    "on.exit(rm('sqrt', envir = globalenv()))",
    "list(a, tryCatch(h(4), error = function(e) conditionCall(e)))",
    sep = "\n"
  ),
  "guard failure visibility" = paste(
    "h <- function(x) c(x)",
    "a <- h(4); assign('c', function(x) invisible(x), envir = globalenv())",
    "on.exit(rm('c', envir = globalenv()))",
    "withVisible(h(4))",
    sep = "\n"
  )
))

# A deeply nested expression: rir's compiler gives up (as GNU R's does) and
# GNU R's evaluator reports its own, catchable, error; R does not crash.
test_that("deeply nested expressions give GNU R's catchable error", {
  e <- quote(x)
  for (i in 1:30000) e <- call("+", 1, call("(", e))
  ff <- rir::compile(eval(call("function", as.pairlist(alist(x = )), e)))
  msg <- function() conditionMessage(tryCatch(ff(1), error = function(c) c))
  got <- msg()
  rir::disable()
  ref <- tryCatch(msg(), finally = rir::enable())
  expect_identical(got, ref)
  utils::capture.output(listing <- rir::disassemble(ff))
  expect_true(is.character(listing) && length(listing) > 0)
  g <- eval(call("function", as.pairlist(alist(x = )), call("function", as.pairlist(alist(y = )), e)))
  expect_match(conditionMessage(tryCatch(g(1)(2), error = function(c) c)), "nested too deeply")
})

# Code whose environment is a frame under a namespace (a package function's
# local function) keeps its guards: the frame may bind a base function's
# name after the local function was compiled (found by R CMD check, where
# the tests run under rir's namespace).
test_that("a local function named like a base one, defined after a nested function's first call", {
  src <- "function() {
    h <- function(x) c(length(x) * 2, is.null(x))
    r1 <- h(4)
    length <- function(x) 99
    r2 <- h(4)
    list(r1, r2)
  }"
  mk <- function() eval(parse(text = src, keep.source = FALSE)[[1]], new.env(parent = asNamespace("stats")))
  rir::disable()
  ref <- tryCatch(list(mk()(), mk()()), finally = rir::enable())
  f <- rir::compile(mk())
  expect_identical(list(f(), f()), ref)
  expect_identical(ref[[1]][[2]], c(198, 0))
})

expect_all_same(list(
  "type tests on objects do not dispatch, and hold nothing around them" = "
    is.integer.tagged <- function(x) stop('dispatched')
    is.null.tagged <- function(x) stop('dispatched')
    count_ints <- function(xs) {
      n <- 0
      acc <- c(1, 2)
      for (x in xs) {
        before <- acc
        if (is.integer(x) && !is.null(x)) n <- n + 1
        acc[1] <- acc[1] + 1
      }
      list(n, acc, before)
    }
    xs <- list(1L, structure(2L, class = 'tagged'), 3.5, structure(list(), class = 'tagged'))
    r <- lapply(1:30, function(k) count_ints(xs))
    list(r[[30]], is.integer(structure(2L, class = 'tagged')))
  "
))

expect_all_same(list(
  "type tests of every kind answer as GNU R's" = "
    kinds <- function(x) c(is.null(x), is.logical(x), is.integer(x), is.double(x),
                           is.complex(x), is.character(x), is.list(x), is.function(x),
                           is.environment(x), is.symbol(x), is.name(x))
    vals <- list(NULL, TRUE, NA, 1L, NA_integer_, 2.5, 1:3, c(1.5, 2), 1i, 'a',
                 list(1), pairlist(a = 1), sum, `if`, function() 1, globalenv(),
                 quote(x), quote(f(x)), factor('a'), structure(1L, class = 'foo'),
                 as.raw(1), expression(1))
    r <- NULL
    for (k in 1:25) r <- lapply(vals, kinds)
    r
  ",
  "a running total that changes from integer to double midway, in each call" = "
    safe_total <- function(x) {
      acc <- 0L
      for (v in x) {
        if (is.integer(acc) && acc > .Machine$integer.max - v) acc <- as.double(acc)
        acc <- acc + v
      }
      acc
    }
    x <- rep(c(400000000L, 500000000L, 600000000L), length.out = 60)
    r <- NULL
    for (k in 1:30) r <- c(r, safe_total(x))
    list(r[1:3], typeof(r), safe_total(1:10), typeof(safe_total(1:10)))
  ",
  "a local variable named with a dot, and ..1, are read from the frame" = "
    f <- function(...) {
      .Machine <- list(integer.max = 5L)
      s <- 0L
      for (i in 1:3) s <- s + .Machine$integer.max + ..1
      s
    }
    r <- NULL
    for (k in 1:30) r <- c(r, f(2L))
    r
  "
))

expect_all_same(list(
  "a type test's result is visible whatever its argument left" = "
    f <- function(x) is.null(y <- x)
    for (i in 1:300) f(1)
    f(1)
  ",
  "a type test of an invisible value, folded, is visible" = "
    g <- function(x) is.integer(invisible(x + 1L))
    for (i in 1:300) g(1L)
    g(1L)
  "
))
