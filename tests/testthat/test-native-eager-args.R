# Arguments whose promise code native code computes before the call
# (src/pir/inline_call.cpp, eagerCall): only when the callee forces them
# at its very start, before anything could assign the variables they read.
# Native code after two calls, with feedback, whatever the suite's mode.

native_available <- function() {
  f <- rir::compile(function(x) x + 1)
  !inherits(tryCatch(rir::pir.compile(f), warning = function(w) w), "warning")
}

test_that("an argument computed before the call is one the callee forces at once", {
  skip_if_not(native_available(), "built without LLVM")
  # tiering with feedback: native code after two calls, no chaos
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  # a promise the callee keeps unevaluated is forced after the caller
  # assigned its variable: its code must see the new value
  mk <- rir::compile(function(a) function() a)
  u <- rir::compile(function(x) {
    f <- mk(x + 1)
    x <- 100
    f()
  })
  two <- rir::compile(function(a, b) function() a * b)
  v <- rir::compile(function(x) {
    f <- two(x * 2, x + 1)
    x <- 100
    f()
  })
  # forced at once: computed before the call (a loop: not inlined)
  sq <- rir::compile(function(a, b) {
    s <- a * b
    while (s > 100) s <- s / 2
    s
  })
  w <- rir::compile(function(x) sq(x + 1, 2) + sq(x - 1, x))
  before <- rir::stats()[["native_calls"]]
  # (constant arguments: forced promises, which the arguments' code reads)
  got <- lapply(1:6, function(i) c(u(1), v(3), w(3)))
  expect_identical(got, rep(list(c(101, 20200, 14)), 6))
  expect_gt(rir::stats()[["native_calls"]] - before, 6)
  text <- rir:::pir_translate(w, optimize = TRUE)$printed
  expect_match(text, "StaticCall[^\n]*eager\\(0\\)")
})
