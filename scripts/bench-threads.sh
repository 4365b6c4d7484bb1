#!/usr/bin/env bash
# What oversubscription costs: the wall time and peak memory of a small count at thread
# counts up to the most the command line accepts here (128 per CPU, at most 1,024). The
# bound is met when every accepted count stays under a second.
#
#   scripts/bench-threads.sh [N=8] [RUNS=3]
set -euo pipefail
n=${1:-8}
runs=${2:-3}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens
cpus=$(nproc)
max=$((128 * cpus)); [ "$max" -gt 1024 ] && max=1024

echo "count $n on $cpus CPUs; the most threads accepted here: $max"
printf '%8s %12s %12s\n' threads "median s" "peak MB"
for t in 1 "$cpus" 64 $((max / 2)) "$max"; do
    [ "$t" -gt "$max" ] && continue
    for i in $(seq "$runs"); do
        /usr/bin/time -f '%e %M' "$nq" count "$n" --threads "$t" --quiet 2>&1 >/dev/null | tail -1
    done > /tmp/nqueens-threads
    s=$(cut -d' ' -f1 /tmp/nqueens-threads | median)
    kb=$(cut -d' ' -f2 /tmp/nqueens-threads | median)
    printf '%8s %12s %12.0f\n' "$t" "$s" "$(echo "$kb / 1024" | bc -l)"
done
if "$nq" count "$n" --threads $((max + 1)) --quiet 2>/tmp/nqueens-threads-err >/dev/null; then
    echo "$((max + 1)) threads were accepted: the bound is not enforced" >&2; exit 1
fi
echo "refused past the bound: $(cat /tmp/nqueens-threads-err)"
