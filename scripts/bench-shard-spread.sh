#!/usr/bin/env bash
# How alike the shards of one K are: COUNT shards of N spread evenly over 1..K, each
# counted on THREADS threads by the join, their seconds and peak memory, and the slowest
# against the median. The frontier issue's target: N = 24, K = 10,000, a spread of 20,
# slowest at most 2x the median.
#
#   scripts/bench-shard-spread.sh N K [COUNT=20] [THREADS=2]
set -euo pipefail
n=$1 k=$2 count=${3:-20} threads=${4:-2}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$nq" --version | head -1
printf '%8s %10s %8s\n' shard seconds "peak MB"
times=()
for i in $(seq 0 $((count - 1))); do
    shard=$((1 + i * k / count))
    /usr/bin/time -f '%M' -o "$out/time" "$nq" count "$n" --method halves --threads "$threads" \
        --shard "$shard/$k" --output "$out/shard.json" --force --quiet > /dev/null
    seconds=$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' "$out/shard.json")
    times+=("$seconds")
    printf '%8s %10s %8s\n' "$shard/$k" "$seconds" "$(( $(cat "$out/time") / 1024 ))"
    rm -f "$out/shard.json"
done
med=$(median "${times[*]}")
slowest=$(printf '%s\n' "${times[@]}" | sort -g | tail -1)
printf 'median %s s, slowest %s s: %.2fx the median\n' "$med" "$slowest" \
    "$(echo "$slowest / $med" | bc -l)"
