# Reference classes (setRefClass): a priority queue and a simulation of
# customers served by tellers, with methods that modify fields in place;
# object-oriented R code as packages written with methods::setRefClass.

PQueue <- setRefClass("PQueue",
  fields = list(keys = "numeric", items = "list", size = "integer"),
  methods = list(
    initialize = function(...) {
      keys <<- numeric(0)
      items <<- list()
      size <<- 0L
      callSuper(...)
    },
    push = function(key, item) {
      size <<- size + 1L
      keys[size] <<- key
      items[[size]] <<- item
      i <- size
      while (i > 1L) {
        p <- i %/% 2L
        if (keys[p] <= keys[i]) break
        tk <- keys[p]; keys[p] <<- keys[i]; keys[i] <<- tk
        ti <- items[[p]]; items[[p]] <<- items[[i]]; items[[i]] <<- ti
        i <- p
      }
      invisible(.self)
    },
    pop = function() {
      top <- items[[1L]]
      keys[1L] <<- keys[size]
      items[[1L]] <<- items[[size]]
      items[[size]] <<- NULL
      keys <<- keys[-size]
      size <<- size - 1L
      i <- 1L
      repeat {
        l <- 2L * i
        r <- l + 1L
        m <- i
        if (l <= size && keys[l] < keys[m]) m <- l
        if (r <= size && keys[r] < keys[m]) m <- r
        if (m == i) break
        tk <- keys[m]; keys[m] <<- keys[i]; keys[i] <<- tk
        ti <- items[[m]]; items[[m]] <<- items[[i]]; items[[i]] <<- ti
        i <- m
      }
      top
    },
    empty = function() size == 0L
  )
)

bench <- list(
  run = function(n) {
    q <- PQueue$new()
    t <- 0
    seed <- 11
    for (k in seq_len(n)) {
      seed <- (seed * 69069 + 1) %% 4294967296
      q$push(t + seed %% 97, list(id = k, arrival = t))
      t <- t + 1
    }
    served <- 0L
    while (!q$empty()) {
      item <- q$pop()
      served <- served + 1L
      if (item$arrival < 0) stop("refclass_queue: bad item")
    }
    if (served != n) stop("refclass_queue: served ", served, " of ", n)
    invisible(served)
  },
  default_n = 1000,
  quick_n = 100
)
