#!/usr/bin/env bash
# Times `nqueens count N` against the baseline counter (scripts/baseline/refq.c: bitmask
# backtracking, the mirror halving, OpenMP) in one run, alternating the two, and prints
# both medians and the ratio nqueens / refq (lower is better). Ratios from one run are
# what to compare: a shared host's speed moves from minute to minute, so an absolute time
# alone proves little.
#
#   scripts/bench-vs-baseline.sh [N=17] [PAIRS=3] [THREADS=2]
#
# Environment: METHOD (a --method for nqueens, default its own choice), BASELINE_SRC (another
# C source to build as the baseline, run as `refq N THREADS`), NQUEENS (a binary to time
# instead of building the project's).
set -euo pipefail
n=${1:-17}
pairs=${2:-3}
threads=${3:-2}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
baseline_src=${BASELINE_SRC:-$root/scripts/baseline/refq.c}
out=$root/bench-out
mkdir -p "$out"

[ -f "$baseline_src" ] || { echo "baseline source not found: $baseline_src" >&2; exit 2; }
gcc -O3 -march=native -fopenmp -o "$out/refq" "$baseline_src"
build_nqueens
args=(count "$n" --quiet --threads "$threads")
[ -n "${METHOD:-}" ] && args+=(--method "$METHOD")

seconds() { # runs a command, prints its wall time in seconds
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.3f\n", ns / 1e9 }'
}

expected=$("$nq" "${args[@]}" --json | sed 's/.*"total":\([0-9]*\).*/\1/')
got=$("$out/refq" "$n" "$threads" | sed -n 's/.*total=\([0-9]*\).*/\1/p')
[ "$expected" = "$got" ] || { echo "totals differ: nqueens $expected, refq $got" >&2; exit 1; }

: > "$out/nqueens.times"; : > "$out/refq.times"
for i in $(seq "$pairs"); do
    seconds "$nq" "${args[@]}" >> "$out/nqueens.times"
    seconds "$out/refq" "$n" "$threads" >> "$out/refq.times"
    echo "pair $i: nqueens $(tail -n1 "$out/nqueens.times") s, refq $(tail -n1 "$out/refq.times") s" >&2
done
nq_med=$(median < "$out/nqueens.times")
ref_med=$(median < "$out/refq.times")
printf '%s, %s, N = %s, threads = %s, pairs = %s, CPU: %s\n' "$(date -u +%Y-%m-%d)" \
    "$("$nq" --version | head -n 1)" "$n" "$threads" "$pairs" \
    "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf 'nqueens median %.3f s\nrefq    median %.3f s\nratio nqueens / refq = %.3f\n' \
    "$nq_med" "$ref_med" "$(awk -v a="$nq_med" -v b="$ref_med" 'BEGIN { print a / b }')"
