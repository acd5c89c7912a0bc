# Differential tests for .Internal(lapply(X, FUN)) run by rir
# (src/bc/apply_internals.cpp) and the functions built on it.

expect_all_same(list(
  "lapply: lists, atomic vectors, names" = "
    list(lapply(list(a = 1, b = 'x', 3:4), function(v) v), lapply(c(u = 1.5, v = 2), function(x) x * 2),
         lapply(1:3, function(i) i), lapply(c(TRUE, NA), function(b) b), lapply(letters[1:2], toupper),
         lapply(NULL, function(x) x), lapply(list(), length))",
  "lapply: dots, named and missing" = "
    f <- function(x, y = 10, ...) c(x, y, ...length())
    list(lapply(1:2, f, 5), lapply(1:2, f, y = 7, 8, 9), sapply(1:3, f, 1))",
  "lapply: calls, frames and the index" = "
    lapply(1:2, function(x) list(sys.call(), get('i', parent.frame()), ls(parent.frame()), nargs()))",
  "lapply: objects, expressions, raw and complex" = "
    d <- data.frame(a = 1:2, b = c('x', 'y'))
    list(lapply(d, class), lapply(factor(c('p', 'q')), as.character), lapply(expression(1 + 2, x), class),
         lapply(as.raw(1:2), as.integer), lapply(c(1i, 2), Mod))",
  "lapply: primitive and builtin functions" = "
    list(lapply(list(1:3, 4:5), length), lapply(list(1, 2), `-`), lapply(1:2, `+`, 10), lapply(c(a = 4), sqrt))",
  "lapply: errors and warnings in FUN" = "
    list(tryCatch(lapply(1:3, function(x) if (x == 2) stop('at ', x) else x), error = function(e) list(conditionMessage(e), deparse(conditionCall(e)))),
         lapply(c(-1, 4), function(x) sqrt(x)))",
  "lapply: FUN returning its argument, results unshared" = "
    l <- list(c(1, 2), c(3, 4))
    r <- lapply(l, function(v) v)
    r[[1]][1] <- 100
    l2 <- lapply(l, function(v) { v[2] <- 0; v })
    list(l, r, l2)",
  "lapply: FUN changes X and FUN in lapply's frame" = "
    g <- function(x) { e <- parent.frame(); if (x == 1) e$X <- list(10, 20, 30); x }
    h <- function(x) { e <- parent.frame(); if (x == 1) e$FUN <- function(z) -z; x }
    list(lapply(list(1, 2, 3), g), lapply(list(1, 2, 3), h))",
  "lapply: nested, recursive and in closures" = "
    tree <- function(d) if (d == 0) 1 else lapply(1:2, function(k) tree(d - 1))
    f <- function(n) { base <- 100; unlist(lapply(seq_len(n), function(i) base + i)) }
    list(tree(2), f(3), sapply(1:3, function(i) sapply(1:2, function(j) i * j)))",
  "lapply: the index captured or removed by FUN" = "
    f1 <- function(x) parent.frame()$i
    f2 <- function(x) { e <- parent.frame(); if (x == 1) { ii <<- e$i; e$i[] <- e$i }; x }
    f3 <- function(x) { e <- parent.frame(); if (x == 2) rm('i', envir = e); x }
    list(unlist(lapply(1:3, f1)), unlist(lapply(1:3, f2)), ii, unlist(lapply(1:3, f3)))",
  "lapply: visibility and invisible results" = "
    withVisible(lapply(1:2, function(x) invisible(x)))",
  "lapply: Map, Filter and vapply on top" = "
    list(Filter(function(x) x > 1, list(1, 2, 3)), Map(function(a, b) a + b, 1:2, 3:4),
         vapply(1:3, function(x) x * 2, numeric(1)), Reduce(`+`, lapply(1:4, function(i) i^2)))"
))

