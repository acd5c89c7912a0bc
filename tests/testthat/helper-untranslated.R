# A function the optimizer refuses to translate (a switch with more than 256
# alternatives): what the tests of refusals and their reasons use.
big_switch <- function() {
  alts <- paste0("a", 1:300, " = ", 1:300, "L", collapse = ", ")
  eval(parse(text = sprintf("function(x) switch(x, %s)", alts)), envir = globalenv())
}
