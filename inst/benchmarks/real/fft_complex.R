# Complex arithmetic: a recursive radix-2 FFT on complex vectors, checked
# against R's fft(), and its inverse; the kind of numeric code that works on
# whole complex vectors with recursion and subsetting.

fft_rec <- function(x) {
  n <- length(x)
  if (n == 1) return(x)
  even <- fft_rec(x[seq(1, n, by = 2)])
  odd <- fft_rec(x[seq(2, n, by = 2)])
  k <- 0:(n / 2 - 1)
  w <- exp(-2i * pi * k / n) * odd
  c(even + w, even - w)
}

bench <- list(
  run = function(n) {
    set.seed(42)
    err <- 0
    for (r in seq_len(n)) {
      x <- complex(real = rnorm(256), imaginary = rnorm(256))
      y <- fft_rec(x)
      err <- max(err, Mod(y - fft(x)))
      back <- Conj(fft_rec(Conj(y))) / length(y)
      err <- max(err, Mod(back - x))
    }
    if (err > 1e-8) stop("fft_complex: error ", err)
    invisible(err)
  },
  default_n = 60,
  quick_n = 3
)