expect_all_same(list(
  "vapply: types, coercion and names" = "
    list(vapply(1:3, function(x) x / 2, numeric(1)), vapply(c(a = 1, b = 2), function(x) x > 1, logical(1)),
         vapply(letters[1:3], toupper, ''), vapply(letters[1:2], nchar, 1L, USE.NAMES = FALSE),
         vapply(1:3, function(x) x %% 2 == 0, 1), vapply(1:2, function(x) TRUE, 1i),
         vapply(list(1, 'a'), function(x) list(x), list(1)), vapply(as.raw(1:3), function(r) r, as.raw(0)),
         vapply(integer(), function(x) x, 1), vapply(NULL, function(x) x, 'a'))",
  "vapply: matrix and array results with dimnames" = "
    list(vapply(1:3, function(x) c(min = x, max = x * 2), c(min = 0, max = 0)),
         vapply(c(p = 1, q = 2), function(x) c(x, -x), numeric(2)),
         vapply(1:2, function(x) matrix(x, 2, 2), matrix(0, 2, 2)),
         vapply(c(u = 1), function(x) matrix(x, 1, 2, dimnames = list('r', c('a', 'b'))), matrix(0, 1, 2)),
         vapply(1:2, function(x) numeric(), numeric()), vapply(1:2, function(x) x, c(a = 1)))",
  "vapply: wrong length, wrong type, bad FUN.VALUE and USE.NAMES" = "
    e <- function(expr) tryCatch(expr, error = function(e) list(conditionMessage(e), deparse(conditionCall(e))))
    list(e(vapply(1:3, function(x) if (x == 2) 1:2 else x, 1)), e(vapply(1:2, function(x) 'a', 1)),
         e(vapply(1:2, function(x) 1.5, 1L)), e(vapply(1:2, function(x) x, quote(a))),
         e(vapply(1:2, function(x) x, 1, USE.NAMES = NA)), e(vapply(1:2, function(x) x, sum)),
         e(vapply(1:2, function(x) NULL, 1)))",
  "vapply: dots, the index, FUN changing X or i" = "
    f <- function(x, y, ...) x + y + ...length()
    g <- function(x) { e <- parent.frame(); if (x == 1) e$X <- c(10, 20, 30); x }
    h <- function(x) { e <- parent.frame(); if (x == 1) { ii <<- e$i }; x }
    k <- function(x) { e <- parent.frame(); if (x == 1) assign('i', 3L, envir = e); x }
    list(vapply(1:3, f, 1, 10), vapply(1:3, f, 1, y = 1, 2, 3), vapply(c(1, 2, 3), g, 1),
         vapply(1:3, h, 1), ii, vapply(1:3, function(x) get('i', parent.frame()), 1L),
         tryCatch(vapply(1:3, k, 1), error = conditionMessage))",
  "vapply: objects, data frames, factors and primitives" = "
    d <- data.frame(a = 1:2, b = c(2.5, 3))
    list(vapply(d, mean, 1), vapply(factor(c('x', 'y')), as.character, ''), vapply(list(1:3, 4:5), length, 1L),
         vapply(c(4, 9), sqrt, 1), vapply(1:3, function(x) x, 1, USE.NAMES = TRUE))",
  "vapply: errors, warnings and nesting" = "
    list(tryCatch(vapply(1:3, function(x) if (x == 2) stop('bad ', x) else x, 1), error = conditionMessage),
         vapply(c(-1, 4), function(x) sqrt(x), 1),
         vapply(1:2, function(i) vapply(1:3, function(j) i * j, 1), numeric(3)))"
))

