# PIR (src/pir): the instruction table, the type lattice, the builder, the
# printer and the verifier, on functions built by hand
# (src/pir/selftest.cpp). Well-formed ones must verify; each broken one must
# be rejected for its own reason.

compiled_probe <- function() {
  f <- rir::compile(function(a) a + 1)
  f(1)
  f
}

cases <- rir:::pir_selftest(compiled_probe())

test_that("well-formed PIR verifies", {
  for (name in c("straight", "speculate", "diamond", "loop", "framestate", "effects")) {
    expect_identical(cases[[name]]$problem, "", label = name)
  }
})

test_that("the printer shows instructions, types, operands and successors", {
  straight <- cases$straight$printed
  expect_match(straight, "function straight (1 argument)", fixed = TRUE)
  expect_match(straight, "MkEnv x=%0, parent=%1", fixed = TRUE)
  expect_match(straight, "= LdVar x, %2", fixed = TRUE)
  expect_match(straight, "real\\$'-\\s+%5 = LdConst 1\n")
  # x is forced from a promise: any value, maybe an object, so `+` may
  # dispatch and its result is any value
  expect_match(straight, "val\\*\\s+%6 = Add %4, %5")

  spec <- cases$speculate$printed
  expect_match(spec, "%5 = Checkpoint -> BB1, BB2", fixed = TRUE)
  expect_match(spec, "= FrameState pc 0, env %2, stack []", fixed = TRUE)
  expect_match(spec, "= Assume %8, %5, (real$'-)", fixed = TRUE)
  expect_match(spec, "= CastType %4, (real$'-)", fixed = TRUE)
  # after the assumption, the sum of two doubles is a double scalar
  expect_match(spec, "real\\$'\\s+%12 = Add %10, %11")

  diamond <- cases$diamond$printed
  expect_match(diamond, "= Branch %7 -> BB1, BB2", fixed = TRUE)
  expect_match(diamond, "BB3  <- BB1 BB2", fixed = TRUE)
  expect_match(diamond, "= Phi %9 (BB1), %11 (BB2)", fixed = TRUE)

  # the loop's Phi gets its type from both inputs (inferred to a fixed point)
  expect_match(cases$loop$printed, "int\\$'\\s+%4 = Phi %0 \\(BB0\\), %8 \\(BB2\\)")
})

test_that("the Graphviz picture has a record per block and labelled branches", {
  dot <- cases$diamond$dot
  expect_match(dot, "^digraph \"diamond\" \\{")
  expect_match(dot, "BB0 -> BB1 [label=T];", fixed = TRUE)
  expect_match(dot, "BB0 -> BB2 [label=F];", fixed = TRUE)
  expect_match(dot, "BB2 -> BB3;", fixed = TRUE)
})

test_that("the verifier rejects broken PIR, each for its reason", {
  expect_match(cases$bad_phi$problem, "Phi with 1 operands in a block with 2 predecessors")
  expect_match(cases$bad_dominance$problem, "operand %2 does not dominate its use")
  expect_match(cases$bad_assume$problem, "operand 1 is not a Checkpoint")
  expect_match(cases$bad_terminator$problem, "block does not end with a terminator")
  expect_match(cases$bad_lazy_operand$problem,
    "operand 0 may be lazy or missing where a forced value is needed")
  expect_match(cases$bad_checkpoint$problem, "second successor does not deoptimize")
  expect_match(cases$bad_type_claim$problem, "type val\\* is not within real\\$'")
  expect_match(cases$bad_framestate$problem,
    "FrameState with 1 stack values where RIR has 0")
})

test_that("the type lattice: joins, arithmetic, forcing, subtypes", {
  expect_identical(strsplit(cases$types$printed, "\n", fixed = TRUE)[[1]], c(
    "real scalar: real$'-",
    "int | real: (int|real)$'-",
    "int + int: int$'",
    "int / int: real$'",
    "int vector + real: val*",
    "real < int: lgl$'-",
    "maybe NA real < int: lgl$'",
    "any forced: val*",
    "lazy real forced: real$'-",
    "real within int|real: yes",
    "int|real within real: no",
    "real unboxable: yes",
    "int|real unboxable: no"
  ))
})

