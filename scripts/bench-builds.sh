#!/usr/bin/env bash
# Two builds of nqueens timed against each other: both run the same command at the same
# time, one thread each on a core of its own, the one started first swapped every round,
# and each round's ratio A / B printed, then their median. On a shared host whose speed
# moves from minute to minute, runs at once see the same host; runs one after the other
# do not (on an Emerald Rapids Xeon in November 2026, ratios of alternating runs spread
# wider than the gains of 2 to 7% they were to measure). The totals of each round must agree, or the script stops.
#
#   scripts/bench-builds.sh A B [ROUNDS=4] -- ARGS...
#
# A and B are nqueens binaries (build one from another checkout with `cargo build
# --release` there); ARGS is the command both run, `--threads 1` and `--quiet` added, and
# `--output` for a shard. For example, a build against the one before it:
#
#   scripts/bench-builds.sh target/release/nqueens /tmp/nq-before 4 -- \
#       count 24 --method halves --shard 7/20000
set -euo pipefail
usage() { echo "usage: $0 A B [ROUNDS=4] -- ARGS..." >&2; exit 2; }
[ $# -ge 3 ] || usage
a=$1 b=$2
shift 2
rounds=4
if [ "$1" != -- ]; then rounds=$1; shift; fi
[ "${1:-}" = -- ] || usage
shift
[ $# -gt 0 ] || usage
for bin in "$a" "$b"; do
    [ -x "$bin" ] || { echo "$0: not an executable: $bin" >&2; exit 2; }
done
case $rounds in ''|*[!0-9]*|0) echo "$0: ROUNDS must be a whole number from 1: $rounds" >&2; exit 2 ;; esac
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
shard=false
for arg in "$@"; do [ "$arg" = --shard ] && shard=true; done

# run NAME BIN ARGS...: starts BIN in the background, its time, peak and output under $out/NAME.
run() {
    local name=$1 bin=$2 extra=()
    shift 2
    $shard && extra=(--output "$out/$name.json")
    /usr/bin/time -f '%e %M' -o "$out/$name.time" "$bin" "$@" --threads 1 --quiet --json \
        "${extra[@]}" > "$out/$name.out" 2>&1 &
}
# total NAME: the total the run reported.
total() {
    cat "$out/$1.out" "$out/$1.json" 2>/dev/null | grep -o '"total":[0-9]*' | head -1 | cut -d: -f2
}

echo "A: $("$a" --version)"
echo "B: $("$b" --version)"
printf '%6s %10s %10s %7s %9s %9s\n' round "A s" "B s" "A/B" "A MB" "B MB"
ratios=()
for round in $(seq 1 "$rounds"); do
    rm -f "$out"/*
    if [ $((round % 2)) = 1 ]; then
        run a "$a" "$@"; pid_a=$!; run b "$b" "$@"; pid_b=$!
    else
        run b "$b" "$@"; pid_b=$!; run a "$a" "$@"; pid_a=$!
    fi
    status=0
    wait "$pid_a" || status=$?
    wait "$pid_b" || status=$?
    if [ "$status" != 0 ]; then
        echo "$0: a run failed (exit $status):" >&2
        cat "$out/a.out" "$out/b.out" >&2
        exit 1
    fi
    if [ "$(total a)" != "$(total b)" ]; then
        echo "$0: the totals differ: A $(total a), B $(total b)" >&2
        exit 1
    fi
    read -r sa ma < "$out/a.time"
    read -r sb mb < "$out/b.time"
    # (A run under the clock's 0.01 s reads 0: no ratio.)
    ratio=$(awk -v a="$sa" -v b="$sb" 'BEGIN { if (b > 0) printf "%.4f", a / b; else print "nan" }')
    ratios+=("$ratio")
    printf '%6s %10s %10s %7.3f %9s %9s\n' "$round" "$sa" "$sb" "$ratio" $((ma / 1024)) $((mb / 1024))
done
printf 'median A/B %.3f over %s rounds (total %s both)\n' "$(median "${ratios[*]}")" "$rounds" "$(total a)"