expect_all_same(list(
  "mapply / Map: recycling, names and MoreArgs" = "
    list(Map(function(a, b) a * b, 1:3, c(x = 2, y = 3, z = 4)), mapply(function(a, b) a + b, 1:4, 1:2),
         mapply(rep, 1:3, 3:1), mapply(function(x, y, z) paste(x, y, z), c(a = 'p', b = 'q'), 'r', MoreArgs = list(z = '!')),
         mapply(function(...) sum(...), 1:2, 3:4, 5:6), Map(`+`, 1:2, 3:4), mapply(function(x, y) x, list(a = 1, 2), 1:2),
         mapply(function(first, second) first - second, second = 1:2, first = 10),
         mapply(function(x, y) c(x, y), 1:2, 3:4, SIMPLIFY = FALSE, USE.NAMES = FALSE))",
  "mapply: zero-length, NULL and the recycling warning" = "
    list(mapply(function(a, b) a, integer(), 1:3), mapply(function(a, b) a, NULL, NULL), Map(function(x) x, NULL),
         mapply(function(a, b) a + b, 1:3, 1:2), mapply(function() 1), Map(function(a, b) b, list(), 1:2))",
  "mapply: objects, factors, data frames and errors" = "
    list(mapply(function(d, n) format(d + n), as.Date('2020-01-01') + 0:1, 1:2),
         mapply(function(f, g) paste(f, g), factor(c('u', 'v')), c('w', 'x')),
         Map(function(col, nm) c(nm, class(col)), data.frame(a = 1, b = 'z'), c('A', 'B')),
         tryCatch(mapply(function(a) stop('no ', a), 1:2), error = function(e) list(conditionMessage(e), deparse(conditionCall(e)))),
         tryCatch(mapply(function(a) a, 1:2, MoreArgs = 3), error = conditionMessage))",
  "mapply: calls, substitute and MoreArgs that are language objects" = "
    list(mapply(function(a, b) deparse(substitute(a)), 1:2, 3:4), Map(function(a) sys.call(), 1:2),
         mapply(function(a, b) b, 1:2, MoreArgs = list(b = quote(dots))),
         mapply(function(a, ...) nargs(), 1:2, MoreArgs = list(3, 4)))",
  "mapply: FUN changing dots in mapply's frame" = "
    h <- function(a) { e <- parent.frame(); if (a == 1) e$dots <- list(c(10, 20, 30)); a }
    mapply(h, c(1, 2, 3))"
))

# Found by review (2026-11-23): FUN replacing mapply's argument vectors, a
# pairlist MoreArgs, and `...` that is not a dots list.
expect_all_same(list(
  "mapply: FUN replaces or changes dots in mapply's frame" = "
    e <- function(expr) tryCatch(expr, error = function(e) list(conditionMessage(e), deparse(conditionCall(e))))
    f <- function() mapply(function(x) { eval.parent(quote(dots[[1]] <- 1)); x }, 1:3)
    f5 <- function() mapply(function(x) { eval.parent(quote(dots[[1]] <- list())); x }, 1:5)
    h <- function() mapply(function(x) { eval.parent(quote(dots[[1]] <- as.complex(11:13))); x }, 1:3)
    g <- function() mapply(function(x) { eval.parent(quote(dots[[1]] <- factor(c('a', 'b', 'c')))); x }, 1:3, SIMPLIFY = FALSE)
    k <- function() mapply(function(x) { eval.parent(quote(dots[[1]][3] <- 30L)); x }, 1:3)
    list(e(f()), e(f5()), h(), g(), k())",
  "mapply: MoreArgs as a pairlist or an expression" = "
    e <- function(expr) tryCatch(expr, error = function(e) list(conditionMessage(e), deparse(conditionCall(e))))
    list(e(mapply(function(x, y) y, 1:2, MoreArgs = pairlist(y = 3))),
         e(mapply(function(x, y) y, 1:2, MoreArgs = expression(y = 3))))",
  "lapply / vapply: `...` rebound or missing in the frame" = "
    e <- function(expr) tryCatch(expr, error = function(e) list(conditionMessage(e), deparse(conditionCall(e))))
    a5 <- function() lapply(1:3, function(x) { assign('...', 1, envir = parent.frame()); x })
    v5 <- function() vapply(1:3, function(x) { assign('...', 1, envir = parent.frame()); x }, 1)
    i6 <- function() { X <- 1:2; FUN <- function(x) x * 2; .Internal(lapply(X, FUN)) }
    list(e(a5()), e(v5()), e(i6()))"
))

test_that("R_alloc'd memory of builtins called in rir loops is released", {
  f <- rir::compile(function(n) {
    for (k in seq_len(n)) mapply(function(x) x, 1:2)
    0
  })
  max_vcells_mb <- function(n) {
    invisible(gc(reset = TRUE))
    f(n)
    gc()[2, 6]
  }
  small <- max_vcells_mb(1e4)
  large <- max_vcells_mb(1e5)
  expect_lt(large - small, 0.5)
})
