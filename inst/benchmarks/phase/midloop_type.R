# A scan over a stream of readings whose type changes midway: the sensor
# sends whole numbers first, then calibrated doubles. A running mean and
# maximum are kept in one loop, first over integers, then over doubles.

scan_readings <- function(readings) {
  total <- 0
  hi <- -Inf
  count <- 0L
  for (r in readings) {
    v <- r[[1]]
    total <- total + v
    if (v > hi) hi <- v
    count <- count + 1L
  }
  c(mean = total / count, max = hi)
}

bench <- list(
  run = function(n) {
    half <- n %/% 2
    first <- as.list((seq_len(half) * 7L) %% 101L)
    second <- as.list(((seq_len(n - half) * 7) %% 101) + 0.25)
    res <- scan_readings(c(first, second))
    expected <- (sum(unlist(first)) + sum(unlist(second))) / n
    if (abs(res[["mean"]] - expected) > 1e-9 * expected) stop("midloop_type: wrong result")
    invisible(res)
  },
  default_n = 1.5e6,
  quick_n = 1e5
)
