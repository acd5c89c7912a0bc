# Differential testing: the same R code under stock GNU R (rir disabled, the
# code byte-compiled by GNU R's JIT as usual) and under rir must give the
# same value, printed output, warnings, error (message and call) and
# visibility.

capture_run <- function(thunk) {
  warnings <- character()
  error <- NULL
  res <- list(value = NULL, visible = NA)
  output <- utils::capture.output({
    res <- tryCatch(
      withCallingHandlers(
        withVisible(thunk()),
        warning = function(w) {
          warnings <<- c(warnings, paste(
            paste(deparse(conditionCall(w)), collapse = " "), "|",
            conditionMessage(w)
          ))
          invokeRestart("muffleWarning")
        }
      ),
      error = function(e) {
        error <<- paste(
          paste(deparse(conditionCall(e)), collapse = " "), "|",
          conditionMessage(e)
        )
        list(value = NULL, visible = NA)
      }
    )
  })
  list(
    value = res$value, visible = res$visible, output = output,
    warnings = warnings, error = error
  )
}

# `code` is R source text: the body of a function that is called once (or
# `times` times) in a fresh environment whose parent is the global env.
# (ast: GNU R's AST interpreter, its JIT off, instead of its byte code)
run_body <- function(code, use_rir, times = 1, ast = FALSE) {
  env <- new.env(parent = globalenv())
  f <- eval(parse(text = paste0("function() {\n", code, "\n}"), keep.source = FALSE)[[1]], env)
  if (use_rir) {
    f <- rir::compile(f)
    stopifnot(rir::is_compiled(f))
  } else if (ast) {
    jit <- compiler::enableJIT(0)
    on.exit(compiler::enableJIT(jit))
  } else {
    f <- compiler::cmpfun(f)
  }
  out <- NULL
  for (i in seq_len(times)) out <- capture_run(f)
  out
}

gnur_reference <- function(code, times = 1, ast = FALSE) {
  was <- rir::is_enabled()
  if (was) rir::disable()
  on.exit(if (was) rir::enable())
  run_body(code, use_rir = FALSE, times = times, ast = ast)
}

# ast = TRUE: the reference is GNU R's AST interpreter, for code on which
# GNU R's byte code gives a wrong answer (R's semantics are the AST
# interpreter's; rir follows them)
expect_same <- function(code, times = 2, ast = FALSE) {
  ref <- gnur_reference(code, times = times, ast = ast)
  got <- run_body(code, use_rir = TRUE, times = times)
  label <- paste0("rir vs GNU R", if (ast) "'s AST interpreter", " for:\n", code)
  for (field in c("value", "visible", "output", "warnings", "error")) {
    testthat::expect_identical(got[[field]], ref[[field]], label = paste(label, "\n[", field, "]"))
  }
  invisible(got)
}

expect_all_same <- function(snippets, ast = FALSE) {
  for (name in names(snippets)) {
    code <- snippets[[name]]
    testthat::test_that(name, {
      expect_same(code, ast = ast)
    })
  }
}
