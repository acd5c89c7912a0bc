# Benchmark runner for rir.
#
# Usage:
#   Rscript inst/benchmarks/run.R [--filter REGEX] [--iterations N]
#     [--configs LIST] [--rounds N] [--quick] [--out DIR] [--timeout SECONDS]
#     [--list]
#
# Every benchmark runs in a fresh Rscript process (harness.R) per
# configuration; configurations are interleaved per benchmark so that machine
# drift affects all of them alike. With --rounds N each benchmark runs N times
# per configuration (the configurations alternating), and its times are pooled.
# See README.md in this folder.

# ---------------------------------------------------------------------------
# Command line

usage <- function() {
  cat(
    "Usage: Rscript run.R [options]\n",
    "  --filter REGEX     only benchmarks whose id (suite/name) matches REGEX\n",
    "  --iterations N     iterations per benchmark and configuration\n",
    "                     (default 10, or 3 with --quick)\n",
    "  --configs LIST     comma separated, default gnur-ast,gnur-bc,rir,rir-baseline\n",
    "  --rounds N         fresh processes per benchmark and configuration, run in\n",
    "                     alternation; their times are pooled (default 1)\n",
    "  --quick            small problem sizes (quick_n) and 3 iterations\n",
    "  --out DIR          output directory (default bench-results)\n",
    "  --timeout SECONDS  per worker process (default 1800)\n",
    "  --bench-dir DIR    take the benchmarks from DIR/<suite>/<name>.R instead\n",
    "                     of the folder holding run.R\n",
    "  --list             list the benchmarks and exit\n",
    sep = ""
  )
}

parse_args <- function(args) {
  opts <- list(
    filter = NULL, iterations = NULL, quick = FALSE, list = FALSE,
    configs = c("gnur-ast", "gnur-bc", "rir", "rir-baseline"),
    out = "bench-results", timeout = 1800, bench_dir = NULL, rounds = 1L
  )
  i <- 1
  value <- function() {
    if (i + 1 > length(args)) stop("missing value for ", args[[i]], call. = FALSE)
    args[[i + 1]]
  }
  while (i <= length(args)) {
    arg <- args[[i]]
    # also accept --key=value
    if (grepl("^--[a-z-]+=", arg)) {
      parts <- regmatches(arg, regexpr("=", arg), invert = TRUE)[[1]]
      args <- c(args[seq_len(i - 1)], parts[[1]], parts[[2]], args[-seq_len(i)])
      arg <- args[[i]]
    }
    switch(arg,
      "--filter" = { opts$filter <- value(); i <- i + 1 },
      "--iterations" = { opts$iterations <- as.integer(value()); i <- i + 1 },
      "--rounds" = { opts$rounds <- as.integer(value()); i <- i + 1 },
      "--configs" = {
        opts$configs <- trimws(strsplit(value(), ",", fixed = TRUE)[[1]])
        i <- i + 1
      },
      "--out" = { opts$out <- value(); i <- i + 1 },
      "--bench-dir" = { opts$bench_dir <- value(); i <- i + 1 },
      "--timeout" = { opts$timeout <- as.numeric(value()); i <- i + 1 },
      "--quick" = { opts$quick <- TRUE },
      "--list" = { opts$list <- TRUE },
      "--help" = , "-h" = { usage(); quit(save = "no", status = 0) },
      { usage(); stop("unknown argument: ", arg, call. = FALSE) }
    )
    i <- i + 1
  }
  if (is.null(opts$iterations)) opts$iterations <- if (opts$quick) 3L else 10L
  if (is.na(opts$iterations) || opts$iterations < 1) {
    stop("--iterations must be a positive integer", call. = FALSE)
  }
  if (is.na(opts$rounds) || opts$rounds < 1) {
    stop("--rounds must be a positive integer", call. = FALSE)
  }
  opts
}

script_dir <- function() {
  file_arg <- grep("^--file=", commandArgs(trailingOnly = FALSE), value = TRUE)
  if (length(file_arg) == 0) return(normalizePath("."))
  dirname(normalizePath(sub("^--file=", "", file_arg[[1]])))
}

# ---------------------------------------------------------------------------
# Benchmarks and configurations

