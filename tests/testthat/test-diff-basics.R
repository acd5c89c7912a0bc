# Differential tests: constants, variables, assignment, control flow.

expect_all_same(list(
  "constants" = "list(1, 2L, 'a', TRUE, NULL, NA, 3i)",
  "arithmetic scalars" = "c(1 + 2, 3L * 4L, 7 / 2, 2^10, 5 %% 3, -7 %/% 2, -(3), !TRUE)",
  "integer overflow warns" = "x <- .Machine$integer.max; x + 1L",
  "NA arithmetic" = "c(NA + 1, NA_integer_ * 2L, NaN > 1, NA == NA)",
  "vector arithmetic and recycling warning" = "1:6 + 1:4",
  "comparison" = "c(1 < 2, 2L >= 3, 'a' == 'a', 'a' != 'b', 1.5 <= 1.5)",
  "logic" = "c(TRUE & FALSE, TRUE | NA, FALSE & NA, !c(TRUE, FALSE))",
  "and or scalars" = "x <- c(TRUE, FALSE, NA); out <- c(); for (a in x) for (b in x) out <- c(out, a && b, a || b); out",
  "and or short circuit" = "f <- function() stop('not evaluated'); c(FALSE && f(), TRUE || f())",
  "and or numbers" = "c(1 && 2, 0 || 0L, 2.5 && TRUE, NA_integer_ || TRUE)",
  "and or invalid x" = "'a' && TRUE",
  "and or invalid y" = "TRUE && 'b'",
  "and or length two" = "c(TRUE, FALSE) && TRUE",
  "and or in while" = "i <- 0; while (i < 10 && i != 7) i <- i + 1; i",
  "local variables" = "x <- 1; y <- x + 1; z = y * 2; c(x, y, z)",
  "missing object error" = "x <- 1; undefined_var_xyz + x",
  "superassignment" = "x <- 0; g <- function() x <<- x + 1; g(); g(); x",
  "if else" = "x <- 5; if (x > 3) 'big' else 'small'",
  "if without else is invisible NULL" = "if (FALSE) 1",
  "if condition NA error" = "if (NA) 1 else 2",
  "if condition length error" = "if (c(TRUE, FALSE)) 1",
  "if condition string" = "if ('TRUE') 1 else 2",
  "if condition not logical" = "if ('abc') 1",
  "if zero length" = "if (logical(0)) 1",
  "for over vector" = "s <- 0; for (i in 1:10) s <- s + i; s",
  "for value invisible" = "for (i in 1:3) i",
  "for over list" = "out <- character(); for (e in list(1, 'a', TRUE)) out <- c(out, class(e)); out",
  "for over NULL" = "n <- 0; for (i in NULL) n <- n + 1; n",
  "for over factor" = "r <- c(); for (l in factor(c('b', 'a', 'b'))) r <- c(r, l); r",
  "for over seq_len" = "s <- 0; for (i in seq_len(5)) s <- s + i * i; s",
  "for invalid sequence" = "for (i in environment()) 1",
  "for loop var after loop" = "for (i in 1:3) {}; i",
  "while with break" = "i <- 0; while (TRUE) { i <- i + 1; if (i >= 5) break }; i",
  "while with next" = "i <- 0; s <- 0; while (i < 10) { i <- i + 1; if (i %% 2 == 0) next; s <- s + i }; s",
  "repeat" = "i <- 0; repeat { i <- i + 1; if (i == 7) break }; i",
  "nested loops break" = "n <- 0; for (i in 1:5) for (j in 1:5) { if (j > i) break; n <- n + 1 }; n",
  "break inside promise" = "r <- 0; for (i in 1:5) { r <- i; tryCatch(if (i == 3) break, error = function(e) NULL) }; r",
  "switch" = "f <- function(x) switch(x, a = , b = 'AB', c = 'C', 'other'); c(f('a'), f('b'), f('c'), f('z'))",
  "switch numeric" = "switch(2, 'a', 'b', 'c')",
  "switch no match invisible" = "switch('q', a = 1)",
  "braces and parens" = "x <- {1; 2; 3}; (x)",
  "empty braces" = "{}",
  "invisible assignment" = "x <- 5",
  "parenthesized assignment visible" = "(x <- 5)",
  "invisible function" = "f <- function() invisible(7); f()",
  "return" = "f <- function(x) { if (x) return('early'); 'late' }; c(f(TRUE), f(FALSE))",
  "return invisible" = "f <- function() return(invisible(3)); f()",
  "quote" = "quote(a + b * c)",
  "string assignment target" = "'x' <- 3; x"
))

