# pir_check(): predicates over a function's optimized PIR, one per pass
# whose effect they observe (scope resolution, constant branches, type
# speculation, the environment a reflective call needs).

failed <- function(r) attr(r, "failed")

test_that("scope resolution: a local variable stored and read back is a known value", {
  f <- function() {
    a <- 42
    a
  }
  expect_true(rir::pir_check(f, c("NoLoad", "ReturnsConstant", "NoAssume")))
  g <- function(x) {
    y <- 2
    z <- y * 3
    if (z > 5) y else z
  }
  expect_true(rir::pir_check(g, "NoLoad"))
})

test_that("constant branches leave no loop or branch behind", {
  f <- function() if (TRUE) 1 else 2
  expect_true(rir::pir_check(f, c("ReturnsConstant", "NoLoop", "NoAssume")))
  loop <- function(n) {
    s <- 0
    for (i in seq_len(n)) s <- s + i
    s
  }
  r <- rir::pir_check(loop, "NoLoop")
  expect_false(r)
  expect_identical(failed(r), "NoLoop")
})

test_that("a scalar double loop has unboxed arithmetic and no variable loads", {
  loop <- function() {
    s <- 0
    i <- 0
    while (i < 100) {
      s <- s + i * 0.5
      i <- i + 1
    }
    s
  }
  warm <- function(f) f()
  expect_true(rir::pir_check(loop, c("UnboxedArithmetic", "NoLoad", "NoExternalCall"),
    warmup = warm
  ))
  # without feedback nothing is known of x: generic arithmetic
  add <- function(x) x + 1
  r <- rir::pir_check(add, "UnboxedArithmetic")
  expect_identical(failed(r), "UnboxedArithmetic")
  # with it, x is speculated to be a double scalar
  expect_true(rir::pir_check(add, "UnboxedArithmetic", warmup = function(f) {
    for (i in 1:3) f(1.5)
  }))
})

test_that("environment elision: stores wait for what can look at the environment", {
  f <- function() {
    a <- 42
    a
  }
  expect_true(rir::pir_check(f, c("NoEnvironment", "NoStore")))
  # a loop of plain arithmetic keeps its variables as values; only leaving
  # for the interpreter writes them
  loop <- function() {
    s <- 0
    i <- 0
    while (i < 100) {
      s <- s + i * 0.5
      i <- i + 1
    }
    s
  }
  expect_true(rir::pir_check(loop, c("NoEnvironment", "NoStore", "NoLoad"),
    warmup = function(f) f()
  ))
  # a callee inlined with the caller's evaluated argument: no promise, no
  # environment
  inc <- function(x) x + 1
  g <- function(y) inc(y)
  expect_true(rir::pir_check(g, c("NoPromise", "NoEnvironment"),
    warmup = rir::compile(function(g) for (i in 1:5) g(1.5))
  ))
  # a call that may look at the frame gets the values first
  h <- function(n) {
    s <- 0
    for (i in 1:n) s <- s + i
    print(s)
  }
  expect_setequal(
    failed(rir::pir_check(h, c("NoEnvironment", "NoStore"), warmup = function(f) {
      utils::capture.output(f(3), f(4))
    })),
    c("NoEnvironment", "NoStore")
  )
})

test_that("code that calls environment() or sys.function() keeps its environment", {
  e <- function(x) environment()
  s <- function(x) sys.function()
  expect_identical(failed(rir::pir_check(e, "NoEnvironment")), "NoEnvironment")
  expect_identical(failed(rir::pir_check(s, "NoEnvironment")), "NoEnvironment")
  # a base function's call: the builtin is called, after the speculation
  # that the name still means base's function
  expect_setequal(
    # (code of the global environment: in a namespace's own functions base
    # functions are not guarded, as in GNU R)
    failed(rir::pir_check(
      eval(quote(function(x) sqrt(x)), globalenv()), c("NoExternalCall", "NoAssume", "NoLoop")
    )),
    c("NoExternalCall", "NoAssume")
  )
})

test_that("pir_check() names what it cannot check, and why a function has no PIR", {
  f <- function() 1
  expect_error(rir::pir_check(f, "NoSuchCheck"), "unknown check")
  expect_error(rir::pir_check(f, character()), "non-empty")
  expect_error(rir::pir_check(sum, "NoLoad"), "cannot compile a primitive")
  # a function the translator refuses (a switch with more than 256
  # alternatives): FALSE with the reason
  r <- rir::pir_check(big_switch(), "NoLoad")
  expect_false(r)
  expect_match(attr(r, "problem"), "too many entries")
  # switch() is: one test per alternative after the selection
  expect_true(rir::pir_check(function(x) switch(x, a = 1, b = , c = 3, 4), "NoLoop"))
})

