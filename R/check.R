# rir::check(): another package's R CMD check with rir loaded in every R
# process the check starts.
#
# R CMD check starts its R processes with --vanilla (no site or user
# profile) and sets R_DEFAULT_PACKAGES and R_TESTS itself, so none of the
# usual switches reaches them. What every R process reads is the system
# profile of its R home. check() therefore runs R CMD check from a shadow R
# home: a directory of symbolic links to the real one, except for the `R`
# script (which names its home) and base's system profile, which loads rir
# when RIR_CHECK_LIB names the library rir is installed in. Nothing of the
# real R installation is changed.

# the test modes: what each sets in the check's environment
check_modes <- list(
  gnur = character(),
  default = character(),
  first_call = c(RIR_OPT_THRESHOLD = "0", RIR_NATIVE = "1"),
  deopt_chaos = c(RIR_OPT_THRESHOLD = "2", RIR_NATIVE = "1", RIR_DEOPT_CHAOS = "10")
)

check <- function(path, mode = c("default", "first_call", "deopt_chaos", "gnur"),
                  args = "--no-manual", check_dir = tempfile("rir-check-"),
                  env = character(), quiet = TRUE) {
  mode <- match.arg(mode)
  if (!is.character(path) || length(path) != 1L || !file.exists(path)) {
    stop("check() needs the path of a package source directory or tarball", call. = FALSE)
  }
  path <- normalizePath(path)
  dir.create(check_dir, recursive = TRUE, showWarnings = FALSE)
  check_dir <- normalizePath(check_dir)
  home <- shadow_r_home(file.path(check_dir, "R-home"))
  r <- file.path(home, "bin", "R")
  tarball <- path
  if (dir.exists(path)) {
    # built by GNU R as it is (vignettes are rebuilt and checked by check)
    out <- run_r(r, c("CMD", "build", "--no-manual", shQuote(path)), check_dir, character())
    built <- list.files(check_dir, pattern = "\\.tar\\.gz$", full.names = TRUE)
    if (out$status != 0L || length(built) != 1L) {
      stop("R CMD build failed:\n", paste(utils::tail(out$output, 20), collapse = "\n"),
        call. = FALSE
      )
    }
    tarball <- built
  }
  vars <- c(
    check_modes[[mode]],
    RIR_CHECK_LIB = dirname(find.package("rir")),
    RHOME = home,
    env
  )
  if (mode == "gnur") vars <- vars[names(vars) != "RIR_CHECK_LIB"]
  started <- Sys.time()
  out <- run_r(r, c("CMD", "check", args, shQuote(tarball)), check_dir, vars)
  pkg <- sub("_.*$", "", basename(tarball))
  log <- file.path(check_dir, paste0(pkg, ".Rcheck"), "00check.log")
  res <- parse_check_log(if (file.exists(log)) readLines(log, warn = FALSE) else out$output)
  res <- c(
    list(package = pkg, mode = mode, exit_status = out$status),
    res,
    list(
      log = if (file.exists(log)) log else NA_character_, output = out$output,
      seconds = as.numeric(difftime(Sys.time(), started, units = "secs"))
    )
  )
  class(res) <- "rir_check"
  if (!quiet) print(res)
  res
}

print.rir_check <- function(x, ...) {
  cat(sprintf(
    "R CMD check of %s with rir (mode %s): %s, %d error(s), %d warning(s), %d note(s) in %.0f s\n",
    x$package, x$mode, x$status, length(x$errors), length(x$warnings), length(x$notes),
    x$seconds
  ))
  for (k in c("errors", "warnings", "notes")) {
    if (length(x[[k]])) cat(sprintf("  %s: %s\n", sub("s$", "", k), x[[k]]), sep = "")
  }
  if (!is.na(x$log)) cat("log:", x$log, "\n")
  invisible(x)
}

run_r <- function(r, args, wd, vars) {
  old <- setwd(wd)
  on.exit(setwd(old))
  # (R_LIBS and the like pass through; what the caller's session set for
  # rir itself, its tests or its default packages does not)
  all <- Sys.getenv()
  drop <- grep("^(RIR_|R_TESTS$|R_DEFAULT_PACKAGES$)", names(all), value = TRUE)
  if (length(drop)) {
    saved <- as.list(all[drop])
    Sys.unsetenv(drop)
    on.exit(do.call(Sys.setenv, saved), add = TRUE)
  }
  env <- if (length(vars)) paste0(names(vars), "=", shQuote(vars)) else character()
  output <- suppressWarnings(system2(r, args, stdout = TRUE, stderr = TRUE, env = env))
  status <- attr(output, "status")
  list(output = as.character(output), status = if (is.null(status)) 0L else as.integer(status))
}

# The items of a check log that ended in ERROR, WARNING or NOTE, and the
# log's own status line.
parse_check_log <- function(lines) {
  found <- list(ERROR = character(), WARNING = character(), NOTE = character())
  item <- NA_character_
  for (line in lines) {
    if (startsWith(line, "* ")) {
      item <- sub(" \\.\\.\\..*$", "", sub("^\\* ", "", line))
    }
    m <- regmatches(line, regexec("(^\\s*| \\.\\.\\. )(ERROR|WARNING|NOTE)$", line))[[1]]
    if (length(m) && !is.na(item)) found[[m[3]]] <- unique(c(found[[m[3]]], item))
  }
  status <- grep("^Status: ", lines, value = TRUE)
  list(
    status = if (length(status)) sub("^Status: ", "", status[length(status)]) else "no status",
    errors = found$ERROR, warnings = found$WARNING, notes = found$NOTE
  )
}

# A directory that works as R's home: links to `real`'s entries, a copy of
# the R script naming this directory as its home, and base's system profile
# with the loading of rir appended.
shadow_r_home <- function(dir, real = R.home()) {
  if (file.exists(file.path(dir, "bin", "R"))) return(dir)
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  dir <- normalizePath(dir)
  link_all <- function(from, to, except = character()) {
    dir.create(to, showWarnings = FALSE)
    for (e in setdiff(list.files(from, all.files = TRUE, no.. = TRUE), except)) {
      file.symlink(file.path(from, e), file.path(to, e))
    }
  }
  link_all(real, dir, except = c("bin", "library"))
  link_all(file.path(real, "bin"), file.path(dir, "bin"), except = "R")
  script <- readLines(file.path(real, "bin", "R"))
  home_line <- grep("^R_HOME_DIR=", script)
  if (length(home_line) != 1L) stop("cannot read R's own start-up script", call. = FALSE)
  script[home_line] <- paste0("R_HOME_DIR=", shQuote(dir))
  writeLines(script, file.path(dir, "bin", "R"))
  Sys.chmod(file.path(dir, "bin", "R"), "755")
  link_all(file.path(real, "library"), file.path(dir, "library"), except = "base")
  base <- file.path(real, "library", "base")
  link_all(base, file.path(dir, "library", "base"), except = "R")
  link_all(file.path(base, "R"), file.path(dir, "library", "base", "R"), except = "Rprofile")
  profile <- readLines(file.path(base, "R", "Rprofile"))
  writeLines(c(profile, "", rir_profile_lines), file.path(dir, "library", "base", "R", "Rprofile"))
  dir
}

rir_profile_lines <- c(
  "## added by rir::check(): rir in every R process of the check",
  "local({",
  "    lib <- Sys.getenv(\"RIR_CHECK_LIB\")",
  "    if (nzchar(lib)) invisible(loadNamespace(\"rir\", lib.loc = c(lib, .libPaths())))",
  "})"
)
