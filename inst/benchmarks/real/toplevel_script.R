# A script's top-level loops, in the global environment as Rscript runs
# them: a logistic map and a running histogram over global variables.

bench <- list(
  run = function(n) {
    assign("n_steps", n, envir = globalenv())
    eval(quote({
      s <- 0
      x <- 0.25
      counts <- integer(10)
      for (i in 1:n_steps) {
        x <- x * 3.7 * (1 - x)
        s <- s + (x > 0.5)
        b <- as.integer(x * 10) + 1L
        counts[b] <- counts[b] + 1L
      }
    }), globalenv())
    g <- globalenv()
    if (sum(g$counts) != n || g$s != sum(g$counts[6:10])) stop("toplevel_script: wrong result")
    invisible(g$s)
  },
  default_n = 1500000,
  quick_n = 20000
)
