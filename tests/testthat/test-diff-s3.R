# Differential tests for UseMethod() as rir executes it (src/bc/s3_dispatch.cpp):
# dispatch object, class, method lookup, the method's frame and context.

expect_all_same(list(
  "s3: class, inheritance and default" = "
    gen <- function(x, ...) UseMethod('gen')
    gen.a <- function(x, ...) 'a'
    gen.b <- function(x, ...) c('b', NextMethod())
    gen.default <- function(x, ...) 'default'
    list(gen(structure(1, class = 'a')), gen(structure(1, class = c('b', 'a'))),
         gen(structure(1, class = c('z', 'b'))), gen(1), gen(NULL))",
  "s3: implicit classes" = "
    kind <- function(x) UseMethod('kind')
    kind.integer <- function(x) 'integer'
    kind.numeric <- function(x) 'numeric'
    kind.matrix <- function(x) c('matrix', NextMethod())
    kind.function <- function(x) 'function'
    kind.default <- function(x) class(x)
    list(kind(1L), kind(2.5), kind(matrix(1:4, 2)), kind(sum), kind(function() 1),
         kind('s'), kind(list()), kind(TRUE))",
  "s3: the S3 variables of the method" = "
    gen <- function(x, ...) UseMethod('gen')
    gen.b <- function(x, ...) list(.Generic, .Class, .Method, .Group,
      identical(.GenericCallEnv, parent.frame()), environmentName(.GenericDefEnv))
    f <- function() gen(structure(1, class = c('a', 'b')))
    f()",
  "s3: locals of the generic reach the method, formals do not" = "
    gen <- function(x, y = 2) { helper <- 10; y <- 5; UseMethod('gen') }
    gen.foo <- function(x, y = 3) c(helper, y, exists('helper', inherits = FALSE))
    gen(structure(1, class = 'foo'))",
  "s3: statements after UseMethod do not run; on.exit does" = "
    gen <- function(x) { on.exit(cat('exit\\n')); UseMethod('gen'); cat('not here\\n'); 99 }
    gen.default <- function(x) x * 2
    gen(21)",
  "s3: the object is evaluated once" = "
    gen <- function(x) UseMethod('gen')
    gen.default <- function(x) x + x
    f <- function() gen({ cat('evaluated\\n'); 4 })
    f()",
  "s3: explicit dispatch object" = "
    gen <- function(x, y) UseMethod('gen', y)
    gen.character <- function(x, y) paste('chr', x, y)
    gen.default <- function(x, y) 'default'
    list(gen(1, 'b'), gen('a', 2))",
  "s3: dispatch argument by name, partial name and position" = "
    gen <- function(object, ...) UseMethod('gen')
    gen.foo <- function(object, ...) 'foo'
    gen.default <- function(object, ...) 'default'
    o <- structure(1, class = 'foo')
    list(gen(object = o), gen(1, object = o), gen(obj = o), gen(2, o))",
  "s3: dispatch argument matched twice (GNU R's error)" = "
    gen <- function(object, ...) UseMethod('gen')
    gen.default <- function(object, ...) 'default'
    gen(objx = 1, obj = 2, object = 3, object = 4)",
  "s3: no applicable method" = "
    gen <- function(x) UseMethod('gen')
    gen.foo <- function(x) 1
    gen(structure(1, class = c('p', 'q')))",
  "s3: sys.call, match.call, sys.function and parent.frame in the method" = "
    gen <- function(x, ...) UseMethod('gen')
    gen.foo <- function(x, ...) list(sys.call(), match.call(), deparse(body(sys.function())),
      identical(parent.frame(), globalenv()), nargs())
    gen(structure(1, class = 'foo'), extra = 2)",
  "s3: method found from the caller's environment and the methods table" = "
    gen <- function(x) UseMethod('gen')
    f <- function(v) { gen.local <- function(x) 'local method'; gen(v) }
    e <- new.env()
    registerS3method('gen', 'reg', function(x) 'registered', envir = environment(gen))
    list(f(structure(1, class = 'local')), gen(structure(1, class = 'reg')))",
  "s3: visibility of the method's value" = "
    gen <- function(x) UseMethod('gen')
    gen.default <- function(x) invisible(x)
    gen(3)",
  "s3: primitive method and base generics" = "
    gen <- function(x) UseMethod('gen')
    gen.default <- length
    list(gen(1:5), rev(1:4), rev(list(1, 'a')), unique(c(2, 1, 2)), t(matrix(1:4, 2)))",
  "s3: generic called through lapply" = "
    gen <- function(x) UseMethod('gen')
    gen.foo <- function(x) 'foo'
    gen.default <- function(x) 'other'
    lapply(list(structure(1, class = 'foo'), 2), gen)",
  "s3: UseMethod outside a function body" = "
    f <- function(x) g(UseMethod('f'))
    g <- function(a) a
    f(1)",
  "s3: error inside the method" = "
    gen <- function(x) UseMethod('gen')
    gen.default <- function(x) stop('bad ', x)
    tryCatch(gen(7), error = function(e) list(conditionMessage(e), deparse(conditionCall(e))))",
  "s3: recursion through generics" = "
    depth <- function(x) UseMethod('depth')
    depth.list <- function(x) if (length(x)) 1 + max(vapply(x, depth, 0)) else 1
    depth.default <- function(x) 0
    depth(list(1, list(2, list(3)), list()))"
))
