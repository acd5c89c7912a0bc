# Recursive list building: an unbalanced binary search tree of nested lists,
# built by functional (copying) insertion, then walked to collect keys in
# order and to compute its height; the way R code builds trees without
# mutable nodes.

tree_insert <- function(node, key) {
  if (is.null(node)) return(list(key = key, left = NULL, right = NULL))
  if (key < node$key) {
    node$left <- tree_insert(node$left, key)
  } else if (key > node$key) {
    node$right <- tree_insert(node$right, key)
  }
  node
}

tree_keys <- function(node) {
  if (is.null(node)) return(numeric(0))
  c(tree_keys(node$left), node$key, tree_keys(node$right))
}

tree_height <- function(node) {
  if (is.null(node)) return(0L)
  1L + max(tree_height(node$left), tree_height(node$right))
}

bench <- list(
  run = function(n) {
    keys <- numeric(n)
    seed <- 3
    for (i in seq_len(n)) {
      seed <- (seed * 16807) %% 2147483647
      keys[i] <- seed %% 100003
    }
    root <- NULL
    for (k in keys) root <- tree_insert(root, k)
    sorted <- tree_keys(root)
    if (!identical(sorted, sort(unique(keys)))) stop("list_tree: keys out of order")
    invisible(tree_height(root))
  },
  default_n = 20000,
  quick_n = 200
)
