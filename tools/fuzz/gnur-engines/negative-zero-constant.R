## seed 207020
## defs
f <- function(a) {
  v1 <- list(numeric(0), !NaN >= 7L)
  v2 <- Filter(function(e) isTRUE(e > 0), v1)
  v2 <- list(a = lapply(a, function(e) paste0(v2, e, collapse = "|")), b = (if (isTRUE(FALSE)) Inf else c(1.5, NA, 3) / (-2 * 0L)))
  g3 <- function() { v2 <<- list(a = c("p", "q"), b = a)
v2 }
  print(list(v2, g3(), v2))
  if (isTRUE(!FALSE)) c("p", "q")
}
## steps
f(list(x = 1:2, y = "z"))
