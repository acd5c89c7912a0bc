# Are-we-fast-yet "NBody": simulates the Jovian planets; each body is an
# environment with position, velocity and mass, updated with scalar code.

solar_mass <- 4 * pi * pi
days_per_year <- 365.24

make_body <- function(x, y, z, vx, vy, vz, mass) {
  body <- new.env()
  body$x <- x
  body$y <- y
  body$z <- z
  body$vx <- vx * days_per_year
  body$vy <- vy * days_per_year
  body$vz <- vz * days_per_year
  body$mass <- mass * solar_mass
  body
}

make_system <- function() {
  bodies <- list(
    make_body(0, 0, 0, 0, 0, 0, 1), # sun
    make_body(4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01,
      1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05,
      9.54791938424326609e-04),
    make_body(8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01,
      -2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05,
      2.85885980666130812e-04),
    make_body(1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01,
      2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05,
      4.36624404335156298e-05),
    make_body(1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01,
      2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05,
      5.15138902046611451e-05)
  )
  # offset the momentum of the sun
  px <- 0
  py <- 0
  pz <- 0
  for (b in bodies) {
    px <- px + b$vx * b$mass
    py <- py + b$vy * b$mass
    pz <- pz + b$vz * b$mass
  }
  sun <- bodies[[1]]
  sun$vx <- -px / solar_mass
  sun$vy <- -py / solar_mass
  sun$vz <- -pz / solar_mass
  bodies
}

advance <- function(bodies, dt) {
  nb <- length(bodies)
  for (i in seq_len(nb)) {
    ib <- bodies[[i]]
    j <- i + 1
    while (j <= nb) {
      jb <- bodies[[j]]
      dx <- ib$x - jb$x
      dy <- ib$y - jb$y
      dz <- ib$z - jb$z
      d2 <- dx * dx + dy * dy + dz * dz
      mag <- dt / (d2 * sqrt(d2))
      ib$vx <- ib$vx - dx * jb$mass * mag
      ib$vy <- ib$vy - dy * jb$mass * mag
      ib$vz <- ib$vz - dz * jb$mass * mag
      jb$vx <- jb$vx + dx * ib$mass * mag
      jb$vy <- jb$vy + dy * ib$mass * mag
      jb$vz <- jb$vz + dz * ib$mass * mag
      j <- j + 1
    }
  }
  for (b in bodies) {
    b$x <- b$x + dt * b$vx
    b$y <- b$y + dt * b$vy
    b$z <- b$z + dt * b$vz
  }
}

energy <- function(bodies) {
  e <- 0
  nb <- length(bodies)
  for (i in seq_len(nb)) {
    ib <- bodies[[i]]
    e <- e + 0.5 * ib$mass * (ib$vx * ib$vx + ib$vy * ib$vy + ib$vz * ib$vz)
    j <- i + 1
    while (j <= nb) {
      jb <- bodies[[j]]
      dx <- ib$x - jb$x
      dy <- ib$y - jb$y
      dz <- ib$z - jb$z
      e <- e - (ib$mass * jb$mass) / sqrt(dx * dx + dy * dy + dz * dz)
      j <- j + 1
    }
  }
  e
}

known <- c(
  "1" = -0.16907495402506745, "1000" = -0.169087605, "20000" = -0.16908926275527,
  "60000" = -0.16901474404530, "250000" = -0.1690859889909308
)

bench <- list(
  run = function(n) {
    bodies <- make_system()
    e0 <- energy(bodies)
    if (abs(e0 - (-0.169075164)) > 1e-9) stop("nbody: wrong initial energy ", e0)
    for (i in seq_len(n)) advance(bodies, 0.01)
    e <- energy(bodies)
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
