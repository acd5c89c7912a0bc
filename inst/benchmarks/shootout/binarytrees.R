# Benchmarks game "binary-trees": allocates many perfect binary trees (nested
# lists) bottom-up and walks them to count the nodes.

bottom_up_tree <- function(depth) {
  if (depth > 0) {
    list(bottom_up_tree(depth - 1), bottom_up_tree(depth - 1))
  } else {
    list(NULL, NULL)
  }
}

item_check <- function(tree) {
  if (is.null(tree[[1]])) 1 else 1 + item_check(tree[[1]]) + item_check(tree[[2]])
}

binarytrees <- function(n) {
  min_depth <- 4
  max_depth <- max(min_depth + 2, n)
  stretch_depth <- max_depth + 1
  nodes <- function(depth) 2^(depth + 1) - 1
  report <- character(0)

  check <- item_check(bottom_up_tree(stretch_depth))
  if (check != nodes(stretch_depth)) stop("binarytrees: wrong stretch tree check ", check)
  report <- c(report, sprintf("stretch tree of depth %d\t check: %d", stretch_depth, check))

  long_lived <- bottom_up_tree(max_depth)
  for (depth in seq(min_depth, max_depth, by = 2)) {
    iterations <- 2^(max_depth - depth + min_depth)
    check <- 0
    for (i in seq_len(iterations)) check <- check + item_check(bottom_up_tree(depth))
    if (check != iterations * nodes(depth)) stop("binarytrees: wrong check at depth ", depth)
    report <- c(report, sprintf("%d\t trees of depth %d\t check: %d", iterations, depth, check))
  }
  check <- item_check(long_lived)
  if (check != nodes(max_depth)) stop("binarytrees: wrong long lived tree check ", check)
  c(report, sprintf("long lived tree of depth %d\t check: %d", max_depth, check))
}

bench <- list(
  run = function(n) {
    report <- binarytrees(n)
    if (length(report) != 2 + length(seq(4, max(6, n), by = 2))) {
      stop("binarytrees: wrong report")
    }
    invisible(report)
  },
  default_n = 12,
  quick_n = 6
)
