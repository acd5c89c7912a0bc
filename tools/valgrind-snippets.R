# The snippets of tests/testthat/test-gctorture.R, each run as a function
# under stock GNU R and under rir (three calls, so that the optimizing tier
# runs it with the mode's settings), the results compared; run by
# tools/valgrind.sh under memcheck. Prints one line per failing snippet and
# a last line "valgrind snippets: N run, K failed".
library(rir)
exprs <- parse("tests/testthat/test-gctorture.R", keep.source = FALSE)
find_snippets <- function(e) {
  if (is.call(e) && identical(e[[1]], as.name("<-")) && identical(e[[2]], as.name("snippets"))) {
    return(eval(e[[3]], baseenv()))
  }
  if (is.call(e) || is.expression(e)) {
    for (k in seq_along(e)) {
      if (!is.null(e[[k]])) {
        r <- find_snippets(e[[k]])
        if (!is.null(r)) return(r)
      }
    }
  }
  NULL
}
snippets <- find_snippets(exprs)
failed <- 0L
for (s in snippets) {
  f <- eval(parse(text = paste0("function() {", s, "}"), keep.source = FALSE)[[1]])
  rir::disable()
  ref <- f()
  rir::enable()
  g <- rir::compile(f)
  got <- list(g(), g(), g())
  if (!all(vapply(got, identical, TRUE, ref))) {
    failed <- failed + 1L
    cat("differs:", s, "\n")
  }
}
cat(sprintf("valgrind snippets: %d run, %d failed\n", length(snippets), failed))
quit(status = if (failed > 0L) 1L else 0L)
