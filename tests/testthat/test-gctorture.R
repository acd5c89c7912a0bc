# The interpreter under gctorture: every allocation triggers a collection, so
# an unprotected value or a stale node-stack slot shows up as a wrong value or
# a crash.
test_that("core constructs survive gctorture", {
  snippets <- c(
    "s <- 0; for (i in 1:20) s <- s + i * 2; s",
    "f <- function(a, b = 2, ...) a + b + length(list(...)); c(f(1), f(1, 3, 4, 5))",
    "fib <- function(n) if (n < 2) n else fib(n - 1) + fib(n - 2); fib(8)",
    "x <- numeric(5); for (i in 1:5) x[i] <- i^2; x[[3]] <- 7; x",
    "l <- list(a = 1, b = 'x'); l$a + 1",
    "tryCatch(stop('e'), error = function(e) conditionMessage(e))",
    "g <- function() { on.exit(cat('')); r <- lapply(1:3, function(i) i * 2); unlist(r) }; g()",
    "m <- matrix(1:6, 2); m[2, 3] + m[1, 1]",
    "k <- 0; while (k < 10) { k <- k + 1; if (k %% 2 == 0) next }; k",
    "sapply(1:5, function(i) if (i > 2) 'a' else 'b')",
    "h <- function(x) { x[[2]] <- list(1); x }; h(list(1, 2, 3))[[2]]",
    # direct calls, dots, defaults, non-local returns, promises
    "f <- function(x, ..., k = 2) list(x * k, ...); g <- function(...) f(...); g(1, a = 2, k = 3)",
    "f <- function(x) { tryCatch(return(x + 1), error = function(e) 0); 9 }; f(1)",
    "a <- function(x) UseMethod('a'); a.default <- function(x) x * 10; b <- function(v) a(v) + 1; b(2)",
    "f <- function() { on.exit(return(5)); 1 }; f()",
    "f <- function(x) { r <- tryCatch(x, error = function(e) 'e1'); c(r, tryCatch(x, error = function(e) 'e2')) }; suppressWarnings(f(stop('s')))",
    # switch, inlined internals, assignment paths
    "f <- function(x) switch(x, a = , b = 'AB', 'other'); c(f('a'), f('z'), f('b'))",
    "c(inherits(1, 'numeric'), identical(list(1), list(1)), length(vector('list', 3)))",
    "l <- list(); for (i in 1:30) l[[length(l) + 1]] <- i * 2; v <- c(); for (i in 1:30) v[i] <- i; c(sum(unlist(l)), sum(v))",
    "st <- list(s = list(t = 0)); for (i in 1:5) st$s$t <- st$s$t + i; e <- new.env(); e[['k']] <- 3; c(st$s$t, e[['k']])",
    "m <- matrix(c(4, 9, 16, 25), 2); acc <- 0; for (i in 1:2) for (j in 1:2) acc <- acc + sqrt(m[i, j]) * 2; acc",
    # rir's UseMethod, for (v in from:to) ranges
    "g <- function(x, ...) { loc <- 3; UseMethod('g') }; g.b <- function(x, ...) list(.Class, loc, NextMethod()); g.a <- function(x, ...) .Generic; h <- function(o) g(o, 1); h(structure(1, class = c('b', 'a')))",
    "l <- lapply(list(a = 1, b = 2:3, 'z'), function(v, k) list(v, k), k = 2); s <- sapply(1:5, function(i) i * 2); list(l, s)",
    "r <- c(); for (i in 2:4) for (j in (i + 1):5) r <- c(r, i * j); for (k in 3:1) r <- c(r, k); for (z in 1.5:3) r <- c(r, z); r",
    # vapply, mapply, vector-index stores and GNU R's [<- called directly
    "list(vapply(1:4, function(x) c(a = x, b = -x), c(a = 0, b = 0)), vapply(c(p = 1, q = 2), function(x) x > 1, NA))",
    "list(Map(function(a, b) a * b, 1:3, c(x = 2, y = 3, z = 4)), mapply(function(x, y, z) paste(x, y, z), 1:2, 'r', MoreArgs = list(z = '!')))",
    "x <- 1:6; x[2:4] <- c(9L, 8L, 7L); s <- letters[1:4]; s[c(4, 1)] <- c('z', 'y'); l <- list(1, 2); l[2:1] <- list('u', 'v'); list(x, s, l)",
    "x <- 1:3; x[5:6] <- 2.5; y <- NULL; y[2:3] <- 'a'; z <- 1:4; z[z > 2] <- 0L; cnt <- integer(5); for (r in 2:5) cnt[2:r] <- 2:r; list(x, y, z, cnt)",
    # && / || fast and slow paths (non-logical operands, NA, objects), with
    # computed values below them on the stack
    "v <- c(1, 2); a <- list(); for (i in 1:3) a[[i]] <- list(sum(v) * i, i > 1 && v[1] > 0, i > 5 || i < 2, 1 && 2, NA && FALSE, NA || TRUE, i && 0, (i > 1) || 2L); a",
    "f <- function(x) c(x * 2, x > 0 && x < 10, x == 0 || x > 5); list(f(1), f(20), f(0))",
    # guarded base functions: the fallback call after a redefinition
    "h <- function(x) c(length(x) * 2, sqrt(x[1]), is.null(x)); r1 <- h(4); length <- function(x) 99; r2 <- h(4); list(r1, r2)",
    "g <- function() { assign('sum', function(...) 'mine'); sum(1:3) }; list(g(), sum(1:3))",
    # S3 dispatch with .class2 (implicit classes)
    "k <- function(x) UseMethod('k'); k.integer <- function(x) 'int'; k.numeric <- function(x) 'num'; k.matrix <- function(x) 'mat'; k.default <- function(x) 'dflt'; list(k(1L), k(1.5), k(matrix(1:4, 2)), k('a'))",
    # the in-place rule (operands keep their values), complex assignments
    # with the *tmp* protocol, ..N, fused subsets of local vectors
    "x <- 2; y <- list(x, {x <- x + 1; x}, x + (x <- 10)); v <- c(1, 2); w <- list(v, {v[1] <- 5; v}); l <- list(1, 2); l[[3]] <- l; list(y, w, l)",
    "x <- 1:4; names(x) <- letters[1:4]; names(x)[2] <- 'B'; attr(x, 'k') <- list(1); l <- list(a = list(b = 1)); l$a$b <- 2; f <- factor(c('p', 'q')); levels(f) <- c('P', 'Q'); `sec<-` <- function(x, value) { x[2] <- value; x }; z <- 1:3; sec(z) <- 0L; list(x, l, f, z)",
    "g <- function(...) ..1 + ..2; h <- function(d) { d['n'] <- list(3); d }; list(g(1, 2), h(list(a = 1)))",
    "a <- as.double(1:20); b <- seq(0.5, 10, by = 0.5); ab <- double(40); for (i in 1:20) for (j in 1:20) ab[i + j] <- ab[i + j] + a[i] * b[j]; sum(ab)",
    # the scalar quick paths (operands read in place, results written into
    # the assigned scalar or a scratch object, mixed integer/double) and
    # vector-index stores through data pointers
    "f <- function(n) { i <- 0L; s <- 0; while (i < n) { i <- i + 1L; s <- s + i / 2; t <- (s * 2 - i) + (i %/% 3L) }; list(i, s, t) }; f(12)",
    "x <- 1; y <- x; x <- x + 1; z <- 2L; l <- list(z); z <- z * 3L; u <- 1.5; v <- c(u, u <- u + 1, u); for (k in integer()) 1; list(x, y, z, l, v, k)",
    "x <- numeric(8); x[c(2L, 5L, 8L)] <- c(1.5, 2.5, 3.5); x[c(1, 3)] <- 7L; y <- integer(4); y[3:4] <- 1:2; w <- 1:3; w[c(1L, 3L)] <- c(0.5, 9); list(x, y, w)"
  )
  for (s in snippets) {
    f <- eval(parse(text = paste0("function() {", s, "}"), keep.source = FALSE)[[1]])
    g <- rir::compile(f)
    ref <- f()
    gctorture(TRUE)
    got <- tryCatch(g(), finally = gctorture(FALSE))
    expect_identical(got, ref, label = s)
  }
})
