# Are-we-fast-yet "Storage": builds a tree of nested lists whose leaves are
# vectors of random length; stresses allocation and the garbage collector.

make_random <- function() {
  seed <- 74755L
  function() {
    seed <<- bitwAnd(seed * 1309L + 13849L, 65535L)
    seed
  }
}

storage <- function() {
  random <- make_random()
  count <- 0
  build_tree <- function(depth) {
    count <<- count + 1
    if (depth == 1) {
      numeric(random() %% 10 + 1)
    } else {
      children <- vector("list", 4)
      for (i in 1:4) children[[i]] <- build_tree(depth - 1)
      children
    }
  }
  tree <- build_tree(7)
  count
}

bench <- list(
  run = function(n) {
    for (i in seq_len(n)) {
      result <- storage()
      if (result != 5461) stop("storage: expected 5461 nodes, got ", result)
    }
    invisible(result)
  },
  default_n = 40,
  quick_n = 2
)
