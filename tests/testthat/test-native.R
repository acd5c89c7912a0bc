# The native tier (src/native): functions optimized on request, their
# results, and deoptimization when a speculation fails. (The whole suite
# also runs with RIR_NATIVE=1 in two modes: see run-tests.R.)

# f run in RIR twice (its feedback), then compiled to native code: the same
# value (or error message) twice
run <- function(f, ...) {
  f <- rir::compile(f)
  result <- function() tryCatch(f(...), error = conditionMessage)
  ref <- rir:::without_native(result())
  rir:::without_native(result())
  f <- rir::pir.compile(f)
  expect_identical(result(), ref)
  expect_identical(result(), ref)
}

# the row of `rir::status()` for the function named `name`
status_row <- function(name) {
  st <- rir::status()
  st[!is.na(st$name) & st$name == name, ]
}

native_available <- function() {
  f <- rir::compile(function(x) x + 1)
  !inherits(tryCatch(rir::pir.compile(f), warning = function(w) w), "warning")
}

test_that("pir.compile() gives a function native code that computes what the bytecode does", {
  skip_if_not(native_available(), "built without LLVM")
  sum_to <- function(n) {
    s <- 0
    for (i in seq_len(n)) s <- s + i
    s
  }
  classify <- function(x) if (is.na(x)) "na" else if (x > 1 && x < 5) "mid" else "out"
  pick <- function(v, i) {
    a <- v[1]
    b <- v[[i]]
    list(first = a, at = b, n = length(v))
  }
  ref <- list(sum_to(100), sum_to(0), classify(3), classify(NA), classify(9), pick(c(4, 5, 6), 2))
  f1 <- rir::compile(sum_to)
  f2 <- rir::compile(classify)
  f3 <- rir::compile(pick)
  f1(3)
  f2(2)
  f3(1:3, 1)
  before <- rir::stats()[["native_calls"]]
  f1 <- rir::pir.compile(f1)
  f2 <- rir::pir.compile(f2)
  f3 <- rir::pir.compile(f3)
  got <- list(f1(100), f1(0), f2(3), f2(NA), f2(9), f3(c(4, 5, 6), 2))
  expect_identical(got, ref)
  expect_gte(rir::stats()[["native_calls"]] - before, 6)
})

test_that("a failed speculation deoptimizes into the interpreter and the result is right", {
  skip_if_not(native_available(), "built without LLVM")
  f <- rir::compile(function(x, y) {
    s <- 0
    for (i in 1:3) s <- s + x * y
    s
  })
  rir:::without_native(for (k in 1:3) f(2, 3)) # feedback: doubles
  f <- rir::pir.compile(f)
  expect_identical(f(2, 3), 18)
  before <- rir::stats()[["deopts"]]
  expect_identical(f(2L, 3L), 18) # integers: the speculation on doubles fails
  expect_gt(rir::stats()[["deopts"]], before)
  expect_identical(f(1i, 2), 6i)
  expect_error(f("a", 1), "non-numeric argument to binary operator")
})

test_that("a variable of an enclosing frame read before an effect costs no deoptimization", {
  skip_if_not(native_available(), "built without LLVM")
  # (no forced deoptimizations in this test, whatever the mode)
  old <- rir:::set_tiering(chaos = 0)
  on.exit(rir:::set_tiering(chaos = old[[3]]))
  k <- 2
  reads_enclosing_k <- function() {
    a <- c(1, 2) * k # k found in the enclosing frame; GNU R's arithmetic
    b <- c(3, 4) * k
    list(a, b)
  }
  f <- rir::compile(reads_enclosing_k)
  rir:::without_native(for (i in 1:3) f())
  f <- rir::pir.compile(f)
  for (i in 1:3) expect_identical(f(), list(c(2, 4), c(6, 8)))
  s <- rir::status()
  expect_equal(s$deopts[s$name == "reads_enclosing_k"], 0)
})

