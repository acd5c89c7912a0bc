# Benchmarks game "pidigits" with a bounded spigot algorithm instead of bignum
# arithmetic: pi is held as a mixed-radix digit vector
# (pi = 2 + 1/3 (2 + 2/5 (2 + 3/7 (2 + ...)))) which is repeatedly multiplied
# by 10^4 and normalised from the right, producing four decimal digits per
# pass. Each pass works on 14 fewer terms because the tail no longer
# contributes. Carries between groups of four digits are resolved at the end.

pi_digits <- function(n) {
  groups <- ceiling(n / 4) + 1
  len <- groups * 14
  base <- 10000
  terms <- rep(base %/% 5, len)
  out <- numeric(groups)
  carry <- 0
  active <- len
  for (g in seq_len(groups)) {
    d <- 0
    b <- active
    while (b > 0) {
      d <- d + terms[b] * base
      denom <- 2 * b - 1
      terms[b] <- d %% denom
      d <- d %/% denom
      b <- b - 1
      if (b > 0) d <- d * b
    }
    out[g] <- carry + d %/% base
    carry <- d %% base
    active <- active - 14
  }
  # resolve carries (a group may have reached 10^4)
  for (g in rev(seq_len(groups))[-groups]) {
    if (out[g] >= base) {
      out[g - 1] <- out[g - 1] + out[g] %/% base
      out[g] <- out[g] %% base
    }
  }
  digits <- paste(sprintf("%04d", as.integer(out)), collapse = "")
  substr(digits, 1, n)
}

pi_100 <- paste0(
  "31415926535897932384626433832795028841971693993751",
  "05820974944592307816406286208998628034825342117067"
)

bench <- list(
  run = function(n) {
    digits <- pi_digits(n)
    k <- min(n, 100)
    if (nchar(digits) != n || substr(digits, 1, k) != substr(pi_100, 1, k)) {
      stop("pidigits: wrong digits ", substr(digits, 1, 30))
    }
    # the Feynman point: six nines starting at the 762nd decimal
    if (n >= 768 && substr(digits, 763, 768) != "999999") {
      stop("pidigits: the Feynman point is missing")
    }
    invisible(digits)
  },
  default_n = 2500,
  quick_n = 200
)
