# The JIT hook: rir replaces compiler:::tryCmpfun and compiler:::tryCompile,
# which GNU R's JIT calls for closures and top-level loops (docs/architecture.md).

.rir <- new.env(parent = emptyenv())

# GNU R byte code of every trampoline (see src/runtime/trampoline.h):
# GETBUILTIN .External2; PUSHCONSTARG entry; PUSHCONSTARG target;
# CALLBUILTIN; LDCONST visible; BRIFNOT L; RETURN; L: INVISIBLE; RETURN
trampoline_template <- function() {
  ops <- getFromNamespace("Opcodes.names", "compiler")
  op <- function(name) {
    i <- match(paste0(name, ".OP"), ops)
    if (is.na(i)) stop("GNU R byte-code opcode ", name, " not found")
    i - 1L
  }
  version <- .Call(C_rir_bc_version, compiler::compile(quote(1)))
  as.integer(c(
    version,
    op("GETBUILTIN"), 1L,
    op("PUSHCONSTARG"), 2L,
    op("PUSHCONSTARG"), 3L,
    op("CALLBUILTIN"), 4L,
    op("LDCONST"), 5L,
    op("BRIFNOT"), 4L, 15L,
    op("RETURN"),
    op("INVISIBLE"),
    op("RETURN")
  ))
}

rir_try_cmpfun <- function(f) {
  if (eager_mode()) compile_bindings(environment(f))
  res <- .Call(C_rir_compile_closure, f, "<jit>")
  if (is.function(res)) res else .rir$orig$tryCmpfun(f)
}

rir_try_compile <- function(e, env, options = NULL, srcref = NULL) {
  if (eager_mode()) compile_bindings(env)
  res <- tryCatch(.Call(C_rir_compile_toplevel, e, env), error = function(err) NULL)
  if (is.null(res)) .rir$orig$tryCompile(e, env, options, srcref) else res
}

replace_binding <- function(ns, name, value) {
  locked <- bindingIsLocked(name, ns)
  if (locked) (get("unlockBinding", baseenv()))(name, ns)
  assign(name, value, envir = ns)
  if (locked) lockBinding(name, ns)
}

install_hook <- function() {
  ns <- asNamespace("compiler")
  if (is.null(.rir$orig)) {
    .rir$orig <- list(
      tryCmpfun = get("tryCmpfun", envir = ns),
      tryCompile = get("tryCompile", envir = ns)
    )
  }
  replace_binding(ns, "tryCmpfun", rir_try_cmpfun)
  replace_binding(ns, "tryCompile", rir_try_compile)
  # The JIT level is left alone: rir is offered what GNU R's JIT compiles
  # (R_ENABLE_JIT=0 therefore leaves everything but compile() to GNU R).
  # Changing it here would also be unsafe while R starts up (R_TESTS): GNU R
  # allocates its JIT cache only after the profile has run.
}

remove_hook <- function() {
  if (is.null(.rir$orig)) return(invisible(FALSE))
  ns <- asNamespace("compiler")
  replace_binding(ns, "tryCmpfun", .rir$orig$tryCmpfun)
  replace_binding(ns, "tryCompile", .rir$orig$tryCompile)
  invisible(TRUE)
}