test_that("status() reports each function's tier, optimizer state and deoptimizations", {
  st <- rir::status()
  expect_true(all(c("tier", "optimizer", "opt_reason", "opt_seconds", "deopts") %in% names(st)))
  f <- rir::compile(function(n) n + 1)
  f(1)
  st <- rir::status()
  row <- st[nrow(st), ]
  expect_true(row$tier %in% c("rir", "native"))
  expect_true(row$optimizer %in% c("not tried", "optimized", "refused"))
  expect_true(is.numeric(st$deopts))
  expect_true(is.numeric(attr(rir::stats(), "opt_refusals")))
})

test_that("a call of a small arithmetic closure the feedback saw is inlined", {
  f <- function(x) x + 1
  g <- function(y) {
    z <- y * 2
    f(z)
  }
  warm <- function(g) for (i in 1:3) g(1.5)
  # without feedback: a call, its argument a promise
  expect_setequal(
    failed(rir::pir_check(g, c("NoClosureCall", "NoPromise"))),
    c("NoClosureCall", "NoPromise")
  )
  expect_true(rir::pir_check(g, c("NoClosureCall", "NoPromise"), warmup = warm))
  # an argument of the caller may be an unevaluated promise (forcing it
  # inside the inlined body would run R code without the callee's
  # context): the call stays on the path where it is one
  g2 <- function(y) f(y)
  lazy <- function(g) for (i in 1:3) g(i + 0.5)
  expect_identical(failed(rir::pir_check(g2, "NoClosureCall", warmup = lazy)), "NoClosureCall")
  # (for calls whose argument is evaluated, as the feedback saw them: none)
  g3 <- function(y) f(y)
  expect_true(rir::pir_check(g3, "NoClosureCall", warmup = warm))
  # an argument computed from the caller's variables: its promise code is
  # translated where the body first uses it
  h <- function(n) {
    s <- 0
    for (i in seq_len(n)) s <- s + f(i * 0.5)
    s
  }
  expect_true(rir::pir_check(h, c("NoClosureCall", "NoPromise", "UnboxedArithmetic"),
    warmup = function(h) for (i in 1:3) h(4)
  ))
  # a callee that branches is inlined too; one that calls is inlined with
  # its own environment and function context
  k <- function(x) if (x > 0) x else -x
  m <- function(y) k(y)
  expect_true(rir::pir_check(m, c("NoClosureCall", "NoInlinedContext"),
    warmup = function(m) for (i in 1:3) m(2)
  ))
  k2 <- function(x) if (x > 0) x else abs(x)
  m2 <- function(y) k2(y)
  expect_identical(
    failed(rir::pir_check(m2, c("NoClosureCall", "NoInlinedContext"),
      warmup = function(m2) for (i in 1:3) m2(2)
    )),
    "NoInlinedContext"
  )
  # as is integer arithmetic that may overflow (a warning inside the callee)
  p <- function(a) a + 1L
  q <- function(b) p(b)
  expect_identical(
    failed(rir::pir_check(q, c("NoClosureCall", "NoInlinedContext"),
      warmup = function(q) for (i in 1:3) q(2L)
    )),
    "NoInlinedContext"
  )
})

test_that("a call of a closure the feedback saw alone is a static call", {
  # (a callee with a loop: not inlined)
  k <- function(x, y = 2) {
    while (x > 100) x <- x / 2
    if (x > 0) x * y else -abs(x)
  }
  m <- function(a) k(a) + k(a + 1, 3)
  warm <- function(m) for (i in 1:3) m(2)
  # without feedback: dynamic calls
  expect_identical(failed(rir::pir_check(m, "StaticCalls")), "StaticCalls")
  expect_true(rir::pir_check(m, "StaticCalls", warmup = warm))
  # the context the arguments' types prove: a promise whose value the
  # caller computed, a number (argument 1), and a constant double scalar
  # (argument 2)
  rir:::without_native(warm(m))
  text <- strsplit(rir:::pir_translate(m, optimize = TRUE)$printed, "\n")[[1]]
  calls <- grep("StaticCall", text, value = TRUE)
  expect_length(calls, 2L)
  expect_match(calls[[2]], "<formals,eager(0),notObj(0),eager(1),notObj(1),real(1)>",
    fixed = TRUE
  )
  # a callee the feedback saw two of, or named arguments: dynamic calls
  k2 <- function(x, y) x - y
  n <- function(a, f) f(a, 1)
  expect_identical(
    failed(rir::pir_check(n, "StaticCalls", warmup = function(n) {
      n(1, k)
      n(2, k2)
      n(3, k)
    })),
    "StaticCalls"
  )
  p <- function(a) k(y = 1, x = a)
  expect_identical(
    failed(rir::pir_check(p, "StaticCalls", warmup = function(p) for (i in 1:3) p(2))),
    "StaticCalls"
  )
})

