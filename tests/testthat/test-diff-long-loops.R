# for() over a sequence longer than INT_MAX (1:1e10, seq_len(3e9)): more
# iterations than rir's loop state counts, so GNU R's for() runs such a
# loop (native code leaves first, LoopFits); it must behave as in GNU R:
# break, next, return(), the variable's last value, the loop's value. Each
# loop stops after a few iterations.

expect_all_same(list(
  "for() over long sequences: break, next, return, the variable afterwards" = "
    f <- function(n) { s <- 0; for (i in 1:n) { s <- s + i; if (i >= 5) break }; c(s, i) }
    g <- function() {
      s <- 0
      for (i in seq_len(3e9)) { if (i > 3) next; s <- s + i; if (i == 3) break }
      s
    }
    h <- function(x) { k <- 0; for (j in x) { k <- k + 1; if (k == 2) return(c(k, j)) }; -1 }
    r <- lapply(1:5, function(i) list(f(1e10), f(10), g(), h(1:1e10), h(c(4, 5, 6))))
    r[[5]]
  ",
  "for() over a long range whose `:` warns, and a loop's value" = "
    w <- function() { for (i in c(1, 2):1e10) if (i > 1) break; i }
    v <- function() withVisible(for (i in 1:1e10) if (i > 2) break)
    for (k in 1:4) r <- list(w(), v())
    r
  ",
  "a top-level for() over a long sequence" = "
    for (i in 1:1e10) if (i > 2) break
    i
  "
))
