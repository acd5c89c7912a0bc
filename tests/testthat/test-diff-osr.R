# OSR-in: a function body whose loops run long in the interpreter goes on
# in native code from a loop header, through a continuation compiled from
# the interpreter's frame there (its bindings, its operand stack: a for
# loop's sequence, length and counter). The functions below are called
# once (or a few times), with the optimizing tier held back at function
# entries, so that only a continuation can run them natively; every result
# must be GNU R's, and the continuations must have run.

osr_entries <- function() rir::stats()[["osr_entries"]]

# (as options: expect_same's reference run disables rir, and enabling it
# again sets the tiering from the options; enable() afterwards restores the
# test mode's settings)
with_osr <- function(code) {
  old <- options(rir.opt_threshold = 1e9, rir.native = TRUE, rir.osr_threshold = 0)
  on.exit({
    options(old)
    rir::enable()
  })
  rir::enable()
  code
}

osr_snippets <- list(
  "for loops over ranges, vectors and lists; while and repeat" = "
    f <- function(n) { s <- 0; for (i in 1:n) s <- s + i * 0.5; c(s, i) }
    g <- function(n) { s <- 0L; i <- 0L; while (i < n) { i <- i + 1L; if (i %% 3L == 0L) next; s <- s + i }; c(s, i) }
    h <- function(x) { s <- 0; for (v in x) s <- s + v * v; s }
    k <- function(l) { n <- 0; for (e in l) n <- n + length(e); n }
    r <- function(n) { i <- 0; repeat { i <- i + 1; if (i >= n) break }; i }
    d <- function(n) { s <- 0; for (i in n:1) s <- s * 0.5 + i; s }
    list(f(5000), g(5000), h(seq(0.5, 3000, by = 0.5)), k(as.list(1:4000)), r(4000), d(3000))
  ",
  "nested loops, the loop entered in its inner loop" = "
    f <- function(n) { acc <- 0; for (j in 1:3) for (i in 1:n) acc <- acc + i * j; c(acc, i, j) }
    g <- function(n) { m <- matrix(0, n, 3); for (j in 1:3) { for (i in 1:n) m[i, j] <- i + j }; sum(m) }
    list(f(3000), g(2000))
  ",
  "break, next and return() inside the continued loop" = "
    f <- function(n) { for (i in 1:n) { if (i == n - 7L) break }; i }
    g <- function(n) { s <- 0; for (i in 1:n) { if (i %% 2L == 0L) next; s <- s + i }; s }
    h <- function(n) { for (i in 1:n) if (i > 4321) return(i * 2); -1 }
    k <- function(n) { i <- 0; while (TRUE) { i <- i + 1; if (i == n) return('done') } }
    list(f(5000), g(5000), h(9000), k(3000))
  ",
  "errors and warnings raised in the continued loop" = "
    f <- function(n) { s <- 0; for (i in 1:n) { s <- s + i; if (i == 4000) stop('stopped at ', i) }; s }
    g <- function(n) { s <- 0L; for (i in 1:n) { s <- s + i; if (i == 3500) warning('late ', i) }; s }
    h <- function(n) { x <- .Machine$integer.max - 3000L; for (i in 1:n) x <- x + 1L; x }
    list(tryCatch(f(5000), error = conditionMessage), g(4000), h(4000))
  ",
  "on.exit, sys.function(), parent.frame() and sys.call() from the continued loop" = "
    f <- function(n) { on.exit(cat('exit', n, '\\n')); s <- 0; for (i in 1:n) s <- s + i; s }
    g <- function(n) { r <- NULL; for (i in 1:n) if (i == n) r <- list(deparse(sys.call()), is.function(sys.function()), environmentName(parent.frame())); r }
    list(f(3000), g(3000))
  ",
  "closures made before the loop see the loop's variables" = "
    f <- function(n) { s <- 0; get_s <- function() s; for (i in 1:n) s <- s + 1; c(get_s(), s) }
    g <- function(n) { e <- environment(); s <- 0; for (i in 1:n) s <- s + i; get('s', envir = e) }
    h <- function(n) { s <- 0; for (i in 1:n) { s <- s + 1; if (i == n) s <- s + (function() s)() }; s }
    list(f(3000), g(3000), h(3000))
  ",
  "arguments, promises and variables whose types change in the loop" = "
    f <- function(n, by = 2) { s <- 0L; for (i in 1:n) { s <- s + by; if (i == 2500) s <- s + 0.5 }; s }
    g <- function(x, n) { for (i in 1:n) x <- x + 1; x }
    h <- function(n) { v <- 1L; for (i in 1:n) v <- if (i %% 1000L == 0L) as.character(i) else i; v }
    list(f(4000), f(4000, by = 1.5), g(1L, 3000), g(0.5, 3000), g(c(a = 1), 3000), h(4000))
  ",
  "unsupplied arguments with defaults, forced in the loop or not" = "
    f <- function(n, by = 2, verbose = FALSE) { s <- 0; for (i in 1:n) { s <- s + by; if (verbose) cat(i) }; c(s, missing(by), missing(verbose)) }
    g <- function(n, k = n * 2) { s <- 0; for (i in 1:n) { if (i == 2500) s <- s + k; s <- s + 1 }; c(s, missing(k)) }
    h <- function(n, tol = 1e-3) { x <- 1; for (i in 1:n) { x <- x / 2; if (missing(tol)) x <- x + tol }; x }
    list(f(3000), f(3000, 1), f(3000, verbose = FALSE), g(3000), g(3000, 1), h(3000), h(3000, 0))
  ",
  "frames the continuation cannot take (missing arguments, active bindings) stay in the interpreter" = "
    f <- function(n, m) { s <- 0; for (i in 1:n) s <- s + i; c(s, missing(m)) }
    g <- function(n) { makeActiveBinding('ab', function() 1, environment()); s <- 0; for (i in 1:n) s <- s + ab; s }
    list(f(3000), g(3000))
  ",
  "vectors, values and evaluated promises bound at the entry; their kinds change in the loop" = "
    f <- function(x, v, n) { for (i in 1:n) { j <- i %% 5L + 1L; v[j] <- v[j] + x[j] * 0.5; if (i == 2000) x <- as.integer(x * 10) }; list(v, x) }
    g <- function(n, lst) { x <- c(1.5, 2.5); s <- 0; for (i in 1:n) { s <- s + x[1] + length(lst); if (i == 1500) x <- list(7, 8) }; list(s, x) }
    h <- function(a, n) { force(a); s <- 0; for (i in 1:n) s <- s + a[2]; s }
    k <- function(a, n) { s <- 0; for (i in 1:n) { if (i == 2500) s <- s + a; s <- s + 1 }; s }
    m <- function(n, flags) { c <- 0L; for (i in 1:n) if (flags[i %% 3L + 1L]) c <- c + 1L; c }
    mm <- function(A, n) { s <- 0; B <- A * 2; for (i in 1:n) s <- s + A[i %% 3L + 1L, 2] * B[1, i %% 2L + 1L]; s }
    `[.wrapped` <- function(x, i) unclass(x)[i] * 10
    w <- function(x, n) { s <- 0; y <- structure(c(1, 2, 3), class = 'wrapped'); for (i in 1:n) s <- s + x[i %% 3L + 1L] + y[2]; s }
    list(f(c(1, 2, 3, 4, 5), numeric(5), 4000), g(3000, list(1, 2)), h(c(0.5, 1.5), 3000),
         k({ cat('forced late\n'); 2 }, 3000), m(3000, c(TRUE, FALSE, NA)),
         mm(matrix(1:9 / 2, 3), 3000), w(structure(c(4, 5, 6), class = 'wrapped'), 3000), w(c(4, 5, 6), 3000))
  ",
  "math builtins in the continued loop: sqrt of what cannot be negative, and of what can" = "
    f <- function(x, n) { s <- 0; for (i in 1:n) { d <- x[i %% 3L + 1L] - 1; s <- s + sqrt(d * d) + exp(-abs(d)) + floor(d) }; s }
    g <- function(n) { s <- 0; for (i in 1:n) { d <- (i %% 7L) - 3; s <- s + sqrt(d) }; s }
    h <- function(n) { r <- NULL; for (i in 1:n) { d <- 2500 - i; q <- sqrt(d); if (is.nan(q)) { r <- c(i, d); break } }; r }
    w <- function(n) withCallingHandlers(h(n), warning = function(w) { cat('warned with d =', get('d', envir = Find(function(e) exists('d', envir = e, inherits = FALSE), rev(sys.frames()))), '\n'); invokeRestart('muffleWarning') })
    list(f(c(0.5, 2, -3), 3000), suppressWarnings(g(3000)), w(3000))
  ",
  "functions called again with other types reuse or add continuations" = "
    f <- function(x, n) { s <- x; for (i in 1:n) s <- s + x; s }
    list(f(1L, 3000), f(2L, 3000), f(0.5, 3000), f(1:2, 3000), f(1L, 3000))
  "
)

