# Deoptless: a failed speculation in native code goes on in a continuation
# compiled for the deoptimization's state (the frame's bindings and the
# operand stack's values, their kinds) instead of resuming the
# interpreter. Each snippet warms a function up with one kind of value (so
# that its native version speculates on it), then calls it with another;
# every result must be GNU R's, and deoptless continuations must have run.

deoptless_stats <- function() {
  unlist(rir::stats()[c("deoptless_entries", "deoptless_compiled", "deoptless_fallbacks")])
}

# (as options: expect_same's reference run disables rir, and enabling it
# again sets the tiering from the options; enable() afterwards restores the
# test mode's settings)
with_deoptless <- function(code, on = TRUE) {
  old <- options(
    rir.opt_threshold = 2, rir.native = TRUE, rir.deoptless = on,
    rir.compile_thread = FALSE, rir.deopt_chaos = 0, rir.osr_threshold = 1e9
  )
  on.exit({
    options(old)
    rir::enable()
  })
  rir::enable()
  code
}

deoptless_snippets <- list(
  "an operand's type changes: integers, then doubles" = "
    f <- function(v) { s <- 0L; for (x in v) s <- s + x; s }
    for (i in 1:5) f(1:50)
    list(f(c(1L, 2L, 2.5, 4)), f(c(1, 2.5, 1e10)), f(1:10), f(c(TRUE, FALSE, TRUE)))
  ",
  "a subset's element changes type midway through a loop" = "
    f <- function(l) { s <- 0; for (i in seq_along(l)) s <- s + l[[i]] * 2; s }
    for (i in 1:5) f(as.list(1:40))
    list(f(c(as.list(1:30), as.list(seq(0.5, 15, by = 0.5)))), f(list(1L, 'a')))
  ",
  "integer arithmetic overflows midway" = "
    f <- function(n, start) { x <- start; for (i in 1:n) x <- x + 1000000L; x }
    for (i in 1:5) f(10L, 0L)
    list(f(10L, .Machine$integer.max - 5000000L), f(5L, 1L))
  ",
  "an object reaches subsetting speculated on plain values" = "
    `[.halved` <- function(x, i) unclass(x)[i] / 2
    f <- function(x, n) { s <- 0; for (i in 1:n) s <- s + x[i]; s }
    for (i in 1:5) f(c(1, 2, 3, 4), 4L)
    list(f(structure(c(1, 2, 3, 4), class = 'halved'), 4L), f(c(5, 6), 2L))
  ",
  "an inlined callee redefined midway" = "
    step <- function(x) x + 1
    f <- function(n) { x <- 0; for (i in 1:n) { if (i == 20L) step <<- function(x) x * 2; x <- step(x) }; x }
    for (i in 1:5) { step <- function(x) x + 1; f(10L) }
    step <- function(x) x + 1
    list(f(30L), step(1))
  ",
  "x$name on something other than a plain list" = "
    f <- function(l, n) { s <- 0; for (i in 1:n) s <- s + l$a; s }
    for (i in 1:5) f(list(a = 1, b = 2), 3L)
    e <- new.env(); e$a <- 4
    `$.rec` <- function(x, name) 100
    list(f(e, 3L), f(structure(list(a = 1), class = 'rec'), 3L), f(list(a = 2L), 2L))
  ",
  "a function called first with scalars, then with vectors" = "
    d <- function(x1, y1, x2, y2) { dx <- x1 - x2; dy <- y1 - y2; sqrt(dx * dx + dy * dy) }
    g <- function(a, b) d(a, b, 1, 1)
    for (i in 1:6) g(i + 0.5, 2.5)
    list(g(c(1, 2, 3), c(4, 5, 6)), g(2, 3), g(1:3, 1:3))
  ",
  "errors, warnings and on.exit in the continuation" = "
    f <- function(v) { on.exit(cat('exit\\n')); s <- 0L; for (x in v) { s <- s + x; if (s > 100) stop('too big: ', s) }; s }
    for (i in 1:5) f(1:5)
    g <- function(v) { s <- 0L; for (x in v) { s <- s + x; if (x == 2.5) warning('half') }; s }
    for (i in 1:5) g(1:5)
    list(tryCatch(f(c(1L, 2.5, 99)), error = conditionMessage), f(c(1L, 2.5)), g(c(1L, 2.5, 3L)))
  ",
  "return(), sys.function(), sys.call() and parent.frame() in the continuation" = "
    f <- function(v) { s <- 0L; for (x in v) { s <- s + x; if (s > 10) return(list(s, deparse(sys.call()), is.function(sys.function()), environmentName(parent.frame()))) }; s }
    for (i in 1:5) f(1:3)
    list(f(c(1L, 2.5, 9, 3)), f(1:3))
  ",
  "closures made before the deoptimization see the variables it wrote" = "
    f <- function(v) { s <- 0L; get_s <- function() s; for (x in v) s <- s + x; c(s, get_s()) }
    for (i in 1:5) f(1:4)
    list(f(c(1L, 0.5, 2L)), f(1:4))
  ",
  "phases that alternate: the table fills, then states resume the interpreter" = "
    f <- function(v, k) { s <- k; for (x in v) s <- s * 0.5 + x; s }
    for (i in 1:5) f(1:5, 1L)
    r <- list()
    for (j in 1:12) r[[j]] <- f(if (j %% 2L) c(1L, 2L) else c(0.5, 2), if (j %% 3L) 1L else 1.5)
    r
  "
)

