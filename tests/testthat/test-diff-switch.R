# Differential tests for switch(), which rir compiles like GNU R's compiler
# (table dispatch; fall-through; character and numeric EXPR).

expect_all_same(list(
  "switch: character, fall-through, default" = "
    f <- function(x) switch(x, a = , b = 'AB', c = 'C', 'other')
    c(f('a'), f('b'), f('c'), f('zz'), f(NA_character_))",
  "switch: no match without default is invisible NULL" = "
    f <- function(x) switch(x, a = 1)
    list(withVisible(f('q')), withVisible(f('a')))",
  "switch: numeric" = "
    g <- function(i) switch(i, 'one', 'two', , 'four')
    list(g(1), g(2.9), g(4L), g(0), g(9), g(NA), g(TRUE))",
  "switch: empty numeric alternative" = "g <- function(i) switch(i, 'one', , 'three'); g(2)",
  "switch: numeric EXPR with names" = "switch(2, a = 'x', b = 'y')",
  "switch: EXPR of length 2" = "f <- function(x) switch(x, a = 1); f(c('a', 'b'))",
  "switch: EXPR NULL" = "f <- function(x) switch(x, a = 1); f(NULL)",
  "switch: factor EXPR warns" = "switch(factor('b', levels = c('a', 'b')), 'first', 'second')",
  "switch: character EXPR, unnamed alternatives" = "f <- function(x) switch(x, 1, 2); f('a')",
  "switch: single unnamed alternative is a default" = "f <- function(x) switch(x, 'only'); c(f('a'), f(1))",
  "switch: no alternatives" = "f <- function(x) switch(x); list(f('a'), f(2))",
  "switch: duplicate defaults" = "f <- function(x) switch(x, a = 1, 2, 3); f('z')",
  "switch: duplicate names take the first" = "switch('a', a = 1, a = 2)",
  "switch: arms see the frame and can assign" = "
    f <- function(x) { y <- 10; switch(x, up = { y <- y + 1 }, down = { y <- y - 1 }); y }
    c(f('up'), f('down'), f('none'))",
  "switch: invisible arm" = "f <- function(x) switch(x, a = invisible(5), b = 6); list(withVisible(f('a')), withVisible(f('b')))",
  "switch: break and next inside a loop" = "
    out <- c()
    for (w in c('keep', 'skip', 'keep', 'stop', 'keep')) {
      switch(w, skip = next, stop = break, keep = out <- c(out, w))
    }
    out",
  "switch: nested and recursive" = "
    ev <- function(n) switch(n$type, num = n$v, add = ev(n$l) + ev(n$r), neg = -ev(n$x))
    ev(list(type = 'add', l = list(type = 'num', v = 2), r = list(type = 'neg', x = list(type = 'num', v = 5))))",
  "switch: dots fall back to GNU R" = "f <- function(x, ...) switch(x, ...); f('b', a = 1, b = 2)",
  "switch: EXPR named" = "switch(EXPR = 'b', a = 1, b = 2)",
  "switch: non-ASCII names" = "f <- function(x) switch(x, '\\u00e9t\\u00e9' = 'summer', 'other'); c(f('\\u00e9t\\u00e9'), f('x'))",
  "switch: errors inside arms" = "f <- function(x) switch(x, a = stop('in arm a'), 2); f('a')"
))
