# Runs one fuzz program under stock GNU R and under rir, in this process, and
# compares every step's value, visibility, printed output, messages,
# warnings and error (see docs/fuzzing.md). Needs library(rir).

# program text -> list(defs = expressions, steps = expressions)
fz_parse_program <- function(text) {
  lines <- strsplit(text, "\n", fixed = TRUE)[[1]]
  d <- match("## defs", lines)
  s <- match("## steps", lines)
  defs <- lines[seq_len(s - 1L)][-seq_len(d)]
  steps <- lines[-seq_len(s)]
  list(
    defs = parse(text = defs, keep.source = FALSE),
    steps = lapply(steps[nzchar(steps)], function(l) parse(text = l, keep.source = FALSE))
  )
}

# functions and environments compare by kind only (their addresses and
# byte code differ between the two runs by construction)
fz_norm <- function(x) {
  if (is.function(x)) return("<function>")
  # output captured into a value (capture.output of a printed closure)
  if (is.character(x) && is.null(attributes(x))) {
    return(gsub("<(bytecode|environment): 0x[0-9a-f]+>", "<\\1: 0xADDR>", x))
  }
  if (is.environment(x)) return("<environment>")
  if (is.list(x) && !is.null(x)) {
    a <- attributes(x)
    x <- lapply(x, fz_norm)
    if (!is.null(a)) attributes(x) <- lapply(a, fz_norm)
  } else if (!is.null(attributes(x))) {
    attributes(x) <- lapply(attributes(x), fz_norm)
  }
  x
}

fz_capture <- function(thunk) {
  warnings <- character()
  messages <- character()
  error <- NULL
  res <- list(value = NULL, visible = NA)
  output <- utils::capture.output({
    res <- tryCatch(
      withCallingHandlers(
        withVisible(thunk()),
        warning = function(w) {
          warnings <<- c(warnings, paste(
            paste(deparse(conditionCall(w)), collapse = " "), "|", conditionMessage(w)
          ))
          invokeRestart("muffleWarning")
        },
        message = function(m) {
          messages <<- c(messages, conditionMessage(m))
          invokeRestart("muffleMessage")
        }
      ),
      error = function(e) {
        error <<- paste(paste(deparse(conditionCall(e)), collapse = " "), "|", conditionMessage(e))
        list(value = NULL, visible = NA)
      }
    )
  })
  # printed closures and environments show memory addresses, which differ
  # between any two runs
  output <- gsub("<(bytecode|environment): 0x[0-9a-f]+>", "<\\1: 0xADDR>", output)
  list(
    value = fz_norm(res$value), visible = res$visible, output = output,
    messages = messages, warnings = warnings, error = error
  )
}

# Evaluates the definitions in a fresh environment (parent: the global
# environment), compiles every closure defined (GNU R's byte code for the
# reference, rir otherwise) and runs the steps; one result per step.
fz_run_program <- function(prog, use_rir, gnur_ast = FALSE) {
  # leaves rir as it found it (the testthat suite runs this in its process)
  was <- rir::is_enabled()
  on.exit(if (was) rir::enable() else rir::disable())
  if (use_rir) rir::enable() else rir::disable()
  # gnur_ast: GNU R's AST interpreter (no byte code) as the reference
  if (gnur_ast) {
    jit <- compiler::enableJIT(0)
    on.exit(compiler::enableJIT(jit), add = TRUE)
  }
  set.seed(42)
  env <- new.env(parent = globalenv())
  out <- list()
  defs <- fz_capture(function() {
    for (e in prog$defs) eval(e, env)
    for (n in ls(env, all.names = TRUE)) {
      f <- get(n, envir = env)
      if (is.function(f) && !is.primitive(f)) {
        f <- if (use_rir) {
          suppressWarnings(rir::compile(f))
        } else if (gnur_ast) {
          f
        } else {
          compiler::cmpfun(f)
        }
        assign(n, f, envir = env)
      }
    }
  })
  out[[1]] <- defs
  for (s in prog$steps) {
    out[[length(out) + 1L]] <- fz_capture(function() eval(s[[1]], env))
  }
  out
}

fz_fields <- c("value", "visible", "output", "messages", "warnings", "error")

# drops the calls of warnings and errors (FUZZ_IGNORE_CALLS=1, run.R's
# --ignore-calls): finds what hides behind a difference in a call
fz_strip_calls <- function(res) {
  lapply(res, function(r) {
    r$warnings <- sub("^.* \\| ", "", r$warnings)
    if (!is.null(r$error)) r$error <- sub("^.* \\| ", "", r$error)
    r
  })
}

# NULL when the runs agree; otherwise the first differing step and fields
fz_compare <- function(ref, got) {
  if (identical(Sys.getenv("FUZZ_IGNORE_CALLS"), "1")) {
    ref <- fz_strip_calls(ref)
    got <- fz_strip_calls(got)
  }
  for (i in seq_along(ref)) {
    bad <- fz_fields[!vapply(fz_fields, function(f) identical(ref[[i]][[f]], got[[i]][[f]]), TRUE)]
    if (length(bad)) return(list(step = i - 1L, fields = bad, ref = ref[[i]], got = got[[i]]))
  }
  NULL
}

