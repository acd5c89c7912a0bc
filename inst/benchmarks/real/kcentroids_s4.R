# k-centroids (k-means style) clustering built on S4 classes: centroids are S4
# objects, distances and updates are S4 generics with methods, and points are
# assigned with lapply(). Verified against the generating centers and a
# vectorized nearest-centroid computation.

setClass("Centroid", representation(center = "numeric", size = "integer"))
setClass("Clustering", representation(
  points = "matrix", centroids = "list", assignment = "integer", iterations = "integer"
))

setGeneric("distance_to", function(centroid, point) standardGeneric("distance_to"))
setMethod("distance_to", "Centroid", function(centroid, point) {
  d <- centroid@center - point
  sqrt(sum(d * d))
})

setGeneric("assign_points", function(clustering) standardGeneric("assign_points"))
setMethod("assign_points", "Clustering", function(clustering) {
  points <- clustering@points
  centroids <- clustering@centroids
  nearest <- lapply(seq_len(nrow(points)), function(i) {
    point <- points[i, ]
    distances <- vapply(centroids, distance_to, numeric(1), point = point)
    which.min(distances)
  })
  clustering@assignment <- as.integer(unlist(nearest))
  clustering
})

setGeneric("update_centroids", function(clustering) standardGeneric("update_centroids"))
setMethod("update_centroids", "Clustering", function(clustering) {
  points <- clustering@points
  clustering@centroids <- lapply(seq_along(clustering@centroids), function(k) {
    members <- points[clustering@assignment == k, , drop = FALSE]
    if (nrow(members) == 0) return(clustering@centroids[[k]])
    new("Centroid", center = colMeans(members), size = nrow(members))
  })
  clustering
})

setGeneric("fit", function(clustering, max_iterations) standardGeneric("fit"))
setMethod("fit", "Clustering", function(clustering, max_iterations) {
  for (it in seq_len(max_iterations)) {
    previous <- clustering@assignment
    clustering <- update_centroids(assign_points(clustering))
    clustering@iterations <- it
    if (identical(previous, clustering@assignment)) break
  }
  clustering
})

true_centers <- rbind(c(0, 0), c(6, 6), c(0, 6), c(6, 0), c(3, 3))

make_points <- function(n) {
  set.seed(42)
  k <- nrow(true_centers)
  cluster <- (seq_len(n) - 1) %% k + 1
  true_centers[cluster, ] + matrix(rnorm(2 * n, sd = 0.6), ncol = 2)
}

bench <- list(
  run = function(n) {
    points <- make_points(n)
    k <- nrow(true_centers)
    # deliberately poor start: the first k points shifted towards the middle
    start <- lapply(seq_len(k), function(i) {
      new("Centroid", center = (points[i, ] + c(3, 3)) / 2, size = 0L)
    })
    clustering <- new("Clustering", points = points, centroids = start,
      assignment = integer(0), iterations = 0L)
    clustering <- fit(clustering, 50)

    centers <- t(vapply(clustering@centroids, function(c) c@center, numeric(2)))
    # every generating center is found
    for (i in seq_len(k)) {
      d <- sqrt(rowSums((centers - rep(true_centers[i, ], each = k))^2))
      if (min(d) > 0.3) stop("kcentroids_s4: center ", i, " not found")
    }
    # the assignment is the nearest centroid (vectorized check)
    dist2 <- sapply(seq_len(k), function(j) {
      rowSums((points - rep(centers[j, ], each = nrow(points)))^2)
    })
    if (!identical(as.integer(max.col(-dist2, ties.method = "first")), clustering@assignment)) {
      stop("kcentroids_s4: assignment is not the nearest centroid")
    }
    sizes <- vapply(clustering@centroids, function(c) c@size, integer(1))
    if (sum(sizes) != n) stop("kcentroids_s4: cluster sizes do not add up")
    invisible(centers)
  },
  default_n = 10000,
  quick_n = 200
)