test_that("arguments seen evaluated are assumed so at the entry: a loop reading one loads nothing", {
  f <- function(n, dt) {
    s <- 0
    for (i in seq_len(n)) s <- s + dt * i
    s
  }
  # without argument feedback, dt may be a promise whose forcing runs R
  # code: after it, the variables are read from the environment
  expect_identical(failed(rir::pir_check(f, "NoLoad")), "NoLoad")
  g <- function(n, dt) {
    s <- 0
    for (i in seq_len(n)) s <- s + dt * i
    s
  }
  expect_true(rir::pir_check(g, c("NoLoad", "UnboxedArithmetic"),
    warmup = function(g) for (k in 1:3) g(10, 0.5)
  ))
})

test_that("$ and [[ on lists and environments seen plain leave the function's variables known", {
  step <- function(bodies, dt) {
    s <- 0
    for (i in seq_along(bodies)) {
      b <- bodies[[i]]
      b$x <- b$x + b$v * dt
      s <- s + b$x
    }
    s
  }
  mk <- function(x) {
    e <- new.env()
    e$x <- x
    e$v <- 1
    e
  }
  bodies <- list(mk(1), mk(2))
  # without feedback, `[[` and `$` may meet an active binding (R code): the
  # variables are read from the environment after them
  expect_identical(failed(rir::pir_check(step, "NoLoad")), "NoLoad")
  # (do.call: the arguments arrive evaluated)
  step2 <- step
  expect_true(rir::pir_check(step2, "NoLoad",
    warmup = function(f) for (k in 1:3) do.call(f, list(bodies, 0.5))
  ))
  # an active binding once seen: `$` is no longer assumed plain
  step3 <- step
  odd <- new.env()
  odd$x <- 3
  makeActiveBinding("v", function() 1, odd)
  expect_identical(
    failed(rir::pir_check(step3, "NoLoad",
      warmup = function(f) for (k in 1:3) do.call(f, list(list(odd), 0.5))
    )),
    "NoLoad"
  )
})

test_that("scope resolution: a variable loaded after an inlined call is known in a loop", {
  # nrow()/ncol() are inlined with their function context; `kr` read right
  # after one was a load, which the loop's loads then also were (and the
  # Force of each made every binding be confirmed at every iteration)
  f_text <- "
    f <- function(im, k) {
      nr <- nrow(im)
      kr <- nrow(k)
      kc <- ncol(k)
      h <- kr %/% 2
      s <- 0
      for (i in seq_len(nr)) s <- s + im[i, 1] * k[kr - i + 1, 1] + h
      s
    }
  "
  f <- eval(parse(text = f_text)[[1]])
  m <- matrix(c(1, 2, 3, 4, 5, 6, 7, 8, 9), 3)
  warm <- function(f) for (it in 1:3) f(m, m)
  expect_true(rir::pir_check(f, "NoConfirmationInLoop", warmup = warm))
  expect_same(paste0(f_text, "
    m <- matrix(c(1, 2, 3, 4, 5, 6, 7, 8, 9), 3)
    for (it in 1:4) r <- f(m, m)
    kr <- 'global'
    g <- function(k) {
      kr <- nrow(k)
      h <- kr %/% 2
      rm(kr)
      c(h, kr)
    }
    list(r, g(m), g(m), g(m), g(m))
  "), times = 3)
})

test_that("type-test builtins are computed inline, and folded where the type is known", {
  count <- function(xs) {
    n <- 0L
    for (v in xs) if (is.integer(v) || is.null(v)) n <- n + 1L
    n
  }
  expect_true(rir::pir_check(count, "NoExternalCall", warmup = function(f) {
    for (k in 1:3) f(list(1L, 2.5, NULL))
  }))
  known <- function(x) {
    y <- x + 1L
    if (is.double(y)) "double" else if (is.integer(y)) "integer" else "other"
  }
  expect_true(rir::pir_check(known, c("NoExternalCall", "NoLoop"), warmup = function(f) {
    for (k in 1:3) f(2L)
  }))
})

test_that("confirmations left by a branch that folding removed go", {
  # (is.integer(acc) folds to FALSE: the call in its branch, after which
  # scope resolution confirmed acc at every iteration, is gone)
  f <- function(n) {
    acc <- 0.5
    for (i in seq_len(n)) {
      if (is.integer(acc)) acc <- as.double(acc)
      acc <- acc + 1
    }
    acc
  }
  expect_true(rir::pir_check(f, "NoConfirmationInLoop", warmup = function(f) {
    for (k in 1:3) f(10L)
  }))
})
