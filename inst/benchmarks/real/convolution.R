# 2-D convolution of a matrix with a 5x5 kernel (zero padding), written with
# nested scalar loops as in image-processing code; verified against a
# vectorized computation that sums shifted copies of the padded image.

make_image <- function(n) {
  i <- seq_len(n)
  outer(i, i, function(r, c) sin(r / 7) * cos(c / 5) + ((r * 31 + c * 17) %% 13) / 13)
}

make_kernel <- function() {
  g <- c(1, 4, 6, 4, 1)
  k <- outer(g, g)
  k / sum(k)
}

convolve_loops <- function(image, kernel) {
  nr <- nrow(image)
  nc <- ncol(image)
  kr <- nrow(kernel)
  kc <- ncol(kernel)
  half_r <- kr %/% 2
  half_c <- kc %/% 2
  out <- matrix(0, nr, nc)
  for (c in seq_len(nc)) {
    for (r in seq_len(nr)) {
      acc <- 0
      for (j in seq_len(kc)) {
        cc <- c + j - half_c - 1
        if (cc < 1 || cc > nc) next
        for (i in seq_len(kr)) {
          rr <- r + i - half_r - 1
          if (rr >= 1 && rr <= nr) {
            acc <- acc + image[rr, cc] * kernel[kr - i + 1, kc - j + 1]
          }
        }
      }
      out[r, c] <- acc
    }
  }
  out
}

convolve_shifts <- function(image, kernel) {
  nr <- nrow(image)
  nc <- ncol(image)
  kr <- nrow(kernel)
  kc <- ncol(kernel)
  half_r <- kr %/% 2
  half_c <- kc %/% 2
  padded <- matrix(0, nr + 2 * half_r, nc + 2 * half_c)
  padded[half_r + seq_len(nr), half_c + seq_len(nc)] <- image
  out <- matrix(0, nr, nc)
  for (i in seq_len(kr)) {
    for (j in seq_len(kc)) {
      out <- out + kernel[kr - i + 1, kc - j + 1] *
        padded[seq_len(nr) + i - 1, seq_len(nc) + j - 1]
    }
  }
  out
}

bench <- list(
  run = function(n) {
    image <- make_image(n)
    kernel <- make_kernel()
    result <- convolve_loops(image, kernel)
    expected <- convolve_shifts(image, kernel)
    if (!isTRUE(all.equal(result, expected, tolerance = 1e-12))) {
      stop("convolution: loop result differs from the vectorized result")
    }
    invisible(sum(result))
  },
  default_n = 300,
  quick_n = 30
)
