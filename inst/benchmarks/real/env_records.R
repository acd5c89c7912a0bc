# Environments as mutable records: bank accounts held in environments,
# updated in place by transfer functions, with a ledger appended to a list;
# the style of code that keeps state in environments instead of copying
# lists.

new_account <- function(id, balance) {
  acc <- new.env()
  acc$id <- id
  acc$balance <- balance
  acc$history <- numeric(0)
  acc
}

deposit <- function(acc, amount) {
  acc$balance <- acc$balance + amount
  acc$history <- c(acc$history, amount)
  invisible(acc)
}

withdraw <- function(acc, amount) {
  if (acc$balance < amount) return(FALSE)
  acc$balance <- acc$balance - amount
  acc$history <- c(acc$history, -amount)
  TRUE
}

transfer <- function(from, to, amount, ledger) {
  if (withdraw(from, amount)) {
    deposit(to, amount)
    ledger$n <- ledger$n + 1L
    ledger$total <- ledger$total + amount
    TRUE
  } else {
    ledger$refused <- ledger$refused + 1L
    FALSE
  }
}

bench <- list(
  run = function(n) {
    accounts <- lapply(1:20, function(i) new_account(i, 1000))
    ledger <- new.env()
    ledger$n <- 0L
    ledger$total <- 0
    ledger$refused <- 0L
    seed <- 7
    for (k in seq_len(n)) {
      seed <- (seed * 16807) %% 2147483647
      a <- seed %% 20 + 1
      b <- (seed %/% 20) %% 20 + 1
      amount <- (seed %% 500) + 1
      if (a != b) transfer(accounts[[a]], accounts[[b]], amount, ledger)
      if (k %% 500L == 0L) for (acc in accounts) acc$history <- tail(acc$history, 10)
    }
    total <- sum(vapply(accounts, function(a) a$balance, 0))
    if (total != 20000) stop("env_records: money was made or lost: ", total)
    invisible(ledger$n)
  },
  default_n = 120000,
  quick_n = 1000
)
