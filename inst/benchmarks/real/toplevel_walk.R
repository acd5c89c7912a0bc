# A long script at top level: a random walk with drift simulated in a
# while loop of the global environment, statistics kept in global
# variables, a histogram filled by index; what an Rscript file does.
# (The loop runs at top level when the file is sourced: the benchmark's
# run() evaluates the script's text in the global environment.)

walk_script <- parse(text = "
  pos <- 0; steps <- 0; max_pos <- 0; min_pos <- 0; crossings <- 0
  hist <- integer(41)
  seed <- 17
  while (steps < walk_n) {
    seed <- (seed * 16807) %% 2147483647
    step <- if (seed %% 100 < 51) 1 else -1
    prev <- pos
    pos <- pos + step
    if (pos > max_pos) max_pos <- pos
    if (pos < min_pos) min_pos <- pos
    if ((prev < 0 && pos >= 0) || (prev >= 0 && pos < 0)) crossings <- crossings + 1
    b <- min(max(pos, -20), 20) + 21
    hist[b] <- hist[b] + 1L
    steps <- steps + 1
  }
")

bench <- list(
  run = function(n) {
    assign("walk_n", n, envir = globalenv())
    for (e in walk_script) eval(e, globalenv())
    g <- globalenv()
    if (sum(g$hist) != n) stop("toplevel_walk: histogram holds ", sum(g$hist))
    if (g$max_pos < g$pos || g$min_pos > g$pos) stop("toplevel_walk: extremes")
    invisible(g$crossings)
  },
  default_n = 600000,
  quick_n = 5000
)