test_that("deoptless continuations give GNU R's results, and they ran", {
  before <- deoptless_stats()
  with_deoptless(for (name in names(deoptless_snippets)) expect_same(deoptless_snippets[[name]]))
  after <- deoptless_stats()
  expect_gt(after[["deoptless_entries"]] - before[["deoptless_entries"]], 10)
  expect_gt(after[["deoptless_compiled"]] - before[["deoptless_compiled"]], 10)
})

test_that("with deoptless off, deoptimizations resume the interpreter (same results)", {
  # (the counts read while it is off: afterwards, in the chaos test mode,
  # any code may deoptimize)
  counts <- with_deoptless({
    before <- deoptless_stats()
    for (name in names(deoptless_snippets)[1:3]) expect_same(deoptless_snippets[[name]])
    list(before, deoptless_stats())
  }, on = FALSE)
  expect_identical(counts[[2]], counts[[1]])
})

# The knobs of the tests below: optimized after two calls, deoptless on,
# no forced failures, no OSR, no compile thread.
with_deoptless_tiering <- function(code) {
  with_tiering(code, threshold = 2, native = TRUE, chaos = 0, osr = 1e9, thread = FALSE,
               deoptless = TRUE)
}

# A function warmed up with `warm`, then run with `phase`: the kind of
# speculation that failed (status()'s continuations) must be `reason`.
expect_deoptless_reason <- function(f, warm, phase, reason) {
  # (GNU R's value first: enable() sets the tiering from the options)
  rir::disable()
  expected <- suppressWarnings(do.call(f, phase))
  rir::enable()
  with_deoptless_tiering({
    name <- paste0("deoptless_probe_", reason)
    g <- rir:::compile_named(f, name, "a test")
    for (i in 1:5) do.call(g, warm)
    before <- deoptless_stats()
    expect_identical(suppressWarnings(do.call(g, phase)), expected)
    after <- deoptless_stats()
    expect_gt(after[["deoptless_entries"]], before[["deoptless_entries"]])
    st <- rir::status()
    conts <- st$continuations[st$name == name]
    expect_match(conts, paste0("deoptless@[0-9]+\\(", reason, "\\)"))
  })
}

test_that("a continuation is compiled and run for each kind of failed speculation", {
  expect_deoptless_reason(function(v) { s <- 0L; for (x in v) s <- s + x; s },
                          list(1:20), list(c(1L, 2.5, 3L)), "type")
  expect_deoptless_reason(function(x, y) { s <- x; for (i in 1:3) s <- s + y; s },
                          list(1L, 2L), list(.Machine$integer.max - 1L, 1L), "overflow")
  expect_deoptless_reason(function(l) { s <- 0; for (e in l) s <- s + e[[1]]; s },
                          list(as.list(1:20)), list(list(1L, 2.5, 3L)), "result")
  expect_deoptless_reason(function(x) { s <- 0; for (i in 1:3) s <- s + x[i]; s },
                          list(c(1, 2, 3)), list(structure(c(1, 2, 3), class = "deoptless_cls")),
                          "branch")
  assign("$.deoptless_rec", function(x, name) 10, envir = globalenv())
  on.exit(rm("$.deoptless_rec", envir = globalenv()))
  expect_deoptless_reason(function(l) { s <- 0; for (i in 1:3) s <- s + l$a; s },
                          list(list(a = 1)), list(structure(list(a = 2), class = "deoptless_rec")),
                          "member")
})

test_that("a deoptimization inside an inlined callee resumes the interpreter", with_deoptless_tiering({
  inner <- rir::compile(function(a, b) a + b)
  outer <- rir::compile(function(x, n) { s <- 0L; for (i in 1:n) s <- inner(s, x); s })
  for (i in 1:5) outer(1L, 10L)
  before <- rir::stats()[c("inlined_calls", "deoptless_fallbacks", "deopts")]
  expect_identical(outer(0.5, 10L), 5)
  after <- rir::stats()[c("inlined_calls", "deoptless_fallbacks", "deopts")]
  expect_gt(after[["deopts"]], before[["deopts"]])
  expect_gt(after[["deoptless_fallbacks"]], before[["deoptless_fallbacks"]])
}))

test_that("an interrupt stops a loop running in a deoptless continuation", with_deoptless_tiering({
  f <- rir::compile(function(v, n) {
    s <- 0L
    for (x in v) s <- s + x
    for (i in 1:n) if (i == 20000) rir:::set_interrupt_pending()
    s
  })
  for (i in 1:5) f(1:3, 10L)
  before <- deoptless_stats()
  expect_identical(tryCatch(f(c(1L, 2.5), 1e6), interrupt = function(c) class(c)),
                   c("interrupt", "condition"))
  expect_gt(deoptless_stats()[["deoptless_entries"]], before[["deoptless_entries"]],
            label = paste(c(deoptless_stats(), before), collapse = " "))
}))

test_that("RIR_DEOPTLESS is mirrored by options(rir.deoptless)", {
  old <- options(rir.deoptless = FALSE)
  on.exit(options(old))
  expect_false(rir:::rir_settings()$deoptless)
  options(rir.deoptless = NULL)
  env <- Sys.getenv("RIR_DEOPTLESS", NA)
  Sys.unsetenv("RIR_DEOPTLESS")
  expect_false(rir:::rir_settings()$deoptless)
  if (!is.na(env)) Sys.setenv(RIR_DEOPTLESS = env)
})
