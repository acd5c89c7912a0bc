# Benchmarks game "fasta", vectorized the way an R user would write it: the
# random number generator is advanced in blocks (jump-ahead), letters are
# picked with findInterval() and lines are cut with substring().
# The output is checksummed instead of printed.

fasta_alu <- paste0(
  "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGG",
  "GAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGA",
  "CCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAAT",
  "ACAAAAATTAGCCGGGCGTGGTGGCGCGCGCCTGTAATCCCA",
  "GCTACTCGGGAGGCTGAGGCAGGAGAATCGCTTGAACCCGGG",
  "AGGCGGAGGTTGCAGTGAGCCGAGATCGCGCCACTGCACTCC",
  "AGCCTGGGCGACAGAGCGAGACTCCGTCTCAAAAA"
)

fasta_iub <- c(
  a = 0.27, c = 0.12, g = 0.12, t = 0.27,
  B = 0.02, D = 0.02, H = 0.02, K = 0.02, M = 0.02, N = 0.02,
  R = 0.02, S = 0.02, V = 0.02, W = 0.02, Y = 0.02
)

fasta_homo_sapiens <- c(
  a = 0.3029549426680, c = 0.1979883004921,
  g = 0.1975473066391, t = 0.3015094502008
)

fasta_im <- 139968
fasta_ia <- 3877
fasta_ic <- 29573

# The next `count` states of the linear congruential generator after `seed`,
# computed by repeated doubling: the map x -> a * x + c (mod m) applied L
# times is again such a map, so a block of L states gives the next L at once.
lcg_states <- function(seed, count) {
  states <- (fasta_ia * seed + fasta_ic) %% fasta_im
  mult <- fasta_ia
  incr <- fasta_ic
  while (length(states) < count) {
    states <- c(states, (mult * states + incr) %% fasta_im)
    incr <- (mult * incr + incr) %% fasta_im
    mult <- (mult * mult) %% fasta_im
  }
  states[seq_len(count)]
}

fasta_lines <- function(chars) {
  text <- paste(chars, collapse = "")
  starts <- seq(1, length(chars), by = 60)
  substring(text, starts, pmin(starts + 59, length(chars)))
}

fasta_random_chars <- function(probs, count, seed) {
  cum <- cumsum(probs)
  cum[length(cum)] <- 1
  states <- lcg_states(seed, count)
  list(
    chars = names(probs)[findInterval(states / fasta_im, cum) + 1],
    seed = states[[count]]
  )
}

fasta_generate <- function(n) {
  alu <- strsplit(fasta_alu, "")[[1]]
  two <- fasta_random_chars(fasta_iub, 3 * n, 42)
  three <- fasta_random_chars(fasta_homo_sapiens, 5 * n, two$seed)
  c(
    ">ONE Homo sapiens alu", fasta_lines(rep_len(alu, 2 * n)),
    ">TWO IUB ambiguity codes", fasta_lines(two$chars),
    ">THREE Homo sapiens frequency", fasta_lines(three$chars)
  )
}

# A cheap position-sensitive checksum of a character vector.
text_hash <- function(lines) {
  codes <- utf8ToInt(paste(lines, collapse = "\n"))
  weights <- (seq_along(codes) %% 65521) + 1
  c(
    chars = length(codes), sum = sum(codes),
    weighted = sum(as.numeric(codes) * weights) %% 2147483647
  )
}

known <- list(
  "1000" = c(10244, 969991, 978922874),
  "10000" = c(101744, 9618656, 563661805),
  "25000" = c(254244, 24042001, 154388898),
  "250000" = c(2541744, 240322264, 1741956390)
)

bench <- list(
  run = function(n) {
    out <- fasta_generate(n)
    hash <- text_hash(out)
    expected <- known[[format(n, scientific = FALSE)]]
    if (!is.null(expected)) {
      if (!identical(unname(hash), expected)) {
        stop("fasta_vec: wrong checksum ", paste(hash, collapse = " "))
      }
    } else if (length(out) != 3 + ceiling(2 * n / 60) + ceiling(3 * n / 60) + ceiling(5 * n / 60)) {
      stop("fasta_vec: wrong number of lines")
    }
    invisible(hash)
  },
  default_n = 250000,
  quick_n = 10000
)
