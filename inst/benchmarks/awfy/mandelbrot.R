# Are-we-fast-yet "Mandelbrot": scalar loops computing a bit-packed image of the
# Mandelbrot set and xor-ing the bytes together.

mandelbrot <- function(size) {
  sum <- 0L
  byte_acc <- 0L
  bit_num <- 0L
  y <- 0
  while (y < size) {
    ci <- (2 * y / size) - 1
    x <- 0
    while (x < size) {
      zrzr <- 0
      zi <- 0
      zizi <- 0
      cr <- (2 * x / size) - 1.5
      z <- 0
      not_done <- TRUE
      escape <- 0L
      while (not_done && z < 50) {
        zr <- zrzr - zizi + cr
        zi <- 2 * zr * zi + ci
        zrzr <- zr * zr
        zizi <- zi * zi
        if (zrzr + zizi > 4) {
          not_done <- FALSE
          escape <- 1L
        }
        z <- z + 1
      }
      byte_acc <- bitwShiftL(byte_acc, 1L) + escape
      bit_num <- bit_num + 1L
      if (bit_num == 8L) {
        sum <- bitwXor(sum, byte_acc)
        byte_acc <- 0L
        bit_num <- 0L
      } else if (x == size - 1) {
        byte_acc <- bitwShiftL(byte_acc, 8L - bit_num)
        sum <- bitwXor(sum, byte_acc)
        byte_acc <- 0L
        bit_num <- 0L
      }
      x <- x + 1
    }
    y <- y + 1
  }
  sum
}

known <- c("1" = 128L, "500" = 191L, "750" = 50L)

bench <- list(
  run = function(n) {
    result <- mandelbrot(n)
    expected <- known[format(n, scientific = FALSE)]
    if (is.na(expected)) {
      if (!is.numeric(result) || result < 0 || result > 255) stop("mandelbrot: bad result")
    } else if (result != expected) {
      stop("mandelbrot(", n, "): expected ", expected, ", got ", result)
    }
    invisible(result)
  },
  default_n = 500,
  quick_n = 1
)
