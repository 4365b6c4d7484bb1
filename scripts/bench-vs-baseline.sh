#!/usr/bin/env bash
# Times `nqueens count N` against the baseline counter (../shared/baseline/refq.c: mirror
# halving, OpenMP) in one run, alternating the two, and prints both medians and the ratio
# nqueens / refq. Ratios from one run are what to compare: the machines are shared and
# noisy, so an absolute time alone proves little.
#
#   scripts/bench-vs-baseline.sh [N=17] [PAIRS=3] [THREADS=2]
set -euo pipefail
n=${1:-17}
pairs=${2:-3}
threads=${3:-2}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
baseline_src=${BASELINE_SRC:-$root/../shared/baseline/refq.c}
out=$root/bench-out
mkdir -p "$out"

[ -f "$baseline_src" ] || { echo "baseline source not found: $baseline_src (set BASELINE_SRC)" >&2; exit 2; }
gcc -O3 -march=native -fopenmp -o "$out/refq" "$baseline_src"
build_nqueens

seconds() { # runs a command, prints its wall time in seconds
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

expected=$("$out/refq" 3 1 >/dev/null; "$nq" count "$n" --json --quiet --threads "$threads" | sed 's/.*"total":\([0-9]*\).*/\1/')
got=$("$out/refq" "$n" "$threads")
[ "$expected" = "$got" ] || { echo "totals differ: nqueens $expected, refq $got" >&2; exit 1; }

: > "$out/nqueens.times"; : > "$out/refq.times"
for i in $(seq "$pairs"); do
    seconds "$nq" count "$n" --quiet --threads "$threads" >> "$out/nqueens.times"
    seconds "$out/refq" "$n" "$threads" >> "$out/refq.times"
    echo "pair $i: nqueens $(tail -n1 "$out/nqueens.times") s, refq $(tail -n1 "$out/refq.times") s" >&2
done
nq_med=$(median < "$out/nqueens.times")
ref_med=$(median < "$out/refq.times")
printf 'N = %s, threads = %s, pairs = %s, CPU: %s\n' "$n" "$threads" "$pairs" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf 'nqueens median %.3f s\nrefq    median %.3f s\nratio nqueens / refq = %.3f\n' \
    "$nq_med" "$ref_med" "$(echo "$nq_med / $ref_med" | bc -l)"