test_that("effects: abstract heaps, the own environment, forcing and dispatch", {
  all <- "OwnEnv OtherEnv Promises Vectors Attributes Global"
  expect_identical(strsplit(cases$effects$printed, "\n", fixed = TRUE)[[1]], c(
    "LdVar in own env: reads OwnEnv; writes none",
    "LdVar in other env: reads OtherEnv; writes none",
    "StVar in own env: reads none; writes OwnEnv",
    paste0("Force of a lazy value: reads ", all, "; writes ", all, "; calls R"),
    "Force of a double: reads none; writes none",
    paste0("Add of values maybe objects: reads ", all, "; writes ", all, "; calls R"),
    "Add of doubles: reads Vectors Attributes; writes Global"
  ))
})

test_that("the instruction table lists what the issue requires", {
  t <- rir:::pir_instructions()
  required <- c(
    "LdConst", "LdArg", "LdVar", "StVar", "LdVarSuper", "StVarSuper", "LdFun", "MkEnv",
    "MkArg", "Force", "MkCls", "Call", "StaticCall", "CallBuiltin", "CallSafeBuiltin",
    "Add", "Sub", "Mul", "Div", "Eq", "Lt", "Not", "Minus", "LAnd", "LOr",
    "Extract1_1D", "Extract2_1D", "Extract1_2D", "Extract2_2D", "Dollar",
    "Subassign1_1D", "Subassign2_1D", "Subassign1_2D", "Subassign2_2D", "DollarAssign",
    "Length", "IsType", "CastType", "Phi", "Branch", "Jump", "Return", "NonLocalReturn",
    "Checkpoint", "Assume", "FrameState", "Deopt", "MaterializeEnv", "PushContext",
    "PopContext", "Visible", "Invisible"
  )
  expect_true(all(required %in% t$name), label = paste(setdiff(required, t$name), collapse = " "))
  expect_false(anyDuplicated(t$name) > 0)
  expect_true(all(nzchar(t$description)))
  expect_true(all(grepl("^[vamelcf]*\\*?$", t$operands)))
})

# rir2pir: RIR code translated into PIR, which the verifier accepts.

# (the calls run in RIR, whose feedback the translation speculates on)
translate <- function(f, ...) {
  f <- rir::compile(f)
  rir:::without_native(for (i in 1:5) f(...))
  rir:::pir_translate(f)
}

test_that("straight-line code, branches and loops translate to verified PIR", {
  r <- translate(function(x) x + 1, 2)
  expect_identical(r$problem, "")
  expect_match(r$printed, "MkEnv x=%0, parent=%1", fixed = TRUE)
  expect_match(r$printed, "= LdVar x, %2", fixed = TRUE)
  expect_match(r$printed, "= Add %[0-9]+, %[0-9]+\n.*= Return %[0-9]+")

  r <- translate(function(x, y) {
    z <- x * y
    if (z > 3) z - 1 else z + 1
  }, 2, 3)
  expect_identical(r$problem, "")
  expect_match(r$printed, "StVar z, %[0-9]+, %3")
  expect_match(r$printed, "= Branch %[0-9]+ -> BB2, BB3")
  # both arms leave their result on the stack: a Phi where they meet
  expect_match(r$printed, "%4 = Phi %[0-9]+ \\(BB[0-9]+\\), %[0-9]+ \\(BB[0-9]+\\)")

  r <- translate(function(n) {
    s <- 0
    i <- 0
    while (i < n) {
      i <- i + 1
      s <- s + i
    }
    s
  }, 10)
  expect_identical(r$problem, "")
  # the loop head, entered through a checkpoint (where what an effect left
  # unconfirmed is confirmed once) and by the back edge
  expect_match(r$printed, "BB2  <- BB[0-9]+ BB[0-9]+\n")
  expect_match(r$printed, "%[0-9]+ = Checkpoint -> BB[0-9]+, BB[0-9]+\nBB2  <-")
  expect_length(gregexpr("= Jump -> BB2\n", r$printed, fixed = TRUE)[[1]], 2)
})

