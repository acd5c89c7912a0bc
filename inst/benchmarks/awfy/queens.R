# Are-we-fast-yet "Queens": eight queens by backtracking; the board state lives
# in an environment shared by the recursive closures.

queens <- function() {
  board <- new.env()
  board$free_rows <- rep(TRUE, 8)
  board$free_maxs <- rep(TRUE, 16)
  board$free_mins <- rep(TRUE, 16)
  board$queen_rows <- rep(-1, 8)

  get_row_column <- function(r, c) {
    board$free_rows[r + 1] && board$free_maxs[c + r + 1] && board$free_mins[c - r + 8]
  }

  set_row_column <- function(r, c, v) {
    board$free_rows[r + 1] <- v
    board$free_maxs[c + r + 1] <- v
    board$free_mins[c - r + 8] <- v
  }

  place_queen <- function(c) {
    for (r in 0:7) {
      if (get_row_column(r, c)) {
        board$queen_rows[r + 1] <- c
        set_row_column(r, c, FALSE)
        if (c == 7) return(TRUE)
        if (place_queen(c + 1)) return(TRUE)
        set_row_column(r, c, TRUE)
      }
    }
    FALSE
  }

  solved <- place_queen(0)
  list(solved = solved, rows = board$queen_rows)
}

valid_placement <- function(rows) {
  cols <- rows
  r <- 0:7
  length(unique(cols)) == 8 && length(unique(cols + r)) == 8 &&
    length(unique(cols - r)) == 8
}

bench <- list(
  run = function(n) {
    for (i in seq_len(n)) {
      for (j in 1:10) {
        result <- queens()
        if (!result$solved || !valid_placement(result$rows)) {
          stop("queens: no valid solution found")
        }
      }
    }
    invisible(result)
  },
  default_n = 100,
  quick_n = 2
)