test_that("continuations give GNU R's results, and they ran", {
  before <- osr_entries()
  with_osr(for (name in names(osr_snippets)) expect_same(osr_snippets[[name]]))
  expect_gt(osr_entries() - before, 20)
})

test_that("the default threshold waits for a long loop", {
  env <- Sys.getenv("RIR_OSR_THRESHOLD", NA)
  opt <- options(rir.osr_threshold = NULL)
  Sys.unsetenv("RIR_OSR_THRESHOLD")
  expect_identical(rir:::rir_settings()$osr_threshold, 10000)
  options(opt)
  if (!is.na(env)) Sys.setenv(RIR_OSR_THRESHOLD = env)
  with_tiering({
    f <- rir::compile(function(n) { s <- 0; for (i in 1:n) s <- s + i; s })
    before <- osr_entries()
    expect_identical(f(2000), 2001000)
    expect_identical(osr_entries(), before)
    expect_identical(f(1e5), 5000050000)
    expect_gt(osr_entries(), before)
  }, threshold = 1e9, native = TRUE, osr = 10000, thread = FALSE)
})

test_that("RIR_OSR_THRESHOLD is mirrored by options(rir.osr_threshold)", {
  old <- options(rir.osr_threshold = 1234)
  on.exit(options(old))
  expect_identical(rir:::rir_settings()$osr_threshold, 1234)
})