find_benchmarks <- function(bench_dir, filter) {
  files <- list.files(bench_dir, pattern = "\\.R$", recursive = TRUE)
  files <- sort(files[grepl("/", files, fixed = TRUE)])
  ids <- sub("\\.R$", "", files)
  keep <- if (is.null(filter)) rep(TRUE, length(ids)) else grepl(filter, ids, perl = TRUE)
  data.frame(
    id = ids[keep],
    suite = dirname(ids[keep]),
    benchmark = basename(ids[keep]),
    file = file.path(bench_dir, files[keep]),
    stringsAsFactors = FALSE
  )
}

rir_installed <- function() {
  nzchar(system.file(package = "rir", lib.loc = .libPaths()))
}

known_configs <- list(
  "gnur-ast" = list(env = c(R_ENABLE_JIT = "0"), rir = FALSE),
  "gnur-bc" = list(env = c(R_ENABLE_JIT = "3"), rir = FALSE),
  # library(rir) and nothing else: what a user gets
  "rir" = list(env = character(), rir = TRUE),
  # the optimizing tier held back: what the RIR interpreter alone does
  "rir-baseline" = list(env = c(RIR_NATIVE = "0"), rir = TRUE),
  # deoptless held back (deoptimizations resume the interpreter): what
  # deoptless adds, for comparison only
  "rir-no-deoptless" = list(env = c(RIR_DEOPTLESS = "0"), rir = TRUE),
  # deoptless on while it is off by default: whether it wins on the
  # suite, for comparison only
  "rir-deoptless" = list(env = c(RIR_DEOPTLESS = "1"), rir = TRUE)
)

select_configs <- function(names) {
  unknown <- setdiff(names, names(known_configs))
  if (length(unknown) > 0) {
    stop("unknown configuration(s): ", paste(unknown, collapse = ", "),
      " (known: ", paste(names(known_configs), collapse = ", "), ")", call. = FALSE)
  }
  names <- unique(names)
  needs_rir <- vapply(known_configs[names], function(cfg) cfg$rir, logical(1))
  if (any(needs_rir) && !rir_installed()) {
    message("Package 'rir' is not installed: skipping configuration(s) ",
      paste(names[needs_rir], collapse = ", "))
    names <- names[!needs_rir]
  }
  names
}

# ---------------------------------------------------------------------------
# Running one benchmark under one configuration

run_worker <- function(bench_file, config, opts, harness) {
  cfg <- known_configs[[config]]
  rscript <- file.path(R.home("bin"), "Rscript")
  env <- c(cfg$env, R_LIBS = paste(.libPaths(), collapse = .Platform$path.sep))
  env_args <- paste0(names(env), "=", shQuote(env))
  args <- c(
    shQuote(harness), shQuote(bench_file),
    if (opts$quick) "quick" else "default",
    opts$iterations,
    if (cfg$rir) "--rir"
  )
  output <- suppressWarnings(
    system2(rscript, args, stdout = TRUE, stderr = TRUE, env = env_args,
      timeout = opts$timeout)
  )
  exit_status <- attr(output, "status")
  if (is.null(exit_status)) exit_status <- 0L
  parse_worker_output(output, exit_status)
}

parse_worker_output <- function(output, exit_status) {
  lines <- output[startsWith(output, "@@BENCH ")]
  fields <- strsplit(trimws(sub("^@@BENCH ", "", lines)), " ", fixed = TRUE)
  keys <- vapply(fields, `[[`, character(1), 1)
  get_value <- function(key) {
    hit <- fields[keys == key]
    if (length(hit) == 0) return(NA_real_)
    suppressWarnings(as.numeric(hit[[length(hit)]][[2]]))
  }
  iters <- fields[keys == "iter"]
  times <- vapply(iters, function(f) as.numeric(f[[3]]), numeric(1))
  status_fields <- fields[keys == "status"]
  ok <- length(status_fields) > 0 &&
    status_fields[[length(status_fields)]][[2]] == "ok" && exit_status == 0
  message_text <- ""
  if (!ok) {
    if (length(status_fields) > 0 && length(status_fields[[1]]) > 2) {
      message_text <- paste(status_fields[[1]][-(1:2)], collapse = " ")
    } else if (exit_status == 124) {
      message_text <- "timeout"
    } else {
      other <- output[!startsWith(output, "@@BENCH ")]
      message_text <- paste(utils::tail(other, 3), collapse = " | ")
      if (!nzchar(message_text)) message_text <- paste("exit status", exit_status)
    }
  }
  list(
    ok = ok, n = get_value("n"), times = times,
    compile = get_value("compile"), optimize = get_value("optimize"),
    optimize_thread = get_value("optimize_thread"),
    continuations = get_value("continuations"),
    rss_kb = get_value("rss_kb"),
    message = message_text, output = output
  )
}