test_that("a small closure's body is inlined; another callee leaves for the call", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(chaos = 0)
  on.exit(rir:::set_tiering(chaos = old[[3]]))
  scale_by <- function(a, b) a * b + 0.5
  total <- function(n) {
    s <- 0
    for (i in seq_len(n)) s <- s + scale_by(i, 2)
    s
  }
  f <- rir::compile(total)
  rir:::without_native(for (k in 1:3) f(10))
  without_implicit_tiering({
    before <- rir::stats()
    f <- rir::pir.compile(f)
    after <- rir::stats()
  })
  expect_equal(after[["inlined_calls"]] - before[["inlined_calls"]], 1)
  expect_identical(f(10), 115)
  expect_identical(f(0), 0)
  # a new closure under the name: the speculation fails, RIR calls it
  scale_by <- function(a, b) a - b
  expect_identical(f(3), 0)
  expect_gt(rir::stats()[["deopts"]], after[["deopts"]])
})

test_that("a closure that branches or loops is inlined, its variables SSA values", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(chaos = 0)
  on.exit(rir:::set_tiering(chaos = old[[3]]))
  tri <- function(n) {
    s <- 0
    i <- 0
    while (i < n) {
      s <- s + i
      i <- i + 1
    }
    s
  }
  tri_total <- function(k) {
    t <- 0
    for (j in seq_len(k)) t <- t + tri(j * 1.5)
    t
  }
  f <- rir::compile(tri_total)
  rir:::without_native(for (k in 1:3) f(10))
  without_implicit_tiering({
    before <- rir::stats()
    f <- rir::pir.compile(f)
    after <- rir::stats()
  })
  expect_equal(after[["inlined_calls"]] - before[["inlined_calls"]], 1)
  deopts_before <- status_row("tri_total")$deopts
  expect_identical(f(10), 410)
  expect_identical(f(0), 0)
  # f's own count: testthat's functions run natively too in some modes
  expect_identical(status_row("tri_total")$deopts, deopts_before)
  # a variable the callee reads before assigning it on every path: not
  # inlined without its environment (it would be looked up in the
  # closure's environment), but with it
  late <- function(x) {
    if (x > 0) y <- 1
    y
  }
  g <- rir::compile(function(k) late(k) + 1)
  rir:::without_native(for (k in 1:3) g(1))
  before <- rir::stats()
  g <- rir::pir.compile(g)
  expect_false(rir::pir_check(g, "NoInlinedContext", warmup = function(g) NULL))
  expect_identical(g(2), 2)
  expect_error(g(-1), "object 'y' not found")
})

test_that("a call whose arguments arrive differently gets its own native version", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  scaled_sum <- function(n, dt) {
    s <- 0
    for (i in seq_len(n)) s <- s + dt * i
    s
  }
  f <- rir::compile(scaled_sum)
  for (k in 1:4) expect_identical(f(10, 0.5), 27.5)
  # dt a promise of an expression: another context, another version (not a
  # deoptimization of the first)
  g <- function(x) f(10, x * 0.1)
  for (k in 1:4) expect_equal(g(10), 55)
  row <- status_row("scaled_sum")
  expect_equal(nrow(row), 1)
  expect_identical(row$tier, "native")
  # (n and dt plain double scalars in both)
  expect_identical(
    row$versions,
    "<formals,eager(0),notObj(0),real(0),eager(1),notObj(1),real(1)> <formals,eager(0),notObj(0),real(0)>"
  )
  expect_equal(row$deopts, 0)

  # a scalar argument's type is part of the context: doubles, then
  # integers, get a version each, the second not speculating on the
  # doubles the feedback saw (it would always deoptimize)
  add_half <- function(x) x + 0.5
  h <- rir::compile(add_half)
  for (k in 1:4) expect_identical(h(1.5), 2)
  for (k in 1:4) expect_identical(h(2L), 2.5)
  expect_identical(h(NA_integer_), NA_real_)
  expect_identical(h(2147483647L), 2147483647.5)
  row <- status_row("add_half")
  expect_identical(row$versions, "<formals,eager(0),notObj(0),int(0)> <formals,eager(0),notObj(0),real(0)>")
  expect_equal(row$deopts, 0)
  # (an object satisfies neither: another version)
  expect_identical(h(structure(1, class = "foo")), structure(1.5, class = "foo"))
})

