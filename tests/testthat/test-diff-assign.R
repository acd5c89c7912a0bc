# Differential tests for the in-place element assignments rir does itself
# (names as indices, list values, copies of shared values, arguments).

expect_all_same(list(
  "assign: x[['name']] <- v on a list" = "
    x <- list(a = 1, b = 'two'); x[['b']] <- 3; x[['a']] <- NULL; x",
  "assign: x['name'] <- list(v) on a list" = "
    x <- list(size = 1, nxt = 2); x['nxt'] <- list(NULL); y <- x; y['size'] <- list(list(9)); list(x, y)",
  "assign: x[i] <- list(v) and x[i] <- NULL" = "
    x <- list(1, 2, 3); x[2] <- list('b'); x[3] <- list(NULL); z <- x; z[1] <- NULL; list(x, z)",
  "assign: names on atomic vectors" = "
    v <- c(a = 1, b = 2); v[['b']] <- 20; v['a'] <- 10L; v['c'] <- 3; v",
  "assign: unknown, NA and non-ASCII names fall back" = "
    x <- list(a = 1); x[['zz']] <- 2; x[[NA_character_]] <- 3; names(x)[1] <- '\\u00e9'; x[['\\u00e9']] <- 4; x",
  "assign: shared values are copied" = "
    x <- c(1, 2, 3); y <- x; x[2] <- 20; l <- list(1, 2); l2 <- l; l2[[1]] <- 'one'; list(x, y, l, l2)",
  "assign: arguments are copied, callers unchanged" = "
    f <- function(v) { v[2] <- 0; v[['a']] <- 5; v }
    a <- c(a = 1, b = 2, c = 3)
    list(f(a), a, f(c(a = 7, b = 8)))",
  "assign: in a loop after the first copy" = "
    g <- function(v) { for (i in seq_along(v)) v[i] <- v[i] * 2; v }
    a <- c(1.5, 2.5); list(g(a), a)",
  "assign: type changes fall back" = "
    x <- 1:3; x[2] <- 2.5; y <- c(TRUE, FALSE); y[1] <- 2L; z <- c('a', 'b'); z[[2]] <- 1; list(x, y, z)",
  "assign: environment member, shared" = "
    e <- new.env(); e$v <- c(1, 2, 3); keep <- e$v; e$v[2] <- 0; e$v[['x']] <- 1; list(e$v, keep)",
  "assign: matrix element" = "
    m <- matrix(1:6, 2); m2 <- m; m[2, 3] <- 0L; list(m, m2)",
  "read: x[['name']] on lists and vectors" = "
    x <- list(a = 1, b = list(c = 2)); v <- c(p = 1.5, q = 2.5)
    list(x[['b']][['c']], v[['q']], x[['nope']], tryCatch(v[['nope']], error = function(e) conditionMessage(e)))",
  "read: x[['name']] on a pairlist and an object" = "
    p <- pairlist(a = 1, b = 2); d <- data.frame(u = 1:2)
    list(p[['b']], d[['u']])"
))

expect_all_same(list(
  "assign: e[['name']] <- v on environments" = "
    f <- function(e) { e[['a']] <- 1; e[['b']] <- e[['a']] + 1; e }
    g <- function() { h <- new.env(); f(h); sort(ls(h)) }
    list(g(), { e2 <- new.env(); e2[['z']] <- NULL; exists('z', envir = e2) })",
  "assign: e[['name']] <- v on locked environments" = "
    e <- new.env(); e$a <- 1; lockEnvironment(e); e[['a']] <- 2; r <- e$a
    list(r, tryCatch({ e[['new']] <- 1; 'no error' }, error = function(err) conditionMessage(err)))",
  "assign: e[['name']] <- v on a locked binding" = "
    e <- new.env(); e$a <- 1; lockBinding('a', e); e[['a']] <- 2",
  "assign: x[[i]] <<- v" = "
    make <- function() {
      items <- vector('list', 3); n <- 0
      add <- function(v) { n <<- n + 1; items[[n]] <<- v }
      add('a'); add(2); items[2] <<- list('B')
      list(items, n)
    }
    make()",
  "assign: x[i] <<- v copies shared values" = "
    outer <- function() {
      v <- c(1, 2, 3); keep <- v
      inner <- function() v[2] <<- 20
      inner(); list(v, keep)
    }
    outer()",
  "assign: x[i] <<- v on an unbound or global variable" = "
    f <- function() { zz_not_there[1] <<- 1 }
    r <- tryCatch(f(), error = function(e) conditionMessage(e))
    g_vec <- c(5, 6); h <- function() g_vec[2] <<- 60; h()
    list(r, g_vec)",
  "assign: x[[i]] <<- v on an argument of the enclosing function" = "
    outer <- function(v) { inner <- function() v[[1]] <<- 'changed'; inner(); v }
    a <- list('orig'); list(outer(a), a)"
))

