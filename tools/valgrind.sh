#!/bin/bash
# Runs the gctorture snippets (tools/valgrind-snippets.R) under valgrind's
# memcheck with every closure optimized to native code at its first call
# (RIR_OPT_THRESHOLD=0 RIR_NATIVE=1, or the mode given), and reports the
# errors memcheck finds in rir's code.
#   R_LIBS=LIB tools/valgrind.sh [LOG] [ENV...]
# e.g. tools/valgrind.sh vg.log RIR_OPT_THRESHOLD=2 RIR_DEOPT_CHAOS=3
# Exit status 1 when the snippets differ from GNU R or memcheck reports an
# error with a frame in rir.so, rirllvm.so or in JIT-compiled code (shown as ???).
set -u
log=${1:-valgrind.log}
shift || true
mode=("$@")
[ ${#mode[@]} -eq 0 ] && mode=(RIR_OPT_THRESHOLD=0 RIR_NATIVE=1)
cd "$(dirname "$0")/.."
env "${mode[@]}" R -d "valgrind --tool=memcheck --error-limit=no --num-callers=30 --log-file=$log" \
  --vanilla --slave -f tools/valgrind-snippets.R > "$log.out" 2>&1
status=$?
tail -1 "$log.out"
grep "ERROR SUMMARY" "$log" | tail -1
ours=$(awk '/^==[0-9]+== [A-Z].*(Invalid|uninitialised|Mismatched|overlap|Conditional)/{e=1; s=$0; next}
  e && /rir(llvm)?\.so|\?\?\?/ {print s; e=0} /^==[0-9]+== $/{e=0}' "$log" | sort | uniq -c)
if [ -n "$ours" ]; then
  echo "memcheck errors in rir's code:"
  echo "$ours"
  exit 1
fi
[ $status -eq 0 ] || { echo "the snippets failed (see $log.out)"; exit 1; }
echo "no memcheck error in rir's code"
