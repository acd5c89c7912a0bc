# Runs `code` with no implicit optimization (call counts and loop counts never
# reach a threshold) and nothing left on the compile thread, so that global
# counters in rir::stats() move only for what `code` asks for explicitly.
# Counters count a version when it is installed: a job an earlier test left
# on the compile thread would otherwise count in between (R CMD check's run
# of the suite: inlined_calls 2 where 1 was asked for).
without_implicit_tiering <- function(code) {
  old <- rir:::set_tiering(threshold = 1e9, osr = 1e9)
  on.exit(rir:::set_tiering(threshold = old[[1]], osr = old[[4]]))
  rir:::finish_compiles()
  code
}

# Runs `code` with the tiering knobs given by name (set_tiering's arguments
# but `seed`), restoring their previous values afterwards.
with_tiering <- function(code, ...) {
  knobs <- list(...)
  old <- do.call(rir:::set_tiering, knobs)
  names(old) <- c("threshold", "native", "chaos", "osr", "thread", "deoptless")
  on.exit(do.call(rir:::set_tiering, old[names(knobs)]))
  code
}
