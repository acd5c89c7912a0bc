# A small language implementation: a tokenizer (character by character), a
# recursive-descent parser producing a tree of lists, and a tree-walking
# interpreter with variables in an environment. The interpreted program sums
# squares, counts primes by trial division and computes a Fibonacci number;
# the results are checked against R.

program_text <- "
  i = 0; s = 0;
  while (i < n) { s = s + i * i; i = i + 1; }
  count = 0; k = 2;
  while (k < n) {
    d = 2; prime = 1;
    while (d * d <= k) {
      if (k % d == 0) { prime = 0; d = k; } else { d = d + 1; }
    }
    count = count + prime;
    k = k + 1;
  }
  a = 0; b = 1; j = 0;
  while (j < 30) { t = a + b; a = b; b = t; j = j + 1; }
  if (a == 832040 && !(b < a)) { ok = 1; } else { ok = 0; }
"

# --- tokenizer ---------------------------------------------------------------

tokenize <- function(text) {
  chars <- strsplit(text, "")[[1]]
  len <- length(chars)
  tokens <- vector("list", len)
  count <- 0
  pos <- 1
  add <- function(type, value) {
    count <<- count + 1
    tokens[[count]] <<- list(type = type, value = value)
  }
  while (pos <= len) {
    ch <- chars[pos]
    if (ch %in% c(" ", "\n", "\t")) {
      pos <- pos + 1
    } else if (grepl("[0-9]", ch)) {
      start <- pos
      while (pos <= len && grepl("[0-9.]", chars[pos])) pos <- pos + 1
      add("num", as.numeric(paste(chars[start:(pos - 1)], collapse = "")))
    } else if (grepl("[A-Za-z_]", ch)) {
      start <- pos
      while (pos <= len && grepl("[A-Za-z_0-9]", chars[pos])) pos <- pos + 1
      word <- paste(chars[start:(pos - 1)], collapse = "")
      add(if (word %in% c("while", "if", "else")) word else "id", word)
    } else {
      two <- if (pos < len) paste0(ch, chars[pos + 1]) else ""
      if (two %in% c("<=", ">=", "==", "!=", "&&", "||")) {
        add("op", two)
        pos <- pos + 2
      } else if (ch %in% c("+", "-", "*", "/", "%", "<", ">", "=", "!", "(", ")", "{", "}", ";")) {
        add("op", ch)
        pos <- pos + 1
      } else {
        stop("tokenize: unexpected character '", ch, "'")
      }
    }
  }
  add("eof", "")
  tokens[seq_len(count)]
}

# --- parser --------------------------------------------------------------------

parse_program <- function(tokens) {
  pos <- 1
  peek <- function() tokens[[pos]]
  advance <- function() {
    tok <- tokens[[pos]]
    pos <<- pos + 1
    tok
  }
  is_op <- function(value) {
    tok <- peek()
    tok$type == "op" && tok$value %in% value
  }
  expect <- function(value) {
    tok <- advance()
    if (tok$value != value) stop("parse: expected '", value, "' but found '", tok$value, "'")
    tok
  }
  block <- function() {
    expect("{")
    stmts <- list()
    while (!is_op("}")) stmts[[length(stmts) + 1]] <- statement()
    expect("}")
    list(type = "block", body = stmts)
  }
  statement <- function() {
    tok <- peek()
    if (tok$type == "while") {
      advance()
      expect("(")
      cond <- expression()
      expect(")")
      list(type = "while", cond = cond, body = block())
    } else if (tok$type == "if") {
      advance()
      expect("(")
      cond <- expression()
      expect(")")
      then <- block()
      otherwise <- NULL
      if (peek()$type == "else") {
        advance()
        otherwise <- block()
      }
      list(type = "if", cond = cond, then = then, otherwise = otherwise)
    } else if (tok$type == "id") {
      name <- advance()$value
      expect("=")
      value <- expression()
      expect(";")
      list(type = "assign", name = name, value = value)
    } else {
      stop("parse: unexpected token '", tok$value, "'")
    }
  }
  binary_level <- function(ops, next_level) {
    function() {
      left <- next_level()
      while (is_op(ops)) {
        op <- advance()$value
        left <- list(type = "binary", op = op, left = left, right = next_level())
      }
      left
    }
  }
  primary <- function() {
    tok <- advance()
    if (tok$type == "num") {
      list(type = "num", value = tok$value)
    } else if (tok$type == "id") {
      list(type = "var", name = tok$value)
    } else if (tok$type == "op" && tok$value == "(") {
      inner <- expression()
      expect(")")
      inner
    } else if (tok$type == "op" && tok$value %in% c("-", "!")) {
      list(type = "unary", op = tok$value, operand = primary())
    } else {
      stop("parse: unexpected token '", tok$value, "' in expression")
    }
  }
  multiplicative <- binary_level(c("*", "/", "%"), primary)
  additive <- binary_level(c("+", "-"), multiplicative)
  comparison <- binary_level(c("<", ">", "<=", ">=", "==", "!="), additive)
  conjunction <- binary_level("&&", comparison)
  expression <- binary_level("||", conjunction)

  stmts <- list()
  while (peek()$type != "eof") stmts[[length(stmts) + 1]] <- statement()
  list(type = "block", body = stmts)
}

