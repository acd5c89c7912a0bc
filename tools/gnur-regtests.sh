#!/usr/bin/env bash
# gnur-regtests.sh — run GNU R's own regression tests (tests/*.R of the source
# package of exactly the installed R) once under stock R and once per mode with
# rir loaded through R_TESTS, and compare each rir output with the stock output
# of the same machine using tools::Rdiff.  See tools/README-regtests.md.
#
# usage: tools/gnur-regtests.sh [--mode default|opt0|chaos|both|all] [--jobs N]
#            [--files 'a b c'] [--workdir DIR] [--fresh] [--timeout SEC]
#            [--check-stock] [--list] [-h|--help]
#
# Exit status: 0 when every compared file passed, 1 when any failed,
#              2 on a usage / setup error.
set -euo pipefail

# ---------------------------------------------------------------------------
# The default file set.  Every file here exits 0 under stock R on Debian
# bookworm's R 4.2.2 and gives the same output (per tools::Rdiff) in two stock
# runs.  Left out on purpose (see README-regtests.md):
#   internet internet2 libcurl CRANtools  need the network / a CRAN mirror
#   reg-large        needs many GB of memory and ~35 min
#   reg-win          Windows only
#   test-system      needs the test-system2 binary that R's Makefile compiles
#   encodings        needs tools' Renctest C entry, absent in a normal build
#   reg-plot-latin1  needs a Latin-1 locale (fails under stock R here)
#   gct-foot         a footer fragment for gctorture runs, not a test
# ---------------------------------------------------------------------------
DEFAULT_FILES="
reg-packages reg-examples1 no-segfault utf8 reg-tests-1d reg-tests-1c
reg-tests-3 reg-examples3 reg-tests-1a reg-S4 eval-etc-2 reg-tests-1b
reg-tests-2 PCRE reg-examples2 demos demos2 eval-etc p-r-random-tests
d-p-q-r-tests d-p-q-r-tst-2 reg-S4-examples primitives reg-plot
arith-true datasets arith conditions reg-BLAS reg-IO p-qbeta-strict-tst
lapack isas-tests datetime2 lm-tests array-subset any-all complex
datetime eval-fns iconv iec60559 method-dispatch ok-errors print-tests
r-strict-tst reg-IO2 reg-translation simple-true structure timezone
utf8-regex
"
# Files that R's Makefile runs in the user's locale ($(R2)) rather than in
# LC_ALL=C; we pin that locale to C.UTF-8 so cached outputs stay comparable.
UTF8_FILES=" utf8 utf8-regex PCRE iconv reg-translation reg-plot-latin1 "
# Bump when the way tests are run changes (invalidates cached stock outputs).
RUNNER_VERSION=2

die() { echo "gnur-regtests: $*" >&2; exit 2; }
log() { echo "gnur-regtests: $*" >&2; }

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }

MODE=default JOBS=2 FILES="" FRESH=0 CHECK_STOCK=0 LIST=0
WORKDIR="${RIR_REGTEST_DIR:-$HOME/.cache/rir-regtests}"
TIMEOUT="${RIR_REGTEST_TIMEOUT:-1800}"
PKG="${RIR_REGTEST_PKG:-rir}"
while [ $# -gt 0 ]; do
    case "$1" in
        --mode) MODE="${2:?}"; shift 2 ;;
        --mode=*) MODE="${1#*=}"; shift ;;
        --jobs|-j) JOBS="${2:?}"; shift 2 ;;
        --jobs=*) JOBS="${1#*=}"; shift ;;
        --files) FILES="${2?}"; shift 2 ;;
        --files=*) FILES="${1#*=}"; shift ;;
        --workdir) WORKDIR="${2:?}"; shift 2 ;;
        --workdir=*) WORKDIR="${1#*=}"; shift ;;
        --timeout) TIMEOUT="${2:?}"; shift 2 ;;
        --timeout=*) TIMEOUT="${1#*=}"; shift ;;
        --fresh) FRESH=1; shift ;;
        --check-stock) CHECK_STOCK=1; shift ;;
        --list) LIST=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
done
case "$MODE" in
    default) MODES="default" ;;
    opt0) MODES="opt0" ;;
    chaos) MODES="chaos" ;;
    both) MODES="default opt0" ;;
    all) MODES="default opt0 chaos" ;;
    *) die "--mode must be default, opt0, chaos, both or all (got '$MODE')" ;;