test_that("the number of trailing missing arguments is part of the context", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  times_by <- function(x, by = 2, shift) {
    s <- x * by
    if (missing(shift)) s else s + shift
  }
  f <- rir::compile(times_by)
  # calls supplying all three, then two, then one argument: a version each
  # (one for more missing arguments runs no call that supplies them; one
  # for none assumes nothing of them)
  for (k in 1:4) expect_identical(f(1.5, 3, 1), 5.5)
  for (k in 1:4) expect_identical(f(1.5, 3), 4.5)
  for (k in 1:4) expect_identical(f(1.5), 3)
  row <- status_row("times_by")
  expect_identical(row$tier, "native")
  expect_identical(
    row$versions,
    paste(
      "<formals,eager(0),notObj(0),real(0),eager(1),notObj(1),real(1),eager(2),notObj(2),real(2)>",
      "<formals,eager(0),notObj(0),real(0),eager(1),notObj(1),real(1),missing=2>",
      "<formals,eager(0),notObj(0),real(0),eager(1),notObj(1),real(1),missing=1>"
    )
  )
  expect_equal(row$deopts, 0)
  expect_error(f(), "argument \"x\" is missing")
  # a call with an argument missing in the middle has no trailing missing
  # ones: the version for none runs it
  expect_identical(f(1.5, , 1), 4)
  # a static call proves the count to the callee (checked against the
  # callee's frame under RIR_DEBUG=verify)
  g <- function(n) {
    s <- 0
    for (i in seq_len(n)) s <- s + f(i) + f(i, 1)
    s
  }
  expect_identical(g(20), 630)
  expect_identical(g(20), 630)
})

test_that("a recursive function is optimized once its first calls returned", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  # at the third call nothing returned yet: fib(k - 2) had not run, nor `+`
  fib_rec <- function(k) if (k < 2) k else fib_rec(k - 1) + fib_rec(k - 2)
  fib_rec <- rir::compile(fib_rec)
  run <- function(n) fib_rec(n)
  expect_identical(run(18), 2584)
  expect_identical(run(15), 610)
  row <- status_row("fib_rec")
  expect_identical(row$tier, "native")
  # the version for lazy k passes k - 1 and k - 2 evaluated (both had run),
  # so the recursive calls get a version of their own
  expect_identical(row$versions, "<formals,eager(0),notObj(0),real(0)> <formals>")
  expect_equal(row$deopts, 0)
})

test_that("a function passed as an argument is called statically (or inlined) without deoptimizing", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  # the lookup of `f` forces its promise: the guard that the call is
  # static checks the function it found (a guard before the lookup, which
  # may not force, would fail at every call)
  apply_one <- function(f, x) f(x) + 1
  apply_one <- rir::compile(apply_one)
  square <- function(x) if (x > 0) x * x else 0
  known <- function() sum(rir::stats()[c("static_calls", "inlined_calls")])
  before <- known()
  s <- 0
  for (i in 1:200) s <- s + apply_one(square, i)
  expect_identical(s, sum((1:200)^2) + 200)
  # (called statically, or inlined with its context)
  expect_gt(known(), before)
  row <- status_row("apply_one")
  expect_identical(row$tier, "native")
  expect_equal(row$deopts, 0)
})

test_that("element stores the interpreter's routines do keep their native version", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  # x[f(k)] <- v and X$a[k] <- v: x is read again after them, not assumed
  # unchanged (which deoptimized at every iteration)
  idx <- function(k) k
  store_idx <- function(n) {
    x <- numeric(n)
    for (k in 1:n) x[idx(k)] <- k * 2
    sum(x)
  }
  store_field <- function(n) {
    X <- list(a = numeric(n))
    for (k in 1:n) X$a[k] <- k
    sum(X$a)
  }
  store_idx <- rir::compile(store_idx)
  store_field <- rir::compile(store_field)
  for (i in 1:20) {
    expect_identical(store_idx(50), sum((1:50) * 2))
    expect_identical(store_field(50), sum(as.numeric(1:50)))
  }
  for (fn in c("store_idx", "store_field")) {
    row <- status_row(fn)
    expect_identical(row$tier, "native")
    expect_equal(row$deopts, 0)
  }
})

test_that("functions too large for the native tier are refused with the reason", {
  skip_if_not(native_available(), "built without LLVM")
  big <- rir::compile(utils:::str.default)
  expect_warning(g <- rir::pir.compile(big), "too large for the native tier")
  expect_identical(utils::capture.output(g(1:3)), utils::capture.output(utils:::str.default(1:3)))
})

