# A simulation whose update rule is replaced midway: the step function is
# a global that the driver loop calls, and a later phase of the run
# assigns a new rule to the same name (a model switching regime).

step <- function(x) x * 0.5 + 1

simulate <- function(steps, switch_at) {
  x <- 0
  for (i in seq_len(steps)) {
    if (i == switch_at) step <<- function(x) x * 0.25 + 3
    x <- step(x) + i %% 3
  }
  x
}

bench <- list(
  run = function(n) {
    total <- 0
    for (r in 1:3) {
      step <<- function(x) x * 0.5 + 1
      total <- total + simulate(n, n %/% 3)
    }
    if (!is.finite(total) || total < 0) stop("callee_redefined: wrong result")
    invisible(total)
  },
  default_n = 4e5,
  quick_n = 5e4
)
