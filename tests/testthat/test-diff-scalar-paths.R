# The interpreter's quick paths for scalar arithmetic and comparisons
# (ld2_binop with operands read in place, results written into the assigned
# variable's old scalar, comparisons branching at once) and the vector-index
# element store: every case they take and every case they must leave to the
# general path, against GNU R.

expect_all_same(list(
  "quick: integer, double and mixed operands" = "
    f <- function(a, b) {
      r <- list(a + b, a - b, a * b, a / b, a ^ b, a %% b, a %/% b,
                a < b, a <= b, a > b, a >= b, a == b, a != b)
      x <- a; x <- x + b; y <- a; y <- b * y
      c(r, x, y)
    }
    list(f(7L, 2L), f(7, 2), f(7L, 2.5), f(2.5, 7L), f(-7L, 2L), f(7L, 0L),
         f(7, 0), f(-7, 0), f(0L, 0L), f(0, 0), f(.Machine$integer.max, 1L),
         f(-.Machine$integer.max, -1L), f(46341L, 46341L), f(2L, 31L), f(1e308, 10))",
  "quick: NA and NaN operands take the general path" = "
    f <- function(a, b) list(a + b, a < b, a == b, a %/% b, a %% b, a - b)
    list(f(NA_integer_, 1L), f(1L, NA_integer_), f(NA_real_, 1), f(NaN, 1),
         f(1, NaN), f(NA_integer_, 1.5), f(2.5, NA_integer_), f(NA, 1L), f(Inf, -Inf))",
  "quick: attributes, vectors, objects and other types" = "
    f <- function(a, b) { r <- a + b; s <- a < b; list(r, s) }
    list(f(c(x = 1), 2), f(1:2, 3L), f(TRUE, 1L), f(1L, FALSE), f(1+2i, 1),
         f(structure(1, class = 'foo'), 2), f(matrix(1), 2), f(as.raw(1), 1))",
  "quick: integer overflow warns and gives NA" = "
    f <- function(n) { x <- n; x <- x * 2L; x <- x + 1L; x }
    list(f(2L), f(.Machine$integer.max), f(-.Machine$integer.max))",
  "quick: comparisons in if and while conditions" = "
    f <- function(n) {
      i <- 0L; k <- 0; out <- character()
      while (i < n) { i <- i + 1L; if (i %% 2L == 0L) k <- k + i else k <- k - 0.5 }
      if (k > 3) out <- 'big' else out <- 'small'
      if (n >= 2.5 && k != 0) out <- c(out, 'nz')
      list(i, k, out)
    }
    list(f(0L), f(1L), f(5L), f(6), f(2.5))",
  "quick: NA conditions still raise GNU R's errors" = "
    f <- function(a) { if (a < 1L) 'lt' else 'ge' }
    g <- function(a) { i <- 0; while (i < a) i <- i + 1; i }
    list(f(0L), try(f(NA_integer_), silent = TRUE), g(3), try(g(NA_real_), silent = TRUE))",
  "quick: in-place result never changes another reference" = "
    f <- function() {
      x <- 1; y <- x; x <- x + 1
      z <- 2L; l <- list(z); z <- z * 3L
      w <- 5; e <- environment(); h <- function() w; w <- w - 1
      u <- 1.5; v <- c(u, u <- u + 1, u)
      list(x, y, z, l, w, h(), u, v)
    }
    list(f(), f())",
  "quick: in-place result and promises, closures and <<-" = "
    f <- function() {
      x <- 10
      g <- function(p) { x <<- x + 1; p }
      r <- g(x)
      k <- function() x
      x <- x * 2
      list(r, x, k())
    }
    h <- function(a) { a <- a + 1; a }
    v <- 3; list(f(), h(v), v, f())",
  "quick: for variable and loop counters" = "
    f <- function(v) {
      s <- 0; t <- 0L
      for (i in v) { s <- s + i; t <- t + 1L; if (i > 2) next; s <- s * 1.5 }
      list(s, t, i)
    }
    list(f(1:5), f(c(0.5, 2.5, 4.5)), f(integer()), f(seq(10, 1, by = -3)))",
  "vector-index stores: plain, recycled, mixed types and fallbacks" = "
    f <- function() {
      x <- numeric(6); i <- c(2L, 4L, 6L)
      x[i] <- c(1, 2, 3); a <- x
      x[i] <- 7L; b <- x
      x[c(1, 3)] <- c(0.5, 1.5); d <- x
      y <- integer(4); y[c(1L, 4L)] <- 9L; y[2:3] <- 1:2
      z <- logical(3); z[c(1L, 3L)] <- c(TRUE, NA)
      s <- character(3); s[c(3L, 1L)] <- c('a', 'b')
      l <- vector('list', 3); l[c(2L, 3L)] <- list(1, 'x')
      w <- 1:4; w[c(2L, 3L)] <- c(0.5, 1.5)
      o <- numeric(3); o[c(1L, 5L)] <- 1
      q <- numeric(4); q[1:2] <- 1:4
      list(a, b, d, y, z, s, l, w, o, q)
    }
    list(f(), f())",
  "vector-index stores: shared values are copied" = "
    f <- function() {
      x <- c(1, 2, 3, 4); y <- x
      x[c(1L, 2L)] <- c(10, 20)
      g <- function(v) { v[c(2L, 3L)] <- 0; v }
      z <- g(x)
      m <- c(5, 6, 7); k <- function() m; m[2:3] <- c(60, 70)
      list(x, y, z, m, k())
    }
    list(f(), f())",
  "vector-index stores: ALTREP values and indices" = "
    f <- function() {
      x <- numeric(10); x[3:7] <- 1:5
      y <- integer(10); y[seq(2L, 10L, by = 2L)] <- 1:5
      v <- as.double(1:3); z <- numeric(5); z[c(5L, 1L, 3L)] <- v
      list(x, y, z)
    }
    list(f(), f())"
))

