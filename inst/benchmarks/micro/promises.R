# Promise-heavy code: arguments passed lazily through several call layers,
# default arguments that refer to other arguments, unevaluated arguments,
# force() and delayedAssign().

layer3 <- function(x, y = x + 1) x + y
layer2 <- function(x, y) layer3(x, y)
layer1 <- function(a, b) layer2(a * 2, b)

unused <- function(a, b) a  # b is never forced

lazy_default <- function(a, b = a * a, c = b + a) c

make_counter <- function() {
  count <- 0
  list(
    tick = function() {
      count <<- count + 1
      count
    },
    get = function() count
  )
}

promises <- function(n) {
  counter <- make_counter()
  total <- 0
  for (i in as.numeric(seq_len(n))) {
    total <- total + layer1(i, i)           # 3i
    total <- total + unused(i, counter$tick())  # i, tick never runs
    total <- total + lazy_default(i)        # i^2 + i
    delayedAssign("late", i * 10)
    total <- total + force(late)            # 10i
  }
  c(total = total, ticks = counter$get())
}

bench <- list(
  run = function(n) {
    res <- promises(n)
    expected <- 15 * n * (n + 1) / 2 + n * (n + 1) * (2 * n + 1) / 6
    if (res[["total"]] != expected || res[["ticks"]] != 0) {
      stop("promises: wrong result ", res[["total"]], " / ", res[["ticks"]])
    }
    invisible(res)
  },
  default_n = 2e5,
  quick_n = 5e3
)
