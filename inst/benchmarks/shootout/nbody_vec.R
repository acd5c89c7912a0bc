# Benchmarks game "n-body", vectorized: all pairwise interactions of a step are
# computed at once with outer() on the coordinate vectors.

solar_mass <- 4 * pi * pi
days_per_year <- 365.24

initial_state <- function() {
  pos <- rbind(
    c(0, 0, 0),
    c(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01),
    c(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01),
    c(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01),
    c(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01)
  )
  vel <- rbind(
    c(0, 0, 0),
    c(1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05),
    c(-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05),
    c(2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05),
    c(2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05)
  ) * days_per_year
  mass <- c(1, 9.54791938424326609e-04, 2.85885980666130812e-04,
    4.36624404335156298e-05, 5.15138902046611451e-05) * solar_mass
  vel[1, ] <- -colSums(vel * mass) / solar_mass
  list(pos = pos, vel = vel, mass = mass)
}

energy <- function(s) {
  kinetic <- 0.5 * sum(s$mass * rowSums(s$vel^2))
  d <- as.matrix(dist(s$pos))
  pairs <- upper.tri(d)
  potential <- sum((outer(s$mass, s$mass) / d)[pairs])
  kinetic - potential
}

advance_steps <- function(s, steps, dt) {
  pos <- s$pos
  vel <- s$vel
  mass <- s$mass
  for (step in seq_len(steps)) {
    dx <- outer(pos[, 1], pos[, 1], "-")
    dy <- outer(pos[, 2], pos[, 2], "-")
    dz <- outer(pos[, 3], pos[, 3], "-")
    d2 <- dx * dx + dy * dy + dz * dz
    mag <- dt / (d2 * sqrt(d2))
    diag(mag) <- 0
    # row i: sum over j of mass[j] * mag[i, j] * d[i, j]
    weights <- mag * rep(mass, each = length(mass))
    vel <- vel - cbind(rowSums(weights * dx), rowSums(weights * dy), rowSums(weights * dz))
    pos <- pos + dt * vel
  }
  list(pos = pos, vel = vel, mass = mass)
}

known <- c(
  "1000" = -0.169087605, "20000" = -0.16908926275527, "50000" = -0.16907807065935,
  "60000" = -0.16901474404530, "50000000" = -0.169059907
)

bench <- list(
  run = function(n) {
    s <- initial_state()
    e0 <- energy(s)
    if (round(e0, 9) != -0.169075164) stop("nbody_vec: wrong initial energy ", e0)
    s <- advance_steps(s, n, 0.01)
    e <- energy(s)
    expected <- known[format(n, scientific = FALSE)]
    if (!is.na(expected)) {
      if (abs(e - expected) > 1e-9) stop("nbody_vec: expected energy ", expected, ", got ", e)
    } else if (!is.finite(e) || abs(e - e0) > 1e-4) {
      stop("nbody_vec: energy not conserved: ", e)
    }
    invisible(e)
  },
  default_n = 20000,
  quick_n = 1000
)
