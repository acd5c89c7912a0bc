test_that("compile() rejects non-functions and primitives with clear errors", {
  expect_error(rir::compile(42), "needs a function")
  expect_error(rir::compile(sum), "primitive")
  expect_error(rir::disassemble(function(x) x), "compiled by rir")
})

test_that("compiled closures look like GNU R byte-compiled closures", {
  f <- function(x, y = 2) {
    x + y
  }
  g <- rir::compile(f)
  expect_true(rir::is_compiled(g))
  expect_false(rir::is_compiled(f))
  expect_identical(body(g), body(f))
  expect_identical(formals(g), formals(f))
  expect_identical(environment(g), environment(f))
  expect_identical(deparse(g), deparse(f))
  expect_equal(g(1), 3)
  expect_true(rir::rir.isValidFunction(g))
  expect_identical(rir::rir.compile(f)(5), 7)
})

# (feedback is what the RIR tier records: these calls run there)
test_that("disassemble shows instructions and feedback", {
  f <- rir::compile(function(x) if (x > 1) x * 2 else -x)
  rir:::without_native({
    f(3)
    f(0)
  })
  out <- utils::capture.output(rir::disassemble(f))
  expect_true(any(grepl("binop", out)))
  expect_true(any(grepl("taken 1/2", out)))
  expect_true(any(grepl("types real", out)))
})

test_that("binop feedback records each operand's types", {
  f <- rir::compile(function(x, y) x + y)
  rir:::without_native(f(1L, 2.5))
  out <- utils::capture.output(rir::disassemble(f))
  expect_true(any(grepl("types int \\| real", out)))
  rir:::without_native({
    f(1:2, 2.5)
    f(NA_integer_, 1L)
  })
  out <- utils::capture.output(rir::disassemble(f))
  expect_true(any(grepl("types int,vector,NA \\| int,real", out)))
  g <- rir::compile(function(x) {
    s <- 0
    for (i in 1:3) s <- s + x[[i]]
    s
  })
  rir:::without_native(g(c(1L, 2L, 3L)))
  out <- utils::capture.output(rir::disassemble(g))
  expect_true(any(grepl("types real \\| int", out)))
  # calls record their results' types
  h <- rir::compile(function(x) identity(x))
  rir:::without_native({
    h(1L)
    h("a")
  })
  out <- utils::capture.output(rir::disassemble(h))
  expect_true(any(grepl("calls 2; result int,str", out)))
})

test_that("stats() reports the documented counters", {
  s <- rir::stats()
  expect_true(all(c(
    "compiled", "refused", "rir_calls", "gnur_entries", "native_calls",
    "deopts", "compile_seconds"
  ) %in% names(s)))
  f <- rir::compile(function(n) if (n < 2) n else f(n - 1) + f(n - 2))
  # every call runs in RIR or, once optimized, as native code
  ran <- function() sum(rir::stats()[c("rir_calls", "native_calls")])
  before <- ran()
  f(10)
  expect_gte(ran() - before, 177)
})

test_that("status() lists compiled closures", {
  st <- rir::status()
  expect_s3_class(st, "data.frame")
  expect_true(all(c("name", "state", "reason", "calls") %in% names(st)))
})

test_that("disable() restores the compiler package exactly", {
  ns <- asNamespace("compiler")
  rir::disable()
  expect_false(rir::is_enabled())
  expect_false(identical(environment(get("tryCmpfun", ns)), asNamespace("rir")))
  rir::enable()
  expect_true(rir::is_enabled())
  expect_identical(environment(get("tryCmpfun", ns)), asNamespace("rir"))
})

test_that("disable() makes closures already switched to rir run GNU R code", {
  g <- rir::compile(function(x) lapply(x, function(v) v * 2))
  h <- function(x) g(x)
  expect_equal(h(1:2), list(2, 4))
  calls <- rir::stats()[["rir_calls"]]
  rir::disable()
  on.exit(rir::enable())
  # g, base's lapply (switched to rir by the call above) and the promise
  # code all run with GNU R's evaluator now
  expect_equal(h(1:3), list(2, 4, 6))
  expect_equal(rir::stats()[["rir_calls"]], calls)
  rir::enable()
  expect_equal(h(1), list(2))
  expect_gt(rir::stats()[["rir_calls"]], calls)
})