test_that("a loop whose body runs in a loop context is optimized without deoptimizing", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  # the body (a break behind a call) assigns s and k: the optimized code
  # reads them after it instead of assuming they kept their values
  pass <- function(a) a
  loop_ctx <- function(n) {
    s <- 0
    k <- 1
    for (i in 1:n) {
      pass(if (i > 3) break)
      s <- s + i * k
      k <- k + 1
    }
    c(s, k, i)
  }
  loop_ctx <- rir::compile(loop_ctx)
  r <- lapply(1:8, loop_ctx)
  expect_identical(r[[8]], c(14, 4, 4))
  expect_identical(r[[2]], c(5, 3, 2))
  row <- status_row("loop_ctx")
  expect_identical(row$tier, "native")
  expect_equal(row$deopts, 0)
})

test_that("a subset whose results were not all scalars is not speculated to give one", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  # (base R's diff.default: r[i1] with i1 <- -1; the interpreter resumes
  # after the subset, so a deoptimization there never told its feedback)
  drop_first <- function(x, i) {
    r <- x + 0L
    r[i]
  }
  f <- rir::compile(drop_first)
  expect_identical(f(1:2, -1), 2L)
  expect_identical(f(1:5, -1), 2:5)
  expect_identical(f(3:4, -1), 4L)
  for (k in 1:10) expect_identical(f(1:5, -1), 2:5)
  expect_identical(f(7:8, -1), 8L)
  row <- status_row("drop_first")
  expect_identical(row$tier, "native")
  expect_equal(row$deopts, 0)
})

test_that("versions that keep deoptimizing are dropped and made again, then for good", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(threshold = 2, native = TRUE, chaos = 0, thread = FALSE)
  on.exit(rir:::set_tiering(threshold = old[[1]], native = old[[2]], chaos = old[[3]], thread = old[[5]]))
  # (x a vector: its elements' type is speculated, not part of the context)
  twice_plus <- function(x) x[[1]] * 2 + 1
  f <- rir::compile(twice_plus)
  state <- function(name) {
    row <- status_row(name)
    list(optimizer = row$optimizer, deopts = row$deopts)
  }
  for (k in 1:3) expect_identical(f(c(1, 2)), 3)
  expect_identical(state("twice_plus"), list(optimizer = "optimized", deopts = 0))
  # integers: each call deoptimizes the version that speculated doubles
  for (k in 1:8) expect_identical(f(1:2), 3)
  expect_identical(state("twice_plus"), list(optimizer = "retired, again later", deopts = 8))
  # two calls of the interpreter, then a version for what it saw since
  for (k in 1:3) expect_identical(f(1:2), 3)
  for (k in 1:3) expect_identical(f(c(2.5, 1)), 6)
  expect_identical(state("twice_plus"), list(optimizer = "optimized", deopts = 8))

  # every speculation failing (chaos): made three times, then not again
  rir:::set_tiering(chaos = 1)
  plus_one <- function(x) x + 1
  g <- rir::compile(plus_one)
  for (k in 1:40) expect_identical(g(k + 0.5), k + 1.5)
  expect_identical(state("plus_one"), list(optimizer = "retired", deopts = 24))
})

test_that("what the tier cannot handle yet is refused with a warning and still runs", {
  # (a switch with more than 256 alternatives is not translated)
  f <- rir::compile(big_switch())
  expect_warning(g <- rir::pir.compile(f), "not optimized")
  expect_identical(g("a7"), 7L)
})

test_that("pir() prints the optimized form, and each pass on request", {
  f <- rir::compile(function(x) x * 2 + 1)
  out <- utils::capture.output(rir::pir(f))
  expect_true(any(grepl("= Return %", out, fixed = TRUE)))
  out <- utils::capture.output(rir::pir(f, passes = TRUE))
  expect_true(any(out == "== translated"))
  expect_true(any(out == "== after scope resolution"))
  expect_error(rir::pir(sum), "cannot compile a primitive")
})

