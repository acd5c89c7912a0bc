## defs
f <- function(a, b) {
  `[` <- function(x, ...) "idx"
  r <- tryCatch(lapply("bb", function(e) { b[1L] <<- e; b }), error = function(e) conditionMessage(e))
  g <- function() names(b) <<- "n"
  list(r, tryCatch(g(), error = function(e) conditionMessage(e)))
}
## steps
f(FALSE)
f(FALSE)
