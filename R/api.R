# User-facing API.

enable <- function() {
  if (!isTRUE(.rir$ok)) {
    stop("rir is disabled: ", .rir$problem, call. = FALSE)
  }
  install_hook()
  settings <- rir_settings()
  .Call(C_rir_set_debug, settings$debug)
  .Call(
    C_rir_set_tiering, settings$opt_threshold, settings$native,
    settings$deopt_chaos, settings$deopt_chaos_seed, settings$osr_threshold,
    settings$compile_thread, settings$deoptless
  )
  .rir$heap_tuned <- .Call(C_rir_tune_heap, settings$heap_tuning)
  .Call(C_rir_set_enabled, TRUE)
  .rir$enabled <- TRUE
  install_eager()
  invisible(TRUE)
}

disable <- function() {
  .Call(C_rir_set_enabled, FALSE)
  remove_hook()
  remove_eager()
  .rir$enabled <- FALSE
  invisible(TRUE)
}

is_enabled <- function() isTRUE(.rir$enabled)

# The bytecode verifier on f's RIR code (internal; see src/bc/verifier.h):
# "" when well formed, else the problem; with shape = TRUE the stack height
# before each instruction, named by bytecode offset. `bc` (from bytecode(f),
# altered) replaces the bytecode in a copy of the code.
verify <- function(f, shape = FALSE, bc = NULL) {
  .Call(C_rir_verify, f, isTRUE(shape), if (is.null(bc)) NULL else as.integer(bc))
}
bytecode <- function(f) .Call(C_rir_bytecode, f)

# Runs f's RIR code from bytecode offset pc in env with the values of the
# list `stack` on its operand stack (what a deoptimization does; internal,
# for tests).
# The call the instruction at bytecode offset pc reports in errors (NULL if
# none): the pc -> source map (internal).
source_at <- function(f, pc) .Call(C_rir_source_at, f, as.integer(pc))

resume <- function(f, env, pc, stack = list()) {
  .Call(C_rir_resume, f, env, as.integer(pc), stack)
}

# What a deoptimization inside an inlined call of f does (internal, for
# tests): f's frame made from the positional arguments `args` (a list of
# values or promises) with the variables of the named list `vars` bound in
# it, f's function context for `call` from `env` pushed, and f's RIR code
# run from bytecode offset pc with `stack`; the call's value.
resume_inlined <- function(f, call, args, env, pc, stack = list(), vars = list()) {
  .Call(C_rir_resume_inlined, f, call, args, env, as.integer(pc), stack, vars)
}

compile <- function(f) compile_named(f, deparse(substitute(f))[1], "compile()")

# `name`: how status() and warnings name f (the caller's expression for it);
# `what`: the function the user called, for errors.
compile_named <- function(f, name, what) {
  check_closure(f, what)
  if (!isTRUE(.rir$ok)) {
    stop("rir is disabled: ", .rir$problem, call. = FALSE)
  }
  res <- .Call(C_rir_compile_closure, f, name)
  if (is.character(res)) {
    warning("rir left '", name, "' to GNU R: ", res, call. = FALSE)
    return(f)
  }
  res
}

is_compiled <- function(f) .Call(C_rir_is_compiled, f)

check_closure <- function(f, what) {
  if (!is.function(f)) {
    stop(what, " needs a function, not ", class(f)[1], call. = FALSE)
  }
  if (is.primitive(f)) {
    stop(what, " cannot compile a primitive function", call. = FALSE)
  }
}

disassemble <- function(f) {
  if (!is.function(f) || !is_compiled(f)) {
    stop("disassemble() needs a function compiled by rir (see compile())", call. = FALSE)
  }
  lines <- .Call(C_rir_disassemble, f)
  writeLines(lines)
  invisible(lines)
}

stats <- function() {
  s <- .Call(C_rir_stats)
  attr(s, "opt_refusals") <- .Call(C_rir_opt_refusals)
  class(s) <- "rir_stats"
  s
}

# Counts as whole numbers, times in seconds with three significant digits;
# then the optimizer's refusals by reason.
print.rir_stats <- function(x, ...) {
  v <- unclass(x)
  refusals <- attr(v, "opt_refusals")
  attributes(v) <- list(names = names(x))
  secs <- grepl("_seconds$", names(v))
  shown <- ifelse(secs, formatC(v, digits = 3, format = "g"), formatC(v, format = "d", big.mark = ","))
  cat("rir counters:\n")
  print(noquote(structure(shown, names = names(v))), right = TRUE)
  if (length(refusals)) {
    cat("optimizer refusals by reason:\n")
    print(noquote(structure(formatC(refusals, format = "d", big.mark = ","), names = names(refusals))), right = TRUE)
  }
  invisible(x)
}

reset_stats <- function() invisible(.Call(C_rir_reset_stats))

