# Runs the same small program under stock GNU R (byte-code JIT) and under rir,
# each in a fresh process, and prints both results and times.
script <- '
collatz_max <- function(n) {
  best <- 0L; arg <- 0L
  for (i in 1:n) {
    x <- i; steps <- 0L
    while (x != 1) {
      if (x %% 2 == 0) x <- x / 2 else x <- 3 * x + 1
      steps <- steps + 1L
    }
    if (steps > best) { best <- steps; arg <- i }
  }
  c(arg = arg, steps = best)
}
t <- system.time(res <- collatz_max(30000))[["elapsed"]]
cat(sprintf("%-8s result: %s  time: %.3f s\n", Sys.getenv("MODE"),
            paste(names(res), res, sep = "=", collapse = " "), t))
'
f <- tempfile(fileext = ".R")
writeLines(script, f)
rscript <- file.path(R.home("bin"), "Rscript")
system2(rscript, f, env = "MODE=gnu-r")
system2(rscript, c("-e", shQuote(sprintf("invisible(loadNamespace('rir')); source('%s')", f))),
        env = "MODE=rir")