expect_all_same(list(
  "assign: general index, x looked up before the index" = "
    f <- function() { x <- c(1, 2, 3); x[{ x <- c(9, 9); 2 }] <- 0; x }
    f()",
  "assign: general index forces the argument first" = "
    f <- function(x) { x[{ cat('index\\n'); 1 }] <- 0; x }
    f({ cat('argument\\n'); c(5, 6) })",
  "assign: general index appends and uses calls" = "
    f <- function() { l <- list(); for (i in 1:4) l[[length(l) + 1]] <- i * 10; v <- 1:3; v[length(v)] <- 0L; list(l, v) }
    f()",
  "assign: general index on environments and lists" = "
    node <- list(name = 'k'); e <- new.env()
    f <- function(env, nd) { env[[nd$name]] <- 42; env[[paste0(nd$name, '2')]] <- 43; mget(c('k', 'k2'), envir = env) }
    f(e, node)",
  "assign: general index on a variable of the enclosing frame" = "
    v <- c(1, 2); f <- function() { v[[sum(1, 1)]] <- 99; v }; list(f(), v)",
  "assign: general index, unbound variable" = "f <- function() { nope_zz[[1 + 0]] <- 1 }; f()",
  "assign: general index with matrix and names" = "
    f <- function() { m <- matrix(0, 2, 2); m[max(1, 2), min(1, 2)] <- 5; x <- c(a = 1); x[[paste0('a')]] <- 2; list(m, x) }
    f()"
))

expect_all_same(list(
  "assign: general index, unbound variable (call)" = "f <- function() { nope_zz[[length(1)]] <- 1 }; f()",
  "assign: simple index on an enclosing variable copies it" = "
    v <- c(1, 2); f <- function() { v[2] <- 99; v }; list(f(), v)"
))

expect_all_same(list(
  "assign: appending grows vectors" = "
    f <- function(n) {
      l <- list(); v <- numeric(0); s <- character(0); iv <- integer(0)
      for (i in seq_len(n)) { l[[i]] <- i; v[i] <- i / 2; s[[length(s) + 1]] <- as.character(i); iv[i] <- i }
      l[length(l) + 1] <- list(NULL)
      list(l, v, s, iv, length(l))
    }
    f(60)",
  "assign: appending past the end and with names falls back" = "
    x <- c(1, 2); x[5] <- 9; y <- c(a = 1); y[[2]] <- 2; z <- 1:2; z[3] <- 0.5; list(x, y, z)",
  "assign: appending to a shared vector" = "
    a <- c(1, 2); b <- a; b[3] <- 3; list(a, b)",
  "assign: appending with options(check.bounds)" = "
    old <- options(check.bounds = TRUE); on.exit(options(old)); x <- c(1, 2); x[3] <- 3; x"
))

expect_all_same(list(
  "assign: X$a$b <- v and X$a[[i]] <- v on lists" = "
    f <- function() {
      st <- list(stats = list(total = 0, last = 0), v = c(1, 2))
      for (i in 1:5) { st$stats$total <- st$stats$total + i; st$stats[['last']] <- i; st$v[2] <- i }
      keep <- st$stats; st$stats$total <- -1
      list(st, keep)
    }
    f()",
  "assign: X$a$b <- v on an environment, new fields and NULL fall back" = "
    e <- new.env(); e$cfg <- list(a = 1)
    f <- function(env) { env$cfg$a <- 2; env$cfg$new <- 3; env$cfg$a <- NULL; env$cfg }
    f(e)",
  "assign: X$a$b <- v on non-lists" = "
    f <- function() { x <- list(a = 1:3); r <- tryCatch({ x$a$b <- 1; x }, error = function(e) conditionMessage(e)); r }
    f()"
))

