## defs
h <- function(x) {
  r <- 0
  for (i in 1:3) r <- r + length(x)
  r
}
## steps
h(1:5)
length <- function(x) 99
h(1:5)
