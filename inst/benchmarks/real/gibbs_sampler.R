# A Gibbs sampler for a normal model with unknown mean and precision: a
# loop of draws from rnorm and rgamma with scalar updates and the chain
# stored by index; the shape of much statistical R code.

bench <- list(
  run = function(n) {
    set.seed(123)
    y <- rnorm(50, mean = 3, sd = 2)
    ybar <- mean(y)
    m <- length(y)
    mu <- 0
    tau <- 1
    chain_mu <- numeric(n)
    chain_tau <- numeric(n)
    for (it in seq_len(n)) {
      prec <- m * tau + 0.01
      mu <- rnorm(1, mean = (m * tau * ybar) / prec, sd = sqrt(1 / prec))
      ss <- sum((y - mu)^2)
      tau <- rgamma(1, shape = 1 + m / 2, rate = 1 + ss / 2)
      chain_mu[it] <- mu
      chain_tau[it] <- tau
    }
    keep <- chain_mu[-seq_len(n %/% 10)]
    if (abs(mean(keep) - ybar) > 0.5) stop("gibbs_sampler: mean ", mean(keep), " vs ", ybar)
    invisible(c(mean(keep), mean(chain_tau)))
  },
  default_n = 100000,
  quick_n = 500
)
