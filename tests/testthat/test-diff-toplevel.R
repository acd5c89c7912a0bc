# Scripts whose loops run at top level, in the global env (Rscript file):
# stock GNU R against the same script after library(rir), in fresh
# processes (the test mode's environment variables carry over). rir
# compiles such a loop and caches the global env's binding cells as GNU R's
# byte code does; what other code does to those bindings meanwhile (removing
# them, making them active, locking them, assigning them from a function)
# must show as in GNU R.

# (`env`: more environment variables for rir's run; `probe`: the stats()
# entry the run must have made positive)
run_script <- function(lines, use_rir, env = character(), probe = "toplevel_compiled") {
  file <- tempfile(fileext = ".R")
  on.exit(unlink(file))
  if (use_rir) {
    lines <- c(
      "library(rir)", lines,
      sprintf("cat('%s:', rir::stats()[['%s']] > 0, '\\n')", probe, probe)
    )
  }
  writeLines(lines, file)
  rscript <- file.path(R.home("bin"), "Rscript")
  suppressWarnings(system2(rscript, c("--vanilla", shQuote(file)),
    stdout = TRUE, stderr = TRUE,
    env = if (use_rir && length(env)) paste0(names(env), "=", env) else character()
  ))
}

expect_script_same <- function(lines, env = character(), probe = "toplevel_compiled") {
  ref <- run_script(lines, FALSE)
  got <- run_script(lines, TRUE, env, probe)
  expect_identical(got[length(got)], sprintf("%s: TRUE ", probe))
  expect_identical(got[-length(got)], ref)
}

scripts <- list()

scripts$globals <- c(
    "s <- 0; x <- 0.25",
    "for (i in 1:2000) { x <- x * 3.7 * (1 - x); s <- s + (x > 0.5) }",
    "print(c(s, x, i))",
    "v <- 0; l <- list()",
    "for (i in 1:3) { v <- v + 1; l[[i]] <- v }",
    "str(l)",
    "a <- c(1, 2, 3); b <- a",
    "for (i in 1:3) a[i] <- a[i] * 10",
    "print(list(a, b))",
    "k <- 0L; while (k < 10L) k <- k + 1L; print(k)"
)

scripts$changed <- c(
    "y <- 1",
    "f <- function() rm('y', envir = globalenv())",
    "for (i in 1:5) { y <- y + 1; if (i == 3) { f(); y <- 100 } }",
    "print(y)",
    "z <- 1",
    "print(tryCatch(for (i in 1:3) { z <- z + 1; if (i == 2) rm(z); print(z) },",
    "  error = function(e) conditionMessage(e)))",
    "w <- 0",
    "for (i in 1:4) { w <- w + 1; if (i == 2) { rm(w); makeActiveBinding('w',",
    "  local({ v <- 10; function(n) if (missing(n)) v else v <<- n * 2 }), globalenv()) } }",
    "print(w)",
    "q <- 1",
    "lockBinding('q', globalenv())",
    "print(tryCatch(for (i in 1:3) q <- q + 1, error = function(e) conditionMessage(e)))",
    "unlockBinding('q', globalenv())",
    "for (i in 1:3) q <- q + 1",
    "print(q)"
)

scripts$assigned <- c(
    "g <- function() { cnt <<- cnt + 10; assign('cnt2', cnt2 * 2, envir = globalenv()) }",
    "cnt <- 0; cnt2 <- 1",
    "for (i in 1:5) { cnt <- cnt + 1; cnt2 <- cnt2 + 1; g() }",
    "print(c(cnt, cnt2))",
    "h <- function() { e <- globalenv(); e$m <- e$m * 3 }",
    "m <- 1",
    "for (i in 1:4) { m <- m + 1; h(); m <- m + 0.5 }",
    "print(m)",
    "acc <- numeric(0)",
    "for (i in 1:3) { acc <- c(acc, i); local(acc <<- acc * 2) }",
    "print(acc)"
)

test_that("a top-level loop over global variables", {
  expect_script_same(scripts$globals)
})

test_that("a top-level loop whose global bindings other code removes, makes active or locks", {
  expect_script_same(scripts$changed)
})

test_that("a top-level loop over globals that functions assign too", {
  expect_script_same(scripts$assigned)
})

# The same scripts with every top-level loop going on in native code from
# its first jump back (a continuation of the loop's code in the global env).
osr_env <- c(RIR_NATIVE = "1", RIR_OSR_THRESHOLD = "0")

test_that("top-level loops that go on in native code (OSR)", {
  for (lines in scripts) expect_script_same(lines, osr_env, "osr_entries")
  expect_script_same(c(
    "s <- 0; x <- 0.25",
    "for (i in 1:3e5) { x <- x * 3.7 * (1 - x); s <- s + (x > 0.5) }",
    "print(c(s, x, i))",
    "n <- 0L; while (n < 100000L) n <- n + 1L; print(n)",
    "m <- matrix(0, 50, 50); for (j in 1:50) for (i in 1:50) m[i, j] <- i * j; print(sum(m))",
    "r <- 0; for (i in 1:5000) { if (i == 4000) break; r <- r + sqrt(i) }; print(r)",
    "print(tryCatch(for (i in 1:5000) if (i == 3000) stop('at ', i), error = conditionMessage))",
    "withCallingHandlers(for (i in 1:3000) if (i == 2500) warning('w ', i),",
    "  warning = function(w) { cat('caught', conditionMessage(w), '\\n'); invokeRestart('muffleWarning') })",
    "v <- 1L; for (i in 1:3000) v <- if (i %% 1000L == 0L) paste0('s', i) else i; print(v)"
  ), osr_env, "osr_entries")
})

# With no setting at all (the test mode's variables emptied): a script's
# long top-level loop, and a function called once with a long loop, go on
# in native code, as a user who only typed library(rir) gets it. (Their
# code is made on the compile thread while the interpreter goes on: the
# loops run long enough for it to arrive on a busy machine.)
defaults_env <- c(
  RIR_NATIVE = "", RIR_OPT_THRESHOLD = "", RIR_OSR_THRESHOLD = "",
  RIR_DEOPT_CHAOS = "", RIR_DEBUG = ""
)

test_that("long loops run as native code with the default settings", {
  expect_script_same(c(
    "s <- 0; x <- 0.25",
    "for (i in 1:3e6) { x <- x * 3.7 * (1 - x); s <- s + (x > 0.5) }",
    "print(c(s, x, i))"
  ), defaults_env, "osr_entries")
  expect_script_same(c(
    "f <- function(n) { s <- 0; for (i in 1:n) s <- s + i * 0.5; s }",
    "print(f(3e6))",
    "g <- function(n) { k <- 0L; while (k < n) k <- k + 1L; k }",
    "print(g(5000000L))"
  ), defaults_env, "osr_entries")
})
