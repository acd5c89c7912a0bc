# Random R programs for differential fuzzing (see docs/fuzzing.md).
#
# fuzz_generate(seed) returns the text of one program: top-level
# definitions (a section headed "## defs") and the steps that call them
# ("## steps"), one statement per line so that the minimizer can delete
# lines. The text depends on the seed only; the program itself is
# deterministic (no unseeded random numbers, no time, no addresses), its
# loops are bounded and its vectors small.
#
# The grammar is biased toward what a JIT gets wrong: a variable used and
# then modified in the same expression or argument list, values modified
# after being passed, captured by a closure or a promise, NA and integer
# overflow, recycling, loops with break/next, `<<-`, default arguments,
# missing(), `...`, replacement functions, attributes, S3 dispatch,
# on.exit, conditions and restarts, switch, the apply family, and
# redefinitions of base functions between calls.

fz_coin <- function(p) stats::runif(1) < p

fz_pick <- function(x) x[[sample.int(length(x), 1L)]]

# weighted choice among named alternatives: w is a named numeric vector
fz_choose <- function(w) names(w)[sample.int(length(w), 1L, prob = w)]

fz_types <- c("int", "dbl", "lgl", "chr", "list")

fz_literals <- list(
  int = c(
    "0L", "1L", "2L", "-3L", "7L", "NA_integer_", ".Machine$integer.max",
    "-.Machine$integer.max", "1:3", "c(2L, NA, -1L)", "integer(0)", "5:1",
    "c(1L, 4L)", "c(a = 1L, b = 2L)"
  ),
  dbl = c(
    "0", "1.5", "-2", "NA_real_", "NaN", "Inf", "-Inf", "1e308", "c(1.5, NA, 3)",
    "c(0.5, 2)", "numeric(0)", "2.5", "-0.5", "c(10, 20, 30, 40)", "-0"
  ),
  lgl = c("TRUE", "FALSE", "NA", "c(TRUE, NA, FALSE)", "logical(0)", "c(FALSE, TRUE)"),
  chr = c(
    "\"a\"", "\"bb\"", "NA_character_", "c(\"x\", \"y\", NA)", "character(0)",
    "\"10\"", "c(\"p\", \"q\")", "\"b\"", "\"c\""
  ),
  list = c(
    "list(1, \"a\")", "list()", "list(a = 1L, b = list(2))", "list(NULL, TRUE)",
    "list(x = 1:2, y = \"z\")", "list(2.5)"
  )
)

# The generator's state: variables in scope with their (believed) types,
# closures defined so far, whether break/next are allowed, parameters.
fz_state <- function(parent = NULL) {
  st <- new.env(parent = emptyenv())
  if (is.null(parent)) {
    st$vars <- character()
    st$closures <- character()
    st$params <- character()
    st$ctr <- new.env(parent = emptyenv())
    st$ctr$n <- 0L
    st$defs <- new.env(parent = emptyenv())
  } else {
    st$vars <- parent$vars
    st$closures <- parent$closures
    st$params <- parent$params
    st$ctr <- parent$ctr
    st$defs <- parent$defs
  }
  st$loop <- FALSE
  st
}

fz_fresh <- function(st, prefix) {
  st$ctr$n <- st$ctr$n + 1L
  paste0(prefix, st$ctr$n)
}

fz_var <- function(st, type = NULL) {
  v <- st$vars
  if (!is.null(type)) v <- v[v == type]
  if (length(v) == 0L) return(NULL)
  fz_pick(names(v))
}

fz_num_type <- function() if (fz_coin(0.5)) "int" else "dbl"

# an index that never allocates much
fz_index <- function(st, v = NULL) {
  alts <- c("1L", "2L", "-1L", "0L", "NA", "3", "c(TRUE, FALSE)", "\"a\"", "c(1L, 1L)")
  if (!is.null(v)) alts <- c(alts, rep(c(sprintf("length(%s)", v), sprintf("length(%s) + 1L", v)), 2))
  fz_pick(alts)
}

fz_cond <- function(st, d) {
  e <- fz_expr(st, "lgl", d)
  if (fz_coin(0.8)) sprintf("isTRUE(%s)", e) else e
}

fz_leaf <- function(st, type) {
  if (fz_coin(0.65)) {
    v <- fz_var(st, type)
    if (!is.null(v)) return(v)
  }
  fz_pick(fz_literals[[type]])
}

fz_any <- function(st, d) fz_expr(st, fz_pick(fz_types), d)

# expressions that assign to, or alias, a variable while using it
fz_alias_expr <- function(st, type, d) {
  v <- fz_var(st, type)
  if (is.null(v)) return(NULL)
  e <- fz_expr(st, type, d - 1L)
  switch(fz_pick(1:7),
    sprintf("%s + (%s <- %s)", v, v, e),
    sprintf("{ %s <- %s; %s }", v, e, v),
    sprintf("(%s <- %s)", v, e),
    sprintf("c(%s, { %s[1L] <- %s; %s })", v, v, e, v),
    sprintf("%s[(%s <- %s) > 0]", v, v, e),
    sprintf("{ %s <- %s; %s[1L] <- %s; %s }", "fz_tmp", v, v, e, "fz_tmp"),
    sprintf("fz_id(%s, { %s <- %s; %s })", v, v, e, v)
  )
}

