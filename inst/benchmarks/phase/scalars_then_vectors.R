# A distance function used first on single points, then on whole vectors
# of points: the same code sees plain scalars for many calls, then vectors.

dist2 <- function(x1, y1, x2, y2) {
  dx <- x1 - x2
  dy <- y1 - y2
  sqrt(dx * dx + dy * dy)
}

nearest_total <- function(px, py, cx, cy) {
  total <- 0
  for (i in seq_along(px)) {
    best <- Inf
    for (j in seq_along(cx)) {
      d <- dist2(px[i], py[i], cx[j], cy[j])
      if (d < best) best <- d
    }
    total <- total + best
  }
  total
}

spread_total <- function(px, py, cx, cy) {
  total <- 0
  for (j in seq_along(cx)) total <- total + sum(dist2(px, py, cx[j], cy[j]))
  total
}

bench <- list(
  run = function(n) {
    m <- 20
    px <- ((seq_len(n) * 37) %% 1000) / 10
    py <- ((seq_len(n) * 53) %% 1000) / 10
    cx <- seq(0, 100, length.out = m)
    cy <- rev(cx)
    a <- nearest_total(px, py, cx, cy)
    b <- 0
    for (r in 1:(n %/% 10)) b <- b + spread_total(px[1:50], py[1:50], cx, cy)
    if (!is.finite(a) || !is.finite(b)) stop("scalars_then_vectors: wrong result")
    invisible(a + b)
  },
  default_n = 2e4,
  quick_n = 2e3
)
