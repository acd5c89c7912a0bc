## seed 3053
## defs
fz_count <- 0L
fz_id <- function(a, b) list(a, b)
fz_second_first <- function(a, b) { b; cat("a", format(a), "\n"); a }
fz_lazy <- function(a, b) if (isTRUE(all(a > 0))) a else b
fzgen <- function(x, ...) UseMethod("fzgen")
fzgen.default <- function(x, ...) { cat("fzgen default\n"); length(x) }
fzgen.fzc <- function(x, ...) { cat("fzgen fzc\n"); r <- NextMethod(); r + 1L }
print.fzc <- function(x, ...) { cat("<fzc", length(unclass(x)), ">\n"); invisible(x) }
length.fzc <- function(x) 7L
Ops.fzc <- function(e1, e2) { cat("Ops.fzc", .Generic, "\n"); get(.Generic)(unclass(e1), if (missing(e2)) NULL else unclass(e2)) }
f <- function(a, b) {
  v2 <- tryCatch({
    if (isTRUE(isTRUE(b < c(1L, 4L)) && isTRUE(is.na(c(FALSE, TRUE))))) {
      v1 <- list(eval(quote(a <- (b * 5:1))), a)
    }
    b <- Reduce(`+`, round(a), accumulate = FALSE)
    signalCondition(simpleCondition("sig"))
    "done"
  }, error = function(e) conditionMessage(e), warning = function(w) paste("W:", conditionMessage(w)), finally = cat("finally\n"))
  print(fz_lazy(if (isTRUE(!logical(0))) v2 else list(a = 0, b = v2), is.na(!c(TRUE, NA, FALSE))))
  k3 <- 0L
  while (k3 < 2L) {
    k3 <- k3 + 1L
    v2[["a"]] <- -0.5
    message("m ", format(log(b)))
  }
  v2[length(v2)] <- NULL
  v4 <- list(fz_second_first({ b[1L] <- a[2L]; b }, b))
  print(list(fzgen(b), fzgen(structure(list(b), class = "fzc"))))
  (a <- substr("c", 1L, 2L))
}
## steps
f(0)
f(0)
f(0)
f(list(a = 1L, b = list(2)), c("p", "q"))
f(list(a = 1L, b = list(2)), c("p", "q"))