fz_expr <- function(st, type, d = 3L) {
  if (d <= 0L || fz_coin(0.25)) return(fz_leaf(st, type))
  if (type %in% c("int", "dbl", "list") && fz_coin(0.18)) {
    a <- fz_alias_expr(st, type, d)
    if (!is.null(a)) return(a)
  }
  d1 <- d - 1L
  n <- function() fz_expr(st, fz_num_type(), d1)
  same <- function() fz_expr(st, type, d1)
  generic <- c(ifelse = 1, switch = 1, helper = 1.5, closure = 1, apply = 1)
  k <- switch(type,
    int = fz_choose(c(arith = 4, length = 2, sum = 1, asint = 1, nchar = 1, index = 2, cumsum = 1, which = 1, match = 1, order = 1, generic)),
    dbl = fz_choose(c(arith = 5, math = 3, asnum = 1, mean = 1, index = 2, reduce = 1, generic)),
    lgl = fz_choose(c(cmp = 5, not = 1, and = 2, scalar = 1, isna = 2, iskind = 2, anyall = 2, missing = 1, identical = 1, inherits = 1, `in` = 1)),
    chr = fz_choose(c(paste = 3, format = 2, ascharacter = 1, substr = 1, typeof = 1, sprintf = 1, names = 1, generic)),
    list = fz_choose(c(list = 4, lapply = 2, map = 1, concat = 1, sub = 1, s3 = 1, generic))
  )
  switch(k,
    arith = {
      ops <- if (type == "int") c("+", "-", "*", "%/%", "%%") else c("+", "-", "*", "/", "^")
      if (type == "int") {
        sprintf("%s %s %s", same(), fz_pick(ops), same())
      } else {
        sprintf("(%s %s %s)", n(), fz_pick(ops), n())
      }
    },
    length = sprintf("length(%s)", fz_any(st, d1)),
    sum = sprintf("sum(%s)", fz_expr(st, fz_pick(c("int", "lgl")), d1)),
    asint = sprintf("as.integer(%s)", fz_expr(st, fz_pick(c("dbl", "chr", "lgl")), d1)),
    nchar = sprintf("nchar(%s)", fz_expr(st, "chr", d1)),
    index = {
      v <- fz_var(st, type)
      if (is.null(v)) sprintf("%s[%s]", same(), fz_index(st)) else sprintf("%s[%s]", v, fz_index(st, v))
    },
    cumsum = sprintf("%s(%s)", fz_pick(c("cumsum", "sum", "rev", "sort", "unique")), same()),
    order = sprintf("%s(%s)", fz_pick(c("order", "rank", "seq_along", "rev")), fz_expr(st, fz_pick(c("int", "dbl", "chr")), d1)),
    `in` = sprintf("%s %%in%% %s", fz_any(st, d1), fz_any(st, d1)),
    which = sprintf("which(%s)", fz_expr(st, "lgl", d1)),
    match = sprintf("match(%s, %s)", fz_expr(st, "chr", d1), fz_expr(st, "chr", d1)),
    math = sprintf("%s(%s)", fz_pick(c("abs", "floor", "sqrt", "log", "exp", "round", "trunc", "sign")), n()),
    asnum = sprintf("as.numeric(%s)", fz_expr(st, fz_pick(c("chr", "int", "lgl")), d1)),
    mean = sprintf("mean(%s)", n()),
    reduce = sprintf("Reduce(`+`, %s, accumulate = %s)", n(), fz_pick(c("TRUE", "FALSE"))),
    cmp = sprintf("%s %s %s", n(), fz_pick(c("<", ">", "==", "!=", "<=", ">=")), n()),
    not = sprintf("!%s", same()),
    and = sprintf("%s %s %s", same(), fz_pick(c("&", "|")), same()),
    scalar = sprintf("%s %s %s", fz_cond(st, d1), fz_pick(c("&&", "||")), fz_cond(st, d1)),
    isna = sprintf("is.na(%s)", fz_any(st, d1)),
    iskind = sprintf("%s(%s)", fz_pick(c("is.null", "is.integer", "is.double", "is.logical",
      "is.character", "is.list", "is.function", "is.complex")), fz_any(st, d1)),
    anyall = sprintf("%s(%s)", fz_pick(c("any", "all")), same()),
    missing = if (length(st$params)) sprintf("missing(%s)", fz_pick(st$params)) else "FALSE",
    identical = sprintf("identical(%s, %s)", fz_any(st, d1), fz_any(st, d1)),
    inherits = sprintf("inherits(%s, \"fzc\")", fz_any(st, d1)),
    paste = sprintf("paste%s(%s, %s%s)", fz_pick(c("", "0")), fz_any(st, d1), fz_any(st, d1),
      fz_pick(c("", "", ", collapse = \"|\""))),
    format = sprintf("format(%s)", fz_any(st, d1)),
    ascharacter = sprintf("as.character(%s)", fz_any(st, d1)),
    substr = sprintf("substr(%s, 1L, 2L)", same()),
    typeof = sprintf("%s(%s)", fz_pick(c("typeof", "class", "mode")), fz_any(st, d1)),
    sprintf = sprintf("sprintf(\"%s\", %s)", fz_pick(c("%d", "%s", "%5.1f")), fz_expr(st, fz_pick(c("int", "dbl", "chr")), d1)),
    names = sprintf("names(%s)", fz_any(st, d1)),
    list = if (fz_coin(0.5)) sprintf("list(%s, %s)", fz_any(st, d1), fz_any(st, d1)) else
      sprintf("list(a = %s, b = %s)", fz_any(st, d1), fz_any(st, d1)),
    lapply = sprintf("lapply(%s, function(e) %s)", fz_any(st, d1), fz_lambda_body(st, d1)),
    map = sprintf("Map(function(p, q) list(p, q), %s, %s)", fz_any(st, d1), fz_any(st, d1)),
    concat = sprintf("c(%s, %s)", same(), fz_any(st, d1)),
    sub = sprintf("%s[-1L]", same()),
    s3 = sprintf("structure(list(%s), class = \"fzc\")", fz_any(st, d1)),
    ifelse = sprintf("if (%s) %s else %s", fz_cond(st, d1), same(), same()),
    switch = sprintf("switch(%s, a = %s, b = , c = %s%s)", fz_expr(st, "chr", 1L), same(), same(),
      if (fz_coin(0.7)) paste0(", ", same()) else ""),
    helper = fz_helper_call(st, type, d1),
    closure = {
      if (length(st$closures)) sprintf("%s(%s)", fz_pick(st$closures), fz_any(st, d1)) else same()
    },
    apply = switch(type,
      int = sprintf("vapply(%s, function(e) length(e), integer(1))", fz_any(st, d1)),
      dbl = sprintf("sapply(%s, function(e) %s)", fz_expr(st, "dbl", d1), fz_lambda_body(st, d1)),
      chr = sprintf("vapply(%s, function(e) paste(e, collapse = \"\"), \"\")", fz_any(st, d1)),
      list = sprintf("mapply(function(p, q) c(p, q), %s, %s, SIMPLIFY = FALSE)", fz_any(st, d1), fz_any(st, d1)),
      same()
    )
  )
}

# the body of an anonymous function of `e`, sometimes with `<<-`
fz_lambda_body <- function(st, d) {
  v <- fz_var(st, "dbl")
  if (is.null(v)) v <- fz_var(st, "int")
  if (!is.null(v) && fz_coin(0.35)) {
    return(sprintf("{ %s[1L] <<- e; sum(%s) }", v, v))
  }
  sub <- fz_state(st)
  sub$vars <- c(sub$vars, e = fz_pick(c("int", "dbl")))
  fz_expr(sub, fz_pick(c("int", "dbl", "chr")), min(d, 2L))
}

# ---- helpers: fixed top-level functions the statements may call ----