esac
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer"
[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer"
# --check-stock: a second stock run compared with the first, no rir at all.
[ "$CHECK_STOCK" = 1 ] && MODES="none"
[ -n "$FILES" ] || FILES="$DEFAULT_FILES"
FILES=$(echo $FILES | tr ' ' '\n' | sed 's/\.R$//' | awk 'NF && !seen[$0]++')
if [ "$LIST" = 1 ]; then echo "$FILES"; exit 0; fi

command -v R >/dev/null || die "R not found on PATH"
command -v dpkg-query >/dev/null || die "dpkg-query not found (Debian only)"
RPKG_BIN=r-base-core
RVER=$(dpkg-query -W -f='${Version}' "$RPKG_BIN" 2>/dev/null) ||
    die "package $RPKG_BIN is not installed"
SRCPKG=$(dpkg-query -W -f='${source:Package}' "$RPKG_BIN")
[ -n "$SRCPKG" ] || SRCPKG=r-base
SRCVER=${RVER#*:}          # no epoch in file names
UPSTREAM=${SRCVER%-*}

mkdir -p "$WORKDIR"
WORKDIR=$(cd "$WORKDIR" && pwd)
VDIR="$WORKDIR/$RVER"
TESTS="$VDIR/tests"
DL="$VDIR/download"

SUDO=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null && SUDO="sudo" || SUDO="__nosudo"
fi
as_root() {
    [ "$SUDO" = "__nosudo" ] && die "need root for: $*"
    $SUDO "$@"
}

# --- obtaining the tests ----------------------------------------------------
src_available() {
    apt-cache showsrc "$SRCPKG" 2>/dev/null | grep -qx "Version: $RVER"
}

enable_deb_src() {
    src_available && return 0
    local list=/etc/apt/sources.list.d/rir-regtests-src
    if [ ! -e "$list.sources" ] && [ ! -e "$list.list" ]; then
        local f tmp
        tmp=$(mktemp)
        for f in /etc/apt/sources.list.d/*.sources; do
            [ -f "$f" ] && [ "$f" != "$list.sources" ] || continue
            # each stanza of a deb822 file, with its Types turned into deb-src
            sed -e 's/^Types:.*/Types: deb-src/' "$f" >> "$tmp"
            echo >> "$tmp"
        done
        if [ -s "$tmp" ]; then
            log "adding deb-src entries: $list.sources"
            as_root install -m 644 "$tmp" "$list.sources"
        else
            : > "$tmp"
            for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
                [ -f "$f" ] || continue
                sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >> "$tmp"
            done
            [ -s "$tmp" ] || { rm -f "$tmp"; die "no apt sources entry to copy"; }
            log "adding deb-src entries: $list.list"
            as_root install -m 644 "$tmp" "$list.list"
        fi
        rm -f "$tmp"
    fi
    log "apt-get update"
    as_root apt-get update -qq >&2 || die "apt-get update failed"
    src_available || die "apt has no source for $SRCPKG=$RVER (is it still in the archive?)"
}

obtain_tests() {
    [ -f "$TESTS/.complete" ] && return 0
    local orig
    orig=$(ls "$DL"/"${SRCPKG}_${UPSTREAM}".orig.tar.* 2>/dev/null | head -1 || true)
    if [ -z "$orig" ]; then
        enable_deb_src
        mkdir -p "$DL"
        log "downloading source of $SRCPKG=$RVER into $DL"
        # apt drops privileges to _apt, which must be able to write here
        (cd "$DL" && apt-get source -qq --download-only "$SRCPKG=$RVER" >&2) ||
            die "apt-get source failed"
        orig=$(ls "$DL"/"${SRCPKG}_${UPSTREAM}".orig.tar.* 2>/dev/null | head -1 || true)
        [ -n "$orig" ] || die "no orig tarball in $DL"
    fi
    log "unpacking tests/ from $(basename "$orig")"
    local ex="$VDIR/extract.$$"
    rm -rf "$ex" "$TESTS"; mkdir -p "$ex"
    tar -xf "$orig" -C "$ex" --wildcards '*/tests/*' --exclude '*/src/*' ||
        die "cannot unpack $orig"
    local top
    top=$(ls "$ex")
    [ -d "$ex/$top/tests" ] || die "no tests/ in $orig"
    # Debian patches that touch tests/ (none for 4.2.2-2, but be exact)
    local deb
    deb=$(ls "$DL"/"${SRCPKG}_${SRCVER}".debian.tar.* 2>/dev/null | head -1 || true)
    if [ -n "$deb" ]; then
        mkdir -p "$ex/deb" && tar -xf "$deb" -C "$ex/deb"
        if [ -f "$ex/deb/debian/patches/series" ]; then
            local p
            sed -e 's/#.*//' "$ex/deb/debian/patches/series" | awk 'NF{print $1}' |
            while read -r p; do
                if grep -qE '^\+\+\+ [^/]+/tests/' "$ex/deb/debian/patches/$p"; then
                    log "applying Debian patch $p (touches tests/)"
                    patch -s -p1 -d "$ex/$top" < "$ex/deb/debian/patches/$p" >&2 ||
                        die "patch $p failed"
                fi
            done
        fi
    fi
    mv "$ex/$top/tests" "$TESTS"
    rm -rf "$ex"
    # the .Rin files generate their .R, as R's Makefile does
    local rin
    for rin in "$TESTS"/*.Rin; do
        [ -f "$rin" ] || continue
        (cd "$TESTS" && LANGUAGE=en LC_ALL=C R_DEFAULT_PACKAGES= \
            R --vanilla --no-echo -f "$(basename "$rin")" >/dev/null 2>&1 &&
            echo >> "$(basename "${rin%.Rin}").R") ||
            log "warning: creating ${rin%.Rin}.R failed"
    done
    touch "$TESTS/.complete"
}

obtain_tests

# keep only files that exist
missing=""
for f in $FILES; do
    [ -f "$TESTS/$f.R" ] || missing="$missing $f"
done
[ -z "$missing" ] || die "no such test file(s) in $TESTS:$missing"

# --- the run environment ------------------------------------------------------
# Cached stock outputs are keyed by everything that can change them,
# including today's date: a few outputs print it (as.Date("2001", "%Y") is
# this month and day of 2001 in reg-tests-1a, Sys.Date() in reg-tests-1b).
DAY=$(date +%F)
SIG=$(printf '%s\n' "$RUNNER_VERSION" "$RVER" "$(R --version | head -1)" \
        "R_LIBS=${R_LIBS-}" "R_LIBS_USER=${R_LIBS_USER-}" \
        "R_LIBS_SITE=${R_LIBS_SITE-}" "TZ=${TZ-}" "DAY=$DAY" | md5sum | cut -c1-10)
STOCK="$VDIR/stock-$SIG"      # a/ and b/: two stock runs of every file
RESULTS="$VDIR/results"       # <mode>/ : the rir runs
SCRATCH="$VDIR/scratch"       # <mode>/<file>/ : a throwaway copy of tests/ per run
mkdir -p "$STOCK" "$RESULTS" "$SCRATCH"
exec 9>"$VDIR/.lock"
flock -n 9 || die "another gnur-regtests.sh run is using $VDIR"
# stock outputs of earlier days are never used again
find "$VDIR" -maxdepth 1 -name 'stock-*' -mtime +1 ! -path "$STOCK" -exec rm -rf {} + 2>/dev/null || true

# The startup file named by R_TESTS; R's system Rprofile sources it.  It is
# written per run next to the run's directory, so its path differs between
# runs only in the part that the comparison normalizes away.
STARTUP_TEMPLATE="$VDIR/startup-template.R"
cat > "$STARTUP_TEMPLATE" <<'EOF'
    ## Body of the R_TESTS startup file of tools/gnur-regtests.sh (inside
    ## local(), after pkg and statsFile are set).  Loads the package and, when
    ## R exits, appends "pid<TAB>name<TAB>value" lines from <pkg>::stats() to
    ## statsFile (never to the test's own output).  Child R processes that a
    ## test starts (R CMD INSTALL, ...) inherit R_TESTS: they load the package
    ## too if they can find it, and append their own lines.
    if (nzchar(Sys.getenv("RIR_REGTEST_CHILD"))) {
        if (!suppressWarnings(requireNamespace(pkg, quietly = TRUE))) return(invisible())
    } else {
        loadNamespace(pkg)
        Sys.setenv(RIR_REGTEST_CHILD = "1")
    }
    pid <- Sys.getpid()
    invisible(reg.finalizer(globalenv(), function(e) {
        tryCatch({
            ns <- asNamespace(pkg)
            if (exists("stats", envir = ns, mode = "function", inherits = FALSE)) {
                s <- as.list(get("stats", envir = ns)())
                s <- unlist(s[vapply(s, function(v) is.numeric(v) &&
                                         length(v) == 1L, NA)])
                if (length(s) && !is.null(names(s)))
                    cat(sprintf("%d\t%s\t%.17g\n", pid, names(s), s),
                        file = statsFile, sep = "", append = TRUE)
            }
        }, error = function(e) NULL, warning = function(w) NULL)
    }, onexit = TRUE))
EOF

if [ "$FRESH" = 1 ]; then
    for f in $FILES; do
        rm -f "$STOCK"/a/"$f".* "$STOCK"/b/"$f".*
        for m in $MODES; do rm -f "$RESULTS/$m/$f".*; done
    done
fi

# --- one run: MODE FILE  (MODE: stock-a, stock-b, default, opt0, chaos) --------
run_one() {
    local mode=$1 f=$2 out
    case "$mode" in
        stock-a) out="$STOCK/a" ;;
        stock-b) out="$STOCK/b" ;;
        *) out="$RESULTS/$mode" ;;
    esac
    mkdir -p "$out" "$SCRATCH/$mode"
    rm -f "$out/$f".{Rout,rc,time,stats,diff}
    local dir="$SCRATCH/$mode/$f"
    rm -rf "$dir"; mkdir -p "$dir"
    # each run gets its own copy: tests write files (Rplots.pdf, ...) into cwd
    cp -r "$TESTS/." "$dir/"
    local startup="$dir.startup.R"
    case "$mode" in
        stock-*) echo "## R_TESTS startup file of tools/gnur-regtests.sh: stock run" > "$startup" ;;
        *) { printf 'local({\n    pkg <- "%s"\n    statsFile <- "%s"\n' "$PKG" "$out/$f.stats"
             cat "$STARTUP_TEMPLATE"; echo "})"; } > "$startup" ;;
    esac
    # Same RNG state at the start of every run (after the package loaded), so
    # that tests drawing unseeded random numbers are comparable.
    echo "set.seed(20221110L)" >> "$startup"
    # what R's tests/Makefile and tools::testInstalledBasic set
    local -a envs=(LANGUAGE=en LC_COLLATE=C R_DEFAULT_PACKAGES= SRCDIR=.
                   R_TESTS="$startup")
    if [[ "$UTF8_FILES" == *" $f "* ]]; then
        envs+=(LC_ALL=C.UTF-8)
        [ "$f" = reg-translation ] && envs+=(LANGUAGE=fr)
    else
        envs+=(LC_ALL=C)
    fi
    # opt0: every closure optimized to native code at its first call;
    # chaos: optimized at its third, and about one speculation in ten fails
    [ "$mode" = opt0 ] && envs+=(RIR_OPT_THRESHOLD=0 RIR_NATIVE=1)
    [ "$mode" = chaos ] && envs+=(RIR_OPT_THRESHOLD=2 RIR_NATIVE=1 RIR_DEOPT_CHAOS=10)
    local t0 t1 rc=0
    t0=$(date +%s.%N)
    (cd "$dir" && env -u RIR_OPT_THRESHOLD -u RIR_NATIVE -u RIR_DEOPT_CHAOS -u RIR_REGTEST_CHILD "${envs[@]}" \
        timeout -k 30 "$TIMEOUT" R CMD BATCH --vanilla --no-timing \
        "$f.R" "$f.Rout" </dev/null >/dev/null 2>&1) || rc=$?
    t1=$(date +%s.%N)
    if [ -f "$dir/$f.Rout" ]; then cp "$dir/$f.Rout" "$out/$f.Rout"
    else : > "$out/$f.Rout"; fi
    awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f\n", b-a}' > "$out/$f.time"
    echo "$rc" > "$out/$f.rc"      # written last: marks the run complete
    rm -rf "$dir" "$startup"
    printf '  %-10s %-20s exit %-3s %6ss\n' "[$mode]" "$f" "$rc" "$(cat "$out/$f.time")" >&2
}
export -f run_one
export STOCK RESULTS SCRATCH TESTS STARTUP_TEMPLATE PKG TIMEOUT UTF8_FILES

# --- preflight: does the package load at all? --------------------------------------
if [ "$CHECK_STOCK" = 0 ]; then
    if ! perr=$(LANGUAGE=en LC_ALL=C R_DEFAULT_PACKAGES= R --vanilla --no-echo \
            -e "loadNamespace('$PKG')" 2>&1 </dev/null); then
        echo "$perr" >&2
        die "package '$PKG' does not load; install it first (R CMD INSTALL .)"
    fi
fi

# --- the job list: missing stock outputs, then every (mode, file) -------------------
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
n_stock=0
for f in $FILES; do
    # slowest first (by a previous stock time) packs the parallel slots better
    w=$(cat "$STOCK/a/$f.time" 2>/dev/null || echo 1000)
    for s in a b; do
        if [ ! -f "$STOCK/$s/$f.rc" ]; then
            # all a runs before all b runs: clock readings must differ between them
            ws=$w; [ "$s" = a ] && ws=$(awk -v w="$w" 'BEGIN{print w + 1e6}')
            echo "$ws stock-$s $f" >> "$tmpd/stock"; n_stock=$((n_stock+1))
        fi
    done
    if [ "$CHECK_STOCK" = 0 ]; then
        for m in $MODES; do echo "$w $m $f" >> "$tmpd/rir"; done
    fi
done
n_files=$(echo "$FILES" | wc -l)
log "R $RVER, $n_files files, modes: $MODES, jobs: $JOBS"
log "stock outputs: $STOCK ($n_stock stock runs to do, the rest cached)"
log "results: $RESULTS"
run_jobs() {    # xargs exits non-zero when a job does, which is not our verdict
    [ -s "$1" ] || return 0
    sort -k1,1gr -s "$1" | cut -d' ' -f2- |
        xargs -r -P "$JOBS" -n 2 bash -c 'run_one "$@"' _ || true
}
T0=$(date +%s); run_jobs "$tmpd/stock"
T1=$(date +%s); run_jobs "$tmpd/rir"
T2=$(date +%s)
log "stock runs: $((T1 - T0)) s, rir runs ($MODES): $((T2 - T1)) s"

# --- compare ---------------------------------------------------------------------
# All outputs are normalized first (addresses, temp-file names, the run's own
# directory, timings, clock times, rir's own environment variables).  Lines
# that still differ between the two stock runs are volatile (unseeded random
# numbers, pids, gc() counts, ...): at those positions the rir output is given
# the stock line, provided both have the same number of lines.  Then
# tools::Rdiff(rir, stock) decides.
cat > "$tmpd/compare.R" <<'EOF'
args <- commandArgs(TRUE)
scratch <- args[1]; A <- args[2]; B <- args[3]; R <- args[4]
files <- strsplit(args[5], " ")[[1]]; check <- args[6] == "1"
## namespaces that loading the package adds (they show up in loadedNamespaces())
extraNS <- if (!check) {
    before <- loadedNamespaces()
    tryCatch({ loadNamespace(args[7]); setdiff(loadedNamespaces(), before) },
             error = function(e) args[7])
} else character()
## text of some lines with [n] indices, white space and extraNS names removed
strip <- function(x) {
    x <- paste(x, collapse = " ")
    for (ns in extraNS) {    # "ns" in vectors, ns_1.0 / ns~1.0 in sessionInfo()
        x <- gsub(paste0('"', ns, '"'), "", x, fixed = TRUE, useBytes = TRUE)
        x <- gsub(paste0("(?<![A-Za-z0-9.])\\Q", ns, "\\E[_~][0-9][0-9.-]*,?"), "", x,
                  perl = TRUE, useBytes = TRUE)
    }
    gsub("\\[[0-9]+\\]|[[:space:]]", "", x, useBytes = TRUE)
}
norm <- function(path, f) {
    if (!file.exists(path)) return(character())
    x <- readLines(path, warn = FALSE)
    sub1 <- function(p, r, x) gsub(p, r, x, perl = TRUE, useBytes = TRUE)
    # rir's variables and R_TESTS in printed environments (no-segfault.R)
    x <- x[!grepl("^\\s*(RIR_[A-Za-z0-9_]*|R_TESTS)\\s", x, perl = TRUE, useBytes = TRUE)]
    x <- sub1(paste0("\\Q", scratch, "\\E/[^/]+/\\Q", f, "\\E"), "<TESTDIR>", x)
    x <- sub1("Rtmp[A-Za-z0-9]{6}", "RtmpXXXXXX", x)
    x <- sub1("\\b(file|pdf|Rex|Rf|dir)[0-9a-f]{6,}", "\\1XXXX", x)
    x <- sub1("\\b[0-9a-f]{8,}\\.(R|Rd|txt|tex|html|pdf|rds|rda)\\b", "XXXX.\\1", x)
    x <- sub1("0x[0-9a-f]{6,}", "0xADDR", x)
    x <- sub1("@[0-9a-f]{8,}", "@ADDR", x)
    x <- sub1("\\b\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?", "<DATETIME>", x)
    x <- sub1("\\b[A-Z][a-z]{2} [A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}\\b", "<DATETIME>", x)
    day <- as.Date(file.mtime(path))
    for (d in format(c(day, day - 1), "%Y-%m-%d")) x <- gsub(d, "<TODAY>", x, fixed = TRUE, useBytes = TRUE)
    # memory use: gc() tables and gcinfo(TRUE) reports
    g <- grepl("^\\s*(Ncells|Vcells)\\s", x, perl = TRUE, useBytes = TRUE) |
         grepl("^(Garbage collection \\d+ =|[0-9.]+ Mbytes of (cons|vectors))", x, perl = TRUE, useBytes = TRUE)
    x[g] <- sub1("[0-9.]+", "<N>", x[g])
    # no-segfault.R prints the whole environment as "NAME=value" strings
    if (f == "no-segfault")
        x <- x[!grepl("^SHLVL\\s", x, perl = TRUE, useBytes = TRUE) &
               !grepl('^\\s*\\[\\d+\\] "[A-Za-z_][A-Za-z0-9_.]*=.*"\\s*$', x, perl = TRUE, useBytes = TRUE)]
    # the numbers under a Cstack_info() or memory.profile() header
    types <- "NULL|symbol|pairlist|closure|environment|promise|language|special|builtin|char|logical|integer|double|complex|character|\\.\\.\\.|any|list|expression|bytecode|externalptr|weakref|raw|S4"
    h <- grep(paste0("^\\s*(size\\s+current\\s+direction\\s+eval_depth|((", types, ")\\s+){2,}(", types, "))\\s*$"),
              x, perl = TRUE, useBytes = TRUE)
    h <- h[h < length(x)]
    x[h + 1L] <- sub1("[0-9]+", "<N>", x[h + 1L])
    # the package's own DLL in getLoadedDLLs() and library.dynam() tables,
    # whose rows after it are numbered one more, and the task callback it
    # registers (no-segfault.R)
    for (ns in extraNS)
        x <- x[!grepl(paste0("^\\s*\\S+\\s+\\S*/\\Q", ns, "\\E\\.so\\s+(TRUE|FALSE)\\s*$"),
                      x, perl = TRUE, useBytes = TRUE)]
    x <- sub1("^\\d+(\\s+\\S+\\.so\\s+(TRUE|FALSE)\\s*)$", "<N>\\1", x)
    if (f == "no-segfault")
        x[x == sprintf('[1] "%s-eager"', args[7])] <- "character(0)"
    # lsof rows of the R process (reg-examples1: rir maps more files)
    x <- x[!grepl("^\\S+\\s+\\d+\\s+\\S+\\s+(cwd|rtd|txt|mem|DEL|\\d+[urw]u?)\\s", x, perl = TRUE, useBytes = TRUE)]
    # connections closed by the garbage collector: where depends on GC timing
    # (the call may take a line of its own: "In <call> :", or "Error in
    # <call> :" when options(warn = 2) converted the warning)
    cl <- grep("closing unused connection", x, fixed = TRUE, useBytes = TRUE)
    before <- x[pmax(cl - 1L, 1L)]
    inl <- (cl - 1L)[grepl("^In .* :\\s*$", before, perl = TRUE, useBytes = TRUE)]
    errl <- (cl - 1L)[grepl("^Error in .* :\\s*$", before, perl = TRUE, useBytes = TRUE)]
    first <- c(cl, inl)
    cl <- c(cl, inl, errl, (first - 1L)[x[pmax(first - 1L, 1L)] == "Warning message:"])
    if (length(cl)) x <- x[-cl]
    # a number printed by a top-level expression that times something, e.g.
    # reg-tests-1c's (t2 <- system.time(str(uf))[[1]]) / t1 (a speed ratio)
    # (the value is the first "[1] <number>" line before the next prompt)
    for (h in grep("^> .*system\\.time\\(", x, perl = TRUE, useBytes = TRUE)) {
        for (k in seq.int(h + 1L, length.out = 5L)) {
            if (k > length(x) || startsWith(x[k], "> ")) break
            if (grepl("^\\[1\\] [-+0-9.eE]+\\s*$", x[k], perl = TRUE, useBytes = TRUE)) {
                x[k] <- "[1] <T>"
                break
            }
        }
    }
    # the numbers under a system.time() header
    hdrTable <- "^\\s*user\\s+system\\s+elapsed\\s*$"
    h <- grep(hdrTable, x, perl = TRUE, useBytes = TRUE)
    h <- h[h < length(x)]
    x[h + 1L] <- sub1("[0-9.]+", "<T>", x[h + 1L])
    # the numbers under the element names of a proc_time printed as a plain
    # vector, e.g. r-strict-tst's print(ct3 <- system.time(...)[1]), whose
    # "user.self" is 0 or 0.001 depending on the machine's load
    pt <- "((user|sys)\\.(self|child)|elapsed)"
    hdrNames <- paste0("^\\s*", pt, "(\\s+", pt, ")*\\s*$")
    h <- grep(hdrNames, x, perl = TRUE, useBytes = TRUE)
    h <- h[h < length(x)]
    h <- h[grepl("^[-+0-9.eE\\s]+$", x[h + 1L], perl = TRUE, useBytes = TRUE)]
    x[h + 1L] <- sub1("[-+0-9.eE]+", "<T>", x[h + 1L])
    # d-p-q-r-tst-2 prints a timing only when it exceeds a bound, as
    # 'system.time:' and a proc_time: on a loaded machine or when a call
    # compiles inside the timing these three lines come and go
    st <- which(x == "system.time:")
    st <- st[st + 2L <= length(x)]
    st <- st[grepl(hdrTable, x[st + 1L], perl = TRUE, useBytes = TRUE) |
             grepl(hdrNames, x[st + 1L], perl = TRUE, useBytes = TRUE)]
    if (length(st)) x <- x[-c(st, st + 1L, st + 2L)]
    x
}
tmpR <- tempfile(fileext = ".Rout"); tmpA <- tempfile(fileext = ".Rout")
tmpB <- tempfile(fileext = ".Rout"); tmpD <- tempfile(fileext = ".txt")
## hunks of `diff -w x y`: list of (type, x lines, y lines)
hunks <- function(x, y) {
    d <- tryCatch(suppressWarnings(system2("diff", c("-w", x, y), stdout = TRUE)),
                  error = function(e) NULL)
    if (is.null(d)) return(NULL)  # (diff did not run: nothing is excused)
    h <- grep("^[0-9]+(,[0-9]+)?[acd][0-9]+(,[0-9]+)?$", d, value = TRUE)
    lapply(h, function(l) {
        m <- regmatches(l, regexec("^([0-9]+)(,([0-9]+))?([acd])([0-9]+)(,([0-9]+))?$", l))[[1]]
        rng <- function(a, b) { a <- as.integer(a); b <- if (nzchar(b)) as.integer(b) else a; a:b }
        list(type = m[5], x = if (m[5] == "a") integer() else rng(m[2], m[4]),
             y = if (m[5] == "d") integer() else rng(m[6], m[8]))
    })
}
for (f in files) {
    rout <- paste0(f, ".Rout")
    a <- norm(file.path(A, rout), f); b <- norm(file.path(B, rout), f)
    r <- if (check) b else norm(file.path(R, rout), f)
    writeLines(r, tmpR, useBytes = TRUE); writeLines(a, tmpA, useBytes = TRUE)
    writeLines(b, tmpB, useBytes = TRUE)
    ## volatile: lines of stock run a that stock run b changed
    vol <- sort(unique(unlist(lapply(hunks(tmpA, tmpB), `[[`, "x"))))
    st <- 99L
    # (Rdiff cats each differing line: into a file, as capture.output's text
    # connection grows its vector a line at a time, quadratic in the lines)
    d <- tryCatch({
        sink(tmpD)
        tryCatch(st <- tools::Rdiff(tmpR, tmpA), finally = sink())
        head(readLines(tmpD), 2000L)
    }, error = function(e) conditionMessage(e))
    same <- is.numeric(st) && st == 0
    masked <- 0L
    if (!check && !same) {
        ## excuse changes confined to volatile lines (same number of lines)
        hr <- hunks(tmpA, tmpR)
        ok <- vapply(hr, function(h)
            (h$type == "c" && all(h$x %in% vol)) ||
            (h$type == "c" && strip(a[h$x]) == strip(r[h$y])), NA)
        ## (no hunk at all: the outputs differ in white space only)
        if (!is.null(hr) && all(ok)) { same <- TRUE; masked <- length(hr) }
        else d <- c(d, "", "--- diff -u <stock a, normalized> <rir, normalized>",
                    "--- (hunks that only touch lines that differ between two stock runs do not count)",
                    tryCatch(suppressWarnings(system2("diff", c("-u", tmpA, tmpR), stdout = TRUE)),
                             error = function(e) character()))
    }
    if (!check) writeLines(if (same) character() else d,
                           file.path(R, paste0(f, ".diff")), useBytes = TRUE)
    raw <- if (check) tools::Rdiff(file.path(B, rout), file.path(A, rout)) else NA
    cat(f, if (same) 0L else 1L, length(vol),
        if (is.na(raw)) "-" else if (raw == 0) 0L else 1L, "\n")
}
EOF
if [ "$CHECK_STOCK" = 1 ]; then
    mkdir -p "$tmpd/none"
    cmp=$(LANGUAGE=en LC_ALL=C R_DEFAULT_PACKAGES= R --vanilla --no-echo -f "$tmpd/compare.R" --args \
            "$SCRATCH" "$STOCK/a" "$STOCK/b" "$tmpd/none" "$(echo $FILES)" 1 2>/dev/null) || true
    {
    echo
    echo "== stock run a vs stock run b, R $RVER =="
    printf '%-20s %5s %5s %-10s %-13s %s\n' file a b raw-same normalized-same volatile-lines
    for f in $FILES; do
        read -r _ nst nvol raw <<<"$(echo "$cmp" | awk -v f="$f" '$1==f')"
        printf '%-20s %5s %5s %-10s %-13s %s\n' "$f" \
            "$(cat "$STOCK/a/$f.rc" 2>/dev/null || echo '?')" \
            "$(cat "$STOCK/b/$f.rc" 2>/dev/null || echo '?')" \
            "$([ "$raw" = 0 ] && echo yes || echo no)" \
            "$([ "$nst" = 0 ] && echo yes || echo no)" "${nvol:-?}"
    done
    echo
    echo "stock outputs: $STOCK/{a,b}/<file>.Rout"
    } | tee "$RESULTS/stock-check.txt"
    exit 0
