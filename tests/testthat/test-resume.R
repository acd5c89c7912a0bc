# Resuming RIR code in the middle (interpretFrom: what a deoptimization
# does): from an instruction, with an environment and an operand stack.

# bytecode offsets of the instructions named `op` in f's disassembly
pcs_of <- function(f, op) {
  d <- utils::capture.output(disassemble(f))
  hit <- grep(sprintf("^ *[0-9]+  %s( |$)", op), d, value = TRUE)
  as.integer(sub("^ *([0-9]+) .*", "\\1", hit))
}

test_that("a function resumes at a statement with the environment it had", {
  f <- rir::compile(function(x) {
    y <- x * 2
    z <- y + 1
    z * 10
  })
  expect_equal(f(2), 50)
  # the second statement starts with the load of y (nothing on the stack)
  h <- rir:::verify(f, shape = TRUE)
  st <- pcs_of(f, "stvar")
  second <- st[1] + 3 # after `stvar y` (opcode, symbol, cache slot)
  expect_equal(h[[as.character(second)]], 0L)
  env <- new.env()
  assign("x", 1, envir = env)
  assign("y", 5, envir = env)
  expect_equal(rir:::resume(f, env, second), 60)
  expect_equal(get("z", envir = env), 6)
  # at the last statement: z is read from the environment
  third <- st[2] + 3
  env2 <- list2env(list(z = -1))
  expect_equal(rir:::resume(f, env2, third), -10)
})

test_that("a function resumes with values on its operand stack", {
  f <- rir::compile(function(a, b) c(a, b * 2, 7))
  expect_equal(f(1, 2), c(1, 4, 7))
  h <- rir:::verify(f, shape = TRUE)
  # before the constant 7 is pushed, c's first two arguments are on the stack
  push7 <- pcs_of(f, "push")
  push7 <- push7[h[as.character(push7)] == 2L]
  expect_length(push7, 1)
  env <- new.env()
  expect_equal(rir:::resume(f, env, push7, list(10, 20)), c(10, 20, 7))
  # the call_builtin itself, with all three arguments given
  cb <- pcs_of(f, "call_builtin")
  expect_equal(rir:::resume(f, env, cb, list("x", "y", "z")), c("x", "y", "z"))
})

test_that("resuming in a loop continues the loop from the environment", {
  f <- rir::compile(function(n) {
    s <- 0
    i <- 0
    while (i < n) {
      i <- i + 1
      s <- s + i
    }
    s
  })
  expect_equal(f(10), 55)
  # the loop condition (a branch target with an empty stack) resumed with
  # i = 7, s = 28: the remaining iterations add 8 + 9 + 10
  h <- rir:::verify(f, shape = TRUE)
  back <- pcs_of(f, "br_back")
  bc <- rir:::bytecode(f)
  head_pc <- bc[back + 2]
  expect_equal(h[[as.character(head_pc)]], 0L)
  env <- list2env(list(n = 10, i = 7, s = 28))
  expect_equal(rir:::resume(f, env, head_pc), 55)
})

test_that("resume refuses a pc or stack that does not fit the code", {
  f <- rir::compile(function(a) c(a, 1))
  invisible(f(1))
  env <- new.env()
  expect_error(rir:::resume(f, env, 1L), "no reachable instruction")
  expect_error(rir:::resume(f, env, 0L, list(1)), "holds 0 values, not 1")
  g <- rir::compile(function(n) {
    s <- 0
    for (i in 1:n) s <- s + i
    s
  })
  invisible(g(3))
  step <- pcs_of(g, "for_step")
  expect_error(rir:::resume(g, env, step, list(1, 2, 3)), "loop state")
})

test_that("an inlined call's frame resumes in the function context GNU R would have pushed", {
  # (what a deoptimization inside a closure inlined into its caller does:
  # the callee's frame made from its arguments and the values its
  # variables have, its context pushed, its code run from the pc; the
  # call's value goes back to the caller)
  g <- rir::compile(function(a, b) {
    t <- a * 2
    u <- t + b
    list(u, sys.call(), sys.function(), parent.frame(), nargs())
  })
  expect_equal(g(1, 2)[[1]], 4)
  st <- pcs_of(g, "stvar")
  second <- st[1] + 3 # after `stvar t`
  caller <- new.env()
  r <- rir:::resume_inlined(g, quote(g(x, y)), list(1, 2), caller, second, vars = list(t = 10))
  expect_identical(r[[1]], 12)
  expect_identical(r[[2]], quote(g(x, y)))
  expect_identical(r[[3]], g)
  expect_identical(r[[4]], caller)
  expect_identical(r[[5]], 2L)
  # a default argument not supplied is its promise in the new frame
  h <- rir::compile(function(a, k = a + 1) {
    z <- a
    z * k
  })
  expect_equal(h(2), 6)
  second <- pcs_of(h, "stvar")[1] + 3
  expect_identical(rir:::resume_inlined(h, quote(h(v)), list(3), caller, second, vars = list(z = 5)), 20)
})

test_that("an inlined call resumed runs its on.exit code and lands return() aimed at it", {
  g <- rir::compile(function(a) {
    on.exit(cat("bye", a, "\n"))
    x <- a
    x + 1
  })
  expect_output(expect_equal(g(1), 2), "bye 1")
  # resumed at the start: on.exit() registers it in the context pushed
  expect_output(
    expect_equal(rir:::resume_inlined(g, quote(g(q)), list(5), new.env(), 0), 6),
    "bye 5"
  )
  k <- rir::compile(function(a) {
    force_it <- function(x) x
    force_it(return(a * 100))
    -1
  })
  expect_equal(k(2), 200)
  expect_equal(rir:::resume_inlined(k, quote(k(w)), list(3), new.env(), 0), 300)
  # an error in the resumed code names the call
  e <- rir::compile(function(a) {
    y <- a
    stop("boom ", y)
  })
  cnd <- tryCatch(rir:::resume_inlined(e, quote(e(p)), list(7), new.env(), 0), error = identity)
  expect_identical(conditionMessage(cnd), "boom 7")
  expect_identical(conditionCall(cnd), quote(e(p)))
})
