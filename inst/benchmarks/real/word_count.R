# String processing: a text generated from a vocabulary, split into words,
# normalized (case, punctuation), counted in an environment used as a hash
# table and with table(), and the most frequent words formatted with
# sprintf; everyday scripting with character vectors.

vocabulary <- c("The", "quick", "brown", "fox", "jumps", "over", "lazy", "dog,",
  "and", "runs", "away;", "while", "a", "cat", "sleeps.", "Data", "science",
  "with", "R", "is", "fun!", "Vectors", "lists", "and", "functions")

bench <- list(
  run = function(n) {
    seed <- 5
    lines <- character(n)
    for (i in seq_len(n)) {
      words <- character(12)
      for (j in 1:12) {
        seed <- (seed * 16807) %% 2147483647
        words[j] <- vocabulary[seed %% length(vocabulary) + 1]
      }
      lines[i] <- paste(words, collapse = " ")
    }
    counts <- new.env(hash = TRUE)
    for (line in lines) {
      for (w in strsplit(line, " ", fixed = TRUE)[[1]]) {
        w <- tolower(gsub("[[:punct:]]", "", w))
        if (nchar(w) == 0) next
        old <- counts[[w]]
        counts[[w]] <- if (is.null(old)) 1L else old + 1L
      }
    }
    words <- ls(counts)
    freq <- vapply(words, function(w) counts[[w]], 0L)
    all_words <- tolower(gsub("[[:punct:]]", "", unlist(strsplit(lines, " ", fixed = TRUE))))
    tab <- table(all_words)
    if (!identical(as.integer(tab[words]), unname(freq))) stop("word_count: counts differ")
    top <- head(sort(freq, decreasing = TRUE), 5)
    report <- sprintf("%-10s %6d", names(top), top)
    invisible(report)
  },
  default_n = 3000,
  quick_n = 50
)
