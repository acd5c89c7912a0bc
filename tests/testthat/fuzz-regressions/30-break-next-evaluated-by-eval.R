## defs
g <- function(n) { out <- 0; for (i in 1:n) { eval(quote(if (i == 3) break)); out <- i }; out }
h <- function(n) { out <- 0; for (i in 1:n) { evalq(if (i == 2) next); out <- out + i }; out }
## steps
list(g(1), g(2), g(3), g(5), h(4))
list(g(1), g(2), g(3), g(5), h(4))
list(g(1), g(2), g(3), g(5), h(4))