fz_helper_defs <- list(
  fz_id = "fz_id <- function(a, b) list(a, b)",
  fz_second_first = "fz_second_first <- function(a, b) { b; cat(\"a\", format(a), \"\\n\"); a }",
  fz_lazy = "fz_lazy <- function(a, b) if (isTRUE(all(a > 0))) a else b",
  fz_default = "fz_default <- function(a, b = a * 2, c = { a <- a + 1; b }) list(a, b, c)",
  fz_default2 = "fz_default2 <- function(a, b = length(a), c = { b <- b + 1L; a }) { a <- c; list(b, c, a) }",
  fz_missing = "fz_missing <- function(a, b) if (missing(b)) list(a) else list(a, b)",
  fz_dots = "fz_dots <- function(...) list(...length(), if (...length()) ..1 else NULL, nargs())",
  fz_forward = "fz_forward <- function(x, ...) fz_missing(x, ...)",
  fz_onexit = "fz_onexit <- function(x) { on.exit(cat(\"bye\", length(x), \"\\n\")); on.exit(cat(\"bye2\\n\"), add = TRUE); x[1] <- NA; x }",
  fz_vis = "fz_vis <- function(x) invisible(x)",
  fz_rec = "fz_rec <- function(n) if (isTRUE(n <= 0)) 0 else n + fz_rec(n - 1)",
  fz_counter = "fz_counter <- function() { fz_count <<- fz_count + 1L; fz_count }",
  fz_mc = "fz_mc <- function(a, b, ...) match.call()",
  fz_subst = "fz_subst <- function(x) deparse(substitute(x))",
  fz_sw = "fz_sw <- function(x) switch(x, a = \"A\", b = , c = \"BC\", \"other\")",
  fz_modarg = "fz_modarg <- function(v) { v[1] <- 100; attr(v, \"m\") <- TRUE; v }",
  fz_promise = "fz_promise <- function(a, f) { f(); a }",
  fz_warn = "fz_warn <- function(x) { warning(\"fzw \", length(x)); x }",
  fz_err = "fz_err <- function(x) { if (isTRUE(length(x) > 2L)) stop(\"too long: \", length(x)); x }",
  fz_sys = "fz_sys <- function(x) sys.call()",
  # S3 dispatch copies the generic's local variables into the method's frame
  fz_gen = paste(
    "fz_gen <- function(x, ...) { loc <- length(x); UseMethod(\"fz_gen\") }",
    "fz_gen.default <- function(x, ...) { l <- if (exists(\"loc\", inherits = FALSE)) loc + 1L else -1L; list(l, x) }",
    "fz_gen.numeric <- function(x, ...) { r <- loc * 2L; list(r, exists(\"loc\", inherits = FALSE), NextMethod()) }",
    sep = "\n"
  ),
  # the function's own environment as a value: what it shows must be current
  fz_envval = "fz_envval <- function(x) { y <- x; e <- environment(); y <- length(x) + 1L; e$z <- y; list(e$y, z, get(\"x\", envir = e)) }",
  # a warning's calling handler reads the frame in the middle of a loop
  fz_hread = paste(
    "fz_hread <- function(x) { k <- 0; e <- environment(); withCallingHandlers({",
    "  for (i in seq_len(min(3L, length(x) + 1L))) { k <- k + i; if (i == 2L) warning(\"fzh\") }; k",
    "}, warning = function(w) { cat(\"k =\", e$k, \"\\n\"); invokeRestart(\"muffleWarning\") }) }",
    sep = "\n"
  ),
  # small arithmetic bodies: the optimizer inlines them
  fz_arith = "fz_arith <- function(a, b) a * 2.5 + b / 4",
  fz_sq = "fz_sq <- function(x) -x * x + 0.5",
  fz_first = "fz_first <- function(a, b) a + 0.25",
  fz_rev = "fz_rev <- function(a, b) b - a * 1.5",
  # a frame released at the return (its value then unreferenced, which GNU
  # R's arithmetic may reuse) though its local function was called, and an
  # argument returned by a callee inlined with its context
  fz_local = "fz_local <- function(x) { y <- x[seq_along(x)]; attr(y, \"fzl\") <- length(x); h <- function() length(y); h(); y }",
  fz_pass = "fz_pass <- function(a, k) { if (isTRUE(k)) cat(\"k\\n\"); a }"
)

fz_helper_call <- function(st, type, d) {
  a <- function() fz_any(st, d)
  # arguments with side effects show the evaluation order
  arg <- function() {
    switch(fz_pick(1:4),
      a(), a(),
      sprintf("{ cat(\"arg\\n\"); %s }", a()),
      {
        v <- fz_var(st, fz_pick(c("int", "dbl", "list")))
        if (is.null(v)) a() else sprintf("{ %s <- %s; %s }", v, fz_expr(st, st$vars[[v]], d), v)
      }
    )
  }
  # (numbers mostly: what the arithmetic helpers are inlined for)
  num <- function() if (fz_coin(0.7)) fz_expr(st, fz_num_type(), d) else arg()
  # (for a helper returning its argument: the type asked for)
  same_type <- function() if (type %in% fz_types) type else fz_pick(fz_types)
  h <- fz_pick(names(fz_helper_defs))
  st$defs[[h]] <- TRUE
  call <- switch(h,
    fz_id = sprintf("fz_id(%s, %s)", arg(), arg()),
    fz_second_first = sprintf("fz_second_first(%s, %s)", arg(), arg()),
    fz_lazy = sprintf("fz_lazy(%s, %s)", arg(), arg()),
    fz_default = sprintf("fz_default(%s)", fz_expr(st, fz_num_type(), d)),
    fz_default2 = sprintf("fz_default2(%s)", arg()),
    fz_missing = if (fz_coin(0.5)) sprintf("fz_missing(%s)", arg()) else sprintf("fz_missing(%s, %s)", arg(), arg()),
    fz_dots = sprintf("fz_dots(%s)", paste(replicate(sample(0:3, 1), arg()), collapse = ", ")),
    fz_forward = sprintf("fz_forward(%s%s)", arg(), if (fz_coin(0.5)) paste0(", b = ", arg()) else ""),
    fz_onexit = sprintf("fz_onexit(%s)", arg()),
    fz_vis = sprintf("fz_vis(%s)", arg()),
    fz_rec = sprintf("fz_rec(min(3, length(%s)))", a()),
    fz_counter = {
      st$defs[["fz_count"]] <- TRUE
      "fz_counter()"
    },
    fz_mc = sprintf("fz_mc(%s, b = %s%s)", a(), a(), if (fz_coin(0.5)) paste0(", ", a()) else ""),
    fz_subst = sprintf("fz_subst(%s)", a()),
    fz_sw = sprintf("fz_sw(%s)", fz_expr(st, "chr", 1L)),
    fz_modarg = {
      v <- fz_var(st)
      if (is.null(v)) sprintf("fz_modarg(%s)", a()) else sprintf("list(fz_modarg(%s), %s)", v, v)
    },
    fz_promise = {
      v <- fz_var(st, fz_pick(c("int", "dbl")))
      if (is.null(v)) {
        sprintf("fz_promise(%s, function() NULL)", a())
      } else {
        sprintf("fz_promise(%s, function() %s <<- %s)", v, v, fz_expr(st, st$vars[[v]], 1L))
      }
    },
    fz_arith = sprintf("fz_arith(%s, %s)", num(), num()),
    fz_sq = sprintf("fz_sq(%s)", num()),
    fz_first = sprintf("fz_first(%s, %s)", num(), arg()),
    fz_rev = sprintf("fz_rev(%s, %s)", num(), num()),
    fz_warn = sprintf("fz_warn(%s)", a()),
    fz_err = sprintf("fz_err(%s)", a()),
    fz_sys = sprintf("fz_sys(%s)", a()),
    fz_gen = sprintf("fz_gen(%s)", arg()),
    fz_envval = sprintf("fz_envval(%s)", arg()),
    fz_hread = sprintf("fz_hread(%s)", a()),
    fz_local = sprintf("fz_local(%s)", fz_expr(st, same_type(), d)),
    fz_pass = sprintf("fz_pass(%s, %s)", fz_expr(st, same_type(), d), fz_pick(c("FALSE", "TRUE", "NA")))
  )
  if (type %in% c("int", "dbl") && !h %in% c("fz_rec", "fz_counter", "fz_local", "fz_pass")) {
    call <- sprintf("length(%s)", call)
  }
  call
}

