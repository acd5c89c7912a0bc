# A data-frame heavy analysis script: builds a table of sales records, merges
# it with store and product tables, aggregates by several keys, splits by
# region and computes per-group statistics, and ranks the products. Totals are
# cross-checked between the different routes.

make_data <- function(n) {
  set.seed(7)
  stores <- data.frame(
    store = sprintf("S%02d", 1:20),
    region = rep(c("north", "south", "east", "west"), each = 5),
    stringsAsFactors = FALSE
  )
  products <- data.frame(
    product = sprintf("P%03d", 1:60),
    category = rep(c("food", "tools", "toys", "books", "garden", "music"), 10),
    price = round(runif(60, 1, 100), 2),
    stringsAsFactors = FALSE
  )
  sales <- data.frame(
    id = seq_len(n),
    store = sample(stores$store, n, replace = TRUE),
    product = sample(products$product, n, replace = TRUE),
    quantity = sample(1:10, n, replace = TRUE),
    day = sample(1:365, n, replace = TRUE),
    stringsAsFactors = FALSE
  )
  list(stores = stores, products = products, sales = sales)
}

analyse <- function(data) {
  sales <- merge(data$sales, data$products, by = "product")
  sales <- merge(sales, data$stores, by = "store")
  sales$revenue <- sales$quantity * sales$price
  sales$month <- (sales$day - 1) %/% 31 + 1
  sales <- sales[order(sales$id), ]

  by_region_category <- aggregate(revenue ~ region + category, data = sales, FUN = sum)
  by_month <- aggregate(cbind(revenue, quantity) ~ month, data = sales, FUN = sum)

  per_region <- lapply(split(sales, sales$region), function(df) {
    store_totals <- tapply(df$revenue, df$store, sum)
    data.frame(
      region = df$region[[1]],
      revenue = sum(df$revenue),
      orders = nrow(df),
      mean_order = mean(df$revenue),
      best_store = names(store_totals)[which.max(store_totals)],
      stringsAsFactors = FALSE
    )
  })
  per_region <- do.call(rbind, per_region)

  product_totals <- aggregate(revenue ~ product + category, data = sales, FUN = sum)
  product_totals <- product_totals[order(-product_totals$revenue, product_totals$product), ]
  product_totals$rank <- seq_len(nrow(product_totals))
  top_per_category <- do.call(rbind, lapply(split(product_totals, product_totals$category),
    function(df) df[1, ]))

  list(
    sales = sales, by_region_category = by_region_category, by_month = by_month,
    per_region = per_region, top_per_category = top_per_category
  )
}

bench <- list(
  run = function(n) {
    data <- make_data(n)
    res <- analyse(data)
    total <- sum(data$sales$quantity * data$products$price[match(data$sales$product, data$products$product)])
    close <- function(a, b) abs(a - b) <= 1e-6 * max(1, abs(b))
    if (nrow(res$sales) != n || !close(sum(res$sales$revenue), total) ||
      !close(sum(res$by_region_category$revenue), total) ||
      !close(sum(res$by_month$revenue), total) ||
      !close(sum(res$per_region$revenue), total) ||
      sum(res$per_region$orders) != n ||
      sum(res$by_month$quantity) != sum(data$sales$quantity) ||
      nrow(res$top_per_category) != 6) {
      stop("dataframe: inconsistent aggregates")
    }
    # cross-check one group against tapply
    north <- tapply(res$sales$revenue, res$sales$region, sum)[["north"]]
    if (!close(res$per_region["north", "revenue"], north)) stop("dataframe: wrong region total")
    invisible(res$per_region)
  },
  default_n = 100000,
  quick_n = 2000
)
