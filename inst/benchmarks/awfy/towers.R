# Are-we-fast-yet "Towers": Towers of Hanoi with the piles represented as linked
# lists of disks (lists with a `size` and a `next` field) held in an environment.

towers <- function(disks) {
  state <- new.env()
  state$piles <- vector("list", 3)
  state$moves <- 0

  push_disk <- function(disk, pile) {
    top <- state$piles[[pile]]
    if (!is.null(top) && disk$size >= top$size) {
      stop("towers: cannot put a big disk on a smaller one")
    }
    disk["next"] <- list(top)
    state$piles[[pile]] <- disk
  }

  pop_disk_from <- function(pile) {
    top <- state$piles[[pile]]
    if (is.null(top)) stop("towers: attempting to remove a disk from an empty pile")
    state$piles[pile] <- list(top[["next"]])
    top["next"] <- list(NULL)
    top
  }

  move_top_disk <- function(from, to) {
    push_disk(pop_disk_from(from), to)
    state$moves <- state$moves + 1
  }

  move_disks <- function(disks, from, to) {
    if (disks == 1) {
      move_top_disk(from, to)
    } else {
      other <- 6 - from - to
      move_disks(disks - 1, from, other)
      move_top_disk(from, to)
      move_disks(disks - 1, other, to)
    }
  }

  for (i in disks:1) push_disk(list(size = i, `next` = NULL), 1)
  move_disks(disks, 1, 2)
  state$moves
}

bench <- list(
  run = function(n) {
    for (i in seq_len(n)) {
      moves <- towers(13)
      if (moves != 8191) stop("towers: expected 8191 moves, got ", moves)
    }
    invisible(moves)
  },
  default_n = 20,
  quick_n = 1
)
