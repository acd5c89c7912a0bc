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
