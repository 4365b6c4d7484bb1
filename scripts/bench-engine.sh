#!/usr/bin/env bash
# The engine's own figures: parallel efficiency (time at 1 thread / time at 2 threads),
# search nodes against the mirror-halved tree, and peak memory.
#
#   scripts/bench-engine.sh [N=17] [RUNS=3]
set -euo pipefail
n=${1:-17}
runs=${2:-3}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens

field() { sed "s/.*\"$1\":\([0-9.]*\).*/\1/"; }

for t in 1 2; do
    for i in $(seq "$runs"); do "$nq" count "$n" --json --quiet --threads "$t" | field seconds; done \
        | median > "/tmp/nqueens-eff-$t"
done
t1=$(cat /tmp/nqueens-eff-1); t2=$(cat /tmp/nqueens-eff-2)
printf 'N = %s: median %.3f s at 1 thread, %.3f s at 2 threads, efficiency (t1 / t2) %.3f\n' \
    "$n" "$t1" "$t2" "$(echo "$t1 / $t2" | bc -l)"

# The full backtracking tree at N = 16 makes 1,141,190,302 placements; mirror halving half.
nodes16=$("$nq" count 16 --method backtrack --json --quiet | field nodes)
printf 'N = 16: %s nodes, %.3f of the mirror-halved tree (570,595,151)\n' \
    "$nodes16" "$(echo "$nodes16 / 570595151" | bc -l)"

if [ -x /usr/bin/time ]; then
    kb=$( { /usr/bin/time -f '%M' "$nq" count "$n" --quiet >/dev/null; } 2>&1 | tail -n1)
    printf 'N = %s: peak resident memory %.1f MB\n' "$n" "$(echo "$kb / 1024" | bc -l)"
else
    echo "peak memory: /usr/bin/time not found (Debian package 'time')"
fi
