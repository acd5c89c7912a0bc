## defs
f <- function() {
  makeActiveBinding("x", local({ n <- 0; function(v) if (missing(v)) { n <<- n + 1; n } else n <<- v * 2 }), environment())
  x[2][1] <- 5
  format(x)
}
g <- function() {
  makeActiveBinding("x", local({ n <- 0; function(v) if (missing(v)) { n <<- n + 1; n } else n <<- v * 2 }), environment())
  attr(x, "a") <- x
  x
}
## steps
list(f(), g())
list(f(), g())
list(f(), g())
