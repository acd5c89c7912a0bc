ctx <- function(args = integer(), calls = integer(), missing = 0L) {
  .Call(rir:::C_rir_context_make, as.integer(args), as.integer(calls), as.integer(missing))
}
smaller <- function(a, b) .Call(rir:::C_rir_context_smaller, a, b)

test_that("Context partial order", {
  empty <- ctx()
  eager0 <- ctx(c(0, 0))
  eager0_int0 <- ctx(c(0, 0, 0, 2))
  eager1 <- ctx(c(1, 0))
  expect_true(smaller(eager0, empty))
  expect_false(smaller(empty, eager0))
  expect_true(smaller(eager0_int0, eager0))
  expect_true(smaller(eager0_int0, eager0_int0))
  expect_false(smaller(eager0, eager1))
  expect_false(smaller(eager1, eager0))
  # a version for calls whose last argument is missing runs no call that
  # supplies it; a version that assumes nothing of them runs both
  expect_true(smaller(ctx(c(0, 0), missing = 1), eager0))
  expect_false(smaller(eager0, ctx(c(0, 0), missing = 1)))
  expect_true(smaller(ctx(missing = 2), ctx(missing = 1)))
  expect_false(smaller(ctx(missing = 1), ctx(missing = 2)))
  expect_true(smaller(ctx(c(0, 0), calls = c(0, 1)), ctx(calls = 1)))
  expect_match(.Call(rir:::C_rir_context_str, eager0_int0), "eager\\(0\\)")
})

test_that("DispatchTable keeps versions most specific first and dispatches", {
  a <- ctx(c(0, 0))
  ab <- ctx(c(0, 0, 1, 0))
  abc <- ctx(c(0, 0, 1, 0, 0, 2))
  other <- ctx(c(3, 3))
  res <- .Call(rir:::C_rir_table_test, c(a, other, abc, ab), c(abc, ab, a, ctx(), other, ctx(c(0, 0, 3, 3))))
  order <- res[[1]]
  expect_identical(order[1], abc)
  expect_lt(match(ab, order), match(a, order))
  # chosen version (index into the inserted contexts; 0 = baseline)
  expect_identical(res[[2]], c(3L, 4L, 1L, 0L, 2L, 1L))
})

test_that("DispatchTable holds at most 4 native versions, the most specific", {
  cs <- vapply(0:19, function(i) ctx(c(i %% 8, i %/% 8)), numeric(1))
  res <- .Call(rir:::C_rir_table_test, cs, numeric())
  expect_length(res[[1]], 4)
  # the same context again replaces its version
  res <- .Call(rir:::C_rir_table_test, c(cs[1], cs[1]), cs[1])
  expect_length(res[[1]], 1)
  expect_identical(res[[2]], 2L)
})

test_that("instruction table is consistent", {
  tab <- .Call(rir:::C_rir_insn_table)
  expect_false(anyDuplicated(tab[[1]]) > 0)
  expect_true(all(tab[[2]] >= 0))
  expect_true(all(nzchar(tab[[5]])))
})
