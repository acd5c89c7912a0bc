# Evaluation depth (options(expressions)), interrupts in recursive code, and
# the load-time check of GNU R's internals.

run_rscript <- function(code, env = character()) {
  rscript <- file.path(R.home("bin"), "Rscript")
  suppressWarnings(system2(rscript, c("-e", shQuote(code)),
    stdout = TRUE, stderr = TRUE, env = env
  ))
}

test_that("the self-test of GNU R's internals passes on this R", {
  expect_true(rir:::.rir$ok)
  expect_identical(rir:::.rir$problem, "")
})

test_that("on an R whose internals rir does not know, library(rir) says so once and leaves R alone", {
  code <- paste(
    "suppressPackageStartupMessages(NULL)",
    "library(rir)",
    "f <- function(n) if (n == 0) 0 else n + f(n - 1)",
    "for (i in 1:3) s <- f(100)",
    "cat('\\nRESULT', s, rir::is_enabled(), rir::is_compiled(f),",
    "  identical(compiler:::tryCmpfun, get('tryCmpfun', asNamespace('compiler'))),",
    "  is.null(rir:::.rir$orig), '\\n')",
    sep = "\n"
  )
  out <- run_rscript(code, env = c("RIR_TEST_R_VERSION=4.9", "RIR_ENABLE=1"))
  msgs <- grep("rir", out, value = TRUE)
  msgs <- msgs[!grepl("^RESULT", msgs)]
  expect_length(msgs, 1)
  expect_match(msgs, "rir disabled itself: .*R 4\\.9")
  expect_identical(grep("^RESULT", out, value = TRUE), "RESULT 5050 FALSE FALSE TRUE TRUE ")
  # enable() refuses too
  out <- run_rscript("library(rir); r <- tryCatch(rir::enable(), error = conditionMessage); cat('\\nE', r)",
    env = "RIR_TEST_R_VERSION=4.9"
  )
  expect_match(out[length(out)], "^E rir is disabled: .*R 4\\.9")
})

expect_all_same(list(
  "infinite recursion: GNU R's error (class, message, call)" = "
    old <- options(expressions = 300)
    on.exit(options(old))
    f <- function(n) f(n + 1)
    tryCatch(f(0), error = function(e) list(class(e), conditionMessage(e), conditionCall(e)))",
  "infinite recursion with promises forced on the way" = "
    old <- options(expressions = 250)
    on.exit(options(old))
    f <- function(n) 1 + f(n + 1)
    tryCatch(f(0), error = function(e) list(class(e), conditionMessage(e)))",
  "a recursion within options(expressions) runs to the end" = "
    old <- options(expressions = 400)
    on.exit(options(old))
    f <- function(n) if (n == 0) 0 else 1 + f(n - 1)
    f(150)",
  "handlers run after the overflow (GNU R's headroom)" = "
    old <- options(expressions = 200)
    on.exit(options(old))
    f <- function(n) f(n + 1)
    h <- function(n) if (n == 0) 'handled' else h(n - 1)
    withCallingHandlers(
      tryCatch(f(0), error = function(e) conditionMessage(e)),
      expressionStackOverflowError = function(e) cat(h(50), '\\n')
    )",
  "an interrupt stops recursive code without loops" = "
    f <- function(n) {
      if (n == 20) rir:::set_interrupt_pending()
      if (n < 400) f(n + 1) else 'not interrupted'
    }
    tryCatch(f(0), interrupt = function(c) class(c))"
))

# In fresh processes: the depth reached under stock GNU R and under rir.
depth_reached <- function(use_rir, limit) {
  code <- paste(
    if (use_rir) "library(rir)" else "",
    sprintf("options(expressions = %d)", limit),
    "g <- function(n) { d <<- n; g(n + 1) }",
    "k <- function() tryCatch(g(0), error = function(e) class(e)[1])",
    "d <- 0; r1 <- k(); d1 <- d",
    "d <- 0; r2 <- k(); d2 <- d",
    "cat('\\nRESULT', r1, d1, r2, d2, '\\n')",
    sep = "\n"
  )
  out <- run_rscript(code)
  grep("^RESULT", out, value = TRUE)
}

