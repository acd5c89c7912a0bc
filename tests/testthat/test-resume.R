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