# Peak performance: median of the iterations after the warm-up (first third).
# `times` is one process's iterations, or a list of several processes' (the
# rounds): the iterations after each one's warm-up are pooled.
peak_time <- function(times) {
  if (is.list(times)) {
    after <- unlist(lapply(times, post_warmup))
    return(if (length(after)) stats::median(after) else NA_real_)
  }
  after <- post_warmup(times)
  if (length(after)) stats::median(after) else NA_real_
}

post_warmup <- function(times) {
  if (length(times) == 0) return(numeric())
  warmup <- floor(length(times) / 3)
  if (length(times) > 1) warmup <- max(warmup, 1)
  times[seq.int(warmup + 1, length(times))]
}

geomean <- function(x) {
  x <- x[is.finite(x) & x > 0]
  if (length(x) == 0) NA_real_ else exp(mean(log(x)))
}

# ---------------------------------------------------------------------------
# Reporting

fmt_time <- function(x) ifelse(is.na(x), "-", formatC(x, format = "f", digits = 3))
fmt_ratio <- function(x) ifelse(is.na(x), "-", paste0(formatC(x, format = "f", digits = 2), "x"))

cell_text <- function(status, time, ratio) {
  ifelse(status != "ok", "FAILED", paste0(fmt_time(time), " (", fmt_ratio(ratio), ")"))
}

wide_table <- function(summary, configs, time_col, ratio_col) {
  ids <- unique(summary$id)
  out <- data.frame(benchmark = ids, stringsAsFactors = FALSE)
  for (cfg in configs) {
    rows <- summary[summary$config == cfg, ]
    rows <- rows[match(ids, rows$id), ]
    out[[cfg]] <- cell_text(rows$status, rows[[time_col]], rows[[ratio_col]])
  }
  out
}

geomean_table <- function(summary, configs) {
  suites <- c(unique(summary$suite), "all")
  out <- data.frame(suite = suites, stringsAsFactors = FALSE)
  for (cfg in configs) {
    rows <- summary[summary$config == cfg & summary$status == "ok", ]
    out[[paste(cfg, "peak")]] <- vapply(suites, function(s) {
      x <- if (s == "all") rows$peak_speedup else rows$peak_speedup[rows$suite == s]
      geomean(x)
    }, numeric(1))
    out[[paste(cfg, "first")]] <- vapply(suites, function(s) {
      x <- if (s == "all") rows$first_speedup else rows$first_speedup[rows$suite == s]
      geomean(x)
    }, numeric(1))
  }
  out
}

# Per configuration, over the benchmarks that ran: the time rir spent
# compiling to bytecode and optimizing to native code on R's thread, in
# total and as a share of the first iterations' total time (the compile
# time is paid in the process's first iteration, or later when a function
# gets hot), and LLVM's time on the compile thread (in parallel).
compile_time_table <- function(summary, configs) {
  rows <- lapply(configs, function(cfg) {
    r <- summary[summary$config == cfg & summary$status == "ok", ]
    first <- sum(r$first_s, na.rm = TRUE)
    comp <- sum(r$compile_s, na.rm = TRUE)
    opt <- sum(r$optimize_s, na.rm = TRUE)
    thread <- if (is.null(r$thread_s)) 0 else sum(r$thread_s, na.rm = TRUE)
    cont <- if (is.null(r$continuation_s)) 0 else sum(r$continuation_s, na.rm = TRUE)
    data.frame(
      config = cfg,
      `compile (s)` = formatC(comp, format = "f", digits = 2),
      `optimize (s)` = formatC(opt, format = "f", digits = 2),
      `of which continuations (s)` = formatC(cont, format = "f", digits = 2),
      `compile thread (s)` = formatC(thread, format = "f", digits = 2),
      `first iterations (s)` = formatC(first, format = "f", digits = 2),
      `share` = if (first > 0) sprintf("%.1f%%", 100 * (comp + opt) / first) else "-",
      check.names = FALSE, stringsAsFactors = FALSE
    )
  })
  do.call(rbind, rows)
}