# ---- statements: each returns a character vector of lines ----

fz_indent <- function(lines) paste0("  ", lines)

fz_block <- function(st, n = sample(1:3, 1), d = 2L) {
  unlist(lapply(seq_len(n), function(i) fz_stmt(st, d)))
}

fz_redefs <- c(
  "length <- function(x) 99L",
  "sum <- function(..., na.rm = FALSE) 42",
  "abs <- function(x) -x",
  "is.na <- function(x) FALSE",
  "is.integer <- function(x) TRUE",
  "max <- function(..., na.rm = FALSE) -1",
  "paste0 <- function(...) \"P\"",
  # integers still add (loop counters), doubles subtract
  "`+` <- function(e1, e2) if (missing(e2)) e1 else if (is.integer(e1)) base::`+`(e1, e2) else base::`-`(e1, e2)",
  "c <- function(...) base::c(..., 0L)",
  "format <- function(x, ...) \"F\"",
  "isTRUE <- function(x) TRUE",
  "`[` <- function(x, ...) \"idx\"",
  "list <- function(...) base::list(..., \"extra\")"
)

fz_stmt <- function(st, d = 3L) {
  w <- c(
    assign = 5, reassign = 3, alias = 6, index_assign = 4, output = 3,
    if_ = 2, for_ = 2, while_ = 1, repeat_ = 1, closure = 2, call_closure = 2,
    try = 2, restart = 0.5, onexit = 1, redef = 0.7, delayed = 0.7, setter = 1,
    attr = 1, helper = 2, switch = 1, apply = 1.5, superassign = 1, env = 1.5, record = 1.2,
    heldcopy = 0.8, handler_write = 0.6, active_assign = 0.5, nested_assign = 1,
    ast_arg = 0.6
  )
  if (d <= 0L) w <- w[!names(w) %in% c("if_", "for_", "while_", "repeat_", "closure", "try", "restart")]
  if (st$loop) w <- c(w, brk = 1.5)
  k <- fz_choose(w)
  dd <- d - 1L
  switch(k,
    assign = {
      t <- fz_pick(fz_types)
      e <- fz_expr(st, t)
      v <- fz_fresh(st, "v")
      st$vars[[v]] <- t
      sprintf("%s <- %s", v, e)
    },
    reassign = {
      v <- fz_var(st)
      if (is.null(v)) return(fz_stmt(st, d))
      sprintf("%s <- %s", v, fz_expr(st, st$vars[[v]]))
    },
    alias = fz_alias_stmt(st),
    index_assign = {
      v <- fz_var(st)
      if (is.null(v)) return(fz_stmt(st, d))
      t <- st$vars[[v]]
      if (t == "list") {
        switch(fz_pick(1:4),
          sprintf("%s[[%s]] <- %s", v, fz_index(st, v), fz_any(st, 2L)),
          sprintf("%s$%s <- %s", v, fz_pick(c("a", "b", "zz")), fz_any(st, 2L)),
          sprintf("%s[%s] <- NULL", v, fz_index(st, v)),
          sprintf("%s[[length(%s) + 1L]] <- %s", v, v, v)
        )
      } else {
        sprintf("%s[%s] <- %s", v, fz_index(st, v), fz_expr(st, if (fz_coin(0.8)) t else fz_pick(fz_types), 2L))
      }
    },
    output = {
      e <- fz_any(st, 2L)
      switch(fz_pick(1:4),
        sprintf("cat(format(%s), \"\\n\")", e),
        sprintf("print(%s)", e),
        sprintf("cat(%s, sep = \" \"); cat(\"\\n\")", fz_expr(st, fz_pick(c("int", "dbl", "chr", "lgl")), 2L)),
        sprintf("message(\"m \", format(%s))", e)
      )
    },
    if_ = {
      # variables first assigned in a branch stay local to the generator's
      # view, so that later statements do not depend on the branch taken
      c(
        sprintf("if (%s) {", fz_cond(st, 2L)), fz_indent(fz_block(fz_state(st), d = dd)),
        if (fz_coin(0.5)) c("} else {", fz_indent(fz_block(fz_state(st), d = dd))), "}"
      )
    },
    for_ = fz_for(st, dd),
    while_ = {
      k <- fz_fresh(st, "k")
      sub <- fz_state(st)
      sub$loop <- TRUE
      body <- fz_block(sub, d = dd)
      c(
        sprintf("%s <- 0L", k), sprintf("while (%s < %dL) {", k, sample(1:4, 1)),
        fz_indent(c(sprintf("%s <- %s + 1L", k, k), body)), "}"
      )
    },
    repeat_ = {
      k <- fz_fresh(st, "k")
      sub <- fz_state(st)
      sub$loop <- TRUE
      body <- fz_block(sub, d = dd)
      c(
        sprintf("%s <- 0L", k), "repeat {",
        fz_indent(c(sprintf("%s <- %s + 1L", k, k), sprintf("if (%s > %dL) break", k, sample(1:4, 1)), body)), "}"
      )
    },
    closure = {
      g <- fz_fresh(st, "g")
      sub <- fz_state(st)
      sub$vars <- c(sub$vars, y = fz_pick(fz_types))
      sub$params <- "y"
      body <- fz_block(sub, n = sample(0:2, 1), d = dd)
      st$closures <- c(st$closures, g)
      res <- fz_any(sub, 2L)
      if (length(body) == 0L) {
        sprintf("%s <- function(y) %s", g, res)
      } else {
        c(sprintf("%s <- function(y) {", g), fz_indent(c(body, res)), "}")
      }
    },
    call_closure = {
      if (!length(st$closures)) return(fz_stmt(st, d))
      g <- fz_pick(st$closures)
      v <- fz_var(st)
      pre <- if (!is.null(v) && fz_coin(0.6)) sprintf("%s <- %s; ", v, fz_expr(st, st$vars[[v]], 1L)) else ""
      r <- fz_fresh(st, "v")
      st$vars[[r]] <- "list"
      sprintf("%s%s <- list(%s(%s))", pre, r, g, fz_any(st, 2L))
    },
    try = fz_try(st, dd),
    restart = {
      sprintf(
        "cat(format(withRestarts({ %s; invokeRestart(\"fzr\", %s); \"not reached\" }, fzr = function(v) list(\"restarted\", v))), \"\\n\")",
        fz_any(st, 1L), fz_any(st, 2L)
      )
    },
    onexit = sprintf("on.exit(cat(\"exit\", format(%s), \"\\n\"), add = %s)", fz_any(st, 1L), fz_pick(c("TRUE", "TRUE", "FALSE"))),
    redef = {
      r <- fz_pick(fz_redefs)
      if (fz_coin(0.3)) c(r, sprintf("rm(%s)", sub(" <-.*", "", r))) else r
    },
    delayed = {
      v <- fz_fresh(st, "v")
      t <- fz_pick(fz_types)
      e <- fz_expr(st, t, 2L)
      st$vars[[v]] <- t
      sprintf("delayedAssign(\"%s\", { cat(\"forcing %s\\n\"); %s })", v, v, e)
    },
    setter = {
      v <- fz_var(st)
      if (is.null(v)) return(fz_stmt(st, d))
      st$defs[["fz_setter"]] <- TRUE
      switch(fz_pick(1:3),
        sprintf("fzset(%s, %s) <- %s", v, fz_pick(c("1L", "2L", "\"a\"")), fz_any(st, 2L)),
        sprintf("names(%s)[%s] <- %s", v, fz_pick(c("1L", "2L")), fz_expr(st, "chr", 1L)),
        sprintf("fzset(%s, 1L) <- %s", v, v)
      )
    },
    attr = {
      v <- fz_var(st)
      if (is.null(v)) return(fz_stmt(st, d))
      switch(fz_pick(1:4),
        sprintf("attr(%s, \"fz\") <- %s", v, fz_any(st, 1L)),
        sprintf("attr(%s, \"self\") <- %s", v, v),
        sprintf("class(%s) <- \"fzc\"", v),
        sprintf("names(%s) <- %s", v, fz_expr(st, "chr", 1L))
      )
    },
    helper = {
      h <- fz_helper_call(st, "any", 2L)
      if (fz_coin(0.5)) sprintf("print(%s)", h) else {
        v <- fz_fresh(st, "v")
        st$vars[[v]] <- "list"
        sprintf("%s <- list(%s)", v, h)
      }
    },
    switch = {
      v <- fz_fresh(st, "v")
      t <- fz_pick(fz_types)
      st$vars[[v]] <- t
      if (fz_coin(0.5)) {
        sprintf("%s <- switch(%s, a = %s, b = , c = %s, %s)", v, fz_expr(st, "chr", 1L),
          fz_expr(st, t, 1L), fz_expr(st, t, 1L), fz_expr(st, t, 1L))
      } else {
        sprintf("%s <- switch(%s, %s, %s)", v, fz_pick(c("1L", "2L", "3", "NA_integer_", "fz_count %% 3L + 1L")),
          fz_expr(st, t, 1L), fz_expr(st, t, 1L))
      }
    },
    apply = {
      v <- fz_var(st)
      if (is.null(v)) return(fz_stmt(st, d))
      r <- fz_fresh(st, "v")
      st$vars[[r]] <- "list"
      switch(fz_pick(1:4),
        sprintf("%s <- lapply(%s, function(e) { %s <- %s; e })", r, v, v, fz_expr(st, st$vars[[v]], 1L)),
        sprintf("%s <- sapply(seq_along(%s), function(i) { %s[i] <<- %s; length(%s) })", r, v, v, fz_expr(st, st$vars[[v]], 1L), v),
        sprintf("%s <- Map(function(p, q) list(p, q), %s, rev(%s))", r, v, v),
        sprintf("%s <- Filter(function(e) isTRUE(e > 0), %s)", r, v)
      )
    },
    superassign = {
      v <- fz_var(st)
      if (is.null(v)) return(fz_stmt(st, d))
      g <- fz_fresh(st, "g")
      c(
        sprintf("%s <- function() { %s <<- %s; %s }", g, v, fz_expr(st, st$vars[[v]], 1L), v),
        sprintf("print(list(%s, %s(), %s))", v, g, v)
      )
    },
    heldcopy = {
      # a value held as an operand or argument while a function copies its
      # variable, rebinds the variable and updates or reuses the copy (the
      # copy must not change the held value)
      v <- fz_var(st, fz_pick(c("int", "dbl")))
      if (is.null(v)) return(fz_stmt(st, d))
      g <- fz_fresh(st, "g")
      e <- fz_expr(st, st$vars[[v]], 1L)
      body <- switch(fz_pick(1:3),
        sprintf("{ y <- %s; %s <<- %s; y[1L] <- 99L; length(y) }", v, v, e),
        sprintf("{ y <- %s; %s <<- %s; y <- y + 1L; sum(y, na.rm = TRUE) }", v, v, e),
        sprintf("{ %s <<- %s; 1L }", v, e)
      )
      k <- fz_fresh(st, "g")
      c(
        sprintf("%s <- %s + 0L", v, v),  # (an unshared value)
        sprintf("%s <- function() %s", g, body),
        sprintf("%s <- function() %s + %s()", k, v, g),
        # (an operand, not an argument of a builtin, which counts it)
        sprintf("fz_held <- %s + %s()", v, k),
        sprintf("print(list(fz_held, %s))", v)
      )
    },
    env = {
      # assignments behind the compiler's back: local(), eval(), assign(),
      # do.call(), a Recall-style recursion
      v <- fz_var(st)
      if (is.null(v)) return(fz_stmt(st, d))
      e <- fz_expr(st, st$vars[[v]], 1L)
      r <- fz_fresh(st, "v")
      st$vars[[r]] <- "list"
      switch(fz_pick(1:6),
        sprintf("%s <- list(local({ %s <- %s; %s }), %s)", r, v, e, v, v),
        sprintf("%s <- list(eval(quote(%s <- %s)), %s)", r, v, e, v),
        sprintf("assign(\"%s\", %s); %s <- list(get(\"%s\"))", v, e, r, v),
        sprintf("%s <- do.call(\"list\", list(%s, %s))", r, v, e),
        sprintf("%s <- list(%s, evalq(%s <- %s), %s)", r, v, v, e, v),
        sprintf("%s <- list(sys.function() -> fz_self, is.function(fz_self))", r)
      )
    },
    record = fz_record_stmt(st),
    handler_write = fz_handler_write_stmt(st),
    active_assign = fz_active_assign_stmt(st),
    nested_assign = fz_nested_assign_stmt(st),
    ast_arg = fz_ast_arg_stmt(st),
    brk = {
      b <- fz_pick(c("break", "next"))
      cond <- fz_cond(st, 1L)
      if (fz_coin(0.6)) return(fz_pick(c(sprintf("if (%s) %s", cond, b), b)))
      # the loop's break/next evaluated by eval() and friends or forced in a
      # promise, in the loop's own frame
      switch(fz_pick(1:5),
        sprintf("eval(quote(if (%s) %s))", cond, b),
        sprintf("evalq(if (%s) %s)", cond, b),
        sprintf("local(if (%s) %s, envir = environment())", cond, b),
        {
          st$defs[["fz_id"]] <- TRUE
          sprintf("fz_id(if (%s) %s, 0L)", cond, b)
        },
        sprintf("print(eval(quote(if (%s) %s else %s)))", cond, b, fz_any(st, 1L))
      )
    }
  )
}

