## defs
f <- function() {
  x <- list(1, 2)
  x[[3]] <- x
  x
}
## steps
f()