# x[i] <- v with vector indices: in place (storeVectorIndex), GNU R's `[<-`
# called directly (dfltSubassign), or the whole assignment by GNU R
expect_all_same(list(
  "vector index: in place, recycling, doubles truncated, compact sequences" = "
    x <- c(3L, 1L, 0L, 2L, 4L); y <- c(a = 1.5, b = 2, c = 3); s <- letters[1:4]; l <- list(1, 'a', NULL, 4)
    for (k in 1:2) {
      x[2:4] <- c(9L, 8L, 7L); x[c(1, 5)] <- k; x[seq_len(4)] <- 0:1
      y[c(1.9, 3.2)] <- c(10L, NA); y[2:3] <- -1
      s[c(4, 1)] <- c('z', 'y'); l[2:3] <- list(NULL, 'b')
      m <- matrix(1:6, 2); m[c(2, 4, 6)] <- c(-1L, -2L, -3L)
    }
    list(x, y, s, l, m)",
  "vector index: growing, NA, zero, negative, logical and names" = "
    x <- 1:3; x[4:6] <- 7L; y <- c(1, 2); y[c(1, NA)] <- 5; z <- 1:4; z[c(0, 2)] <- 9L
    w <- 1:4; w[-1] <- 0L; u <- 1:4; u[c(TRUE, FALSE)] <- 0L; n <- c(a = 1, b = 2); n[c('b', 'c')] <- 3
    e <- NULL; e[2:3] <- 'q'; f <- list(); f[2:1] <- list('u', 'v')
    list(x, y, z, w, u, n, e, f)",
  "vector index: coercion, recycling warning, errors" = "
    a <- 1:3; a[2:3] <- c(1.5, 2.5); b <- c(TRUE, FALSE); b[1:2] <- 1:2; d <- 1:4; d[1:3] <- 1:2
    g <- 1:3; g[2:3] <- list(1, 2); h <- list(1, 2); h[1:2] <- 3:4; k <- 1:3; k[1:2] <- NULL
    list(a, b, d, g, h, k,
         tryCatch({ q <- 1:3; q[2:3] <- integer(); q }, error = function(e) conditionMessage(e)),
         tryCatch({ q <- 1:3; q[c(-1, 2)] <- 1L; q }, error = function(e) conditionMessage(e)),
         tryCatch({ q <- 1:3; q[list(1)] <- 1L; q }, error = function(e) conditionMessage(e)))",
  "vector index: aliasing and copies" = "
    x <- 1:5; y <- x; x[2:3] <- 0L; p <- c(3L, 1L, 2L); p[p] <- 1:3
    z <- c(5, 6, 7); z[3:1] <- z; f <- function(v) { v[1:2] <- 0; v }; w <- c(1, 2, 3)
    l <- list(1, 2); l[1:2] <- list(l, 3)
    list(x, y, p, z, f(w), w, l)",
  "vector index: factors, objects and matrices as indices or targets" = "
    x <- c(10, 20, 30); x[factor(c('b', 'a'))] <- 0; d <- as.Date('2020-01-01') + 0:2; d[2:3] <- d[1]
    m <- matrix(0, 2, 2); m[cbind(1:2, 1:2)] <- c(5, 6); fa <- factor(c('u', 'v', 'u')); fa[2:3] <- 'u'
    list(x, d, m, fa)",
  "vector index: indices computed in the statement (start_assign)" = "
    cnt <- integer(6); r <- 5; for (k in 1:3) cnt[2:r] <- 2:r
    v <- 1:6; v[v > 3] <- 0L; w <- c(1, 2, 3); w[which(w > 1)] <- c(20, 30)
    list(cnt, v, w)"
))

expect_all_same(list(
  "assign and subset: a missing argument as an index is the empty index (GNU R's GETVAR_MISSOK)" = "
    g <- function(a, b) a[b]
    g2 <- function(a, b) a[[b]]
    h <- function(a, bb) g(a, bb)
    h2 <- function(a, ...) g(a, ...)
    h3 <- function(a, ...) a[..1]
    cy <- function(a, b = b) a[b]
    m <- function(a, b) { x <- matrix(1:4, 2); x[b, 1] }
    s1 <- function(a, b) { a[b] <- 0L; a }
    s2 <- function(a, b) { for (i in 1:2) a[b] <- i; a }
    s3 <- function(a, b) { l <- list(v = a); l$v[b] <- 9L; l }
    s4 <- function(a, ...) { a[..1] <- 7L; a }
    s5 <- function(a, b) { m <- matrix(1:4, 2); m[1, b] <- 0L; m }
    t <- function(f, ...) tryCatch(f(...), error = function(e) conditionMessage(e))
    list(t(g, 1:3), t(g2, 1:3), t(h, 1:3), t(h2, 1:3), t(h2, 1:3, ), t(h3, 1:3, ), t(h3, 1:3),
         t(cy, 1:3), t(m), t(s1, 1:3), t(s2, 1:3), t(s3, 1:3), t(s4, 1:3, ), t(s5), t(g, 1:3, 2))"
))
