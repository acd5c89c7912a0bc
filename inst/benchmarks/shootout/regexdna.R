# Benchmarks game "regex-dna", scalar version: the nine variant patterns (fixed
# length alternatives of character classes) are matched by hand with a loop
# over positions, and the IUB code substitution is one loop over the letters.
# The input is produced by the fasta generator inside the benchmark.

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

variants <- c(
  "agggtaaa|tttaccct",
  "[cgt]gggtaaa|tttaccc[acg]",
  "a[act]ggtaaa|tttacc[agt]t",
  "ag[act]gtaaa|tttac[agt]ct",
  "agg[act]taaa|ttta[agt]cct",
  "aggg[acg]aaa|ttt[cgt]ccct",
  "agggt[cgt]aa|tt[acg]accct",
  "agggta[cgt]a|t[acg]taccct",
  "agggtaa[cgt]|[acg]ttaccct"
)

iub_codes <- c(
  B = "(c|g|t)", D = "(a|g|t)", H = "(a|c|t)", K = "(g|t)", M = "(a|c)",
  N = "(a|c|g|t)", R = "(a|g)", S = "(c|g)", V = "(a|c|g)", W = "(a|t)", Y = "(c|t)"
)

# A pattern "x[ab]y|..." becomes a list of alternatives; each alternative is a
# list of logical lookup vectors indexed by (lower case) character code.
compile_pattern <- function(pattern) {
  lapply(strsplit(pattern, "|", fixed = TRUE)[[1]], function(alt) {
    classes <- regmatches(alt, gregexpr("\\[[a-z]+\\]|[a-z]", alt))[[1]]
    lapply(classes, function(cls) {
      lookup <- logical(128)
      lookup[utf8ToInt(gsub("[][]", "", cls))] <- TRUE
      lookup
    })
  })
}

count_matches <- function(codes, alternatives) {
  len <- length(codes)
  width <- length(alternatives[[1]])
  count <- 0
  i <- 1
  while (i <= len - width + 1) {
    matched <- FALSE
    for (alt in alternatives) {
      k <- 1
      while (k <= width && alt[[k]][codes[i + k - 1]]) k <- k + 1
      if (k > width) {
        matched <- TRUE
        break
      }
    }
    if (matched) {
      count <- count + 1
      i <- i + width
    } else {
      i <- i + 1
    }
  }
  count
}

substituted_length <- function(chars) {
  replacement_length <- nchar(iub_codes)
  total <- 0
  for (ch in chars) {
    extra <- replacement_length[ch]
    total <- total + if (is.na(extra)) 1 else extra[[1]]
  }
  total
}

regexdna <- function(n) {
  lines <- fasta_generate(n)
  initial_length <- sum(nchar(lines)) + length(lines)
  seq_lines <- lines[!startsWith(lines, ">")]
  chars <- strsplit(paste(seq_lines, collapse = ""), "")[[1]]
  clean_length <- length(chars)
  codes <- utf8ToInt(tolower(paste(seq_lines, collapse = "")))
  counts <- vapply(variants, function(pattern) {
    count_matches(codes, compile_pattern(pattern))
  }, numeric(1))
  c(
    paste(variants, counts), "",
    initial_length, clean_length, substituted_length(chars)
  )
}

known <- list(
  "500" = c("agggtaaa|tttaccct 0", "[cgt]gggtaaa|tttaccc[acg] 0", "a[act]ggtaaa|tttacc[agt]t 1", "ag[act]gtaaa|tttac[agt]ct 0", "agg[act]taaa|ttta[agt]cct 1", "aggg[acg]aaa|ttt[cgt]ccct 0", "agggt[cgt]aa|tt[acg]accct 0", "agggta[cgt]a|t[acg]taccct 0", "agggtaa[cgt]|[acg]ttaccct 2", "", "5161", "5000", "6656"),
  "10000" = c("agggtaaa|tttaccct 0", "[cgt]gggtaaa|tttaccc[acg] 3", "a[act]ggtaaa|tttacc[agt]t 9", "ag[act]gtaaa|tttac[agt]ct 8", "agg[act]taaa|ttta[agt]cct 10", "aggg[acg]aaa|ttt[cgt]ccct 3", "agggt[cgt]aa|tt[acg]accct 4", "agggta[cgt]a|t[acg]taccct 3", "agggtaa[cgt]|[acg]ttaccct 5", "", "101745", "100000", "133640"),
  "20000" = c("agggtaaa|tttaccct 2", "[cgt]gggtaaa|tttaccc[acg] 3", "a[act]ggtaaa|tttacc[agt]t 15", "ag[act]gtaaa|tttac[agt]ct 9", "agg[act]taaa|ttta[agt]cct 25", "aggg[acg]aaa|ttt[cgt]ccct 5", "agggt[cgt]aa|tt[acg]accct 4", "agggta[cgt]a|t[acg]taccct 7", "agggtaa[cgt]|[acg]ttaccct 10", "", "203411", "200000", "266420"),
  "200000" = c("agggtaaa|tttaccct 14", "[cgt]gggtaaa|tttaccc[acg] 51", "a[act]ggtaaa|tttacc[agt]t 168", "ag[act]gtaaa|tttac[agt]ct 116", "agg[act]taaa|ttta[agt]cct 217", "aggg[acg]aaa|ttt[cgt]ccct 61", "agggt[cgt]aa|tt[acg]accct 58", "agggta[cgt]a|t[acg]taccct 65", "agggtaa[cgt]|[acg]ttaccct 87", "", "2033411", "2000000", "2671464")
)

bench <- list(
  run = function(n) {
    out <- regexdna(n)
    expected <- known[[format(n, scientific = FALSE)]]
    if (!is.null(expected)) {
      if (!identical(out, expected)) stop("regexdna: wrong output ", paste(out, collapse = "; "))
    } else if (length(out) != 13) {
      stop("regexdna: wrong number of output lines")
    }
    invisible(out)
  },
  default_n = 10000,
  quick_n = 500
)