# In-place update of `x <- x op y` must not change values already taken.
expect_all_same(list(
  "reuse: value captured before update" = "x <- 1; y <- x; x <- x + 1; c(x, y)",
  "reuse: builtin args" = "x <- 1; c(x, x <- x + 1, x)",
  "reuse: nested block" = "x <- 1; x + { x <- x + 1; 2 }",
  "reuse: list element" = "x <- 1; l <- list(x); x <- x * 3; list(l, x)",
  "reuse: closure capture" = "x <- 1; f <- function() x; x <- x + 1; f()",
  "reuse: loop" = "s <- 0L; for (i in 1:10) { s <- s + i; t <- s }; c(s, t)",
  "reuse: promise" = "x <- 1; g <- function(a) { x <<- 5; a }; h <- function() { x <- 2; v <- g(x); x <- x + 1; c(v, x) }; h()",
  "reuse: last statement of a loop body" = "f <- function(n) { i <- 0; keep <- list(); while (i < n) { if (i == 2) keep <- list(i); i <- i + 1 }; list(i, keep) }; f(5)",
  "reuse: last statement in if branches" = "f <- function() { x <- 0; y <- 0; for (k in 1:6) if (k %% 2 == 0) x <- x + k else { y <- x; x <- x - 1 }; c(x, y) }; f()",
  "reuse: block value used" = "f <- function() { x <- 1; z <- { x <- x + 1 }; x <- x + 1; c(x, z) }; f()",
  "reuse: if value used" = "f <- function() { x <- 1; z <- if (TRUE) x <- x * 2; x <- x + 1; c(x, z) }; f()",
  "reuse: body value returned" = "f <- function() { x <- 1; g <- function() { x <- x + 1 }; v <- g(); c(v, g()) }; f()"
))

# Scratch results of nested arithmetic must never be visible twice.
expect_all_same(list(
  "scratch: collected in a list" = "out <- list(); for (i in 1:3) out[[i]] <- (i * 2) + 1; out",
  "scratch: bound then reused" = "v <- c(); for (i in 1:4) { t <- i * 2 + 0; v <- c(v, t) }; v",
  "scratch: returned" = "f <- function(i) (i * 2) + 1; c(f(1), f(2), f(3))",
  "scratch: kept across iterations" = "keep <- NULL; for (i in 1:3) { x <- (i * 10) * 1; if (i == 1) keep <- x }; c(keep, x)",
  "scratch: integer" = "s <- 0L; for (i in 1:5) s <- s + (i * 2L); s",
  "scratch: builtin argument kept" = "f <- function() { keep <- NULL; for (i in 1:3) { v <- invisible(i * 2 + 0.5); if (i == 1) keep <- v }; c(keep, v) }; f()",
  "scratch: builtin argument in a list" = "f <- function() { out <- list(); for (i in 1:3) out[[i]] <- invisible(i * 2 + 0.5); out }; f()",
  "scratch: index of a subset" = "f <- function(x) { s <- 0; for (i in 1:3) s <- s + x[i * 2 - 1] + x[[i + 1L]]; s }; f(c(1, 2, 4, 8, 16, 32))",
  "scratch: index seen by a method" = "f <- function(x) { saved <<- list(); for (i in 1:3) s <- (x)[i * 2 - 1]; saved }; `[.idx` <- function(x, i) { saved[[length(saved) + 1]] <<- i; unclass(x)[i] }; f(structure(1:6, class = 'idx'))",
  "scratch: index seen by a method (symbol)" = "f <- function(x) { saved <<- list(); for (i in 1:3) s <- x[i * 2 - 1]; saved }; `[.idx` <- function(x, i) { saved[[length(saved) + 1]] <<- i; unclass(x)[i] }; f(structure(1:6, class = 'idx'))"
))

