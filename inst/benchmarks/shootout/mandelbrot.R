# Benchmarks game "mandelbrot", scalar version: escape-time iteration per pixel
# (at most 50 iterations, limit 2) with the bits packed into bytes as for a PBM
# bitmap. The bytes are checksummed instead of written out.

mandelbrot <- function(size) {
  bytes_per_row <- (size + 7) %/% 8
  out <- integer(size * bytes_per_row)
  pos <- 0
  for (y in 0:(size - 1)) {
    ci <- 2 * y / size - 1
    byte <- 0L
    bit <- 0L
    for (x in 0:(size - 1)) {
      cr <- 2 * x / size - 1.5
      zr <- 0
      zi <- 0
      tr <- 0
      ti <- 0
      i <- 0
      while (i < 50 && tr + ti <= 4) {
        zi <- 2 * zr * zi + ci
        zr <- tr - ti + cr
        tr <- zr * zr
        ti <- zi * zi
        i <- i + 1
      }
      byte <- byte * 2L + (tr + ti <= 4)
      bit <- bit + 1L
      if (bit == 8L || x == size - 1) {
        pos <- pos + 1
        out[pos] <- bitwShiftL(byte, 8L - bit)
        byte <- 0L
        bit <- 0L
      }
    }
  }
  out
}

bytes_hash <- function(bytes) {
  c(
    count = length(bytes), sum = sum(bytes),
    weighted = sum(as.numeric(bytes) * (seq_along(bytes) %% 65521 + 1)) %% 2147483647
  )
}

known <- list(
  "40" = c(200, 20110, 2107314),
  "100" = c(1300, 129133, 85133323),
  "200" = c(5000, 506926, 1275932041),
  "400" = c(20000, 2021333, 950791436),
  "500" = c(31500, 3165191, 584979406)
)

bench <- list(
  run = function(n) {
    hash <- bytes_hash(mandelbrot(n))
    expected <- known[[format(n, scientific = FALSE)]]
    if (!is.null(expected)) {
      if (!identical(unname(hash), expected)) {
        stop("mandelbrot: wrong checksum ", paste(hash, collapse = " "))
      }
    } else if (hash[["count"]] != n * ((n + 7) %/% 8)) {
      stop("mandelbrot: wrong number of bytes")
    }
    invisible(hash)
  },
  default_n = 500,
  quick_n = 40
)