print_table <- function(df) {
  df[] <- lapply(df, function(col) if (is.numeric(col)) fmt_ratio(col) else col)
  widths <- pmax(nchar(names(df)), vapply(df, function(col) max(nchar(col), 0), numeric(1)))
  pad <- function(values) {
    paste(mapply(function(v, w, i) formatC(v, width = if (i == 1) -w else w),
      values, widths, seq_along(values)), collapse = "  ")
  }
  cat(pad(names(df)), "\n", sep = "")
  cat(paste(strrep("-", sum(widths) + 2 * (length(widths) - 1))), "\n", sep = "")
  for (r in seq_len(nrow(df))) cat(pad(unlist(df[r, ], use.names = FALSE)), "\n", sep = "")
  cat("\n")
}

markdown_table <- function(df) {
  df[] <- lapply(df, function(col) if (is.numeric(col)) fmt_ratio(col) else col)
  header <- paste0("| ", paste(names(df), collapse = " | "), " |")
  align <- paste0("|", paste(c(":--", rep("--:", ncol(df) - 1)), collapse = "|"), "|")
  body <- apply(df, 1, function(row) paste0("| ", paste(row, collapse = " | "), " |"))
  c(header, align, body, "")
}

machine_info <- function() {
  cpuinfo <- tryCatch(readLines("/proc/cpuinfo"), error = function(e) character())
  model <- grep("^model name", cpuinfo, value = TRUE)
  model <- if (length(model) > 0) trimws(sub("^[^:]*:", "", model[[1]])) else "unknown"
  cores <- tryCatch(parallel::detectCores(), error = function(e) NA)
  rir_version <- if (rir_installed()) {
    tryCatch(as.character(utils::packageVersion("rir")), error = function(e) "unknown")
  } else {
    "not installed"
  }
  c(
    date = format(Sys.time(), "%Y-%m-%d %H:%M:%S %Z"),
    nproc = as.character(cores),
    cpu = model,
    r = R.version.string,
    rir = rir_version,
    platform = R.version$platform
  )
}

write_markdown <- function(path, summary, configs, opts, info) {
  details <- data.frame(
    benchmark = summary$id, config = summary$config, status = summary$status,
    n = format(summary$n, scientific = FALSE, trim = TRUE),
    `first (s)` = fmt_time(summary$first_s),
    `peak (s)` = fmt_time(summary$peak_s),
    `first speedup` = fmt_ratio(summary$first_speedup),
    `peak speedup` = fmt_ratio(summary$peak_speedup),
    `compile (s)` = fmt_time(summary$compile_s),
    `optimize (s)` = fmt_time(summary$optimize_s),
    `peak RSS (MB)` = ifelse(is.na(summary$peak_rss_mb), "-",
      formatC(summary$peak_rss_mb, format = "f", digits = 1)),
    check.names = FALSE, stringsAsFactors = FALSE
  )
  lines <- c(
    "# rir benchmark results", "",
    paste0("- Date: ", info[["date"]]),
    paste0("- Machine: ", info[["nproc"]], " cores, ", info[["cpu"]], " (", info[["platform"]], ")"),
    paste0("- R: ", info[["r"]]),
    paste0("- rir: ", info[["rir"]]),
    paste0("- Mode: ", if (opts$quick) "quick" else "default", " sizes, ",
      opts$iterations, " iterations per benchmark and configuration",
      if (opts$rounds > 1) paste0(" in each of ", opts$rounds, " alternating rounds (pooled)") else "",
      if (!is.null(opts$filter)) paste0(", filter `", opts$filter, "`") else ""),
    "- Speedup = gnur-bc time / configuration time (higher is better). Peak = median of the iterations after the first third (warm-up).",
    "",
    "## Geometric mean of speedups per suite", "",
    markdown_table(geomean_table(summary, configs)),
    "## Compile time", "",
    markdown_table(compile_time_table(summary, configs)),
    "## Peak time in seconds (speedup vs gnur-bc)", "",
    markdown_table(wide_table(summary, configs, "peak_s", "peak_speedup")),
    "## First iteration time in seconds (speedup vs gnur-bc)", "",
    markdown_table(wide_table(summary, configs, "first_s", "first_speedup")),
    "## Details", "",
    markdown_table(details)
  )
  failed <- summary[summary$status != "ok", ]
  if (nrow(failed) > 0) {
    lines <- c(lines, "## Failures", "",
      paste0("- ", failed$id, " [", failed$config, "]: ", failed$message), "")
  }
  writeLines(lines, path)
}