status <- function() {
  reg <- .Call(C_rir_status)
  df <- data.frame(
    name = reg[[1]], state = reg[[2]], reason = reg[[3]], calls = reg[[4]],
    tier = reg[[5]], optimizer = reg[[6]], opt_reason = reg[[7]],
    opt_seconds = reg[[8]], deopts = reg[[9]], versions = reg[[10]],
    continuations = reg[[11]],
    stringsAsFactors = FALSE
  )
  sites <- .Call(C_rir_ast_sites, 20L)
  attr(df, "ast_sites") <- data.frame(
    reason = sites[[1]], expression = sites[[2]], evaluations = sites[[3]],
    stringsAsFactors = FALSE
  )
  attr(df, "enabled") <- is_enabled()
  attr(df, "settings") <- rir_settings()
  df
}

# Aliases with the names of the Ř research VM.
rir.compile <- function(f) compile(f)
rir.disassemble <- function(f) disassemble(f)
rir.isValidFunction <- function(f) is_compiled(f)

# For the tests: a pending interrupt, as if the user had pressed Ctrl-C.
set_interrupt_pending <- function() invisible(.Call(C_rir_set_interrupt_pending))

# For the tests: evaluation depth rir counts beyond GNU R's R_EvalDepth.
extra_depth <- function() .Call(C_rir_extra_depth)

# The PIR self-test (internal; see src/pir/selftest.cpp): hand-built PIR
# functions, each as c(printed, problem, dot) where problem is the PIR
# verifier's verdict ("" = well formed). `f`, a rir-compiled closure, gives
# the frame-state cases real RIR code to name.
pir_selftest <- function(f = NULL) {
  lapply(.Call(C_rir_pir_selftest, f), function(x) {
    list(printed = x[[1]], problem = x[[2]], dot = x[[3]])
  })
}

# The PIR instruction table as a data frame (internal).
pir_instructions <- function() {
  t <- .Call(C_rir_pir_insn_table)
  data.frame(t, stringsAsFactors = FALSE)
}

# f's RIR code translated into PIR (internal; see src/pir/rir2pir.cpp):
# list(printed, problem, dot) where problem is why it is not translated,
# or the PIR verifier's verdict on the translation ("" = well formed); with
# optimize = TRUE, after the passes (src/pir/opt), verified after each.
pir_translate <- function(f, optimize = FALSE, trace = FALSE) {
  x <- .Call(C_rir_pir_translate, f, isTRUE(optimize), isTRUE(trace))
  list(printed = x[[1]], problem = x[[2]], dot = x[[3]], trace = x[[4]])
}

# rir's optimize(f) (not exported: it would mask stats::optimize for every
# script that attaches rir); pir.compile() is the exported name.
optimize <- function(f, name = deparse(substitute(f))[1], what = "optimize()") {
  check_closure(f, what)
  g <- if (is_compiled(f)) f else compile_named(f, name, what)
  why <- .Call(C_rir_optimize, g)
  if (nzchar(why)) warning("not optimized: ", why, call. = FALSE)
  invisible(g)
}

# the name Ř uses
pir.compile <- function(f) optimize(f, deparse(substitute(f))[1], "pir.compile()")

pir <- function(f, passes = FALSE) {
  check_closure(f, "pir()")
  g <- if (is_compiled(f)) f else compile_named(f, deparse(substitute(f))[1], "pir()")
  x <- pir_translate(g, optimize = TRUE, trace = passes)
  cat(if (isTRUE(passes)) x$trace else x$printed)
  if (nzchar(x$problem)) cat("(", x$problem, ")\n", sep = "")
  invisible(x$printed)
}

pir_check <- function(f, checks, warmup = NULL) {
  check_closure(f, "pir_check()")
  if (!is.character(checks) || length(checks) == 0L) {
    stop("'checks' must be a non-empty character vector", call. = FALSE)
  }
  unknown <- setdiff(checks, pir_check_names())
  if (length(unknown) > 0L) {
    stop(
      "unknown check(s): ", paste(unknown, collapse = ", "),
      "; known: ", paste(pir_check_names(), collapse = ", "),
      call. = FALSE
    )
  }
  g <- if (is_compiled(f)) f else compile_named(f, deparse(substitute(f))[1], "pir_check()")
  # (in the bytecode, where the calls record their feedback)
  if (!is.null(warmup)) without_native(warmup(g))
  res <- .Call(C_rir_pir_check, g, checks)
  if (is.character(res)) {
    out <- FALSE
    attr(out, "problem") <- res
    return(out)
  }
  names(res) <- checks
  out <- all(res)
  if (!out) attr(out, "failed") <- checks[!res]
  out
}

pir_check_names <- function() sort(.Call(C_rir_pir_check_names))

# Why the optimizing tier refused functions, with counts, most frequent
# first (internal).
opt_refusals <- function() .Call(C_rir_opt_refusals)

# Why function bodies compiled under RIR_DEBUG=verify were not translated to
# PIR, with counts, most frequent first (internal).
pir_untranslated <- function() .Call(C_rir_pir_untranslated)
