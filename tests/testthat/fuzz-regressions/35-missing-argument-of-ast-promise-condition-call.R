## defs
warm <- function() for (i in 1:300) { sapply(1:3, function(e) e); vapply(1:3, function(e) e, 1L) }
g <- function(z) { on.exit(sapply(z, function(e) z)); 1 }
h <- function(z) { on.exit(print(vapply(z, function(e) z, 1))); 2 }
k <- function(z) eval(quote(sapply(z, identity)))
## steps
warm()
g()
g()
h()
h()
k()
k()