test_that("options(expressions) limits recursion depth as in GNU R", {
  for (limit in c(200, 400)) {
    ref <- depth_reached(FALSE, limit)
    expect_match(ref, "RESULT expressionStackOverflowError [0-9]+ expressionStackOverflowError")
    got <- depth_reached(TRUE, limit)
    nums <- function(r) as.numeric(strsplit(r, " ")[[1]][c(3, 5)])
    # the first run is identical; later ones may differ by a level when
    # GNU R's own closures (tryCatch ...) are run by rir
    expect_identical(nums(got)[1], nums(ref)[1])
    expect_lte(abs(nums(got)[2] - nums(ref)[2]), 1)
  }
})

# In fresh processes (tryCatch not yet compiled by rir): tryCatch's first
# call from rir code used to compile tryCatch over and over (the compiler's
# R_tryCatchError around forcing a lazy-loaded base binding called tryCatch,
# which compiled it again ...) until the evaluation depth ran out, with an
# error no handler had been set up for yet.
test_that("tryCatch first called from rir code catches errors under a low options(expressions)", {
  code <- function(use_rir) paste(
    if (use_rir) "library(rir); cmp <- rir::compile" else "cmp <- identity",
    "options(expressions = 200)",
    "g <- function(n) g(n + 1)",
    "k <- function() 42",
    "h <- cmp(function() for (i in 1:2) print(tryCatch(g(0), error = function(e) class(e)[1])))",
    "h()",
    "h2 <- cmp(function() tryCatch(k(), error = function(e) 'caught', finally = cat('finally\\n')))",
    "print(h2())",
    "cat('END\\n')",
    sep = "\n"
  )
  ref <- run_rscript(code(FALSE))
  expect_identical(ref, c(
    "[1] \"expressionStackOverflowError\"", "[1] \"expressionStackOverflowError\"",
    "finally", "[1] 42", "END"
  ))
  expect_identical(run_rscript(code(TRUE)), ref)
})

test_that("tryCatch's first call from rir code compiles a few closures, not hundreds; rir stays on", {
  code <- paste(
    "library(rir)",
    "k <- function() 42",
    "h <- rir::compile(function() tryCatch(k(), error = function(e) 'caught'))",
    "r <- h()",
    "s <- rir::status()",
    "n <- sum(rir::stats()[c('rir_calls', 'native_calls')])",
    "f <- rir::compile(function(x) x + 1)",
    "f(1)",
    "cat('\\nRESULT', r, rir::stats()[['compiled']] < 30, any(s$state == 'refused'),",
    "  sum(rir::stats()[c('rir_calls', 'native_calls')]) > n, '\\n')",
    sep = "\n"
  )
  out <- run_rscript(code)
  expect_identical(grep("^RESULT", out, value = TRUE), "RESULT 42 TRUE FALSE TRUE ")
})

test_that("the depth rir counts is back where it was after an overflow", {
  old <- options(expressions = 200)
  on.exit(options(old))
  f <- rir::compile(function(n) f(n + 1))
  before <- .Call(rir:::C_rir_extra_depth)
  msg <- tryCatch(f(0), error = function(e) conditionMessage(e))
  expect_match(msg, "nested too deeply")
  after <- .Call(rir:::C_rir_extra_depth)
  expect_identical(after, before)
  g <- rir::compile(function(n) if (n == 0) 0 else 1 + g(n - 1))
  expect_identical(g(100), 100)
})

test_that("interrupts reach recursive rir code at once", {
  d <- 0
  f <- rir::compile(function(n) {
    d <<- n
    if (n == 10) rir:::set_interrupt_pending()
    if (n < 300) f(n + 1) else "done"
  })
  expect_identical(tryCatch(f(0), interrupt = function(c) "int"), "int")
  expect_identical(d, 10)
  expect_identical(f(290), "done")
})