# ---------------------------------------------------------------------------
# Plots (base graphics)

open_png <- function(path, width, height) {
  if (isTRUE(capabilities("png"))) {
    grDevices::png(path, width = width, height = height, res = 100)
    return(TRUE)
  }
  if (nzchar(Sys.which("gs"))) {
    grDevices::bitmap(path, type = "png16m", width = width / 100,
      height = height / 100, res = 100)
    return(TRUE)
  }
  message("No PNG device available (capabilities('png') is FALSE and no ghostscript): skipping ", path)
  FALSE
}

config_colors <- function(configs) {
  palette <- c("gnur-ast" = "#7f7f7f", "gnur-bc" = "#1f77b4",
    "rir" = "#d62728", "rir-baseline" = "#ff7f0e", "rir-no-deoptless" = "#9467bd",
    "rir-deoptless" = "#2ca02c")
  cols <- palette[configs]
  # (a configuration added later still gets a colour of its own)
  spare <- c("#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")
  cols[is.na(cols)] <- spare[seq_len(sum(is.na(cols)))]
  cols
}

plot_speedups <- function(path, summary, configs) {
  ids <- unique(summary$id)
  if (length(ids) == 0) return(invisible(FALSE))
  width <- max(900, 22 * length(ids) + 250)
  if (!open_png(path, width, 1000)) return(invisible(FALSE))
  on.exit(grDevices::dev.off())
  graphics::par(mfrow = c(2, 1), mar = c(11, 5, 5, 1))
  cols <- config_colors(configs)
  for (what in c("peak_speedup", "first_speedup")) {
    values <- sapply(configs, function(cfg) {
      rows <- summary[summary$config == cfg, ]
      rows[[what]][match(ids, rows$id)]
    })
    values <- matrix(values, nrow = length(ids))
    finite <- values[is.finite(values) & values > 0]
    ylim <- if (length(finite) > 0) range(c(finite, 1)) * c(0.8, 1.25) else c(0.5, 2)
    offsets <- (seq_along(configs) - (length(configs) + 1) / 2) * 0.15
    graphics::plot(NA, xlim = c(0.5, length(ids) + 0.5), ylim = ylim, log = "y",
      xaxt = "n", xlab = "", ylab = "speedup vs gnur-bc (log scale)",
      main = if (what == "peak_speedup") "Peak performance speedup" else "First iteration speedup")
    graphics::abline(h = 1, lty = 2, col = "grey40")
    graphics::abline(v = seq_along(ids), col = "grey92")
    for (k in seq_along(configs)) {
      graphics::points(seq_along(ids) + offsets[[k]], values[, k], pch = 19, col = cols[[k]])
      failed <- summary$status[summary$config == configs[[k]]][
        match(ids, summary$id[summary$config == configs[[k]]])] != "ok"
      failed[is.na(failed)] <- FALSE
      if (any(failed)) {
        graphics::points(which(failed) + offsets[[k]], rep(ylim[[1]], sum(failed)),
          pch = 4, col = cols[[k]], cex = 1.5)
      }
    }
    graphics::axis(1, at = seq_along(ids), labels = ids, las = 2, cex.axis = 0.8)
    # (above the plotting region: it covers no point)
    graphics::legend("bottomright", inset = c(0, 1), xpd = TRUE, legend = c(configs, "FAILED"),
      col = c(cols, "black"), pch = c(rep(19, length(configs)), 4), bg = "white", cex = 0.8,
      horiz = TRUE)
  }
  invisible(TRUE)
}

