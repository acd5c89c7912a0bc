# Benchmarks game "mandelbrot", vectorized: the escape-time iteration runs on
# the vector of all points that have not escaped yet; the bits are packed into
# bytes with matrix arithmetic. The bytes are checksummed instead of written.

mandelbrot <- function(size) {
  coords <- 0:(size - 1)
  # pixel (x, y) is element x + 1 + y * size
  cr <- rep(2 * coords / size - 1.5, times = size)
  ci <- rep(2 * coords / size - 1, each = size)
  zr <- zi <- tr <- ti <- numeric(size * size)
  active <- seq_len(size * size)
  for (i in 1:50) {
    zi[active] <- 2 * zr[active] * zi[active] + ci[active]
    zr[active] <- tr[active] - ti[active] + cr[active]
    tr[active] <- zr[active] * zr[active]
    ti[active] <- zi[active] * zi[active]
    active <- active[tr[active] + ti[active] <= 4]
  }
  inside <- logical(size * size)
  inside[active] <- TRUE
  # pad each row to a multiple of 8 bits and pack 8 bits per byte
  bytes_per_row <- (size + 7) %/% 8
  bits <- matrix(FALSE, nrow = bytes_per_row * 8, ncol = size)
  bits[seq_len(size), ] <- inside
  groups <- matrix(as.integer(bits), nrow = 8)
  as.integer(colSums(groups * 2L^(7:0)))
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
        stop("mandelbrot_vec: wrong checksum ", paste(hash, collapse = " "))
      }
    } else if (hash[["count"]] != n * ((n + 7) %/% 8)) {
      stop("mandelbrot_vec: wrong number of bytes")
    }
    invisible(hash)
  },
  default_n = 500,
  quick_n = 100
)
