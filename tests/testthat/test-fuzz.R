# The differential fuzzer's own machinery (tools/fuzz, docs/fuzzing.md):
# generation is deterministic by seed, programs parse and run through the
# comparison, and the comparison notices a difference in every field.

fuzz_dir <- normalizePath(file.path("..", "..", "tools", "fuzz"), mustWork = FALSE)
skip_if_not(dir.exists(fuzz_dir), "tools/fuzz not available (installed package tests)")
fuzz <- new.env()
sys.source(file.path(fuzz_dir, "generate.R"), envir = fuzz)
sys.source(file.path(fuzz_dir, "compare.R"), envir = fuzz)

test_that("fuzz: a program depends on its seed only", {
  a <- fuzz$fz_generate(17)
  fuzz$fz_generate(18)
  expect_identical(fuzz$fz_generate(17), a)
  expect_false(identical(fuzz$fz_generate(18), a))
})

test_that("fuzz: generated programs parse into definitions and steps", {
  for (seed in 1:40) {
    prog <- fuzz$fz_parse_program(fuzz$fz_generate(seed))
    expect_true(length(prog$defs) >= 1L)
    expect_true(length(prog$steps) >= 3L)
  }
})

test_that("fuzz: the comparison runs programs both ways and restores rir", {
  was <- rir::is_enabled()
  text <- "## seed 0\n## defs\nf <- function(a) { cat('x\\n'); warning('w'); invisible(a + 1L) }\n## steps\nf(1L)\nf(2L)"
  expect_null(fuzz$fz_check(text))
  expect_identical(rir::is_enabled(), was)
  prog <- fuzz$fz_parse_program(text)
  res <- fuzz$fz_run_program(prog, use_rir = FALSE)
  expect_identical(res[[3]]$value, 3L)
  expect_identical(res[[3]]$visible, FALSE)
  expect_identical(res[[3]]$output, "x")
  expect_identical(res[[3]]$warnings, "f(2L) | w")
})

test_that("fuzz: a difference in any field is reported with its step", {
  base <- list(value = 1, visible = TRUE, output = "a", messages = character(), warnings = character(), error = NULL)
  for (field in fuzz$fz_fields) {
    other <- base
    other[field] <- list(if (field == "visible") FALSE else "different")
    d <- fuzz$fz_compare(list(base, base), list(base, other))
    expect_identical(d$step, 1L)
    expect_identical(d$fields, field)
  }
  expect_null(fuzz$fz_compare(list(base, base), list(base, base)))
})

test_that("fuzz: a difference counts as GNU R's only when the AST interpreter gives rir's observation", {
  base <- list(value = 1, visible = TRUE, output = "a", messages = character(), warnings = character(), error = NULL)
  ast_out <- modifyList(base, list(output = "b"))
  ast_both <- modifyList(ast_out, list(warnings = "w"))
  # rir: the AST interpreter's output, the byte code's (empty) warnings
  got <- modifyList(base, list(output = "b"))
  expect_true(fuzz$fz_explained_by_ast(list(base, base), list(base, ast_both), list(base, got)))
  expect_true(fuzz$fz_explained_by_ast(list(base, base), list(base, ast_out), list(base, got)))
  # an observation neither engine gives
  wrong <- modifyList(got, list(value = 2))
  expect_false(fuzz$fz_explained_by_ast(list(base, base), list(base, ast_both), list(base, wrong)))
  expect_false(fuzz$fz_explained_by_ast(list(base, base), list(base, base), list(base, got)))
  # a closure printed under the AST interpreter has no "<bytecode>" line
  # (seeds 30037310, 30039712: a function printed in the same output)
  bc <- modifyList(base, list(output = c("function () ", "1", "<bytecode: 0xADDR>", "[1] 2 4")))
  got_bc <- modifyList(bc, list(output = c("function () ", "1", "<bytecode: 0xADDR>", "[1] 1 3")))
  ast_bc <- modifyList(bc, list(output = c("function () ", "1", "[1] 1 3")))
  expect_true(fuzz$fz_explained_by_ast(list(base, bc), list(base, ast_bc), list(base, got_bc)))
  ast_other <- modifyList(bc, list(output = c("function () ", "1", "[1] 1 4")))
  expect_false(fuzz$fz_explained_by_ast(list(base, bc), list(base, ast_other), list(base, got_bc)))
})
