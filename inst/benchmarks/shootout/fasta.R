# Benchmarks game "fasta", scalar version: one random number and one linear
# table search per letter, lines assembled letter by letter. The output is
# checksummed instead of printed.

alu <- paste0(
  "GGCCGGGCGCGGTGGCTCACGCCTGTAATCCCAGCACTTTGG",
  "GAGGCCGAGGCGGGCGGATCACCTGAGGTCAGGAGTTCGAGA",
  "CCAGCCTGGCCAACATGGTGAAACCCCGTCTCTACTAAAAAT",
  "ACAAAAATTAGCCGGGCGTGGTGGCGCGCGCCTGTAATCCCA",
  "GCTACTCGGGAGGCTGAGGCAGGAGAATCGCTTGAACCCGGG",
  "AGGCGGAGGTTGCAGTGAGCCGAGATCGCGCCACTGCACTCC",
  "AGCCTGGGCGACAGAGCGAGACTCCGTCTCAAAAA"
)

iub <- c(
  a = 0.27, c = 0.12, g = 0.12, t = 0.27,
  B = 0.02, D = 0.02, H = 0.02, K = 0.02, M = 0.02, N = 0.02,
  R = 0.02, S = 0.02, V = 0.02, W = 0.02, Y = 0.02
)

homo_sapiens <- c(
  a = 0.3029549426680, c = 0.1979883004921,
  g = 0.1975473066391, t = 0.3015094502008
)

make_random <- function(seed = 42) {
  function(max) {
    seed <<- (seed * 3877 + 29573) %% 139968
    max * seed / 139968
  }
}

emit_lines <- function(count, next_char) {
  lines <- character(ceiling(count / 60))
  line <- character(60)
  col <- 0
  line_no <- 0
  for (i in seq_len(count)) {
    col <- col + 1
    line[col] <- next_char()
    if (col == 60 || i == count) {
      line_no <- line_no + 1
      lines[line_no] <- paste(line[seq_len(col)], collapse = "")
      col <- 0
    }
  }
  lines
}

repeat_fasta <- function(src, count) {
  chars <- strsplit(src, "")[[1]]
  k <- length(chars)
  pos <- 0
  emit_lines(count, function() {
    pos <<- if (pos == k) 1 else pos + 1
    chars[pos]
  })
}

random_fasta <- function(probs, count, random) {
  cum <- cumsum(probs)
  cum[length(cum)] <- 1
  letters <- names(probs)
  emit_lines(count, function() {
    r <- random(1)
    i <- 1
    while (r >= cum[i]) i <- i + 1
    letters[i]
  })
}

fasta <- function(n) {
  random <- make_random()
  c(
    ">ONE Homo sapiens alu", repeat_fasta(alu, 2 * n),
    ">TWO IUB ambiguity codes", random_fasta(iub, 3 * n, random),
    ">THREE Homo sapiens frequency", random_fasta(homo_sapiens, 5 * n, random)
  )
}

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
    out <- fasta(n)
    hash <- text_hash(out)
    expected <- known[[format(n, scientific = FALSE)]]
    if (!is.null(expected)) {
      if (!identical(unname(hash), expected)) {
        stop("fasta: wrong checksum ", paste(hash, collapse = " "))
      }
    } else if (length(out) != 3 + ceiling(2 * n / 60) + ceiling(3 * n / 60) + ceiling(5 * n / 60)) {
      stop("fasta: wrong number of lines")
    }
    invisible(hash)
  },
  default_n = 25000,
  quick_n = 1000
)