test_that("a binop whose feedback saw doubles is speculated on, with a complete frame state", {
  r <- translate(function(x, y) (x * 2) + (y * 3), 1.5, 2)
  expect_identical(r$problem, "")
  expect_match(r$printed, "(?s)%(\\d+) = Checkpoint -> BB\\d+, BB\\d+\n.*= Assume %\\d+, %\\1, \\(real\\$'-\\)",
    perl = TRUE
  )
  expect_match(r$printed, "real\\$'\\s+%[0-9]+ = Add %[0-9]+, %[0-9]+")
  # x * 2 loads x itself (ld2_binop): leaving resumes after it, with its
  # result computed unspeculated first
  expect_match(r$printed, "val\\*\\s+%(\\d+) = Mul %\\d+, %\\d+\n\\s+%\\d+ = FrameState pc [0-9]+, env %3, stack \\[%\\1\\]",
    perl = TRUE
  )
  # the sum of the two products: resumes at the binop with both operands on
  # its stack (the verifier checked the height against the bytecode's)
  expect_match(r$printed, "(?s)real\\$'\\s+%(\\d+) = Mul .*real\\$'\\s+%(\\d+) = Mul .*FrameState pc [0-9]+, env %3, stack \\[%\\1, %\\2\\]",
    perl = TRUE
  )
  # integers seen: integer assumptions; mixed types: no speculation
  r <- translate(function(x, y) (x * 2L) + (y * 3L), 1L, 2L)
  expect_match(r$printed, "Assume %[0-9]+, %[0-9]+, \\(int\\$'-\\)")
  f <- rir::compile(function(x, y) (x * y) + (y * x))
  f(1, 2)
  f(1L, 2L)
  expect_no_match(rir:::pir_translate(f)$printed, "Assume")
})

test_that("default arguments, `...`, closures and subsetting translate", {
  r <- translate(function(a, b = 2) a + b, 1)
  expect_identical(r$problem, "")
  # a missing b is bound to a promise of its default
  expect_match(r$printed, "%4 = IsType %1, (missing)", fixed = TRUE)
  expect_match(r$printed, "%7 = MkArg -1, 2, %6, %3", fixed = TRUE)
  expect_match(r$printed, "= StArgDefault b, %7, %3", fixed = TRUE)
  r <- translate(function(...) list(...), 1)
  expect_identical(r$problem, "")
  expect_match(r$printed, "MkEnv ...=%0, parent=%1", fixed = TRUE)
  expect_match(r$printed, "= Call <call list(...)>, %2, %4, ...=%5", fixed = TRUE)
  r <- translate(function(x) {
    g <- function(u) u
    g(x)[1]
  }, 1:3)
  expect_identical(r$problem, "")
  expect_match(r$printed, "= MkCls <list>, %2", fixed = TRUE)
  # objects take GNU R's dispatching `[`, others the default one
  expect_match(r$printed, "= Extract1_1D %[0-9]+, %[0-9]+")
  expect_match(r$printed, "= ExtractDispatch 1, <call [(...)>, %", fixed = TRUE)
})

test_that("&& and ||: a plain logical lhs decides or goes on; others take GNU R's operator", {
  r <- translate(function(x, y) if (x > 1 && y < 2) "a" else "b", 2, 1)
  expect_identical(r$problem, "")
  expect_match(r$printed, "(?s)%(\\d+) = Gt .*= IsType %\\1, \\(lgl\\$'\\).*= LglIs 0, %\\1", perl = TRUE)
  expect_match(r$printed, "= LglCombine 1, <call &&(...)>, %", fixed = TRUE)
  expect_match(r$printed, "= LglSlow 1, <call &&(...)>, %", fixed = TRUE)
  r <- translate(function(x) x || stop("no"), TRUE)
  expect_identical(r$problem, "")
  expect_match(r$printed, "= LglIs 1, %", fixed = TRUE)
})

test_that("what the translator does not handle yet is reported, not mistranslated", {
  expect_identical(
    translate(big_switch(), "a2")$problem,
    "a switch with no or too many entries"
  )
  # a loop whose break is behind a call: its body runs in a loop context
  r <- translate(function(x) {
    for (i in x) identity(if (i > 1) break)
    i
  }, c(0, 2, 3))
  expect_identical(r$problem, "")
  expect_match(r$printed, "= LoopBody ", fixed = TRUE)
  # ..N and vectorized logic are
  r <- translate(function(...) (..1 & ..2) | !..1, c(TRUE, FALSE), TRUE)
  expect_identical(r$problem, "")
  expect_match(r$printed, "(?s)= LdDotsElement \\.\\.1.*= And .*= Or ", perl = TRUE)
})