plot_warmup <- function(path, raw, configs) {
  ids <- unique(raw$id)
  if (length(ids) == 0) return(invisible(FALSE))
  ncol <- min(6, length(ids))
  nrow <- ceiling(length(ids) / ncol)
  if (!open_png(path, 260 * ncol + 40, 230 * nrow + 80)) return(invisible(FALSE))
  on.exit(grDevices::dev.off())
  graphics::layout(rbind(matrix(seq_len(nrow * ncol), nrow = nrow, byrow = TRUE),
    rep(nrow * ncol + 1, ncol)), heights = c(rep(1, nrow), 0.25))
  graphics::par(mar = c(3, 3.5, 2, 0.5), mgp = c(2, 0.7, 0))
  cols <- config_colors(configs)
  for (id in ids) {
    rows <- raw[raw$id == id & !is.na(raw$seconds), ]
    if (nrow(rows) == 0) {
      graphics::plot.new()
      graphics::title(main = id, cex.main = 0.9)
      next
    }
    graphics::plot(NA, xlim = c(1, max(rows$iteration)), ylim = c(0, max(rows$seconds) * 1.05),
      xlab = "iteration", ylab = "seconds", main = id, cex.main = 0.9)
    for (k in seq_along(configs)) {
      for (rd in unique(rows$round)) {
        r <- rows[rows$config == configs[[k]] & rows$round == rd, ]
        if (nrow(r) > 0) {
          graphics::lines(r$iteration, r$seconds, type = "b", pch = 19, cex = 0.6, col = cols[[k]])
        }
      }
    }
  }
  remaining <- nrow * ncol - length(ids)
  for (i in seq_len(remaining)) graphics::plot.new()
  graphics::par(mar = c(0, 0, 0, 0))
  graphics::plot.new()
  graphics::legend("center", legend = configs, col = cols, lty = 1, pch = 19, horiz = TRUE, bty = "n")
  invisible(TRUE)
}

# ---------------------------------------------------------------------------
# Main

