## seed 40004614 (class 39, fixed), hand-reduced: GNU R never byte-compiles
## a default argument, so a small closure made there runs in its AST
## interpreter, whose `<<-` evaluates the target inside a context naming
## the assignment; forcing the target's promise while it is under
## evaluation raises an error naming `b[1L] <<- e`. rir compiled the
## default argument and the closure as byte code and named the closure's
## call (`FUN(X[[i]], ...)`, `(function(e) ...)(1)`). Hand-written
## relatives (h, m): a warning while the target's promise is forced names
## the assignment too, also when rir code runs below GNU R's byte code
## (the loops).
## defs
f <- function(b = sapply(1, function(e) { b[1L] <<- e; 1 })) b
g <- function(b = (function(e) { b[1L] <<- e; 1 })(1)) b
h <- function(x = as.integer("a"), k = { x[2] <- 5L; x }) k
m <- function(x = as.integer("a"), k = (function() { x[2] <<- 5L; 1 })()) { k; x }
## steps
f()
g()
h()
m()
for (i in 1:2) print(h())
for (i in 1:2) print(m())
sapply(1:2, function(i) h())
