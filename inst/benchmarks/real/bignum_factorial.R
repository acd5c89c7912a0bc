# Big-number arithmetic on digit vectors: factorials computed by multiplying
# a little-endian vector of base-10000 digits by small integers with carry
# propagation, in ascending and in descending order (the two must agree),
# and digit sums checked against known values.

big_mul_small <- function(digits, k) {
  carry <- 0
  for (i in seq_along(digits)) {
    v <- digits[i] * k + carry
    digits[i] <- v %% 10000
    carry <- v %/% 10000
  }
  while (carry > 0) {
    digits <- c(digits, carry %% 10000)
    carry <- carry %/% 10000
  }
  digits
}

big_to_string <- function(digits) {
  n <- length(digits)
  paste0(digits[n], paste(sprintf("%04d", rev(digits[-n])), collapse = ""))
}

bench <- list(
  run = function(n) {
    f <- 1
    for (k in 2:n) f <- big_mul_small(f, k)
    g <- 1
    for (k in n:2) g <- big_mul_small(g, k)
    if (!identical(f, g)) stop("bignum_factorial: the products differ")
    s <- big_to_string(f)
    digit_sum <- sum(as.integer(strsplit(s, "")[[1]]))
    known <- c("100" = 648, "1000" = 10539)
    expected <- known[as.character(n)]
    if (!is.na(expected) && digit_sum != expected) stop("bignum_factorial: digit sum ", digit_sum)
    invisible(nchar(s))
  },
  default_n = 1600,
  quick_n = 100
)
