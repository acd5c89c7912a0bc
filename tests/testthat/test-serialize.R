# Objects saved under rir (saveRDS, save(), PSOCK) must load and run in any R
# session: trampolines are written as outdated GNU R byte code, which GNU R
# reads back as the closure's source (src/runtime/trampoline.cpp).

rscript <- file.path(R.home("bin"), "Rscript")
no_libs <- c(
  "R_LIBS=/nonexistent", "R_LIBS_USER=/nonexistent", "R_LIBS_SITE=/nonexistent"
)
rir_lib <- dirname(find.package("rir"))

# Runs `code` in a fresh Rscript; returns its output lines.
run_r <- function(code, env = no_libs) {
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script))
  writeLines(code, script)
  suppressWarnings(system2(rscript, script, stdout = TRUE, stderr = TRUE, env = env))
}

# Built in an environment whose parent is the global environment, so that
# what gets saved refers to no test-runner state.
saved_closures <- function() {
  evalq(envir = new.env(parent = globalenv()), {
    sum_to <- rir::compile(function(x) {
      s <- 0
      for (i in seq_len(x)) s <- s + i
      s
    })
    make_adder <- rir::compile(function(n) {
      g <- function(x) x + n
      g
    })
    # return() evaluated in a promise forced by another function
    early <- rir::compile(function(x) {
      id <- function(v) v
      id(return(x + 1))
      stop("not reached")
    })
    defaults <- rir::compile(function(x, y = x * 2, ...) y + length(list(...)))
    talk <- rir::compile(function(x) {
      cat("x is", x, "\n")
      invisible(x * 10)
    })
    wrap <- function(a) function() a
    lazy <- rir::compile(function() {
      k <- 3
      wrap(k + 1)
    })
    add5 <- make_adder(5)
    capture.output(for (f in list(sum_to, add5, early, defaults, talk)) f(1))
    list(
      sum_to = sum_to, add5 = add5, early = early, defaults = defaults,
      talk = talk, lazy_value = lazy()
    )
  })
}

check_code <- '
  fs <- readRDS(FILE)
  out <- list(
    fs$sum_to(10), fs$add5(1), fs$early(1), fs$defaults(1), fs$defaults(1, 5, 6),
    withVisible(fs$talk(2)), fs$lazy_value(), typeof(body(fs$sum_to))
  )
  dput(out)
  cat("rir loaded:", "rir" %in% loadedNamespaces(), "\n")
'
expected <- c(
  "x is 2 ",
  paste0(
    "list(55, 6, 2, 2, 6, list(value = 20, visible = FALSE), 4, ",
    "\"language\")"
  ),
  "rir loaded: FALSE "
)

test_that("closures saved under rir run in a session without rir", {
  fs <- saved_closures()
  expect_true(rir::is_compiled(fs$sum_to))
  expect_true(rir::is_compiled(fs$add5))
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(fs, file)
  absent <- run_r("cat(nzchar(system.file(package = 'rir')), '\\n')")
  expect_identical(absent, "FALSE ")
  out <- run_r(sub("FILE", deparse(file), check_code))
  expect_identical(out, expected)
  # the closures saved keep working here
  expect_identical(fs$sum_to(10), 55)
  expect_identical(fs$early(1), 2)
})

test_that("reading a saved rir closure does not load rir", {
  fs <- saved_closures()
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(fs, file)
  out <- run_r(sub("FILE", deparse(file), check_code), env = paste0("R_LIBS=", rir_lib))
  expect_identical(out, expected)
  # rir available but not loaded, the closures are plain closures; loaded
  # later, rir compiles them as any other closure
  out <- run_r(c(
    sprintf("fs <- readRDS(%s)", deparse(file)),
    "cat(requireNamespace('rir', quietly = TRUE), rir::is_compiled(fs$sum_to), '\\n')",
    "call_it <- rir::compile(function(f, n) f(n))",
    "cat(call_it(fs$sum_to, 4), rir::is_compiled(fs$sum_to), '\\n')"
  ), env = paste0("R_LIBS=", rir_lib))
  expect_identical(out, c("TRUE FALSE ", "10 TRUE "))
})

test_that("a workspace saved with save() loads without rir", {
  fs <- saved_closures()
  env <- list2env(fs)
  file <- tempfile(fileext = ".RData")
  on.exit(unlink(file))
  save(list = names(fs), envir = env, file = file)
  out <- run_r(c(
    sprintf("load(%s)", deparse(file)),
    "dput(list(sum_to(4), add5(2), early(3), defaults(2), lazy_value()))",
    "cat('rir loaded:', 'rir' %in% loadedNamespaces(), '\\n')"
  ))
  expect_identical(out, c("list(10, 7, 4, 4, 4)", "rir loaded: FALSE "))
})

test_that("serialized rir closures read back as plain closures", {
  f <- rir::compile(function(x) {
    s <- 0
    for (i in seq_len(x)) s <- s + i
    s
  })
  f(3)
  g <- unserialize(serialize(f, NULL))
  expect_identical(deparse(body(g)), deparse(body(f)))
  expect_identical(typeof(body(g)), "language")
  expect_false(rir::is_compiled(g))
  expect_identical(g(10), 55)
  # called from rir code, it is compiled from its source like any closure
  call_it <- rir::compile(function(h, n) h(n))
  expect_identical(call_it(g, 4), 10)
  expect_true(rir::is_compiled(g))
  # the same with serialization format 2 and ASCII
  g2 <- unserialize(serialize(f, NULL, version = 2, ascii = TRUE))
  expect_identical(typeof(body(g2)), "language")
  expect_identical(g2(5), 15)
  # writing does not disturb the closure being written
  for (i in 1:3) expect_identical(f(10), 55)
  expect_true(rir::is_compiled(f))
})

test_that("decoding a trampoline (disassemble, identical) leaves it correct", {
  f <- rir::compile(function(x) x * 2)
  expect_identical(f(2), 4)
  capture.output(d <- compiler::disassemble(f))
  expect_identical(d[[2]][[1]], 2L) # outdated version: GNU R would run the source
  expect_identical(f(3), 6)
  expect_false(identical(f, compiler::cmpfun(function(x) x * 2), ignore.bytecode = FALSE))
  expect_identical(f(4), 8)
  expect_identical(f(5), 10)
})

test_that("a PSOCK worker without rir runs rir closures", {
  fs <- saved_closures()
  old <- Sys.getenv(c("R_LIBS", "R_LIBS_USER", "R_LIBS_SITE"), unset = NA)
  Sys.setenv(R_LIBS = "/nonexistent", R_LIBS_USER = "/nonexistent", R_LIBS_SITE = "/nonexistent")
  cl <- tryCatch(parallel::makePSOCKcluster(1), finally = {
    for (v in names(old)) {
      if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
    }
  })
  on.exit(parallel::stopCluster(cl))
  has_rir <- parallel::clusterCall(cl, function() nzchar(system.file(package = "rir")))
  expect_false(has_rir[[1]])
  expect_identical(parallel::clusterCall(cl, fs$sum_to, 10)[[1]], 55)
  run_all <- function(fs) {
    list(fs$add5(1), fs$early(1), fs$defaults(1, 2), "rir" %in% loadedNamespaces())
  }
  environment(run_all) <- globalenv()
  res <- parallel::clusterCall(cl, run_all, fs)
  expect_identical(res[[1]], list(6, 2, 2, FALSE))
  expect_identical(parallel::parLapply(cl, 1:3, fs$sum_to), list(1, 3, 6))
})
