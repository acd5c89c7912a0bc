# RIR_OPT_THRESHOLD = 0: every closure at its highest tier at its first call.
#
# A closure reaches rir (and so its optimized tier) only when GNU R's JIT
# hands it over. GNU R's JIT offers a small top-level closure to rir only at
# its second call, and a small closure defined inside a function never; in this
# mode rir marks closures as GNU R marks those it has seen once (MAYBEJIT),
# so that the JIT hands them over at their first call: after every top-level
# call those bound in the global environment (a task callback), and those
# bound next to any closure or loop that GNU R's JIT hands over.
# stats()[["eager_compiled"]] counts the closures marked.

eager_mode <- function() {
  isTRUE(.rir$enabled) && identical(opt_threshold(), 0)
}

compile_bindings <- function(env) {
  if (!is.environment(env) || identical(env, emptyenv()) ||
    identical(env, baseenv()) || isNamespace(env)) {
    return(invisible(0L))
  }
  invisible(.Call(C_rir_compile_env, env))
}

eager_callback <- function(expr, value, ok, visible) {
  if (eager_mode()) compile_bindings(globalenv())
  TRUE
}

install_eager <- function() {
  if (is.null(.rir$eager_cb)) {
    .rir$eager_cb <- addTaskCallback(eager_callback, name = "rir-eager")
  }
  if (eager_mode()) compile_bindings(globalenv())
}

remove_eager <- function() {
  if (!is.null(.rir$eager_cb)) {
    removeTaskCallback(.rir$eager_cb)
    .rir$eager_cb <- NULL
  }
}
