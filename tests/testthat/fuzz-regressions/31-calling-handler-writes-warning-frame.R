## defs
setv <- function(nm, val) { for (fr in rev(sys.frames())) if (exists(nm, envir = fr, inherits = FALSE)) { assign(nm, val, envir = fr); return(invisible()) } }
fa <- function(n) { x <- 0L; big <- .Machine$integer.max - 2L; for (i in 1:n) { y <- big + i; x <- x + 1L }; x }
run <- function(k) withCallingHandlers(fa(if (k > 5) 4L else 2L), warning = function(w) { setv("x", 1000L); invokeRestart("muffleWarning") })
## steps
vapply(1:10, run, 0L)
vapply(1:10, run, 0L)
