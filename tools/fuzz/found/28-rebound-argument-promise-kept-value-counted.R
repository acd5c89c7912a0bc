## defs
f <- function(a, b) {
  b[length(b) + 1L] <- list(2.5)
  v2 <- tryCatch({
    v1 <- length(b)
    b[length(b) + 1L] <- if (v1 > Inf) b else substr(b, 1L, 2L)
  }, error = function(e) conditionMessage(e), warning = function(w) paste("W:", conditionMessage(w)))
  list(a, b, v2)
}
## steps
f(-2, c("x", "y", NA))
f(-2, c("x", "y", NA))
