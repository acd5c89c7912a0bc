# Loops whose break/next sit behind a promise or function boundary
# (`g(if (i > 2) break)`): compiled by rir with the body run in a GNU R loop
# context per iteration (loop_body), where GNU R's break and next land.

expect_all_same(list(
  "loop context: break and next in promises, every loop kind" = "
    g <- function(a) a
    f <- function() { r <- 0; for (i in 1:5) { r <- r + i; g(if (i > 2) break else i) }; c(r, i) }
    h <- function() { out <- c(); for (i in 1:6) { g(if (i %% 2 == 0) next); out <- c(out, i) }; out }
    w <- function() { i <- 0; while (TRUE) { i <- i + 1; g(if (i >= 4) break) }; i }
    rp <- function() { i <- 0; repeat { i <- i + 1; g(if (i > 3) break) }; i }
    list(f(), h(), w(), rp(), f(), h())",
  "loop context: nested loops, direct break/next in the same body" = "
    g <- function(a) a
    nested <- function() {
      res <- c()
      for (a in 1:3) for (b in 1:4) {
        if (b == 4) break
        g(if (b == 2) next)
        g(if (a == 3) break)
        res <- c(res, a * 10 + b)
      }
      res
    }
    brk <- function() { for (i in 1:3) { if (i == 2) break; g(next) }; i }
    list(nested(), brk(), nested())",
  "loop context: return, values and visibility" = "
    g <- function(a) a
    ret <- function() { for (i in 1:5) g(if (i == 3) return(i * 100)); -1 }
    vis <- function() { x <- for (i in 1:2) g(if (i == 2) break); x }
    list(ret(), vis(), withVisible(vis()), withVisible(for (i in 1:2) g(if (i == 1) next)))",
  "loop context: errors, warnings and handlers in the body" = "
    g <- function(a) a
    f <- function() {
      n <- 0
      for (i in 1:4) {
        r <- tryCatch({ if (i == 2) stop('e2'); g(if (i == 3) next); if (i == 4) warning('w4'); i },
                      error = function(e) conditionMessage(e), warning = function(w) 'warned')
        n <- n + 1
        cat(i, format(r), '')
      }
      cat('\\n'); n
    }
    k <- function() { for (i in 1:3) { g(if (i == 2) break); warning('loop ', i) }; i }
    list(f(), k())",
  "loop context: break through a function boundary is GNU R's error" = "
    fb <- function() { for (i in 1:3) lapply(1, function(z) if (i > 1) break); i }
    fb()",
  "loop context: on.exit and sys.function inside the body" = "
    g <- function(a) a
    f <- function() { on.exit(cat('exit\\n')); s <- 0; for (i in 1:3) { g(if (i == 3) break); s <- s + length(sys.function()) }; s }
    f()"
))

expect_all_same(list(
  "loop context in an optimized function: the body's stores are seen after it" = "
    g <- function(a) a
    f <- function(n) {
      s <- 0; k <- 1; x <- numeric(0)
      for (i in 1:n) {
        g(if (i > 3) break)
        s <- s + i * k; k <- k + 1; x[i] <- s
        g(if (k %% 2 == 0) next)
        s <- s + 0.5
      }
      list(s, k, i, x)
    }
    w <- function(n) { j <- 0; t <- 0; while (j < n) { j <- j + 1; t <- t + j; g(if (t > 10) break) }; c(j, t) }
    list(lapply(1:6, f), lapply(1:8, w))
  "
))

test_that("loops with break/next behind a promise are compiled, not left to GNU R", {
  g <- function(a) a
  f <- rir::compile(function() {
    r <- 0
    for (i in 1:5) { r <- r + i; g(if (i > 2) break) }
    while (TRUE) g(break)
    repeat g(break)
    r
  })
  before <- rir::stats()[["ast_evals"]]
  expect_identical(f(), 6)
  expect_identical(rir::stats()[["ast_evals"]], before)
  utils::capture.output(listing <- rir::disassemble(f))
  expect_true(any(grepl("loop_body", listing)))
})

# A call named eval, evalq or source in a loop body may evaluate the loop's
# break/next (GNU R's compiler gives such a loop a context; so does rir).
expect_all_same(list(
  "loop context: break and next evaluated by eval(), evalq(), local()" = "
    g <- function(n) { out <- 0; for (i in 1:n) { eval(quote(if (i == 3) break)); out <- i }; out }
    g2 <- function(n) { out <- 0; for (i in 1:n) { evalq(if (i == 3) next); out <- out + i }; out }
    g3 <- function(n) {
      out <- 0; i <- 0
      while (i < n) { i <- i + 1; local(if (i == 3) break, envir = environment()); out <- i }
      out
    }
    g4 <- function(n) { out <- 0; repeat { out <- out + 1; print(eval(quote(if (out >= n) break else out))) }; out }
    h <- function(x) x
    g5 <- function(n) { out <- 0; for (i in 1:n) { h(if (i == 3) next); out <- out + i }; out }
    r <- list()
    for (k in 1:5) r[[k]] <- tryCatch(list(g(k), g2(k), g3(k), g4(k), g5(k)), error = function(e) conditionMessage(e))
    r",
  "loop context: eval() inside an argument, nested loops, a function in the body" = "
    f <- function(n) {
      res <- c()
      for (a in 1:n) {
        for (b in 1:3) { res <- c(res, identity(eval(quote(if (b == 2) next else b)))) }
        res <- c(res, length(sapply(1:2, function(j) eval(quote(j)))))
        if (a == 2) eval(quote(break))
      }
      res
    }
    lapply(1:4, f)"
))

test_that("a loop whose body calls eval() runs in a loop context", {
  f <- rir::compile(function(n) { out <- 0; for (i in 1:n) { eval(quote(if (i == 3) break)); out <- i }; out })
  expect_identical(vapply(1:5, f, 0), c(1, 2, 2, 2, 2))
  utils::capture.output(listing <- rir::disassemble(f))
  expect_true(any(grepl("loop_body", listing)))
})