test_that("status() lists a function's continuations", {
  with_tiering({
    osr_status_probe <- function(n) { s <- 0; for (i in 1:n) s <- s + i; s }
    osr_status_probe <- rir::compile(osr_status_probe)
    expect_identical(osr_status_probe(3000), 4501500)
    st <- rir::status()
    row <- st[st$name == "osr_status_probe", ]
    expect_identical(nrow(row), 1L)
    expect_match(row$continuations, "^@[0-9]+")
  }, threshold = 1e9, native = TRUE, osr = 0)
})

test_that("an interrupt stops a loop that went on in native code", {
  with_tiering({
    f <- rir::compile(function(n) {
      for (i in 1:n) if (i == 20000) rir:::set_interrupt_pending()
      "not interrupted"
    })
    before <- osr_entries()
    expect_identical(tryCatch(f(1e6), interrupt = function(c) class(c)), c("interrupt", "condition"))
    expect_gt(osr_entries(), before)
  }, threshold = 1e9, native = TRUE, osr = 0)
})

test_that("a loop whose native version deoptimized goes on in a continuation", {
  # (deoptless off: the deoptimization resumes the interpreter, whose loop
  # then goes on natively from its header)
  with_tiering({
    f <- rir::compile(function(x, n) {
      s <- 0
      for (i in 1:n) {
        if (i == 100) x <- x + 0.5
        s <- s + x * i
      }
      s
    })
    f(1L, 10)
    f(2L, 10)
    f(3L, 10)
    before <- rir::stats()[c("deopts", "osr_entries")]
    expect_identical(f(1L, 5000), sum(c(1:99, (100:5000) * 1.5)))
    after <- rir::stats()[c("deopts", "osr_entries")]
    expect_gt(after[["deopts"]], before[["deopts"]])
    expect_gt(after[["osr_entries"]], before[["osr_entries"]])
  }, threshold = 2, native = TRUE, osr = 0, chaos = 0, thread = FALSE, deoptless = FALSE)
})

test_that("a continuation leaves at a loop that never ran, and is compiled again with its feedback", {
  with_tiering({
    osr_two_loops <- function(n) {
      x <- numeric(n)
      for (i in seq_len(n)) x[i] <- i * 2
      s <- 0
      for (i in seq_along(x)) s <- s + x[i]
      s
    }
    osr_two_loops <- rir::compile(osr_two_loops)
    before <- rir::stats()[c("deopts", "osr_compiled")]
    # (no loop here: this code's own loops would go on natively too)
    r1 <- osr_two_loops(3000)
    r2 <- osr_two_loops(3000)
    r3 <- osr_two_loops(3000)
    after <- rir::stats()[c("deopts", "osr_compiled")]
    expect_identical(c(r1, r2, r3), rep(3000 * 3001, 3))
    expect_identical(after[["deopts"]] - before[["deopts"]], 1)
    expect_identical(after[["osr_compiled"]] - before[["osr_compiled"]], 2)
    st <- rir::status()
    expect_match(st$continuations[st$name == "osr_two_loops"], "^@[0-9]+$")
  }, threshold = 1e9, native = TRUE, osr = 0, chaos = 0)
})