main <- function() {
  opts <- parse_args(commandArgs(trailingOnly = TRUE))
  harness <- file.path(script_dir(), "harness.R")
  bench_dir <- if (is.null(opts$bench_dir)) script_dir() else normalizePath(opts$bench_dir)
  benchmarks <- find_benchmarks(bench_dir, opts$filter)

  if (opts$list) {
    cat(benchmarks$id, sep = "\n")
    return(0L)
  }
  if (nrow(benchmarks) == 0) {
    message("No benchmark matches the filter.")
    return(1L)
  }
  configs <- select_configs(opts$configs)
  if (length(configs) == 0) {
    message("No configuration left to run.")
    return(1L)
  }
  if (!("gnur-bc" %in% configs)) {
    message("Note: gnur-bc is not among the configurations, so speedups are not available.")
  }

  dir.create(opts$out, showWarnings = FALSE, recursive = TRUE)
  cat(sprintf("Running %d benchmark(s) x %d configuration(s) (%s), %d iteration(s) x %d round(s), %s sizes\n\n",
    nrow(benchmarks), length(configs), paste(configs, collapse = ", "),
    opts$iterations, opts$rounds, if (opts$quick) "quick" else "default"))

  raw_rows <- list()
  summary_rows <- list()
  started <- Sys.time()
  for (b in seq_len(nrow(benchmarks))) {
    bench <- benchmarks[b, ]
    results <- list()
    for (round in seq_len(opts$rounds)) {
      # Interleave: all configurations of one benchmark run back to back, and
      # the order of the configurations rotates from one benchmark (and one
      # round) to the next.
      order <- ((seq_along(configs) + b + round - 3) %% length(configs)) + 1
      for (config in configs[order]) {
        result <- run_worker(bench$file, config, opts, harness)
        status <- if (result$ok) "ok" else "FAILED"
        times <- result$times
        cat(sprintf("%-34s %-13s %-6s first %8s  peak %8s%s%s\n", bench$id, config, status,
          fmt_time(if (length(times)) times[[1]] else NA), fmt_time(peak_time(times)),
          if (opts$rounds > 1) sprintf("  (round %d)", round) else "",
          if (result$ok) "" else paste0("  ", substr(result$message, 1, 100))))
        raw_rows[[length(raw_rows) + 1]] <- data.frame(
          suite = bench$suite, benchmark = bench$benchmark, id = bench$id, config = config,
          n = result$n, round = round,
          iteration = if (length(times)) seq_along(times) else NA_integer_,
          seconds = if (length(times)) times else NA_real_,
          status = status, stringsAsFactors = FALSE
        )
        results[[config]] <- c(results[[config]], list(result))
      }
    }
    for (config in configs) {
      runs <- results[[config]]
      ok <- all(vapply(runs, `[[`, logical(1), "ok"))
      times <- lapply(runs, `[[`, "times")
      firsts <- unlist(lapply(times, function(t) if (length(t)) t[[1]] else NULL))
      failed <- Filter(function(r) !r$ok, runs)
      summary_rows[[length(summary_rows) + 1]] <- data.frame(
        suite = bench$suite, benchmark = bench$benchmark, id = bench$id, config = config,
        status = if (ok) "ok" else "FAILED", n = runs[[1]]$n,
        iterations = sum(lengths(times)),
        first_s = if (length(firsts)) stats::median(firsts) else NA_real_,
        peak_s = peak_time(times),
        compile_s = stats::median(vapply(runs, `[[`, numeric(1), "compile")),
        optimize_s = stats::median(vapply(runs, `[[`, numeric(1), "optimize")),
        thread_s = stats::median(vapply(runs, function(r) {
          if (is.null(r$optimize_thread)) NA_real_ else r$optimize_thread
        }, numeric(1))),
        continuation_s = stats::median(vapply(runs, function(r) {
          if (is.null(r$continuations)) NA_real_ else r$continuations
        }, numeric(1))),
        peak_rss_mb = max(vapply(runs, `[[`, numeric(1), "rss_kb")) / 1024,
        message = if (length(failed)) failed[[1]]$message else "",
        stringsAsFactors = FALSE
      )
    }
  }
  raw <- do.call(rbind, raw_rows)
  summary <- do.call(rbind, summary_rows)
  summary$config <- as.character(summary$config)

  # Speedups against gnur-bc (gnur-bc time / config time).
  baseline <- summary[summary$config == "gnur-bc" & summary$status == "ok", ]
  base_idx <- match(summary$id, baseline$id)
  summary$first_speedup <- baseline$first_s[base_idx] / summary$first_s
  summary$peak_speedup <- baseline$peak_s[base_idx] / summary$peak_s
  summary$first_speedup[summary$status != "ok"] <- NA
  summary$peak_speedup[summary$status != "ok"] <- NA
  summary <- summary[order(match(summary$id, benchmarks$id), match(summary$config, configs)), ]
  summary <- summary[, c("suite", "benchmark", "id", "config", "status", "n", "iterations",
    "first_s", "peak_s", "first_speedup", "peak_speedup", "compile_s", "optimize_s",
    "thread_s", "continuation_s", "peak_rss_mb", "message")]
  raw <- raw[order(match(raw$id, benchmarks$id), match(raw$config, configs), raw$round,
    raw$iteration), ]

  utils::write.csv(raw, file.path(opts$out, "results.csv"), row.names = FALSE)
  utils::write.csv(summary, file.path(opts$out, "summary.csv"), row.names = FALSE)
  info <- machine_info()
  write_markdown(file.path(opts$out, "results.md"), summary, configs, opts, info)
  plot_speedups(file.path(opts$out, "speedup.png"), summary, configs)
  plot_warmup(file.path(opts$out, "warmup.png"), raw, configs)

  cat("\nPeak time in seconds (speedup vs gnur-bc):\n\n")
  print_table(wide_table(summary, configs, "peak_s", "peak_speedup"))
  cat("First iteration time in seconds (speedup vs gnur-bc):\n\n")
  print_table(wide_table(summary, configs, "first_s", "first_speedup"))
  cat("Geometric mean of speedups per suite:\n\n")
  print_table(geomean_table(summary, configs))
  cat(sprintf("Machine: %s cores, %s; %s\n", info[["nproc"]], info[["cpu"]], info[["r"]]))
  cat(sprintf("Total time: %.1f s. Results written to %s\n",
    as.numeric(difftime(Sys.time(), started, units = "secs")), normalizePath(opts$out)))

  n_failed <- sum(summary$status != "ok")
  if (n_failed > 0) {
    cat(sprintf("\n%d benchmark run(s) FAILED:\n", n_failed))
    failed <- summary[summary$status != "ok", ]
    cat(paste0("  ", failed$id, " [", failed$config, "]: ", failed$message), sep = "\n")
    return(1L)
  }
  0L
}

status <- tryCatch(main(), error = function(e) {
  message("Error: ", conditionMessage(e))
  2L
})
quit(save = "no", status = status)
