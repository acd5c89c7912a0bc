# Benchmarks game "n-body", scalar version: the Jovian planets as parallel
# numeric vectors, advanced with nested scalar loops.

solar_mass <- 4 * pi * pi
days_per_year <- 365.24

initial_state <- function() {
  # sun, jupiter, saturn, uranus, neptune
  x <- c(0, 4.84143144246472090e+00, 8.34336671824457987e+00,
    1.28943695621391310e+01, 1.53796971148509165e+01)
  y <- c(0, -1.16032004402742839e+00, 4.12479856412430479e+00,
    -1.51111514016986312e+01, -2.59193146099879641e+01)
  z <- c(0, -1.03622044471123109e-01, -4.03523417114321381e-01,
    -2.23307578892655734e-01, 1.79258772950371181e-01)
  vx <- c(0, 1.66007664274403694e-03, -2.76742510726862411e-03,
    2.96460137564761618e-03, 2.68067772490389322e-03) * days_per_year
  vy <- c(0, 7.69901118419740425e-03, 4.99852801234917238e-03,
    2.37847173959480950e-03, 1.62824170038242295e-03) * days_per_year
  vz <- c(0, -6.90460016972063023e-05, 2.30417297573763929e-05,
    -2.96589568540237556e-05, -9.51592254519715870e-05) * days_per_year
  mass <- c(1, 9.54791938424326609e-04, 2.85885980666130812e-04,
    4.36624404335156298e-05, 5.15138902046611451e-05) * solar_mass
  list(x = x, y = y, z = z, vx = vx, vy = vy, vz = vz, mass = mass)
}

offset_momentum <- function(s) {
  px <- 0
  py <- 0
  pz <- 0
  for (i in seq_along(s$mass)) {
    px <- px + s$vx[i] * s$mass[i]
    py <- py + s$vy[i] * s$mass[i]
    pz <- pz + s$vz[i] * s$mass[i]
  }
  s$vx[1] <- -px / solar_mass
  s$vy[1] <- -py / solar_mass
  s$vz[1] <- -pz / solar_mass
  s
}

energy <- function(s) {
  e <- 0
  nb <- length(s$mass)
  for (i in seq_len(nb)) {
    e <- e + 0.5 * s$mass[i] * (s$vx[i]^2 + s$vy[i]^2 + s$vz[i]^2)
    j <- i + 1
    while (j <= nb) {
      dx <- s$x[i] - s$x[j]
      dy <- s$y[i] - s$y[j]
      dz <- s$z[i] - s$z[j]
      e <- e - s$mass[i] * s$mass[j] / sqrt(dx * dx + dy * dy + dz * dz)
      j <- j + 1
    }
  }
  e
}

advance_steps <- function(s, steps, dt) {
  x <- s$x
  y <- s$y
  z <- s$z
  vx <- s$vx
  vy <- s$vy
  vz <- s$vz
  mass <- s$mass
  nb <- length(mass)
  for (step in seq_len(steps)) {
    for (i in 1:(nb - 1)) {
      for (j in (i + 1):nb) {
        dx <- x[i] - x[j]
        dy <- y[i] - y[j]
        dz <- z[i] - z[j]
        d2 <- dx * dx + dy * dy + dz * dz
        mag <- dt / (d2 * sqrt(d2))
        mj <- mass[j] * mag
        vx[i] <- vx[i] - dx * mj
        vy[i] <- vy[i] - dy * mj
        vz[i] <- vz[i] - dz * mj
        mi <- mass[i] * mag
        vx[j] <- vx[j] + dx * mi
        vy[j] <- vy[j] + dy * mi
        vz[j] <- vz[j] + dz * mi
      }
    }
    for (i in 1:nb) {
      x[i] <- x[i] + dt * vx[i]
      y[i] <- y[i] + dt * vy[i]
      z[i] <- z[i] + dt * vz[i]
    }
  }
  list(x = x, y = y, z = z, vx = vx, vy = vy, vz = vz, mass = mass)
}

known <- c(
  "1000" = -0.169087605, "20000" = -0.16908926275527, "50000" = -0.16907807065935,
  "60000" = -0.16901474404530, "50000000" = -0.169059907
)

bench <- list(
  run = function(n) {
    s <- offset_momentum(initial_state())
    e0 <- energy(s)
    if (round(e0, 9) != -0.169075164) stop("nbody: wrong initial energy ", e0)
    s <- advance_steps(s, n, 0.01)
    e <- energy(s)
    expected <- known[format(n, scientific = FALSE)]
    if (!is.na(expected)) {
      if (abs(e - expected) > 1e-9) stop("nbody: expected energy ", expected, ", got ", e)
    } else if (!is.finite(e) || abs(e - e0) > 1e-4) {
      stop("nbody: energy not conserved: ", e)
    }
    invisible(e)
  },
  default_n = 60000,
  quick_n = 1000
)
