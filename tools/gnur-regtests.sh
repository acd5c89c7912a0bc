#!/usr/bin/env bash
# gnur-regtests.sh — run GNU R's own regression tests (tests/*.R of the source
# package of exactly the installed R) once under stock R and once per mode with
# rir loaded through R_TESTS, and compare each rir output with the stock output
# of the same machine using tools::Rdiff.  See tools/README-regtests.md.
#
# usage: tools/gnur-regtests.sh [--mode default|opt0|both] [--jobs N]
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
RUNNER_VERSION=1

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
    both) MODES="default opt0" ;;
    *) die "--mode must be default, opt0 or both (got '$MODE')" ;;
esac
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || die "--jobs must be a positive integer"
[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a positive integer"
# --check-stock: a second stock run compared with the first, no rir at all.
[ "$CHECK_STOCK" = 1 ] && MODES="stock-again"
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
# Cached stock outputs are keyed by everything that can change them.
SIG=$(printf '%s\n' "$RUNNER_VERSION" "$RVER" "$(R --version | head -1)" \
        "R_LIBS=${R_LIBS-}" "R_LIBS_USER=${R_LIBS_USER-}" \
        "R_LIBS_SITE=${R_LIBS_SITE-}" "TZ=${TZ-}" | md5sum | cut -c1-10)
STOCK="$VDIR/stock-$SIG"
RESULTS="$VDIR/results"
SCRATCH="$VDIR/scratch"
mkdir -p "$STOCK" "$RESULTS" "$SCRATCH"

STARTUP_STOCK="$VDIR/startup-stock.R"
STARTUP_RIR="$VDIR/startup-rir.R"
cat > "$STARTUP_STOCK" <<'EOF'
## R_TESTS startup file for the stock runs of tools/gnur-regtests.sh (no-op)
EOF
cat > "$STARTUP_RIR" <<'EOF'
## R_TESTS startup file for the rir runs of tools/gnur-regtests.sh.
## Loads the package named by RIR_REGTEST_PKG (default rir) and, when R exits,
## appends "pid<TAB>name<TAB>value" lines from <pkg>::stats() to the file named
## by RIR_STATS_FILE (never to the test's own output).
local({
    pkg <- Sys.getenv("RIR_REGTEST_PKG", "rir")
    loadNamespace(pkg)
    statsFile <- Sys.getenv("RIR_STATS_FILE")
    if (nzchar(statsFile)) {
        pid <- Sys.getpid()
        invisible(reg.finalizer(globalenv(), function(e) {
            tryCatch({
                ns <- asNamespace(pkg)
                if (exists("stats", envir = ns, mode = "function",
                           inherits = FALSE)) {
                    s <- as.list(get("stats", envir = ns)())
                    s <- unlist(s[vapply(s, function(v) is.numeric(v) &&
                                             length(v) == 1L, NA)])
                    if (length(s) && !is.null(names(s)))
                        cat(sprintf("%d\t%s\t%.17g\n", pid, names(s), s),
                            file = statsFile, sep = "", append = TRUE)
                }
            }, error = function(e) NULL, warning = function(w) NULL)
        }, onexit = TRUE))
    }
})
EOF

if [ "$FRESH" = 1 ]; then
    for f in $FILES; do
        rm -f "$STOCK/$f".*
        for m in $MODES; do rm -f "$RESULTS/$m/$f".*; done
    done
fi

# --- one run: MODE FILE --------------------------------------------------------
run_one() {
    local mode=$1 f=$2 out
    if [ "$mode" = stock ]; then out="$STOCK"; else out="$RESULTS/$mode"; fi
    mkdir -p "$out"
    rm -f "$out/$f".{Rout,rc,time,stats}
    local dir="$SCRATCH/$mode/$f"
    rm -rf "$dir"; mkdir -p "$dir"
    # each run gets its own copy: tests write files (Rplots.pdf, ...) into cwd
    cp -r "$TESTS/." "$dir/"
    local -a envs=(LANGUAGE=en LC_COLLATE=C R_DEFAULT_PACKAGES= SRCDIR=.)
    if [[ "$UTF8_FILES" == *" $f "* ]]; then
        envs+=(LC_ALL=C.UTF-8)
        [ "$f" = reg-translation ] && envs+=(LANGUAGE=fr)
    else
        envs+=(LC_ALL=C)
    fi
    local -a unset=(-u RIR_STATS_FILE -u RIR_OPT_THRESHOLD -u RIR_REGTEST_PKG)
    case "$mode" in
        stock|stock-again) envs+=(R_TESTS="$STARTUP_STOCK") ;;
        default) envs+=(R_TESTS="$STARTUP_RIR" RIR_REGTEST_PKG="$PKG"
                        RIR_STATS_FILE="$out/$f.stats") ;;
        opt0) envs+=(R_TESTS="$STARTUP_RIR" RIR_REGTEST_PKG="$PKG"
                     RIR_STATS_FILE="$out/$f.stats" RIR_OPT_THRESHOLD=0) ;;
    esac
    local t0 t1 rc=0
    t0=$(date +%s.%N)
    (cd "$dir" && env "${unset[@]}" "${envs[@]}" \
        timeout -k 30 "$TIMEOUT" R CMD BATCH --vanilla --no-timing \
        "$f.R" "$f.Rout" </dev/null >/dev/null 2>&1) || rc=$?
    t1=$(date +%s.%N)
    if [ -f "$dir/$f.Rout" ]; then cp "$dir/$f.Rout" "$out/$f.Rout"
    else : > "$out/$f.Rout"; fi
    awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f\n", b-a}' > "$out/$f.time"
    echo "$rc" > "$out/$f.rc"      # written last: marks the run complete
    rm -rf "$dir"
    printf '  %-12s %-20s exit %-3s %6ss\n' "[$mode]" "$f" "$rc" "$(cat "$out/$f.time")" >&2
}
export -f run_one
export STOCK RESULTS SCRATCH TESTS STARTUP_STOCK STARTUP_RIR PKG TIMEOUT UTF8_FILES

