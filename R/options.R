# The user's knobs: each environment variable is mirrored by an option; the
# option wins when set. See ?rir_options.

knob <- function(option, envvar, default) {
  val <- getOption(option)
  if (!is.null(val)) return(val)
  env <- Sys.getenv(envvar, "")
  if (nzchar(env)) return(env)
  default
}

as_flag <- function(x) {
  if (is.logical(x)) return(isTRUE(x))
  tolower(as.character(x)) %in% c("1", "true", "yes", "on")
}

enable_requested <- function() as_flag(knob("rir.enable", "RIR_ENABLE", TRUE))

opt_threshold <- function() {
  as.numeric(knob("rir.opt_threshold", "RIR_OPT_THRESHOLD", 100))
}

#' Current values of rir's settings
#' @noRd
rir_settings <- function() {
  list(
    enable = enable_requested(),
    opt_threshold = opt_threshold(),
    native = as_flag(knob("rir.native", "RIR_NATIVE", TRUE)),
    osr_threshold = as.numeric(knob("rir.osr_threshold", "RIR_OSR_THRESHOLD", 10000)),
    compile_thread = as_flag(knob("rir.compile_thread", "RIR_COMPILE_THREAD", TRUE)),
    deoptless = as_flag(knob("rir.deoptless", "RIR_DEOPTLESS", FALSE)),
    heap_tuning = as_flag(knob("rir.heap_tuning", "RIR_HEAP_TUNING", TRUE)),
    deopt_chaos = as.numeric(knob("rir.deopt_chaos", "RIR_DEOPT_CHAOS", 0)),
    deopt_chaos_seed = as.numeric(knob("rir.deopt_chaos_seed", "RIR_DEOPT_CHAOS_SEED", 1)),
    debug = as.character(knob("rir.debug", "RIR_DEBUG", ""))
  )
}

# Sets the tiering knobs of this session (NULL keeps one) and returns the
# previous ones, list(threshold, native, chaos, osr, thread, deoptless)
# (internal: tests run code in the RIR tier with set_tiering(native = FALSE)).
set_tiering <- function(threshold = NULL, native = NULL, chaos = NULL, seed = NULL,
                        osr = NULL, thread = NULL, deoptless = NULL) {
  invisible(.Call(C_rir_set_tiering, threshold, native, chaos, seed, osr, thread, deoptless))
}

# Waits for the compile thread's jobs and installs what they made
# (internal, for the tests).
finish_compiles <- function() invisible(.Call(C_rir_finish_compiles))

# Runs `code` with the native tier off (its functions stay in RIR).
without_native <- function(code) {
  old <- set_tiering(native = FALSE)
  on.exit(set_tiering(native = old[[2]]))
  code
}