expect_all_same(list(
  "m[i, j] fused read: element types and index kinds" = "
    f <- function() {
      m <- matrix(c(1.5, 2.5, 3.5, 4.5, 5.5, 6.5), 2); mi <- matrix(1:6, 3)
      ml <- matrix(c(TRUE, NA, FALSE, TRUE), 2); ms <- matrix(letters[1:4], 2)
      mL <- matrix(list(1, 'a', 2:3, NULL), 2)
      i <- 2L; j <- 3; k <- 1.9
      list(m[i, j], m[1, 2], m[2L, 1L], mi[i, 2], mi[3, 1], ml[i, 1], ml[1, 2], ms[2, 2],
           mL[[1, 2]], mL[2, 2], mL[[2, 1]], m[k, 1], m[[i, j]], mi[[3, 2]])
    }
    list(f(), f())",
  "m[i, j] fused read: what it leaves to GNU R's operator" = "
    f <- function(i, j) {
      m <- matrix(1:6, 2, dimnames = list(c('a', 'b'), NULL)); p <- matrix(1:4, 2)
      r <- list(m[i, j], m['b', 1], p[i, ], p[, j])
      r <- c(r, list(try(p[3, 1], silent = TRUE), try(p[1, 0], silent = TRUE), p[NA, 1],
                     p[-1, 2], try(p[[5, 1]], silent = TRUE), p[1.5, 2.9]))
      o <- structure(p, class = 'myc'); `[.myc` <- function(x, i, j) 'dispatched'
      c(r, o[1, 1], list(try(q[1, 1], silent = TRUE)))
    }
    list(f(1L, 2L), f(2, 1))",
  "m[i, j] fused read: missing and promise indices" = "
    g <- function(m, i, j) m[i, j]
    p <- matrix(1:6, 2)
    h <- function(i) { m <- p; m[i, 2] }
    list(g(p, 2, 3), g(p, , 2), g(p, 1, ), h(), h(2), g(p, 1 + 1, 3))",
  "m[i, j] in numeric loops" = "
    f <- function(n) {
      m <- matrix(0, n, n)
      for (j in seq_len(n)) for (i in seq_len(n)) m[i, j] <- i * j - 0.5
      s <- 0; t <- 0L; mi <- matrix(seq_len(n * n), n)
      for (i in seq_len(n)) for (j in seq_len(n)) { s <- s + m[i, j]; t <- t + mi[j, i] }
      list(s, t, m[n, 1])
    }
    list(f(4), f(7))",
  "m[i, j] <- v in place and where it may not be" = "
    f <- function(n, i0, j0, v) {
      m <- matrix(0, n, n); mi <- matrix(0L, n, n)
      for (j in seq_len(n)) for (i in seq_len(n)) { m[i, j] <- i * j; mi[i, j] <- i + j }
      shared <- m; m[1, 1] <- -1
      r <- list(m, mi, shared[1, 1])
      # an integer matrix takes a double (coerced), a double one NA_integer_
      mi[1, 2] <- 2.5; m[2, 1] <- NA_integer_
      # real indices truncate; out of range, 0, negative, NA go to GNU R
      m[1.9, 2.2] <- 7
      r <- c(r, list(mi, m, try(m[n + 1, 1] <- 1, silent = TRUE), try(m[i0, j0] <- v, silent = TRUE)))
      m[0, 1] <- 5; m[-1, 1] <- 3; mi[NA, 1] <- 1L
      d <- matrix(1:4, 2, dimnames = list(c('a', 'b'), NULL)); d[2, 2] <- 9L
      o <- structure(matrix(0, 2, 2), class = 'mm'); o[1, 1] <- 1
      a <- array(0, c(2, 2, 2)); a <- try(a[2, 2] <- 1, silent = TRUE)
      c(r, list(m, mi, d, unclass(o), a))
    }
    list(f(3, 2, 3, 8), f(4, 5, 1, 1), f(2, 1, 1, 'x'))"
,
  "integer results kept unboxed: in-place stores, aliases and overflow" = "
    f <- function(n, step) {
      k <- 1L; cnt <- 0L; seen <- NULL; prev <- 0L
      while (k < n) {
        prev <- k
        k <- k + step
        cnt <- cnt + 1L
        if (cnt == 3L) seen <- k
      }
      list(k, cnt, seen, prev, identical(prev + step, k))
    }
    g <- function(n) {
      acc <- 0L; log <- integer(0)
      for (i in seq_len(n)) {
        acc <- acc + i * i
        if (i %% 4L == 0L) log <- c(log, acc)
      }
      list(acc, log)
    }
    big <- function(x) { for (i in 1:3) x <- x + 1000000000L; x }
    list(f(100L, 7L), f(10L, 1L), g(10L), g(20L), big(1L), big(200000000L))
  ",
  "element stores of logical, integer and double scalars, one and two indices" = "
    sieve <- function(size) {
      flags <- rep(TRUE, size)
      count <- 0
      for (i in 2:size) {
        if (flags[i - 1]) {
          count <- count + 1
          k <- i + i
          while (k <= size) { flags[k - 1] <- FALSE; k <- k + i }
        }
      }
      list(count, which(!flags)[1:5])
    }
    fill <- function(n, na_at) {
      x <- numeric(n); xi <- integer(n); l <- logical(n)
      m <- matrix(0, n, 2); mi <- matrix(0L, n, 2); ml <- matrix(FALSE, n, 2)
      for (i in seq_len(n)) {
        v <- if (i == na_at) NA_integer_ else i * 2L
        x[i] <- v; xi[i] <- v; l[i] <- i %% 2L == 0L
        m[i, 2] <- v; mi[i, 1] <- v; ml[i, 2] <- i > 2L
      }
      keep <- mi; mi[1, 1] <- -1L
      list(x, xi, l, m, mi, ml, keep)
    }
    list(sieve(200), fill(5, 3), fill(4, 0))
  "
))
