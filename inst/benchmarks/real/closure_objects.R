# Closures as objects (the style of R6 and of hand-written "classes"): a
# counter, a stack and a moving-average filter made by constructor
# functions that return lists of closures sharing their enclosing
# environment, updated with <<-.

make_stack <- function() {
  items <- vector("list", 16)
  n <- 0L
  list(
    push = function(x) {
      if (n == length(items)) length(items) <<- 2L * length(items)
      n <<- n + 1L
      items[[n]] <<- x
      invisible(n)
    },
    pop = function() {
      x <- items[[n]]
      items[n] <<- list(NULL)
      n <<- n - 1L
      x
    },
    size = function() n
  )
}

make_filter <- function(width) {
  buf <- numeric(width)
  pos <- 0L
  filled <- 0L
  total <- 0
  function(x) {
    pos <<- pos %% width + 1L
    total <<- total - buf[pos] + x
    buf[pos] <<- x
    if (filled < width) filled <<- filled + 1L
    total / filled
  }
}

make_counter <- function() {
  count <- 0
  list(inc = function(by = 1) count <<- count + by, get = function() count)
}

bench <- list(
  run = function(n) {
    st <- make_stack()
    flt <- make_filter(8L)
    cnt <- make_counter()
    acc <- 0
    for (i in seq_len(n)) {
      st$push(i * 0.5)
      if (i %% 3L == 0L) acc <- acc + flt(st$pop())
      cnt$inc()
      if (i %% 7L == 0L) cnt$inc(by = 2)
    }
    while (st$size() > 0L) acc <- acc + st$pop()
    if (cnt$get() != n + 2 * (n %/% 7L)) stop("closure_objects: counter ", cnt$get())
    invisible(acc)
  },
  default_n = 150000,
  quick_n = 1000
)
