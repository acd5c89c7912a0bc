## seed 236869
## defs
fz_count <- 0L
fz_id <- function(a, b) list(a, b)
fz_second_first <- function(a, b) { b; cat("a", format(a), "\n"); a }
fz_lazy <- function(a, b) if (isTRUE(all(a > 0))) a else b
f <- function(a, b, z, ...) {
  a[-1L] <- (vapply(list(a = 1L, b = list(2)), function(e) length(e), integer(1)) + switch(z, a = 2L, b = , c = integer(0)))
  message("m ", format((sign(2L) / switch(paste(z, list()), a = -0, b = , c = 0, 0))))
  cat(is.na(NA_integer_[1L]), sep = " "); cat("\n")
  cat(format(withRestarts({ b; invokeRestart("fzr", list(a = character(0), b = list(NULL, TRUE))[-1L]); "not reached" }, fzr = function(v) list("restarted", v))), "\n")
  on.exit(cat("exit", format(which(FALSE)), "\n"), add = FALSE)
  b <- a
  (b <- mapply(function(p, q) c(p, q), b, z, SIMPLIFY = FALSE))
}
## steps
f(c(0.5, 2), NA_real_, "a")
f(c(0.5, 2), NA_real_, "a")
f(c(0.5, 2), NA_real_, "a")
