# S3 dispatch in a loop: generics with methods, a default method and
# NextMethod().

area <- function(shape, ...) UseMethod("area")
area.square <- function(shape, ...) shape$side * shape$side
area.rectangle <- function(shape, ...) shape$width * shape$height
area.default <- function(shape, ...) stop("area: unknown shape")

describe <- function(shape) UseMethod("describe")
describe.shape <- function(shape) 1
describe.square <- function(shape) 10 + NextMethod()

s3_dispatch <- function(n) {
  shapes <- list(
    structure(list(side = 2), class = c("square", "shape")),
    structure(list(width = 2, height = 3), class = c("rectangle", "shape"))
  )
  total_area <- 0
  total_desc <- 0
  for (i in seq_len(n)) {
    s <- shapes[[i %% 2 + 1]]
    total_area <- total_area + area(s)
    total_desc <- total_desc + describe(s)
  }
  c(area = total_area, desc = total_desc)
}

bench <- list(
  run = function(n) {
    res <- s3_dispatch(n)
    evens <- n %/% 2          # i even -> square
    odds <- n - evens         # i odd -> rectangle
    expected <- c(area = evens * 4 + odds * 6, desc = evens * 11 + odds * 1)
    if (any(res != expected)) stop("s3_dispatch: wrong result")
    invisible(res)
  },
  default_n = 2e5,
  quick_n = 5e3
)