test_that("x <- a op b reuses x's value in place only when nothing else can see it", {
  skip_if_not(native_available(), "built without LLVM")
  # each function: run in RIR first (feedback: doubles), then natively
  # an alias counts: a keeps the old value
  run(function(n) {
    x <- n * 1.5
    a <- x
    x <- x + 1
    c(a, x)
  }, 2)
  # the old value is still an operand: x + (x <- x + 1)
  run(function(n) {
    x <- n * 2
    y <- x + (x <- x + 1)
    c(x, y)
  }, 1)
  # values kept in a list, a promise, a closure's environment, a loop
  run(function(n) {
    x <- n / 4
    l <- list(x)
    g <- function(v) function() v
    h <- g(x)
    x <- x * 3
    s <- 0
    for (i in 1:3) {
      s <- s + x
      x <- x - 0.5
    }
    list(l, h(), x, s)
  }, 2)
  # a while loop whose variables are all rewritten in place
  run(function(n) {
    z <- 0
    s <- 0
    while (z < n) {
      s <- s + z * 2
      z <- z + 1
    }
    c(s, z)
  }, 50)
})

test_that("variables known across calls and promises see what reflective code changed", {
  skip_if_not(native_available(), "built without LLVM")
  # a callee assigns into its caller's frame in the middle of a loop
  bump <- function() assign("s", 100, envir = parent.frame())
  run(function(n) {
    s <- 0
    for (i in 1:n) {
      s <- s + 1
      if (i == 2) bump()
    }
    s
  }, 4)
  # forcing an argument's promise assigns into this frame (sys.frames())
  setz <- function() {
    fr <- sys.frames()
    assign("z", 10, envir = fr[[length(fr) - 1]])
    1
  }
  h <- function(p) {
    z <- 2
    w <- 0
    for (i in 1:3) {
      if (i == 2) w <- w + p
      w <- w + z * 2
    }
    c(w, z)
  }
  run(function() h(setz()))
  # a callee removes a variable, then the loop reads it
  drop <- function() rm("k", envir = parent.frame())
  run(function() {
    k <- 1
    r <- tryCatch({
      for (i in 1:3) {
        if (i == 3) drop()
        k <- k + 1
      }
      k
    }, error = function(e) conditionMessage(e))
    r
  })
  # `...` (empty here) passed on before and after effects: never loaded as a
  # value of its own
  inner <- function(...) nargs()
  run(function(a, ...) {
    n <- inner(...)
    s <- a * 2
    if (is.null(a)) stop("no")
    s <- s + a * n
    c(s, inner(...))
  }, 1.5)
  # eval() of an assignment in the function's own environment
  run(function(n) {
    x <- 1.5
    for (i in seq_len(n)) {
      x <- x * 2
      if (i == 2) eval(quote(x <- -1))
    }
    x
  }, 4)
})

test_that("x[i] <- v in native code: in place only where nothing else sees x", {
  skip_if_not(native_available(), "built without LLVM")
  run(function(n) {
    x <- numeric(n)
    y <- x
    for (i in seq_len(n)) x[i] <- i * 1.5
    list(x, y)
  }, 5)
  run(function(n) {
    m <- matrix(0, n, n)
    for (i in seq_len(n)) for (j in seq_len(n)) m[i, j] <- i * 10 + j
    m
  }, 3)
  run(function(n) {
    x <- integer(2)
    x[1] <- 2L
    x[2] <- 0.5 # the type changes
    x[n] <- 7L # grows
    names(x) <- letters[seq_along(x)]
    x[["b"]] <- 9
    x
  }, 5)
  run(function(n) {
    l <- list(a = 1, b = "x")
    for (i in 1:n) l[[i]] <- i
    l[] <- lapply(l, function(v) v * 2)
    l
  }, 3)
  run(function(n) {
    d <- data.frame(a = 1:3)
    d[2, "a"] <- n
    d
  }, 10L)
  run(function(n) {
    a <- 1:3
    a[length(a) + 1L] <- integer(0)
    a
  }, 1)
  # the old value is still in use when the element is stored
  run(function(n) {
    x <- c(1, 2, 3)
    s <- 0
    for (i in 1:n) {
      old <- x
      x[i] <- x[i] * 10
      s <- s + sum(old)
    }
    list(x, s)
  }, 3)
})

test_that("native loops calling builtins and subsetting run long without growing the C stack", {
  skip_if_not(native_available(), "built without LLVM")
  f <- rir::compile(function(n, v) {
    s <- 0
    for (i in seq_len(n)) s <- s + sqrt(v[(i %% 3L) + 1L]) + abs(-1)
    s
  })
  ref <- rir:::without_native(f(3e5, c(1, 4, 9)))
  rir:::without_native(f(10, c(1, 4, 9)))
  f <- rir::pir.compile(f)
  # (each iteration used to take stack memory for the builtin's arguments)
  expect_identical(f(3e5, c(1, 4, 9)), ref)
})

