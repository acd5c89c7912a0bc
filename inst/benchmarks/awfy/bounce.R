# Are-we-fast-yet "Bounce": balls (environments with position and velocity)
# bounce around in a box; counts the bounces.

make_random <- function() {
  seed <- 74755L
  function() {
    seed <<- bitwAnd(seed * 1309L + 13849L, 65535L)
    seed
  }
}

make_ball <- function(random) {
  ball <- new.env()
  ball$x <- random() %% 500
  ball$y <- random() %% 500
  ball$x_vel <- (random() %% 300) - 150
  ball$y_vel <- (random() %% 300) - 150
  ball
}

bounce_ball <- function(ball) {
  x_limit <- 500
  y_limit <- 500
  bounced <- FALSE
  ball$x <- ball$x + ball$x_vel
  ball$y <- ball$y + ball$y_vel
  if (ball$x > x_limit) {
    ball$x <- x_limit
    ball$x_vel <- -abs(ball$x_vel)
    bounced <- TRUE
  }
  if (ball$x < 0) {
    ball$x <- 0
    ball$x_vel <- abs(ball$x_vel)
    bounced <- TRUE
  }
  if (ball$y > y_limit) {
    ball$y <- y_limit
    ball$y_vel <- -abs(ball$y_vel)
    bounced <- TRUE
  }
  if (ball$y < 0) {
    ball$y <- 0
    ball$y_vel <- abs(ball$y_vel)
    bounced <- TRUE
  }
  bounced
}

bounce <- function() {
  random <- make_random()
  balls <- lapply(seq_len(100), function(i) make_ball(random))
  bounces <- 0
  for (i in seq_len(50)) {
    for (ball in balls) {
      if (bounce_ball(ball)) bounces <- bounces + 1
    }
  }
  bounces
}

bench <- list(
  run = function(n) {
    for (i in seq_len(n)) {
      result <- bounce()
      if (result != 1331) stop("bounce: expected 1331 bounces, got ", result)
    }
    invisible(result)
  },
  default_n = 100,
  quick_n = 2
)
