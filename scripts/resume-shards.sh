#!/usr/bin/env bash
# Saved work is never refused: interrupts and resumes every shard of a checkpointed count,
# then merges them. Each of K shards of `count N --method backtrack --threads 1` is started
# with --checkpoint, sent SIGINT after DELAY seconds, resumed by the same command, and its
# result merged with the others; the merged total must be the published one.
#
# Usage: scripts/resume-shards.sh [N] [K] [DELAY] [ROUNDS]   (defaults 18 24 0.3 1)
#        NQUEENS=path/to/nqueens scripts/resume-shards.sh    (another build, e.g. an older one)
# Prints one line a round: how many resumes and merges were refused, the merge's status.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
n=${1:-18} k=${2:-24} delay=${3:-0.3} rounds=${4:-1}
[ -n "${NQUEENS:-}" ] || build_nqueens
bin=${NQUEENS:-$nq}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
    rm -f "$work"/*
    refused=0 early=0
    for i in $(seq "$k"); do
        args=(count "$n" --method backtrack --threads 1 --quiet --shard "$i/$k"
              --output "$work/s$i.json" --checkpoint "$work/c$i.json" --checkpoint-every 50ms)
        "$bin" "${args[@]}" >/dev/null 2>&1 &
        sleep "$delay"
        kill -INT $! 2>/dev/null || true
        first=0
        wait $! || first=$?
        # A shard that finished before the signal has its result already.
        [ "$first" -eq 0 ] && { early=$((early + 1)); continue; }
        status=0
        "$bin" "${args[@]}" >/dev/null 2>"$work/err" || status=$?
        if [ "$status" -ne 0 ]; then
            refused=$((refused + 1))
            echo "  shard $i/$k: resume exited $status: $(head -c 200 "$work/err")" >&2
        fi
    done
    status=0
    out=$("$bin" merge --json "$work"/s*.json 2>"$work/err") || status=$?
    total=$(printf '%s' "$out" | sed -n 's/.*"total":\([0-9]*\).*/\1/p')
    echo "round $round: $((k - early)) shards interrupted, $refused of their resumes refused; merge exit $status, total ${total:-none}$( [ "$status" -eq 0 ] || echo ": $(head -c 200 "$work/err")")"
done