test_that("subsetting speculated on a plain vector leaves for objects and other types", {
  skip_if_not(native_available(), "built without LLVM")
  f <- rir::compile(function(x, n) {
    s <- 0
    for (i in seq_len(n)) s <- s + x[i] * 2
    s
  })
  for (k in 1:3) rir:::without_native(f(c(1.5, 2.5, 3.5), 3))
  g <- function(x, n) {
    s <- 0
    for (i in seq_len(n)) s <- s + x[i] * 2
    s
  }
  f <- rir::pir.compile(f)
  expect_identical(f(c(1.5, 2.5, 3.5), 3), 15)
  # integers, names, an object, NA, out of range: what the byte code gives
  for (args in list(list(1:3, 3), list(c(a = 1, b = 2), 2),
                    list(structure(c(1, 2), class = "myvec"), 2), list(c(1, NA), 2),
                    list(c(1, 2), 3))) {
    expect_identical(do.call(f, args), rir:::without_native(do.call(g, args)))
  }
  expect_error(f(list(1, 2), 1), "non-numeric argument to binary operator")
})

test_that("elements of double vectors read inline give what subsetting gives", {
  skip_if_not(native_available(), "built without LLVM")
  body <- function(x, idx) {
    s <- 0
    for (k in seq_along(idx)) s <- s + x[[idx[[k]]]] * 2 + x[idx[[k]]]
    s
  }
  f <- rir::compile(body)
  for (k in 1:3) rir:::without_native(f(c(1.5, 2.5, 3.5), c(1L, 3L)))
  f <- rir::pir.compile(f)
  cases <- list(
    list(c(1.5, 2.5, 3.5), c(1L, 3L)), list(c(1.5, 2.5, 3.5), c(2.7, 1)),
    list(c(a = 1, b = 2), c(2L, 1L)), list(c(1, NA, 3), 2L), list(1:3, 2L),
    list(c(1, 2), 3L), list(c(1, 2), NA_integer_), list(c(1, 2), 0L), list(c(1, 2), -1L),
    list(matrix(c(1, 2, 3, 4), 2), 4L), list(structure(c(1, 2), class = "myvec"), 1L),
    list(c(1, 2), "a")
  )
  for (args in cases) {
    expect_identical(
      tryCatch(do.call(f, args), error = conditionMessage),
      rir:::without_native(tryCatch(do.call(body, args), error = conditionMessage))
    )
  }
})

test_that("elements of double matrices read inline give what subsetting gives", {
  skip_if_not(native_available(), "built without LLVM")
  body <- function(m, i, j) {
    s <- 0
    for (k in 1:2) s <- s + m[i, j] * k + m[[i, j]]
    s
  }
  f <- rir::compile(body)
  m <- matrix(c(1.5, 2.5, 3.5, 4.5), 2)
  for (k in 1:3) rir:::without_native(f(m, 1L, 2L))
  f <- rir::pir.compile(f)
  named <- matrix(c(1, 2, 3, 4), 2, dimnames = list(c("a", "b"), c("c", "d")))
  cases <- list(
    list(m, 1L, 2L), list(m, 2, 1.9), list(m, 3L, 1L), list(m, NA_integer_, 1L),
    list(m, 1L, 0L), list(named, 2L, 2L), list(named, "a", "d"),
    list(matrix(1:4, 2), 2L, 2L), list(array(c(1, 2, 3, 4), c(2, 2)), 2L, 1L),
    list(structure(m, class = "mymat"), 1L, 1L), list(c(1, 2), 1L, 1L)
  )
  for (args in cases) {
    expect_identical(
      tryCatch(do.call(f, args), error = conditionMessage),
      rir:::without_native(tryCatch(do.call(body, args), error = conditionMessage))
    )
  }
})

