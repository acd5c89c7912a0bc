# `[[<-` and `$<-` on lists in a loop: growing a list, updating by position and
# by name, and updating a nested list.

list_assign <- function(n) {
  items <- vector("list", 0)
  for (i in seq_len(n)) {
    items[[i]] <- i
  }
  counts <- list(even = 0, odd = 0)
  for (i in seq_along(items)) {
    key <- if (items[[i]] %% 2 == 0) "even" else "odd"
    counts[[key]] <- counts[[key]] + 1
    items[[i]] <- items[[i]] * 2
  }
  state <- list(stats = list(total = 0, last = 0))
  for (i in seq_along(items)) {
    state$stats$total <- state$stats$total + items[[i]]
    state$stats[["last"]] <- items[[i]]
  }
  list(counts = counts, total = state$stats$total, last = state$stats$last)
}

bench <- list(
  run = function(n) {
    res <- list_assign(n)
    if (res$counts$even != n %/% 2 || res$counts$odd != n - n %/% 2 ||
      res$total != n * (n + 1) || res$last != 2 * n) {
      stop("list_assign: wrong result")
    }
    invisible(res)
  },
  default_n = 2e5,
  quick_n = 5e3
)
