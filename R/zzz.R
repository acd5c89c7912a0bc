.onLoad <- function(libname, pkgname) {
  problem <- tryCatch(
    .Call(C_rir_init, trampoline_template()),
    error = function(e) conditionMessage(e)
  )
  .rir$ok <- !nzchar(problem)
  .rir$problem <- problem
  .rir$enabled <- FALSE
  if (!.rir$ok) return(invisible())
  if (enable_requested()) enable()
}

.onAttach <- function(libname, pkgname) {
  if (!isTRUE(.rir$ok)) packageStartupMessage("rir disabled itself: ", .rir$problem)
}

.onUnload <- function(libpath) {
  if (isTRUE(.rir$enabled)) disable()
}
