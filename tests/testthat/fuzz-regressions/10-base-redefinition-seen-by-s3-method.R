## defs
gen <- function(x) UseMethod("gen")
gen.default <- function(x) length(x)
f <- function(a) gen(a)
## steps
f(1:3)
length <- function(x) 99L
f(1:3)
