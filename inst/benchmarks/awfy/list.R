# Are-we-fast-yet "List": recursive "tail" function (Takeuchi-style) over
# immutable linked lists built from nested R lists.

make_list <- function(length) {
  if (length == 0) NULL else list(val = length, nxt = make_list(length - 1))
}

list_length <- function(x) {
  if (is.null(x)) 0 else 1 + list_length(x$nxt)
}

is_shorter_than <- function(x, y) {
  x_tail <- x
  y_tail <- y
  while (!is.null(y_tail)) {
    if (is.null(x_tail)) return(TRUE)
    x_tail <- x_tail$nxt
    y_tail <- y_tail$nxt
  }
  FALSE
}

tail_list <- function(x, y, z) {
  if (is_shorter_than(y, x)) {
    tail_list(
      tail_list(x$nxt, y, z),
      tail_list(y$nxt, z, x),
      tail_list(z$nxt, x, y)
    )
  } else {
    z
  }
}

bench <- list(
  run = function(n) {
    for (i in seq_len(n)) {
      result <- list_length(tail_list(make_list(15), make_list(10), make_list(6)))
      if (result != 10) stop("list: expected length 10, got ", result)
    }
    invisible(result)
  },
  default_n = 30,
  quick_n = 1
)