test_that("complex assignments keep the getter/setter protocol", {
  r <- translate(function(x) {
    names(x)[1] <- "a"
    x
  }, c(p = 1))
  expect_identical(r$problem, "")
  # x's value, the getter on it, `[<-` on the getter's value, `names<-` on
  # x's value with the new names, then the store
  expect_match(r$printed, paste0(
    "(?s)%(\\d+) = StartAssign x.*%(\\d+) = GetterCall \\d+, %\\d+, %\\d+, %\\1\\b",
    ".*%(\\d+) = SetterCall \\d+, \"a\", %\\d+, %\\d+, %\\d+, %\\2\\b",
    ".*%(\\d+) = SetterCall \\d+, `\\*vtmp\\*`, %\\d+, %\\d+, %\\3, %\\1\\b",
    ".*StVar x, %\\4\\b"
  ), perl = TRUE)
  r <- translate(function(x, i) {
    x[which(x > i)] <- 0
    x
  }, c(1, 5), 2)
  expect_identical(r$problem, "")
  expect_match(r$printed, "SubassignGeneral 9, x", fixed = TRUE)
})

test_that("for loops: the sequence, its length and the counter are SSA values", {
  r <- translate(function(n) {
    s <- 0
    for (i in 1:n) s <- s + i
    for (v in c(a = 1, b = 2)) s <- s * v
    s
  }, 3)
  expect_identical(r$problem, "")
  expect_match(r$printed, "= Colon <call :(...)>, %", fixed = TRUE)
  expect_match(r$printed, "= ForSeq <call for(...)>, %", fixed = TRUE)
  expect_match(r$printed, "int\\$'-\\s+%[0-9]+ = ForLength %")
  # the step: counter + 1 (never NA: it stays below the length) compared
  # with the length; the element bound in the body's own block
  expect_match(
    r$printed,
    "int\\$'-\\s+%[0-9]+ = Add %[0-9]+, %[0-9]+ \\(loop counter\\)\n\\s+lgl\\$'-\\s+%[0-9]+ = Lt"
  )
  expect_match(r$printed, "= ForElement %[0-9]+, %[0-9]+\n\\s+%[0-9]+ = StVar i, ")
  expect_match(r$printed, "= ForElement %[0-9]+, %[0-9]+\n\\s+%[0-9]+ = StVar v, ")
})

# Passes (src/pir/opt), verified after each.

test_that("a branch on a constant goes, with the code only it reached", {
  f <- rir::compile(function(x) {
    1
    if (TRUE) x else 0
  })
  f(2)
  before <- rir:::pir_translate(f)
  after <- rir:::pir_translate(f, optimize = TRUE)
  expect_identical(after$problem, "")
  expect_match(before$printed, "= Branch %[0-9]+ -> BB2, BB3")
  expect_match(before$printed, "LdConst 0", fixed = TRUE)
  expect_no_match(after$printed, "Branch", fixed = TRUE)
  expect_no_match(after$printed, "BB3", fixed = TRUE)
  expect_no_match(after$printed, "LdConst 0", fixed = TRUE)
  expect_no_match(after$printed, "AsTest", fixed = TRUE)
  # the merge kept one input: the Phi is gone, the value returned directly
  expect_no_match(after$printed, "Phi", fixed = TRUE)
  expect_match(after$printed, "(?s)%(\\d+) = Force %\\d+\n.*= Return %\\1\n", perl = TRUE)
})

test_that("dead code and overridden visibility go; effects stay", {
  f <- rir::compile(function(x, y) {
    z <- x + y
    z
    3
  })
  # (feedback from RIR runs: the speculation's checkpoint after forcing the
  # arguments confirms what the function stored before)
  rir:::without_native(f(1, 2))
  before <- rir:::pir_translate(f)$printed
  after <- rir:::pir_translate(f, optimize = TRUE)$printed
  count <- function(s, what) lengths(regmatches(s, gregexpr(what, s, fixed = TRUE)))
  expect_lt(count(after, "Visible"), count(before, "Visible"))
  # z's value is not used: its load stays (it may raise an error), the
  # visibility it set is overridden by the constant's
  # the sum's possible dispatch and the store remain
  expect_match(after, "= Add %", fixed = TRUE)
  expect_match(after, "= StVar z, %", fixed = TRUE)
  # loop state that is the same on every path is no Phi any more
  g <- rir::compile(function(n) {
    s <- 0
    for (i in 1:n) s <- s + i
    s
  })
  rir:::without_native(g(3))
  before <- rir:::pir_translate(g)$printed
  after <- rir:::pir_translate(g, optimize = TRUE)
  expect_identical(after$problem, "")
  expect_equal(count(before, "= Phi"), 9) # three loop slots at three merges
  # the counter, and s: its loads resolved (what the loop's entry confirmed);
  # and i, whose store waits for a deoptimization or the return
  expect_equal(count(after$printed, "= Phi"), 3)
  expect_no_match(after$printed, "LdVar s", fixed = TRUE)
})

