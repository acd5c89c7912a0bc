# Scripts whose loops run at top level, in the global env (Rscript file):
# stock GNU R against the same script after library(rir), in fresh
# processes (the test mode's environment variables carry over). rir
# compiles such a loop and caches the global env's binding cells as GNU R's
# byte code does; what other code does to those bindings meanwhile (removing
# them, making them active, locking them, assigning them from a function)
# must show as in GNU R.

run_script <- function(lines, use_rir) {
  file <- tempfile(fileext = ".R")
  on.exit(unlink(file))
  if (use_rir) {
    lines <- c(
      "library(rir)", lines,
      "cat('toplevel compiled:', rir::stats()[['toplevel_compiled']] > 0, '\\n')"
    )
  }
  writeLines(lines, file)
  rscript <- file.path(R.home("bin"), "Rscript")
  suppressWarnings(system2(rscript, c("--vanilla", shQuote(file)), stdout = TRUE, stderr = TRUE))
}

expect_script_same <- function(lines) {
  ref <- run_script(lines, FALSE)
  got <- run_script(lines, TRUE)
  expect_identical(got[length(got)], "toplevel compiled: TRUE ")
  expect_identical(got[-length(got)], ref)
}

test_that("a top-level loop over global variables", {
  expect_script_same(c(
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
  ))
})

test_that("a top-level loop whose global bindings other code removes, makes active or locks", {
  expect_script_same(c(
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
  ))
})

test_that("a top-level loop over globals that functions assign too", {
  expect_script_same(c(
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
  ))
})
