#!/usr/bin/env bash
# Start-up of one small shard by halves: wall time, the shard's own counting seconds, and
# peak memory, for each "N:K" given (default: 21:2000 22:20000 23:200000 25:2704156).
# Targets from the frontier issue: N = 23 at most 30 s and 1.5 GB, N = 22 at most 5 s,
# N = 25 at most 8 GB (its 2,704,156 sub-problems make shards of one each; a larger K is
# refused).
#
#   scripts/bench-startup.sh [THREADS=2] [N:K ...]
set -euo pipefail
threads=${1:-2}
shift || true
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(21:2000 22:20000 23:200000 25:2704156)
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

printf '%4s %9s %9s %10s %12s %10s\n' N K "wall s" "counting s" "sub-problems" "peak MB"
for spec in "${specs[@]}"; do
    n=${spec%%:*}; k=${spec##*:}
    /usr/bin/time -f '%e %M' -o "$out/time" "$nq" count "$n" --method halves --threads "$threads" \
        --shard "1/$k" --output "$out/shard.json" --force --quiet > /dev/null
    read -r wall kb < "$out/time"
    secs=$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' "$out/shard.json")
    subs=$(grep -o '\[[0-9]*,[0-9]*,[0-9]*\]' "$out/shard.json" | wc -l)
    printf '%4s %9s %9s %10.3f %12s %10.0f\n' "$n" "$k" "$wall" "$secs" "$subs" "$(echo "$kb / 1024" | bc -l)"
    rm -f "$out/shard.json"
done