# an operation that may warn in a loop of a local function while a calling
# handler of the caller reads or writes the function's variable through
# sys.frames() (a handler is R code: what it writes the loop must see)
fz_warn_ops <- c(
  "fz_big + %s", "sqrt(2 - %s)", "log(2 - %s)", "as.integer(c(\"1\", \"zz\")[(%s > 2L) + 1L])",
  "(10^(5 * %s + 2)) %%%% 3", "%s * 1073741824L", "as.integer(2^30 * %s)", "c(1L, 2L) + seq_len(%s)"
)

# (the operation warns only from i = 2 or 3 on: the function has run, and
# maybe been optimized, before its first warning)
fz_handler_write_stmt <- function(st) {
  g <- fz_fresh(st, "g")
  x <- fz_fresh(st, "hw")
  r <- fz_fresh(st, "v")
  st$vars[[r]] <- "int"
  st$defs[["fz_setv"]] <- TRUE
  i <- fz_fresh(st, "i")
  op <- sprintf(fz_pick(fz_warn_ops), i)
  step <- fz_pick(c(sprintf("%s <- %s + 1L", x, x), sprintf("%s <- %s * 2L", x, x)))
  body <- fz_pick(list(
    c(sprintf("for (%s in seq_len(n)) {", i), sprintf("  y <- %s", op), sprintf("  %s", step), "}"),
    c(sprintf("%s <- n", i), step, sprintf("y <- %s", op), step)
  ))
  handler <- fz_pick(c(
    sprintf("fz_setv(\"%s\", 1000L)", x),
    sprintf("cat(\"seen\", fz_getv(\"%s\"), \"\\n\")", x),
    sprintf("fz_setv(\"%s\", fz_getv(\"%s\") + 100L)", x, x)
  ))
  q <- fz_fresh(st, "q")
  c(
    sprintf("%s <- function(n) {", g),
    fz_indent(c("fz_big <- .Machine$integer.max - 2L", sprintf("%s <- 0L", x), body, x)),
    "}",
    sprintf("for (%s in %s) {", q, fz_pick(c("1:3", "c(1L, 1L, 2L, 3L)", "c(2L, 2L, 3L)"))),
    sprintf("  %s <- withCallingHandlers(%s(%s), warning = function(w) { %s; invokeRestart(\"muffleWarning\") })",
      r, g, q, handler),
    sprintf("  cat(\"%s\", %s, \"\\n\")", r, r),
    "}"
  )
}