test_that("RIR_DEBUG=pir prints the PIR after translation and after each pass", {
  script <- tempfile(fileext = ".R")
  writeLines(c(
    "library(rir)",
    "f <- rir::compile(function(x) if (x > 1) x * 2 else x)",
    "invisible(f(3))"
  ), script)
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), script,
    stdout = TRUE, stderr = TRUE, env = "RIR_DEBUG=pir"
  ))
  expect_true(any(out == "== translated"))
  expect_true(any(out == "== after constant branches"))
  expect_true(any(out == "== after dead code"))
  expect_true(any(out == "== after redundant visibility"))
  expect_true(any(grepl("= Mul %", out, fixed = TRUE)))
})

test_that("scope resolution forwards stores to loads of the own environment", {
  f <- rir::compile(function(x, y) {
    z <- x * y
    w <- z + 1
    w
  })
  # (forcing an argument may run code that changes the frame: what is
  # stored after it is confirmed by the checkpoint of the speculation on
  # the product, made from RIR's feedback)
  rir:::without_native(f(1, 2))
  r <- rir:::pir_translate(f, optimize = TRUE)
  expect_identical(r$problem, "")
  expect_no_match(r$printed, "LdVar z", fixed = TRUE)
  expect_no_match(r$printed, "LdVar w", fixed = TRUE)
  # the stores stay (the environment is still real)
  expect_match(r$printed, "StVar z, %", fixed = TRUE)
  # arguments may be missing: their loads stay (they raise the error that
  # names the variable)
  expect_match(r$printed, "LdVar x, %", fixed = TRUE)
  # forcing the stored product is the product itself
  expect_match(r$printed, "(?s)%(\\d+) = Mul %\\d+, %\\d+\\n.*= Add %\\1, %", perl = TRUE)
})

test_that("scope resolution forgets what a call could have changed", {
  # (a callee that calls: a call, or once the feedback saw it, inlined with
  # its context, which the PopContext after it ends: any R code may have
  # run)
  h <- function() invisible(NULL)
  f <- rir::compile(function() {
    z <- 1
    h()
    z
  })
  f()
  r <- rir:::pir_translate(f, optimize = TRUE)
  expect_identical(r$problem, "")
  expect_match(r$printed, "(?s)(= (Static)?Call <call h\\(\\.\\.\\.\\)>|= PopContext ).*= LdVar z, ",
    perl = TRUE
  )
  g <- rir::compile(function() {
    z <- 1
    z + 1
  })
  g()
  expect_no_match(rir:::pir_translate(g, optimize = TRUE)$printed, "LdVar z", fixed = TRUE)
  # after the call, the frame may hold an active binding (made through
  # sys.frames() or parent.frame()): a store may run its function, so the
  # load after it reads the frame ...
  k <- rir::compile(function() {
    h()
    z <- 1
    z
  })
  k()
  expect_match(rir:::pir_translate(k, optimize = TRUE)$printed,
    "(?s)(= (Static)?Call <call h|= PopContext ).*= StVar z, .*= LdVar z, ",
    perl = TRUE
  )
  # ... until a checkpoint has seen that it holds none: after the one of
  # the speculation on `a * 2`, stores are forwarded again
  m <- rir::compile(function(a) {
    h()
    y <- a * 2
    y + 1
  })
  rir:::without_native(for (i in 1:3) m(1.5))
  r <- rir:::pir_translate(m, optimize = TRUE)$printed
  expect_match(r, "(?s)(= (Static)?Call <call h|= PopContext ).*Checkpoint.*= NoActiveBindings %",
    perl = TRUE
  )
  expect_no_match(r, "LdVar y", fixed = TRUE)
})

