# Data-frame manipulation: a table of sales built, filtered, grouped with
# split/lapply and aggregate, merged with a lookup table, ordered and
# summarised with tapply; base R data analysis.

bench <- list(
  run = function(n) {
    set.seed(9)
    sales <- data.frame(
      store = sample(sprintf("S%02d", 1:12), n, replace = TRUE),
      item = sample(c("apple", "pear", "plum", "fig"), n, replace = TRUE),
      qty = rpois(n, 4) + 1L,
      price = round(runif(n, 0.5, 3), 2),
      stringsAsFactors = FALSE
    )
    sales$revenue <- sales$qty * sales$price
    big <- sales[sales$qty > 2, ]
    by_store <- lapply(split(big, big$store), function(d) {
      data.frame(store = d$store[1], revenue = sum(d$revenue), n = nrow(d))
    })
    by_store <- do.call(rbind, by_store)
    agg <- aggregate(revenue ~ store + item, data = sales, FUN = sum)
    regions <- data.frame(store = sprintf("S%02d", 1:12), region = rep(c("N", "S", "E"), 4))
    merged <- merge(agg, regions, by = "store")
    merged <- merged[order(merged$region, -merged$revenue), ]
    per_region <- tapply(merged$revenue, merged$region, sum)
    if (abs(sum(per_region) - sum(sales$revenue)) > 1e-6) stop("df_groupby: totals differ")
    if (abs(sum(by_store$revenue) - sum(big$revenue)) > 1e-6) stop("df_groupby: split totals")
    invisible(per_region)
  },
  default_n = 500000,
  quick_n = 500
)