# a complex assignment to an active binding: how often its function runs
# (each read and write counts) decides the stored value
fz_active_assign_stmt <- function(st) {
  x <- fz_fresh(st, "ab")
  lhs <- fz_pick(c(
    sprintf("%s[2][1] <- %s", x, "%s"), sprintf("%s[2] <- %s", x, "%s"),
    sprintf("attr(%s, \"a\") <- %s", x, "%s"), sprintf("names(%s)[1] <- %s", x, "\"n\""),
    sprintf("%s[[1]] <- %s", x, "%s")
  ))
  v <- fz_pick(c("5", x, "2L"))
  c(
    sprintf("makeActiveBinding(\"%s\", local({ n <- 0; function(v) if (missing(v)) { n <<- n + 1; n } else n <<- v * 2 }), environment())", x),
    sub("%s", v, lhs, fixed = TRUE),
    sprintf("cat(format(%s), \"\\n\")", x),
    sprintf("rm(%s)", x)
  )
}

# nested complex assignments whose setter may warn or fail: the condition
# names the assignment as written (x$b[i] <- v, with v unevaluated)
fz_nested_assign_stmt <- function(st) {
  x <- fz_fresh(st, "v")
  st$vars[[x]] <- "list"
  init <- fz_pick(c(
    sprintf("%s <- list(b = %s, c = \"s\")", x, fz_expr(st, fz_pick(c("int", "dbl", "lgl")), 1L)),
    sprintf("%s <- list(b = 1:3, c = list(d = 2.5))", x)
  ))
  val <- fz_pick(c("c(NaN, NaN)", "c(1.5, 2.5, 3.5, 4.5)", "\"w\"", fz_any(st, 1L), "NULL", "list(1)"))
  tmp <- fz_fresh(st, "w")
  st$vars[[tmp]] <- "list"
  asg <- fz_pick(c(
    sprintf("%s$b[%s] <- %s", x, fz_pick(c("1", "2:3", "0", "-1")), tmp),
    sprintf("%s$b[[%s]] <- %s", x, fz_pick(c("1", "2")), tmp),
    sprintf("%s$b[[1]][2] <- %s", x, tmp),
    sprintf("%s$c$d[2] <- %s", x, tmp),
    sprintf("%s[[\"b\"]][1] <- %s", x, tmp),
    sprintf("names(%s$b)[2] <- %s", x, tmp)
  ))
  c(init, sprintf("%s <- %s", tmp, val), asg)
}

