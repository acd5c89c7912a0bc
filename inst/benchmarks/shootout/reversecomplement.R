# Benchmarks game "reverse-complement", scalar version: each sequence is
# reversed and complemented letter by letter through a lookup table indexed by
# character code. The input is produced by the fasta generator inside the
# benchmark.

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

complement_from <- "ACGTUMRWSYKVHDBNacgtumrwsykvhdbn"
complement_to <- "TGCAAKYWSRMBDHVNTGCAAKYWSRMBDHVN"

# Splits fasta lines into a list of sections with a header and a sequence.
read_sections <- function(lines) {
  headers <- which(startsWith(lines, ">"))
  ends <- c(headers[-1] - 1, length(lines))
  lapply(seq_along(headers), function(i) {
    list(
      header = lines[[headers[[i]]]],
      seq = paste(lines[seq_len(ends[[i]] - headers[[i]]) + headers[[i]]], collapse = "")
    )
  })
}

wrap_lines <- function(seq) {
  len <- nchar(seq)
  starts <- seq(1, len, by = 60)
  substring(seq, starts, pmin(starts + 59, len))
}

revcomp_vec <- function(seq) {
  chartr(complement_from, complement_to, intToUtf8(rev(utf8ToInt(seq))))
}

complement_table <- function() {
  table <- seq_len(128)
  table[utf8ToInt(complement_from)] <- utf8ToInt(complement_to)
  table
}

revcomp_scalar <- function(seq, table) {
  codes <- utf8ToInt(seq)
  len <- length(codes)
  out <- integer(len)
  for (i in seq_len(len)) {
    out[len - i + 1] <- table[codes[i]]
  }
  intToUtf8(out)
}

reverse_complement <- function(lines) {
  table <- complement_table()
  unlist(lapply(read_sections(lines), function(section) {
    c(section$header, wrap_lines(revcomp_scalar(section$seq, table)))
  }))
}

known <- list(
  "5000" = c(50910, 3650067, 490114656),
  "20000" = c(203410, 14579787, 1977744408),
  "100000" = c(1016744, 72898025, 478278882),
  "200000" = c(2033410, 145780746, 1240821076),
  "500000" = c(5083410, 364444852, 1384182170)
)

bench <- list(
  run = function(n) {
    input <- fasta_generate(n)
    out <- reverse_complement(input)
    hash <- text_hash(out)
    expected <- known[[format(n, scientific = FALSE)]]
    if (!is.null(expected)) {
      if (!identical(unname(hash), expected)) {
        stop("reversecomplement: wrong checksum ", paste(hash, collapse = " "))
      }
    } else {
      # reverse complement twice gives the (upper case) input back
      again <- vapply(read_sections(out), function(s) revcomp_vec(s$seq), "")
      original <- vapply(read_sections(input), function(s) toupper(s$seq), "")
      if (length(out) != length(input) || !identical(again, original)) {
        stop("reversecomplement: wrong output")
      }
    }
    invisible(hash)
  },

  default_n = 200000,
  quick_n = 20000
)