test_that("indices: variables that may be missing, and the empty index", {
  r <- translate(function(v, n) {
    s <- 0
    for (i in 1:n) s <- s + v[i]
    s
  }, c(1, 2, 3), 3)
  expect_identical(r$problem, "")
  expect_match(r$printed, "val\\*\\?\\s+%([0-9]+) = ForceOrMissing %")
  expect_match(r$printed, "= Extract1_1D %[0-9]+, %[0-9]+")
  r <- translate(function(m) m[, 1], matrix(1:4, 2))
  expect_identical(r$problem, "")
  expect_match(r$printed, "(?s)missing\\s+%(\\d+) = LdConst <missing>.*= Extract1_2D %\\d+, %\\1, %", perl = TRUE)
})

test_that("scope resolution joins different stores with a Phi", {
  f <- rir::compile(function() {
    s <- 0L
    i <- 1L
    if (i > 0L) s <- 1L
    s
  })
  f()
  r <- rir:::pir_translate(f, optimize = TRUE)
  expect_identical(r$problem, "")
  expect_no_match(r$printed, "LdVar", fixed = TRUE)
  # the value returned is the Phi of the two stored constants
  expect_match(r$printed, "(?s)%(\\d+) = Phi %\\d+ \\(BB\\d+\\), %\\d+ \\(BB\\d+\\)\\n.*Return %\\1\\n",
    perl = TRUE
  )
})

test_that("scope resolution carries a variable around a loop with a Phi", {
  f <- rir::compile(function() {
    s <- 0L
    repeat {
      if (s > 3L) break
      s <- 5L
    }
    s
  })
  f()
  r <- rir:::pir_translate(f, optimize = TRUE)
  expect_identical(r$problem, "")
  expect_no_match(r$printed, "LdVar s", fixed = TRUE)
  # one Phi at the loop header, fed from before the loop and from its end
  expect_identical(lengths(regmatches(r$printed, gregexpr("= Phi ", r$printed))), 1L)
  phi <- sub("(?s).*%(\\d+) = Phi .*", "\\1", r$printed, perl = TRUE)
  expect_match(r$printed, paste0("= Gt %", phi, ", "), fixed = TRUE)
  expect_match(r$printed, paste0("Return %", phi, "\n"), fixed = TRUE)
})

test_that("scope resolution makes no Phi of a value that may be missing", {
  f <- rir::compile(function(x) {
    i <- 1L
    if (i > 0L) x <- 2
    x
  })
  f(1)
  r <- rir:::pir_translate(f, optimize = TRUE)
  expect_identical(r$problem, "")
  expect_no_match(r$printed, "= Phi ", fixed = TRUE)
  expect_match(r$printed, "LdVar x, %", fixed = TRUE)
})

test_that("an argument that may be missing is loaded once: the load that did not fail found it", {
  f <- rir::compile(function(x) {
    y <- x + 1
    x * y
  })
  g <- function(a) f(a) # x arrives as a promise: not known to be passed
  # (feedback from the interpreter, whatever the test mode)
  rir:::without_native({
    g(2)
    g(3)
  })
  p <- rir:::pir_translate(f, optimize = TRUE)$printed
  expect_identical(lengths(regmatches(p, gregexpr("LdVar x,", p, fixed = TRUE))), 1L)
  expect_identical(g(4), 20)
  expect_error(f(), "argument \"x\" is missing, with no default")
})

test_that("docs/architecture.md lists the passes in the pipeline's order", {
  # (the source tree's docs: not in the package tarball R CMD check runs)
  doc <- file.path(test_path(), "..", "..", "docs", "architecture.md")
  skip_if_not(file.exists(doc), "docs/architecture.md is not in the package tarball")
  trace <- rir:::pir_translate(compiled_probe(), optimize = TRUE, trace = TRUE)$trace
  run <- sub("^== after ", "", grep("^== after ", strsplit(trace, "\n")[[1]], value = TRUE))
  text <- paste(readLines(doc), collapse = " ")
  listed <- sub("^.*Pass order: ([^.]*)\\..*$", "\\1", text)
  expect_identical(trimws(strsplit(listed, ",")[[1]]), run)
})