# a parameter (maybe missing) or an unbound variable passed to a base
# function that takes FUN, from code GNU R's AST interpreter runs (on.exit
# code, eval(), evalq(), local()): the promise is GNU R's, and a missing or
# unbound variable names the call that is innermost when it is forced
fz_ast_arg_stmt <- function(st) {
  p <- if (length(st$params) && fz_coin(0.85)) fz_pick(st$params) else "fz_nosuch"
  call <- fz_pick(c(
    sprintf("sapply(%s, function(e) %s)", p, p),
    sprintf("vapply(%s, function(e) 1, 1)", p),
    sprintf("lapply(%s, identity)", p),
    sprintf("Map(function(e, k) k, %s, 1)", p),
    sprintf("Filter(Negate(is.null), %s)", p),
    sprintf("do.call(\"paste\", list(%s))", p)
  ))
  r <- fz_fresh(st, "v")
  st$vars[[r]] <- "list"
  switch(fz_pick(1:5),
    sprintf("on.exit(cat(\"exit\", format(%s), \"\\n\"), add = TRUE)", call),
    sprintf("%s <- list(eval(quote(%s)))", r, call),
    sprintf("%s <- list(evalq(%s))", r, call),
    sprintf("%s <- list(local(%s, envir = environment()))", r, call),
    sprintf("%s <- list(%s)", r, call)
  )
}

# an environment or a list used as a record: x$name and x$name <- v in a
# loop (what the optimizer speculates runs no R code), sometimes meeting an
# active binding, a promise, the function's own environment or a partial
# name
fz_record_stmt <- function(st) {
  r <- fz_fresh(st, "r")
  k <- fz_fresh(st, "k")
  out <- fz_fresh(st, "v")
  st$vars[[out]] <- "dbl"
  e <- fz_expr(st, "dbl", 1L)
  init <- fz_pick(c(
    sprintf("%s <- new.env()", r),
    sprintf("%s <- new.env(parent = emptyenv())", r),
    sprintf("%s <- list(a = 0, b = 1, abc = 2)", r)
  ))
  lines <- c(
    init,
    sprintf("%s$a <- %s", r, e),
    sprintf("%s$b <- 1", r),
    sprintf("for (%s in 1:%dL) {", k, sample(2:5, 1)),
    sprintf("  %s$a <- %s$a * 0.5 + %s$b", r, r, r),
    sprintf("  %s$b <- %s$b + %s", r, r, k),
    "}"
  )
  env <- !grepl("list", init)
  odd <- fz_pick(1:6)
  if (env && odd == 1) {
    lines <- c(lines, sprintf("makeActiveBinding(\"b\", function() { cat(\"active b\\n\"); 2 }, %s)", r))
  } else if (env && odd == 2) {
    lines <- c(lines, sprintf("delayedAssign(\"b\", { cat(\"forcing b\\n\"); 3 }, assign.env = %s)", r))
  } else if (odd == 3) {
    v <- fz_var(st, "dbl")
    if (!is.null(v)) {
      lines <- c(lines, sprintf("%s <- environment()", r), sprintf("%s$%s <- %s$%s + 1", r, v, r, v))
    }
  }
  lines <- c(lines, sprintf("%s <- as.numeric(%s$a) + as.numeric(%s$b)%s", out, r, r,
    if (!env && fz_coin(0.3)) sprintf(" + length(%s$ab)", r) else ""
  ))
  lines
}

# the aliasing statements that known JIT bugs come from
fz_alias_stmt <- function(st) {
  v <- fz_var(st, fz_pick(c("int", "dbl", "list")))
  if (is.null(v)) return(fz_stmt(st, 1L))
  t <- st$vars[[v]]
  e <- function() fz_expr(st, t, 1L)
  w <- fz_fresh(st, "v")
  st$vars[[w]] <- "list"
  if (t == "list") {
    return(switch(fz_pick(1:5),
      sprintf("%s[[length(%s) + 1L]] <- %s; %s <- %s", v, v, v, w, v),
      sprintf("%s <- %s; %s[[1L]] <- %s; %s <- list(%s, %s)", w, v, v, fz_any(st, 1L), w, v, w),
      sprintf("%s <- list(%s, { %s[[1L]] <- %s; %s })", w, v, v, fz_any(st, 1L), v),
      sprintf("%s <- %s; %s$self <- %s", w, v, w, v),
      sprintf("%s <- lapply(%s, function(e) { %s[[1L]] <<- NULL; e })", w, v, v)
    ))
  }
  switch(fz_pick(1:10),
    sprintf("%s <- list(%s, { %s <- %s + 1; %s })", w, v, v, v, v),
    sprintf("%s <- list(%s + (%s <- %s))", w, v, v, e()),
    sprintf("%s <- %s; %s[1L] <- %s; %s <- list(%s, %s)", w, v, v, e(), w, v, w),
    sprintf("%s <- list(); for (i in %s) %s[[length(%s) + 1L]] <- i + ({ i <- floor(i) })", w, v, w, w),
    sprintf("%s <- function() %s; %s <- %s; %s <- list(%s())", "fz_g", v, v, e(), w, "fz_g"),
    sprintf("%s <- list(fz_second_first({ %s[1L] <- %s; %s }, %s))", w, v, e(), v, v),
    sprintf("%s <- list(%s[{ %s <- %s; 1L }])", w, v, v, e()),
    sprintf("%s <- 0; for (i in 1:3) %s <- %s + length(%s)", w, w, w, v),
    sprintf("%s <- list(%s, %s[1L] <- %s, %s)", w, v, v, e(), v),
    sprintf("%s <- list(fz_lazy(%s, { %s <- %s; %s }), %s)", w, v, v, e(), v, v)
  ) -> s
  if (grepl("fz_second_first", s)) st$defs[["fz_second_first"]] <- TRUE
  if (grepl("fz_lazy", s)) st$defs[["fz_lazy"]] <- TRUE
  s
}

fz_for <- function(st, d) {
  i <- fz_fresh(st, "i")
  sub <- fz_state(st)
  sub$loop <- TRUE
  v <- fz_var(st)
  seqs <- c("1:3", "seq_len(2L)", "c(2.5, 4.5)", "list(1, \"a\", NULL)", "character(0)", "c(NA, 1L)")
  if (!is.null(v)) seqs <- c(seqs, v, v, sprintf("seq_along(%s)", v))
  s <- fz_pick(seqs)
  sub$vars[[i]] <- if (grepl("seq|:", s)) "int" else if (!is.null(v) && s == v) st$vars[[v]] else "dbl"
  body <- fz_block(sub, d = d)
  if (!is.null(v) && fz_coin(0.4)) {
    body <- c(body, sprintf("%s <- %s", v, fz_expr(sub, st$vars[[v]], 1L)))
  }
  if (fz_coin(0.3)) body <- c(body, sprintf("%s <- %s", i, fz_expr(sub, "dbl", 1L)))
  c(sprintf("for (%s in %s) {", i, s), fz_indent(body), "}")
}

