# Runs `code` with no implicit optimization (call counts and loop counts never
# reach a threshold), so that global counters in rir::stats() move only for
# what `code` asks for explicitly. Which of testthat's or rir's own closures
# cross a threshold meanwhile depends on what ran before (R CMD check runs the
# tests in another process state than `make test`).
without_implicit_tiering <- function(code) {
  old <- rir:::set_tiering(threshold = 1e9, osr = 1e9)
  on.exit(rir:::set_tiering(threshold = old[[1]], osr = old[[4]]))
  code
}
