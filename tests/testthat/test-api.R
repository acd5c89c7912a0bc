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

test_that("disassemble shows instructions and feedback", {
  f <- rir::compile(function(x) if (x > 1) x * 2 else -x)
  f(3)
  f(0)
  out <- utils::capture.output(rir::disassemble(f))
  expect_true(any(grepl("binop", out)))
  expect_true(any(grepl("taken 1/2", out)))
  expect_true(any(grepl("types real", out)))
})

test_that("stats() reports the documented counters", {
  s <- rir::stats()
  expect_true(all(c(
    "compiled", "refused", "rir_calls", "gnur_entries", "native_calls",
    "deopts", "compile_seconds"
  ) %in% names(s)))
  f <- rir::compile(function(n) if (n < 2) n else f(n - 1) + f(n - 2))
  before <- rir::stats()[["rir_calls"]]
  f(10)
  expect_gte(rir::stats()[["rir_calls"]] - before, 177)
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

test_that("serialized trampolines give a clear error, not a crash", {
  f <- rir::compile(function(x) x + 1)
  g <- unserialize(serialize(f, NULL))
  expect_identical(body(g), body(f))
  res <- tryCatch(g(1), error = function(e) conditionMessage(e))
  expect_true(identical(res, 2) || is.character(res))
})