fz_try <- function(st, d) {
  body <- fz_block(fz_state(st), n = sample(1:2, 1), d = d)
  thrower <- fz_pick(c(
    sprintf("if (%s) stop(\"boom \", %s)", fz_cond(st, 1L), fz_expr(st, "int", 1L)),
    sprintf("if (%s) warning(\"careful\")", fz_cond(st, 1L)),
    "signalCondition(simpleCondition(\"sig\"))",
    sprintf("%s + \"a\"", fz_expr(st, "dbl", 1L)),
    "fz_undefined_var"
  ))
  r <- fz_fresh(st, "v")
  st$vars[[r]] <- "list"
  switch(fz_pick(1:3),
    c(
      sprintf("%s <- tryCatch({", r), fz_indent(c(body, thrower, "\"done\"")),
      "}, error = function(e) conditionMessage(e), warning = function(w) paste(\"W:\", conditionMessage(w)), finally = cat(\"finally\\n\"))"
    ),
    c(
      sprintf("%s <- withCallingHandlers({", r), fz_indent(c(body, thrower, "\"done\"")),
      "}, warning = function(w) { cat(\"caught\", conditionMessage(w), \"\\n\"); invokeRestart(\"muffleWarning\") })"
    ),
    c(sprintf("%s <- try({", r), fz_indent(c(body, thrower)), "}, silent = TRUE)", sprintf("%s <- inherits(%s, \"try-error\")", r, r))
  )
}

# ---- programs ----

fz_support_defs <- c(
  fz_setter = "`fzset<-` <- function(x, i, value) { x[[i]] <- value; x }",
  fz_setv = paste(
    "fz_setv <- function(nm, val) { for (fr in rev(sys.frames())) if (exists(nm, envir = fr, inherits = FALSE)) { assign(nm, val, envir = fr); return(invisible()) } }",
    "fz_getv <- function(nm) { for (fr in rev(sys.frames())) if (exists(nm, envir = fr, inherits = FALSE)) return(get(nm, envir = fr)); NA }",
    sep = "\n"
  ),
  fz_count = "fz_count <- 0L"
)

fz_s3_defs <- c(
  "fzgen <- function(x, ...) UseMethod(\"fzgen\")",
  "fzgen.default <- function(x, ...) { cat(\"fzgen default\\n\"); length(x) }",
  "fzgen.fzc <- function(x, ...) { cat(\"fzgen fzc\\n\"); r <- NextMethod(); r + 1L }",
  "print.fzc <- function(x, ...) { cat(\"<fzc\", length(unclass(x)), \">\\n\"); invisible(x) }",
  "length.fzc <- function(x) 7L",
  "Ops.fzc <- function(e1, e2) { cat(\"Ops.fzc\", .Generic, \"\\n\"); get(.Generic)(unclass(e1), if (missing(e2)) NULL else unclass(e2)) }"
)

fz_generate <- function(seed) {
  set.seed(seed)
  st <- fz_state()
  nparams <- sample(1:3, 1)
  pnames <- c("a", "b", "z")[seq_len(nparams)]
  ptypes <- vapply(pnames, function(p) fz_pick(fz_types), "")
  st$vars <- ptypes
  st$params <- pnames
  use_s3 <- fz_coin(0.3)
  body <- fz_block(st, n = sample(3:8, 1), d = 3L)
  if (use_s3) {
    v <- fz_var(st)
    if (!is.null(v)) body <- c(body, sprintf("print(list(fzgen(%s), fzgen(structure(list(%s), class = \"fzc\"))))", v, v))
  }
  res <- switch(fz_pick(1:6),
    {
      vs <- names(st$vars)
      vs <- vs[seq_len(min(length(vs), 4L))]
      sprintf("list(%s)", paste(vs, collapse = ", "))
    },
    fz_any(st, 2L),
    sprintf("invisible(%s)", fz_any(st, 1L)),
    sprintf("(%s <- %s)", fz_pick(names(st$vars)), fz_any(st, 1L)),
    sprintf("%s <- %s", fz_pick(names(st$vars)), fz_any(st, 1L)),
    sprintf("if (%s) %s", fz_cond(st, 1L), fz_any(st, 1L))
  )
  body <- c(body, res)
  # parameters: b may default to an expression using a
  formals <- vapply(seq_along(pnames), function(i) {
    if (i > 1L && fz_coin(0.4)) sprintf("%s = %s", pnames[i], fz_expr(st, ptypes[[i]], 1L)) else pnames[i]
  }, "")
  if (fz_coin(0.3)) formals <- c(formals, "...")
  main <- c(sprintf("f <- function(%s) {", paste(formals, collapse = ", ")), fz_indent(body), "}")

  used <- ls(st$defs)
  helpers <- unlist(fz_helper_defs[intersect(names(fz_helper_defs), c(used, "fz_id", "fz_second_first", "fz_lazy"))])
  if ("fz_forward" %in% used) helpers <- c(helpers, fz_helper_defs$fz_missing)
  support <- unname(fz_support_defs[intersect(names(fz_support_defs), c(used, "fz_count"))])
  defs <- c(support, unname(helpers), if (use_s3) fz_s3_defs, main)

  # steps: call f three times (every tier); maybe redefine a base function
  # in the program's environment, then call again; maybe call it hot
  st0 <- fz_state()
  args <- vapply(seq_along(pnames), function(i) {
    if (i > 1L && fz_coin(0.3)) NA_character_ else fz_pick(fz_literals[[ptypes[[i]]]])
  }, "")
  args <- args[!is.na(args)]
  call <- sprintf("f(%s)", paste(args, collapse = ", "))
  steps <- rep(call, 3)
  if (fz_coin(0.3)) {
    args2 <- vapply(seq_along(pnames), function(i) fz_pick(fz_literals[[fz_pick(fz_types)]]), "")
    steps <- c(steps, rep(sprintf("f(%s)", paste(args2, collapse = ", ")), 2))
  }
  if (fz_coin(0.35)) {
    # not the operators: GNU R's byte code inlines them without a guard,
    # so a redefinition after its JIT compiled f is ignored by GNU R too
    r <- fz_pick(fz_redefs[c(1:6, 8:10)])
    steps <- c(steps, r, call, call)
    if (fz_coin(0.5)) steps <- c(steps, sprintf("rm(%s)", sub(" <-.*", "", r)), call)
  }
  if (fz_coin(0.15)) {
    steps <- c(steps, sprintf("for (fz_i in 1:30) fz_r <- suppressWarnings(suppressMessages(capture.output(%s)))", call), "fz_r", call)
  }
  paste(c(sprintf("## seed %d", seed), "## defs", defs, "## steps", steps), collapse = "\n")
}
