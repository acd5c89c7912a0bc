#!/bin/bash
# A long fuzz campaign in chunks, one commit's build throughout:
#   tools/fuzz/campaign.sh LIB OUT MODE FIRST_SEED CHUNKS [CHUNK]
# runs CHUNKS chunks of CHUNK programs (5000 by default) in mode MODE, seeds
# FIRST_SEED on, with rir from library LIB (install it once from a clean
# clone of the commit under test: `make install LIB=...`), comparing
# conditions by message and call (as CI gates). Each chunk's last
# line goes to OUT/summary.log as it finishes ("unfinished: ..." when the
# driver itself failed), so a campaign can stop and go
# on later from the next chunk's seed; failures are left in OUT/MODE/.
# Sum the summary with:
#   awk -F'[ ,:]+' '/^fuzz:/ {n[$5]+=$2; m[$5]+=$8; c[$5]+=$10}
#     END {for (k in n) print k, n[k], "programs", m[k], "mismatches", c[k], "crashes"}' OUT/summary.log
set -eu
if [ $# -lt 5 ]; then
  sed -n '2,13p' "$0"
  exit 2
fi
lib=$1 out=$2 mode=$3 seed=$4 chunks=$5 chunk=${6:-5000}
cd "$(dirname "$0")/../.."
mkdir -p "$out/$mode"
out=$(cd "$out" && pwd)
for ((k = 0; k < chunks; k++)); do
  s=$((seed + k * chunk))
  log="$out/$mode-$s.log"
  R_LIBS=$lib Rscript tools/fuzz/run.R --n "$chunk" --seed "$s" --mode "$mode" \
    --out "$out/$mode" > "$log" 2>&1 || true
  line=$(grep "^fuzz: $chunk programs, mode $mode, seed $s:" "$log" || true)
  echo "${line:-unfinished: chunk of mode $mode, seed $s (see $log)}" >> "$out/summary.log"
done