# break/next placement: compiled jumps, stack clean-up and GNU R fallbacks.
expect_all_same(list(
  "break inside nested expression" = "s <- 0; for (i in 1:10) s <- s + (if (i > 5) break else i); s",
  "next inside arithmetic" = "s <- 0; for (i in 1:6) { s <- s + (if (i %% 2 == 0) next else i) }; s",
  "break from inner repeat only" = "n <- 0; for (i in 1:3) { repeat { n <- n + 1; if (n %% 2 == 0) break } }; n",
  "next in while inside for" = "out <- c(); for (i in 1:3) { j <- 0; while (j < 3) { j <- j + 1; if (j == 2) next; out <- c(out, i * 10 + j) } }; out",
  "break in switch in loop" = "r <- c(); for (x in c('a', 'b', 'stop', 'c')) switch(x, stop = break, r <- c(r, x)); r",
  "break in sapply closure is an error" = "f <- function() sapply(1:3, function(i) if (i == 2) break else i); tryCatch(f(), error = function(e) 'err')",
  "loop value of break" = "x <- for (i in 1:3) if (i == 2) break; x",
  "while with complex condition" = "i <- 0; while ({i <- i + 1; i < 5}) NULL; i",
  "for modifying its sequence" = "x <- 1:3; s <- 0; for (v in x) { x[2] <- 100L; s <- s + v }; c(s, x)",
  "for over list modifying" = "l <- list(1, 2); r <- 0; for (e in l) { l[[2]] <- 50; r <- r + e }; r",
  "for over from:to ranges" = "f <- function(a, b) { out <- c(); for (i in a:b) out <- c(out, i); list(out, i, typeof(i)) }; list(f(1, 4), f(4L, 1L), f(-2, 2), f(0, 0), f(3, 3L), f(1.5, 4), f(2, 4.5), f(2147483646, 2147483647))",
  "for over from:to: errors and warnings" = "f <- function(a, b) { s <- 0; for (i in a:b) s <- s + i; s }; list(tryCatch(f(NA, 3), error = conditionMessage), tryCatch(f(1, NaN), error = conditionMessage), tryCatch(f(numeric(), 3), error = conditionMessage), f(c(1, 5), 3), f('2', 4), f(TRUE, 3L))",
  "for over from:to: factors and large values" = "f <- function(a, b) { out <- c(); for (i in a:b) out <- c(out, as.character(i)); out }; list(f(factor(c('x', 'y')), factor(c('u', 'v'))), f(-2147483647, -2147483645), f(2147483647, 2147483648), f(1e15, 1e15 + 2))",
  "for over from:to: loop variable captured and modified" = "f <- function(n) { fs <- list(); for (i in 1:n) { fs[[i]] <- local({ k <- i; function() k }); i <- i * 10 }; c(sapply(fs, function(g) g()), i) }; f(3)",
  "for over from:to: nested, break and next" = "f <- function(n) { r <- c(); for (i in 1:(n - 1)) for (j in (i + 1):n) { if (j == 3) next; if (i == 3) break; r <- c(r, i * 10 + j) }; r }; f(5)",
  "for over seq_len, seq_along and rev ranges" = "f <- function(n) { r <- 0; for (i in seq_len(n)) for (j in rev(seq_len(i))) for (k in seq_along(c(3, 4))) r <- r * 2 + i - j + k; list(r, i, j, k) }; f(4)",
  "nested function defined in loop" = "fs <- list(); for (i in 1:3) { local({ j <- i; fs[[j]] <<- function() j }) }; sapply(fs, function(f) f())"
))

