.onLoad <- function(libname, pkgname) {
  problem <- tryCatch(
    .Call(C_rir_init, trampoline_template()),
    error = function(e) conditionMessage(e)
  )
  .rir$ok <- !nzchar(problem)
  .rir$problem <- problem
  .rir$enabled <- FALSE
  if (!.rir$ok) {
    packageStartupMessage("rir disabled itself: ", problem)
    return(invisible())
  }
  if (enable_requested()) enable()
}

.onUnload <- function(libpath) {
  if (isTRUE(.rir$enabled)) disable()
}