# --- interpreter -------------------------------------------------------------

eval_node <- function(node, env) {
  switch(node$type,
    num = node$value,
    var = {
      value <- env[[node$name]]
      if (is.null(value)) stop("interpreter: undefined variable ", node$name)
      value
    },
    unary = {
      v <- eval_node(node$operand, env)
      if (node$op == "-") -v else as.numeric(v == 0)
    },
    binary = {
      if (node$op == "&&") {
        return(as.numeric(eval_node(node$left, env) != 0 && eval_node(node$right, env) != 0))
      }
      if (node$op == "||") {
        return(as.numeric(eval_node(node$left, env) != 0 || eval_node(node$right, env) != 0))
      }
      l <- eval_node(node$left, env)
      r <- eval_node(node$right, env)
      switch(node$op,
        "+" = l + r, "-" = l - r, "*" = l * r, "/" = l / r, "%" = l %% r,
        "<" = as.numeric(l < r), ">" = as.numeric(l > r),
        "<=" = as.numeric(l <= r), ">=" = as.numeric(l >= r),
        "==" = as.numeric(l == r), "!=" = as.numeric(l != r)
      )
    },
    assign = {
      env[[node$name]] <- eval_node(node$value, env)
      NULL
    },
    block = {
      for (stmt in node$body) eval_node(stmt, env)
      NULL
    },
    "while" = {
      while (eval_node(node$cond, env) != 0) eval_node(node$body, env)
      NULL
    },
    "if" = {
      if (eval_node(node$cond, env) != 0) {
        eval_node(node$then, env)
      } else if (!is.null(node$otherwise)) {
        eval_node(node$otherwise, env)
      }
      NULL
    },
    stop("interpreter: unknown node type ", node$type)
  )
}

run_program <- function(n) {
  ast <- NULL
  for (rep in 1:10) {
    tree <- parse_program(tokenize(program_text))
    if (!is.null(ast) && !identical(tree, ast)) stop("interpreter: parsing is not deterministic")
    ast <- tree
  }
  env <- new.env()
  env$n <- n
  eval_node(ast, env)
  env
}

bench <- list(
  run = function(n) {
    env <- run_program(n)
    i <- seq_len(n) - 1
    primes <- sum(vapply(seq_len(max(n - 1, 0))[-1], function(k) {
      all(k %% seq_len(floor(sqrt(k)))[-1] != 0)
    }, logical(1)))
    if (env$s != sum(i * i) || env$count != primes || env$a != 832040 || env$ok != 1) {
      stop("interpreter: wrong results s=", env$s, " count=", env$count, " a=", env$a)
    }
    invisible(env$s)
  },
  default_n = 4000,
  quick_n = 100
)
