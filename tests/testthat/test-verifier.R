# The RIR bytecode verifier (src/bc/verifier.cpp): stack heights per
# instruction, and rejection of malformed code. `make test` also runs the
# whole suite with RIR_DEBUG=verify (every compiled code checked).

loop_fun <- function(n) {
  s <- 0
  for (i in 1:n) s <- s + i
  s
}

op_at <- function(f, pc) {
  # the instruction name at a bytecode offset, from the disassembly
  d <- utils::capture.output(disassemble(f))
  line <- grep(sprintf("^ *%d  ", pc), d, value = TRUE)
  sub(sprintf("^ *%d  ([a-z_0-9]+).*", pc), "\\1", line)
}

opcode <- function(name) {
  tab <- .Call(rir:::C_rir_insn_table)
  match(name, tab[[1]]) - 1L
}

test_that("the verifier accepts compiled code and computes stack heights", {
  f <- rir::compile(loop_fun)
  expect_equal(f(10), 55)
  expect_identical(rir:::verify(f), "")
  h <- rir:::verify(f, shape = TRUE)
  pcs <- as.integer(names(h))
  expect_equal(h[[1]], 0L)
  # inside the loop the loop state (3 slots) is on the stack
  step <- pcs[vapply(pcs, function(p) identical(op_at(f, p), "for_step"), TRUE)]
  expect_length(step, 1)
  expect_equal(h[[as.character(step)]], 3L)
  # ret sees exactly the result
  ret <- pcs[vapply(pcs, function(p) identical(op_at(f, p), "ret"), TRUE)]
  expect_equal(unname(h[as.character(ret)]), rep(1L, length(ret)))
})

test_that("the verifier checks promises, switch tables, && and complex assignments", {
  fs <- list(
    function(x, y) if (x > 1 && y < 2) g(x + 1, y * 2) else -x,
    function(x) switch(x, a = 1, b = , c = 3, 4),
    function(x) {
      names(x)[2] <- "b"
      x$a <- 1
      x[[3]] <- 2
      x
    },
    function(n) {
      r <- 0
      while (TRUE) {
        n <- n - 1
        if (n < 0) break
        if (n %% 2 == 0) next
        r <- r + n
      }
      r
    },
    function(m) {
      s <- 0
      for (i in seq_len(nrow(m))) for (j in 1:ncol(m)) s <- s + m[i, j]
      s
    },
    function(...) list(..., ..1)
  )
  for (f in fs) expect_identical(rir:::verify(rir::compile(f)), "")
})

test_that("the verifier rejects malformed bytecode", {
  f <- rir::compile(loop_fun)
  bc <- rir:::bytecode(f)
  h <- rir:::verify(f, shape = TRUE)
  pcs <- as.integer(names(h))
  ops <- vapply(pcs, function(p) op_at(f, p), "")
  expect_identical(rir:::verify(f, bc = bc), "")
  # an invalid opcode
  bad <- bc
  bad[1] <- 100000L
  expect_match(rir:::verify(f, bc = bad), "invalid opcode at pc 0")
  # a jump into the middle of an instruction
  br <- pcs[ops == "br_back"]
  bad <- bc
  bad[br + 2] <- bc[br + 2] + 1L
  expect_match(rir:::verify(f, bc = bad), "middle of an instruction|differs between paths")
  # a pool index out of range
  push <- pcs[ops == "push"][1]
  bad <- bc
  bad[push + 2] <- 100000L
  expect_match(rir:::verify(f, bc = bad), "out of range")
  # a merge with different stacks: the back edge lands on the store of the
  # loop body's value (one slot more there)
  stv <- pcs[ops == "stvar"]
  bad <- bc
  bad[br + 2] <- stv[stv > br - 10 & stv < br][1]
  expect_match(rir:::verify(f, bc = bad), "differs between paths")
  # more slots popped than pushed
  popn <- pcs[ops == "popn"]
  bad <- bc
  bad[popn + 2] <- 4L
  expect_match(rir:::verify(f, bc = bad), "underflow")
  # the loop counter used as a value: `push_null` before the loop variable's
  # store replaced by `pop`, so stvar finds the counter on top
  pushnull <- pcs[ops == "push_null"]
  bad <- bc
  bad[pushnull + 1] <- opcode("pop")
  expect_match(rir:::verify(f, bc = bad), "loop state used as a value")
  # beyond maxStack: the first store replaced by three pushes
  bad <- bc
  first_st <- pcs[ops == "stvar"][1]
  bad[first_st + 1:3] <- opcode("push_null")
  expect_match(rir:::verify(f, bc = bad), "maxStack")
})

test_that("RIR_DEBUG=verify checks code as it is compiled", {
  out <- system2(
    file.path(R.home("bin"), "Rscript"),
    c("-e", shQuote(paste(
      "library(rir); f <- rir::compile(function(x) { y <- x * 2; if (y > 3) y else -y });",
      "invisible(f(2)); s <- rir::stats(); cat(s[['verified']] > 0, s[['verify_failures']])"
    ))),
    env = c("RIR_DEBUG=verify", paste0("R_LIBS=", paste(.libPaths(), collapse = ":"))),
    stdout = TRUE, stderr = TRUE
  )
  expect_identical(tail(out, 1), "TRUE 0")
})

test_that("the pc -> source map gives the call each instruction reports", {
  f <- rir::compile(function(x, y) {
    z <- x + 1
    w <- sum(z, y)
    if (w > 2 && y < 1) g(w) else -w
  })
  invisible(f(1, 0))
  h <- rir:::verify(f, shape = TRUE)
  pcs <- as.integer(names(h))
  src <- lapply(pcs, function(p) rir:::source_at(f, p))
  calls <- unique(vapply(Filter(Negate(is.null), src), deparse, ""))
  expect_true(all(c("x + 1", "sum(z, y)", "w > 2", "y < 1", "g(w)", "-w") %in% calls))
  # loads and stores report no call of their own; offsets inside an
  # instruction none at all
  ops <- vapply(pcs, function(p) op_at(f, p), "")
  expect_null(rir:::source_at(f, pcs[ops == "stvar"][1]))
  expect_null(rir:::source_at(f, 1L))
})