test_that("switch(), <<- and UseMethod() run in native code as in the bytecode", {
  skip_if_not(native_available(), "built without LLVM")
  pick <- function(x) switch(x, a = "A", b = , c = "BC", "other")
  pick_n <- function(i) switch(i, "one", "two")
  env_counter <- function() {
    n <- 0
    function(by) {
      n <<- n + by
      n
    }
  }
  bump <- env_counter()
  shape_area <- function(s) UseMethod("shape_area")
  shape_area.sq <- function(s) s$side^2
  shape_area.default <- function(s) invisible(NA_real_)
  sq <- structure(list(side = 3), class = "sq")
  for (f in list(pick, pick_n)) {
    refused <- inherits(tryCatch(rir::pir.compile(rir::compile(f)), warning = function(w) w), "warning")
    expect_false(refused)
  }
  run(pick, "a")
  run(pick, "b")
  run(pick, "zz")
  run(pick, 2)
  run(pick_n, 2)
  run(pick_n, 7)
  run(pick, c("a", "b"))
  run(shape_area, sq)
  run(shape_area, 1)
  g <- rir::pir.compile(rir::compile(shape_area))
  expect_identical(withVisible(g(1))$visible, FALSE)
  expect_identical(withVisible(g(sq))$visible, TRUE)
  b <- rir::pir.compile(rir::compile(bump))
  expect_identical(c(b(1), b(2), b(0.5)), c(1, 3, 3.5))
  expect_identical(environment(bump)$n, 3.5)
})

test_that("x$name <- v in native code: in place on a local list, else the general path", {
  skip_if_not(native_available(), "built without LLVM")
  acc <- function(n) {
    s <- list(total = 0, tag = "t")
    for (i in seq_len(n)) s$total <- s$total + i
    s
  }
  shared <- function() {
    x <- list(a = 1)
    y <- x
    x$a <- 2
    list(x, y)
  }
  grow <- function(l) {
    l$extra <- 5
    l
  }
  into_env <- function(e) {
    e$v <- 10
    e$v
  }
  run(acc, 10)
  run(shared)
  run(grow, list(a = 1))
  run(grow, list())
  run(into_env, new.env())
  run(grow, 1)
  locked <- new.env()
  lockEnvironment(locked)
  run(into_env, locked)
})

test_that("a return() landing after a deoptimization in an inlined callee keeps the caller's boxes", {
  skip_if_not(native_available(), "built without LLVM")
  # h deoptimizes at `a + 1` (an integer, where the feedback saw doubles),
  # collects garbage, and its return() lands in f's native code, which
  # resumes after the call with the box of x * 3 it made before the call.
  # (In a fresh process: in this one's large heap, a box collected too
  # early is seldom overwritten before it is read.)
  code <- "
    library(rir)
    k <- function(p) force(p)
    churn <- function() { for (i in 1:20000) x <- c(i * 1.5); x }
    h <- function(a) { r <- a + 1; gc(); churn(); k(return(r)); 0 }
    f <- function(x, a) x * 3 + h(a)
    for (i in 1:10) f(i + 0.5, i + 0.25)
    r <- vapply(1:4, function(i) f(1.5, 2L), 0)
    s <- rir::stats()
    cat(r, s[['inlined_calls']] > 0, s[['deopts']] > 0, '\\n')
  "
  out <- system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", "-e", shQuote(code)),
    env = c("RIR_OPT_THRESHOLD=2", "RIR_NATIVE=1", "RIR_DEOPT_CHAOS=0"), stdout = TRUE
  )
  expect_identical(out, "7.5 7.5 7.5 7.5 TRUE TRUE ")
})

