# Differential tests: code run while R profiles (Rprof). GNU R then calls
# the .External2 of a closure's trampoline inside a builtin context of its
# own; UseMethod, NextMethod and parent.frame() look for the closure's
# context on top of the stack and failed ("'UseMethod' used in an
# inappropriate fashion", a do.call() that evaluated its arguments in the
# wrong frame) until rir took that context out of the chain while a body
# runs. The code runs several times so that it is optimized in the modes
# with a low threshold.

expect_all_same(list(
  "S3 dispatch, frames and condition handlers while R profiles" = "
    tf <- tempfile()
    Rprof(tf, interval = 0.002)
    on.exit({ Rprof(NULL); unlink(tf) })
    prev_day <- function(d) d - 1
    caught <- function() tryCatch(stop('boom'), error = function(e) conditionMessage(e))
    pf <- function() parent.frame()
    mine <- function() identical(pf(), environment())
    gen <- function(x) UseMethod('gen')
    gen.default <- function(x) 'default'
    gen.foo <- function(x) c('foo', NextMethod())
    caller <- function(v) do.call('paste', list(quote(v), 'x'))
    r <- lapply(1:8, function(i) list(
      format(prev_day(as.Date('2020-03-01'))), caught(), mine(),
      gen(structure(i, class = 'foo')), caller(i), sys.function()
    ))
    r[[8]][-6]
  ",
  "an error's call and sys.call() while R profiles" = "
    tf <- tempfile()
    Rprof(tf, interval = 0.002)
    on.exit({ Rprof(NULL); unlink(tf) })
    who <- function(a) sys.call()
    fail <- function(n) if (n > 3) stop('too big: ', n) else n
    out <- lapply(1:3, function(i) who(i + 1))
    print(out[[3]])
    for (i in 1:5) fail(i)
  "
))
