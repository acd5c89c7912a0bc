# A walk over a heterogeneous list of records whose kinds change in phases:
# numbers, then integer counts, then logical flags, then character tags
# (counted by their length). A helper measures each element; its callers'
# feedback sees one kind for a long while, then the next.

measure <- function(e) {
  if (is.character(e)) nchar(e) else if (is.logical(e)) as.integer(e) else e * 2
}

walk <- function(items) {
  total <- 0
  for (k in seq_along(items)) total <- total + measure(items[[k]])
  total
}

bench <- list(
  run = function(n) {
    q <- n %/% 4
    items <- c(
      as.list(seq_len(q) * 0.5),
      as.list(seq_len(q)),
      as.list(rep(c(TRUE, FALSE), length.out = q)),
      as.list(rep(c("ab", "cde"), length.out = q))
    )
    total <- 0
    for (r in 1:3) total <- total + walk(items)
    expected <- 3 * (sum(seq_len(q) * 0.5) * 2 + sum(seq_len(q)) * 2 +
      sum(rep(c(1L, 0L), length.out = q)) + sum(nchar(rep(c("ab", "cde"), length.out = q))))
    if (total != expected) stop("poly_list: wrong result")
    invisible(total)
  },
  default_n = 4e5,
  quick_n = 4e4
)