expect_all_same(list(
  "peephole: loops and constants as statements" = "
    f <- function(n) { 1; NULL; for (i in seq_len(n)) {}; while (FALSE) 2; 'x'; n }
    g <- function(n) for (i in seq_len(n)) {}
    h <- function() { x <- 3 }
    list(f(3), withVisible(g(2)), withVisible(h()))",
  "scratch results: subsets, sqrt and arithmetic feeding stores" = "
    f <- function(v, m) {
      out <- numeric(length(v)); acc <- 0
      for (i in seq_along(v)) { acc <- acc + v[i] * sqrt(m[i, 1]); out[i] <- acc * 2 + v[i] }
      keep <- v[2] * 1; l <- list(); l[[1]] <- v[1] + 0; l[[2]] <- v[1] + 0
      list(out, acc, keep, l, identical(l[[1]], l[[2]]))
    }
    f(c(1.5, 2.5, 4), matrix(c(4, 9, 16, 1, 1, 1), 3))",
  "e[['name']] reads" = "
    e <- new.env(); e$a <- 1; delayedAssign('lazy', { cat('forced\\n'); 7 }, assign.env = e)
    f <- function(env, nm) env[[nm]]
    list(f(e, 'a'), f(e, 'lazy'), f(e, 'lazy'), f(e, 'none'), tryCatch(f(e, 1), error = function(err) conditionMessage(err)))"
))

expect_all_same(list(
  "fused compare-and-branch: if/while conditions" = "
    f <- function(x, y) if (x < y) 'lt' else if (x == y) 'eq' else 'gt'
    g <- function(n) { i <- 0L; k <- 0; while (i < n && k <= 100) { i <- i + 1L; k <- k + 2.5 }; c(i, k) }
    h <- function(x) if (x > 1) 5
    list(f(1, 2), f(2, 2), f(3L, 2.5), g(10L), g(100L), withVisible(h(0)), withVisible(h(2)))",
  "fused compare-and-branch: NA and non-scalar conditions" = "
    f <- function(x) if (x < 1) 'yes' else 'no'
    list(tryCatch(f(NA_real_), error = function(e) conditionMessage(e)),
         tryCatch(f(c(0, 2)), error = function(e) conditionMessage(e)), f(0L), f(5))",
  "fused compare-and-branch: && with NA" = "
    f <- function(a, b) if (a < 1 && b > 2) 'both' else 'not'
    list(f(0, 3), f(0, 1), f(2, 3), tryCatch(f(0, NA), error = function(e) conditionMessage(e)))"
))

expect_all_same(list(
  "negative literals (folded when - is base's)" = "
    f <- function() -3
    g <- function() { `-` <- function(e1, e2) 'mine'; -3 }
    h <- function(x) if (x) -2L else -0.5
    list(withVisible(f()), g(), h(TRUE), h(FALSE), identical(-0, 0), 1 / -0, -(1), - -2L, -1e308 * 10)"
))

expect_all_same(list(
  "type predicates of one argument (is.null, is.character, ...)" = "
    vals <- list(NULL, 1L, 2.5, 'a', TRUE, 1i, as.raw(1), list(1), pairlist(a = 1), quote(s), quote(f(x)),
                 globalenv(), sum, function(x) x, expression(1), factor('u'), structure(1L, class = 'k'))
    f <- function(v) c(is.null(v), is.logical(v), is.integer(v), is.double(v), is.complex(v), is.character(v),
                       is.symbol(v), is.name(v), is.environment(v), is.list(v), is.pairlist(v), is.expression(v),
                       is.raw(v), is.object(v), is.function(v), is.numeric(v), is.atomic(v), is.call(v))
    list(lapply(vals, f), withVisible(is.null(NULL)), tryCatch(is.null(), error = conditionMessage),
         tryCatch(is.null(y = 1), error = conditionMessage), is.null(x = NULL))"
))