fi

fails=0 passes=0
summary="$RESULTS/summary.txt"
: > "$summary"
for m in $MODES; do
    res="$RESULTS/$m"
    mkdir -p "$res"
    compare_mode() {
        LANGUAGE=en LC_ALL=C R_DEFAULT_PACKAGES= R --vanilla --no-echo -f "$tmpd/compare.R" --args \
            "$SCRATCH" "$STOCK/a" "$STOCK/b" "$res" "$(echo $FILES)" 0 "$PKG" 2>/dev/null || true
    }
    cmp=$(compare_mode)
    # A file that differs gets one more rir run: a few outputs depend on
    # random temporary names (e.g. where a tempfile sorts in dir(".") in
    # reg-tests-1a), which the two stock runs can share by chance.
    retry=""
    for f in $FILES; do
        same=$(echo "$cmp" | awk -v f="$f" '$1==f{print $2}')
        [ "$same" = 0 ] || retry="$retry $f"
    done
    if [ -n "$retry" ]; then
        : > "$tmpd/retry"
        for f in $retry; do echo "2 $m $f" >> "$tmpd/retry"; done
        # the run crossed midnight: dates printed by the stock runs are stale,
        # so those files get fresh stock runs too (a before the rir run before b)
        if [ "$(date +%F)" != "$DAY" ]; then
            for f in $retry; do
                echo "3 stock-a $f" >> "$tmpd/retry"; echo "1 stock-b $f" >> "$tmpd/retry"
            done
        fi
        log "mode $m: running$retry once more"
        run_jobs "$tmpd/retry"
        cmp=$(compare_mode)
    fi
    {
        echo
        echo "== mode $m: $PKG vs stock R $RVER =="
        printf '%-20s %5s %5s %-9s %12s %12s %10s %7s  %s\n' \
            file stock rir identical rir_calls gnur_entries ast_evals secs result
    } >> "$summary"
    for f in $FILES; do
        src=$(cat "$STOCK/a/$f.rc" 2>/dev/null || echo "?")
        rrc=$(cat "$res/$f.rc" 2>/dev/null || echo "?")
        same=$(echo "$cmp" | awk -v f="$f" '$1==f{print $2}')
        [ "$same" = 0 ] && ident=yes || ident=no
        calls=- entries=- asts=-
        if [ -s "$res/$f.stats" ]; then
            asts=$(awk -F'\t' '$2=="ast_evals"{s+=$3;n++} END{if(n) printf "%.0f", s; else print "-"}' "$res/$f.stats")
            calls=$(awk -F'\t' '$2=="rir_calls"{s+=$3;n++} END{if(n) printf "%.0f", s; else print "-"}' "$res/$f.stats")
            entries=$(awk -F'\t' '$2=="gnur_entries"{s+=$3;n++} END{if(n) printf "%.0f", s; else print "-"}' "$res/$f.stats")
        fi
        if [ "$ident" = yes ] && [ "$src" = "$rrc" ] && [ "$src" != "?" ]; then
            result=PASS; passes=$((passes+1))
        else
            result=FAIL; fails=$((fails+1))
        fi
        note=""
        [ "$rrc" = 124 ] && note=" (timed out after ${TIMEOUT}s)"
        [ "$src" != 0 ] && note="$note (exits $src under stock R too)"
        printf '%-20s %5s %5s %-9s %12s %12s %10s %7s  %s\n' "$f" "$src" "$rrc" "$ident" \
            "$calls" "$entries" "$asts" "$(cat "$res/$f.time" 2>/dev/null || echo -)" \
            "$result$note" >> "$summary"
    done
done
{
    echo
    echo "outputs: $RESULTS/<mode>/<file>.Rout, differences: <file>.diff"
    echo "stock outputs: $STOCK/{a,b}/<file>.Rout"
    echo "$passes passed, $fails failed"
} >> "$summary"
cat "$summary"
[ "$fails" = 0 ]