test_that("switching a running byte-compiled closure to rir keeps its old body alive", {
  env <- new.env()
  local(envir = env, {
    outer <- compiler::cmpfun(function(n) {
      if (n == 0) return(0)
      r <- g(n)
      invisible(gc())
      for (i in 1:3) r <- r + 1
      r + outer(n - 1)
    })
    g <- rir::compile(function(n) if (n > 1) outer(0) + n else n)
  })
  # outer(1) = 1 + 3 = 4; outer(2) = 2 + 3 + 4 = 9; outer(3) = 3 + 3 + 9 = 15
  expect_identical(env$outer(3), 15)
})

test_that("infinite recursion is an R error, not a crash", {
  f <- rir::compile(function(n) 1 + f(n + 1))
  msg <- tryCatch(f(0), error = function(e) conditionMessage(e))
  expect_match(msg, "nested too deeply|C stack usage|too close to the limit")
  # and rir keeps working afterwards
  g <- rir::compile(function(x) x * 2)
  expect_identical(g(21), 42)
})

test_that("a long loop can be interrupted", {
  # R_interrupts_pending is polled on loop back-edges; simulate a pending
  # interrupt through a finalizer-free route: setTimeLimit raises an error
  # from R_CheckUserInterrupt's event processing.
  f <- rir::compile(function() {
    i <- 0
    repeat i <- i + 1
  })
  setTimeLimit(elapsed = 0.5, transient = TRUE)
  on.exit(setTimeLimit(elapsed = Inf))
  res <- tryCatch(f(), error = function(e) "stopped")
  expect_identical(res, "stopped")
})

test_that("disassemble prints every instruction kind without trouble", {
  f <- rir::compile(function(n) {
    m <- matrix(0, 2, 2)
    x <- numeric(3)
    s <- 0
    for (i in 1:n) {
      s <- s + i
      if (i <= 3 && n > 0 || FALSE) x[i] <- s
    }
    m[1, 2] <- s
    l <- list(a = 1)
    while (s > 100) s <- s - 1
    c(l$a, x[[2]], m[1, 2], -s, sum(x))
  })
  expect_identical(f(5), c(1, 3, 15, -15, 10))
  out <- utils::capture.output(rir::disassemble(f))
  expect_true(any(grepl("subassign", out)))
  expect_true(any(grepl("for_step", out)))
  expect_true(any(grepl("lgl_first", out)))
})

test_that("rir closures still run after R's exit finalizers freed rir's state", {
  # R runs finalizers registered with onexit = TRUE when it exits, rir's
  # (which free compiled code) possibly before one that calls rir closures
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script))
  writeLines(c(
    "library(rir)",
    "e <- new.env()",
    "fin <- function(e) cat('at exit:', e$f(2), e$g(3), '\\n')",
    "invisible(reg.finalizer(e, fin, onexit = TRUE))",
    "e$f <- rir::compile(function(x) x * 10)",
    "e$g <- rir::compile(function(x) { h <- function(y) y + 1; h(x) })",
    "cat(e$f(1), e$g(1), '\\n')"
  ), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script,
    stdout = TRUE, stderr = TRUE,
    env = paste0("R_LIBS=", dirname(find.package("rir")))
  )
  expect_identical(out, c("10 2 ", "at exit: 20 4 "))
})

test_that("the API names what it was given", {
  expect_error(rir::pir.compile(42), "pir.compile\\(\\) needs a function, not numeric")
  expect_error(rir::pir(sum), "pir\\(\\) cannot compile a primitive")
  h_named_by_caller <- function(x) x + 1
  utils::capture.output(rir::pir(h_named_by_caller))
  expect_true("h_named_by_caller" %in% rir::status()$name)
})

test_that("stats() prints counts as whole numbers", {
  s <- rir::stats()
  expect_s3_class(s, "rir_stats")
  expect_true(is.numeric(s[["rir_calls"]]))
  out <- utils::capture.output(print(s))
  expect_false(any(grepl("e[+-][0-9]{2}", out)))
  expect_true(any(grepl("rir_calls", out)))
})
