#!/bin/bash
# A campaign on two cores, in rounds, resumable across sessions:
#   tools/fuzz/rounds.sh LIB OUT BASE WORKER [START_ROUND]
# Worker W (0 or 1; run both, one per core) runs rounds k = W, W+2, ... below
# ROUNDS (30 by default); a round is 1,000 programs in each mode of MODES
# (default native2 threshold0 chaos), seeds BASE + k*1000 on, through
# campaign.sh (rir from library LIB, a clean clone's `make install LIB=...`
# of the commit under test; summary lines to OUT/summary.log). To go on
# after a stop: START_ROUND=<the worker's unfinished round>, with
# FIRST_MODES=<the modes that round still lacks> (only for that round).
set -eu
if [ $# -lt 4 ]; then
  sed -n '2,10p' "$0"
  exit 2
fi
lib=$1 out=$2 base=$3 w=$4
start=${5:-$w}
rounds=${ROUNDS:-30}
all=${MODES:-"default native2 threshold0 chaos"}
modes=${FIRST_MODES:-$all}
cd "$(dirname "$0")"
for ((k = start; k < rounds; k += 2)); do
  for m in $modes; do
    ./campaign.sh "$lib" "$out" "$m" $((base + k * 1000)) 1 1000
  done
  modes=$all
done