# LLVM is mapped only when the native tier is first used (rirllvm.so, which
# holds LLVM's static libraries or links the shared one, is loaded then):
# loading rir costs little memory.
test_that("loading rir maps no LLVM and costs at most 15 MB of resident memory", {
  rscript <- file.path(R.home("bin"), "Rscript")
  probe <- paste(
    "rss <- function() as.numeric(sub('[^0-9]*([0-9]+).*', '\\\\1', grep('^VmRSS', readLines('/proc/self/status'), value = TRUE)))",
    "llvm <- function() any(grepl('libLLVM|rirllvm', readLines('/proc/self/maps')))",
    "a <- rss(); %s; b <- rss(); m1 <- llvm()",
    "f <- function(n) { s <- 0; for (i in 1:n) s <- s + i; s }; if (%s) rir::pir.compile(f)",
    "cat(a, b, m1, llvm(), '\\n')",
    sep = "; "
  )
  run <- function(load, env, optimize = FALSE) {
    code <- sprintf(probe, load, optimize)
    out <- system2(rscript, c("-e", shQuote(code)), stdout = TRUE, env = env)
    as.list(scan(text = out[length(out)], what = "", quiet = TRUE))
  }
  skip_if_not(file.exists("/proc/self/maps"), "needs Linux's /proc")
  # (rir's defaults, whatever the test mode: no native code while loading)
  lib <- c(
    paste0("R_LIBS=", shQuote(paste(.libPaths(), collapse = ":"))),
    "RIR_OPT_THRESHOLD=", "RIR_NATIVE=", "RIR_DEOPT_CHAOS=", "RIR_DEBUG="
  )
  stock <- run("invisible(NULL)", c(lib, "RIR_ENABLE=0"))
  with_rir <- run("library(rir)", lib, optimize = TRUE)
  expect_identical(with_rir[[3]], "FALSE") # no LLVM after loading rir
  if (native_available()) expect_identical(with_rir[[4]], "TRUE") # mapped once used
  expect_lt(as.numeric(with_rir[[2]]) - as.numeric(stock[[2]]), 15 * 1024)
})

# ?rir_options says which constructs the native tier compiles: complex
# assignments, switch, <<- and UseMethod among them.
test_that("the constructs ?rir_options names as compiled are optimized to native code", {
  skip_if_not(native_available(), "built without LLVM")
  counter <- 0
  fs <- list(
    subassign = function(x, i, v) { x[i] <- v; names(x)[i] <- "n"; x },
    dollar = function(l, v) { l$a$b <- v; l },
    switch = function(s) switch(s, a = 1, b = , c = 2, 3),
    superassign = function(k) { counter <<- counter + k; counter },
    usemethod = function(x, ...) UseMethod("usemethod_probe")
  )
  for (nm in names(fs)) {
    why <- NULL
    withCallingHandlers(rir::pir.compile(fs[[nm]]), warning = function(w) {
      why <<- conditionMessage(w)
      invokeRestart("muffleWarning")
    })
    expect_null(why, label = paste(nm, "refused:", why))
  }
})

test_that("x$name <- v whose general assignment ran is a branch, not a speculation", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(chaos = 0)
  on.exit(rir:::set_tiering(chaos = old[[3]]))
  # (node is shared: a caller's list holds it, so its fast path never applies)
  insert_key <- function(node, key) {
    if (is.null(node)) return(list(key = key, left = NULL, right = NULL))
    if (key < node$key) {
      node$left <- insert_key(node$left, key)
    } else {
      node$right <- insert_key(node$right, key)
    }
    node
  }
  f <- rir::compile(insert_key)
  insert_key <- f
  root <- NULL
  rir:::without_native(for (k in c(5, 3, 8, 1, 4, 9)) root <- f(root, k))
  f <- rir::pir.compile(f)
  insert_key <- f
  for (k in c(7, 2, 6)) root <- f(root, k)
  expect_identical(root$right$left$key, 7)
  expect_identical(root$left$left$right$key, 2)
  s <- rir::status()
  expect_equal(sum(s$deopts[s$name == "insert_key"]), 0)
})

test_that("x$name <- v on an argument's environment is not confirmed as the promise afterwards", {
  skip_if_not(native_available(), "built without LLVM")
  old <- rir:::set_tiering(chaos = 0)
  on.exit(rir:::set_tiering(chaos = old[[3]]))
  # (x$name <- v off its plain path binds acc to the promise's value: the
  # code after it must not assume acc is still bound to the promise)
  deposit_into <- function(acc, amount) {
    acc$balance <- acc$balance + amount
    acc$history <- c(acc$history, amount)
    invisible(acc)
  }
  f <- rir::compile(deposit_into)
  acc <- new.env()
  acc$balance <- 0
  acc$history <- numeric(0)
  rir:::without_native(for (k in 1:5) f(acc, k))
  f <- rir::pir.compile(f)
  for (k in 6:10) f(acc, k)
  expect_identical(acc$balance, 55)
  expect_identical(acc$history, as.numeric(1:10))
  s <- rir::status()
  expect_equal(sum(s$deopts[s$name == "deposit_into"]), 0)
})