# Does every observation (a step's field) in which rir differs from GNU R's
# byte code agree with GNU R's AST interpreter? A program can hit two GNU R
# compiler differences at once (a warning its constant folding drops, and a
# value its uncounted stack lets change), and rir can follow the byte code
# in one and R's semantics in the other; each of its observations is then
# one GNU R itself gives.
fz_explained_by_ast <- function(ref, ast, got) {
  if (identical(Sys.getenv("FUZZ_IGNORE_CALLS"), "1")) {
    ref <- fz_strip_calls(ref)
    ast <- fz_strip_calls(ast)
    got <- fz_strip_calls(got)
  }
  if (length(ast) != length(ref)) return(FALSE)
  # a closure printed under the AST interpreter has no "<bytecode: ...>"
  # line: compared with the AST interpreter's output, rir's drops it too
  no_bc <- function(out) if (is.character(out)) out[!grepl("^<bytecode: ", out)] else out
  for (i in seq_along(ref)) {
    for (f in fz_fields) {
      got_f <- got[[i]][[f]]
      ast_f <- ast[[i]][[f]]
      if (f == "output") {
        got_f <- no_bc(got_f)
        ast_f <- no_bc(ast_f)
      }
      if (!identical(ref[[i]][[f]], got[[i]][[f]]) && !identical(ast_f, got_f)) {
        return(FALSE)
      }
    }
  }
  TRUE
}

fz_show <- function(x) paste(utils::capture.output(dput(x)), collapse = "\n")

fz_diff_text <- function(d, prog_text) {
  steps <- strsplit(sub(".*## steps\n", "", prog_text), "\n", fixed = TRUE)[[1]]
  where <- if (d$step == 0L) "the definitions" else sprintf("step %d: %s", d$step, steps[d$step])
  parts <- vapply(d$fields, function(f) {
    sprintf("[%s]\n  GNU R: %s\n  rir:   %s", f, fz_show(d$ref[[f]]), fz_show(d$got[[f]]))
  }, "")
  paste(c(sprintf("mismatch at %s", where), parts), collapse = "\n")
}

fz_timed_out <- function(res) {
  any(vapply(res, function(r) any(grepl("reached elapsed time limit", r$error, fixed = TRUE)), TRUE))
}

# Runs a program text both ways; NULL or the difference. A program slower
# than `limit` seconds under GNU R is skipped (NULL); rir gets ten times
# as long (a hang that does not check for interrupts is left to the time
# limit of run.R's subprocess). `note(phase)` is told "ref" before GNU R's
# run and "rir" before rir's, so that run.R can tell whose run a killed
# subprocess was in.
fz_check <- function(text, limit = 5, note = function(phase) NULL) {
  prog <- fz_parse_program(text)
  note("ref")
  t0 <- proc.time()[["elapsed"]]
  setTimeLimit(elapsed = limit)
  ref <- fz_run_program(prog, use_rir = FALSE)
  setTimeLimit()
  # also when the program itself caught the time limit's error (in try()):
  # its output then depends on where the limit struck
  if (fz_timed_out(ref) || proc.time()[["elapsed"]] - t0 >= 0.9 * limit) return(NULL)
  note("rir")
  setTimeLimit(elapsed = 10 * limit)
  got <- fz_run_program(prog, use_rir = TRUE)
  setTimeLimit()
  d <- fz_compare(ref, got)
  if (!is.null(d)) {
    # GNU R disagreeing with itself: its byte code and its AST interpreter
    # give different results (a GNU R compiler bug, say -0 folded into a
    # constant 0) and rir gives the AST interpreter's wherever it differs
    # from the byte code (fz_explained_by_ast). The program tests
    # GNU R, not rir: reported apart, not counted as a mismatch.
    note("ast")
    t0 <- proc.time()[["elapsed"]]
    setTimeLimit(elapsed = limit)
    ast <- tryCatch(fz_run_program(prog, use_rir = FALSE, gnur_ast = TRUE),
      error = function(e) NULL)
    setTimeLimit()
    if (!is.null(ast) && !fz_timed_out(ast) && proc.time()[["elapsed"]] - t0 < 0.9 * limit &&
      fz_explained_by_ast(ref, ast, got)) {
      d$gnur_engines_disagree <- TRUE
    }
  }
  d
}

# The harness's own functions are byte-compiled by GNU R now, so that rir's
# JIT hook never takes them over: a bug in rir must show up in the program,
# not in the comparison.
fz_compile_harness <- function(env = globalenv()) {
  for (n in ls(env, pattern = "^fz_")) {
    f <- get(n, envir = env)
    if (is.function(f)) assign(n, compiler::cmpfun(f), envir = env)
  }
}
