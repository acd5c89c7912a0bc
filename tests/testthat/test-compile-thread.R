# The compile thread (src/native/compile_thread.h): LLVM makes native code
# while the interpreter goes on; the code is installed at a later function
# entry or loop check. The results are GNU R's throughout.

status_of <- function(name) {
  st <- rir::status()
  st[!is.na(st$name) & st$name == name, ]
}

with_thread <- function(code, threshold = 2, osr = NULL) {
  with_tiering(code, threshold = threshold, native = TRUE, chaos = 0, osr = osr, thread = TRUE)
}

# calls f() until `done()` or 120 s (a loaded machine: the thread may
# have other jobs queued before), the calls' values
call_until <- function(f, done) {
  deadline <- Sys.time() + 120
  values <- list()
  repeat {
    values[[length(values) + 1]] <- f()
    if (done() || Sys.time() > deadline) break
    Sys.sleep(0.005)
  }
  values
}

test_that("a hot function gets native code from the compile thread, with GNU R's results", {
  skip_if(!rir:::rir_settings()$native || Sys.getenv("RIR_OPT_THRESHOLD") == "0")
  with_thread({
    thread_probe_a <- function(n) { s <- 0; for (i in seq_len(n)) s <- s + i / 2; s }
    thread_probe_a <- rir::compile(thread_probe_a)
    before <- rir::stats()[["opt_thread_seconds"]]
    values <- call_until(
      function() thread_probe_a(100L),
      function() identical(status_of("thread_probe_a")$tier, "native")
    )
    expect_identical(status_of("thread_probe_a")$tier, "native",
      info = paste(capture.output(print(status_of("thread_probe_a"))), collapse = "\n"))
    expect_identical(unique(values), list(2525))
    expect_identical(thread_probe_a(7L), 14)
    expect_gt(rir::stats()[["opt_thread_seconds"]], before)
  })
})

test_that("while a version is being made, calls run the baseline", {
  skip_if(!rir:::rir_settings()$native || Sys.getenv("RIR_OPT_THRESHOLD") == "0")
  with_thread({
    thread_probe_b <- function(x) if (x > 0) x * 2 else -x
    thread_probe_b <- rir::compile(thread_probe_b)
    values <- vapply(c(1:5, -(1:5)), thread_probe_b, numeric(1))
    expect_identical(values, c(2, 4, 6, 8, 10, 1, 2, 3, 4, 5))
    row <- status_of("thread_probe_b")
    expect_true(row$optimizer %in% c("compiling", "optimized"))
    call_until(function() thread_probe_b(3), function() status_of("thread_probe_b")$optimizer != "compiling")
    expect_identical(status_of("thread_probe_b")$optimizer, "optimized")
    expect_identical(thread_probe_b(-4), 4)
  })
})

test_that("a loop goes on in native code once its continuation arrives", {
  skip_if(!rir:::rir_settings()$native)
  with_thread(threshold = 1e9, osr = 5000, {
    thread_probe_c <- function(n) { s <- 0; i <- 0L; while (i < n) { i <- i + 1L; s <- s + i }; s }
    thread_probe_c <- rir::compile(thread_probe_c)
    before <- rir::stats()[["osr_entries"]]
    # (long enough for the compile thread, on a busy machine)
    expect_identical(thread_probe_c(5e6), sum(as.numeric(1:5e6)))
    expect_gt(rir::stats()[["osr_entries"]], before)
    expect_match(status_of("thread_probe_c")$continuations, "^@[0-9]+$")
  })
})

test_that("functions collected while their code is being made are left safely", {
  skip_if(!rir:::rir_settings()$native)
  with_thread({
    for (k in 1:30) {
      f <- rir::compile(eval(bquote(function(x) x * .(k) + 1)))
      for (j in 1:4) expect_identical(f(2), 2 * k + 1)
    }
    rm(f)
    invisible(gc())
    g <- rir::compile(function(x) x - 1)
    call_until(function() g(3), function() TRUE)
    invisible(gc())
    expect_identical(g(3), 2)
  })
})

test_that("forked children (parallel::mclapply) compile their own code", {
  skip_if(!rir:::rir_settings()$native || .Platform$OS.type != "unix")
  with_thread({
    h <- rir::compile(function(v) { s <- 0; for (e in v) s <- s + e * e; s })
    for (j in 1:3) h(1:10)
    res <- parallel::mclapply(1:4, function(i) {
      r <- 0
      for (j in 1:200) r <- r + h(seq_len(i * 10))
      r
    }, mc.cores = 2)
    expect_identical(unlist(res), vapply(1:4, function(i) 200 * sum(as.numeric(seq_len(i * 10))^2), 1))
    expect_identical(h(1:3), 14)
  })
})

test_that("RIR_COMPILE_THREAD is mirrored by options(rir.compile_thread)", {
  old <- options(rir.compile_thread = FALSE)
  on.exit(options(old))
  expect_false(rir:::rir_settings()$compile_thread)
  options(rir.compile_thread = NULL)
  env <- Sys.getenv("RIR_COMPILE_THREAD", NA)
  Sys.unsetenv("RIR_COMPILE_THREAD")
  expect_true(rir:::rir_settings()$compile_thread)
  if (!is.na(env)) Sys.setenv(RIR_COMPILE_THREAD = env)
})
