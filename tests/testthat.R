library(testthat)
library(rir)

test_check("rir")
