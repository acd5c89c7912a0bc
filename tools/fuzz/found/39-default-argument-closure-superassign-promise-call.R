## seed 40004614 (class 39, open), hand-reduced: GNU R never byte-compiles
## a default argument, so a small closure made there runs in its AST
## interpreter, whose `<<-` evaluates the target inside a context naming
## the assignment; forcing the target's promise while it is under
## evaluation raises an error naming `b[1L] <<- e`. rir compiles the
## default argument and the closure as byte code and names the closure's
## call (`FUN(X[[i]], ...)`, `(function(e) ...)(1)`).
## defs
f <- function(b = sapply(1, function(e) { b[1L] <<- e; 1 })) b
g <- function(b = (function(e) { b[1L] <<- e; 1 })(1)) b
## steps
f()
g()
