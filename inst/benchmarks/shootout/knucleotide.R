# Benchmarks game "k-nucleotide", scalar version: counts all k-mers of the
# THREE section of the fasta output with a loop over positions, substr() and
# an environment used as a hash table. The input is produced by the fasta
# generator (vectorized) inside the benchmark.

# --- fasta input generator (vectorized; the same algorithm as fasta_vec.R) ---

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

three_section <- function(lines) {
  start <- which(startsWith(lines, ">THREE"))
  toupper(paste(lines[seq(start + 1, length(lines))], collapse = ""))
}

count_kmers <- function(seq, k) {
  counts <- new.env(hash = TRUE, size = 4^min(k, 8))
  for (i in seq_len(nchar(seq) - k + 1)) {
    key <- substr(seq, i, i + k - 1)
    old <- counts[[key]]
    counts[[key]] <- if (is.null(old)) 1L else old + 1L
  }
  counts
}

frequencies <- function(seq, k) {
  counts <- count_kmers(seq, k)
  keys <- ls(counts, sorted = TRUE)
  values <- vapply(keys, function(key) counts[[key]], integer(1))
  total <- sum(values)
  ord <- order(-values, keys)
  sprintf("%s %.3f", keys[ord], 100 * values[ord] / total)
}

specific_count <- function(seq, kmer) {
  count <- count_kmers(seq, nchar(kmer))[[kmer]]
  sprintf("%d\t%s", if (is.null(count)) 0L else count, kmer)
}

knucleotide <- function(n) {
  seq <- three_section(fasta_generate(n))
  c(
    frequencies(seq, 1), "", frequencies(seq, 2), "",
    vapply(c("GGT", "GGTA", "GGTATT", "GGTATTTTAATT", "GGTATTTTAATTTATAGT"),
      function(kmer) specific_count(seq, kmer), character(1), USE.NAMES = FALSE)
  )
}

known <- list(
  "500" = c(241, 12411, 1601438),
  "1000" = c(241, 12395, 1598454),
  "2000" = c(242, 12459, 1612980),
  "5000" = c(242, 12541, 1626606),
  "20000" = c(245, 12729, 1668506),
  "50000" = c(245, 12755, 1675622)
)

bench <- list(
  run = function(n) {
    out <- knucleotide(n)
    hash <- text_hash(out)
    expected <- known[[format(n, scientific = FALSE)]]
    if (!is.null(expected)) {
      if (!identical(unname(hash), expected)) {
        stop("knucleotide: wrong checksum ", paste(hash, collapse = " "))
      }
    } else if (length(out) != 27) {
      stop("knucleotide: wrong number of output lines")
    }
    invisible(out)
  },
  default_n = 5000,
  quick_n = 500
)