# --- preflight: does the package load at all? --------------------------------------
if [ "$CHECK_STOCK" = 0 ]; then
    if ! perr=$(LANGUAGE=en LC_ALL=C R_DEFAULT_PACKAGES= R --vanilla --no-echo \
            -e "loadNamespace('$PKG')" 2>&1 </dev/null); then
        echo "$perr" >&2
        die "package '$PKG' does not load; install it first (R CMD INSTALL .)"
    fi
fi

# --- the job list: missing stock outputs, then every (mode, file) ---------------------
jobs_file=$(mktemp)
trap 'rm -f "$jobs_file" "$jobs_file.sorted"' EXIT
n_stock=0
for f in $FILES; do
    # slowest first (by a previous stock time) packs the parallel slots better
    w=$(cat "$STOCK/$f.time" 2>/dev/null || echo 1000)
    if [ ! -f "$STOCK/$f.rc" ]; then echo "$w stock $f" >> "$jobs_file"; n_stock=$((n_stock+1)); fi
    for m in $MODES; do echo "$w $m $f" >> "$jobs_file"; done
done
sort -k1,1gr -s "$jobs_file" | cut -d' ' -f2- > "$jobs_file.sorted"
n_files=$(echo "$FILES" | wc -l)
log "R $RVER, $n_files files, modes: $MODES, jobs: $JOBS"
log "stock outputs: $STOCK ($n_stock to run, the rest cached)"
log "results: $RESULTS"
T_START=$(date +%s)
# stock runs go first so later comparisons never wait on a missing baseline;
# xargs exits non-zero when a job does, which is not our verdict
grep '^stock ' "$jobs_file.sorted" | xargs -r -P "$JOBS" -n 2 bash -c 'run_one "$@"' _ || true
T_STOCK=$(date +%s)
grep -v '^stock ' "$jobs_file.sorted" | xargs -r -P "$JOBS" -n 2 bash -c 'run_one "$@"' _ || true
T_END=$(date +%s)
log "stock runs: $((T_STOCK - T_START)) s, $MODES runs: $((T_END - T_STOCK)) s"

# --- compare: tools::Rdiff(rir output, stock output), all in one R process ---------------
cmp_script=$(mktemp --suffix=.R)
trap 'rm -f "$jobs_file" "$jobs_file.sorted" "$cmp_script"' EXIT
cat > "$cmp_script" <<'EOF'
args <- commandArgs(TRUE)
stock <- args[1]; res <- args[2]; files <- strsplit(args[3], " ")[[1]]
for (f in files) {
    a <- file.path(res, paste0(f, ".Rout")); b <- file.path(stock, paste0(f, ".Rout"))
    st <- 99L
    d <- tryCatch(capture.output(st <- tools::Rdiff(a, b)),
                  error = function(e) conditionMessage(e))
    writeLines(d, file.path(res, paste0(f, ".diff")))
    cat(f, " ", if (is.numeric(st) && st == 0) 0L else 1L, "\n", sep = "")
}
EOF

fails=0 passes=0
table_out=$(mktemp)
for m in $MODES; do
    res="$RESULTS/$m"
    cmp=$(LANGUAGE=en LC_ALL=C R --vanilla --no-echo -f "$cmp_script" \
            --args "$STOCK" "$res" "$(echo $FILES)" 2>/dev/null) || true
    {
    echo
    echo "== mode $m: $PKG vs stock R $RVER =="
    printf '%-20s %6s %6s %-9s %12s %12s %7s  %s\n' \
        file stock "$m" identical rir_calls gnur_entries secs result
    for f in $FILES; do
        src=$(cat "$STOCK/$f.rc" 2>/dev/null || echo "?")
        rrc=$(cat "$res/$f.rc" 2>/dev/null || echo "?")
        same=$(echo "$cmp" | awk -v f="$f" '$1==f{print $2}')
        [ "$same" = 0 ] && ident=yes || ident=no
        calls=- entries=-
        if [ -s "$res/$f.stats" ]; then
            calls=$(awk -F'\t' '$2=="rir_calls"{s+=$3;n++} END{if(n) printf "%.0f", s; else print "-"}' "$res/$f.stats")
            entries=$(awk -F'\t' '$2=="gnur_entries"{s+=$3;n++} END{if(n) printf "%.0f", s; else print "-"}' "$res/$f.stats")
        fi
        if [ "$ident" = yes ] && [ "$src" = "$rrc" ] && [ "$src" != "?" ]; then
            result=PASS; passes=$((passes+1))
        else
            result=FAIL; fails=$((fails+1))
        fi
        note=""
        [ "$src" != 0 ] && note=" (exits $src under stock R too)"
        printf '%-20s %6s %6s %-9s %12s %12s %7s  %s\n' "$f" "$src" "$rrc" "$ident" \
            "$calls" "$entries" "$(cat "$res/$f.time" 2>/dev/null || echo -)" "$result$note"
    done
    } | tee -a "$table_out"
done
{
    echo
    echo "outputs: $RESULTS/<mode>/<file>.Rout, differences: <file>.diff, stock: $STOCK"
    echo "$passes passed, $fails failed"
} | tee -a "$table_out"
cp "$table_out" "$RESULTS/summary.txt" 2>/dev/null || true
rm -f "$table_out"
[ "$fails" = 0 ]
