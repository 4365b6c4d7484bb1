#!/usr/bin/env bash
# The listing's speed on one thread and on every CPU, and that it is the same listing:
# `solve N --force` (default N = 16: 14,772,512 lines, 560 MB of text) and `--unique`,
# output to /dev/null, medians of RUNS runs alternating, peak memory, the speed-up, and
# the md5 of each listing (with --placed) on one thread and on all (they must agree).
#
#   scripts/bench-solve.sh [N=16] [RUNS=3]
set -euo pipefail
n=${1:-16}
runs=${2:-3}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens
cpus=$(nproc)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Seconds and peak KB of one listing to /dev/null.
timed() {
    /usr/bin/time -f '%e %M' -o "$out/time" "$nq" solve "$n" --force --quiet "$@" > /dev/null
    cat "$out/time"
}

for extra in "" "--unique"; do
    declare -A secs=() peak=()
    for _ in $(seq "$runs"); do
        for t in 1 "$cpus"; do
            # shellcheck disable=SC2086
            read -r s kb < <(timed --threads "$t" $extra)
            secs[$t]="${secs[$t]:-} $s"
            peak[$t]=$kb
        done
    done
    one=$(median "${secs[1]}")
    all=$(median "${secs[$cpus]}")
    printf 'solve %s --force%s: 1 thread %.2f s (%s MB), %s threads %.2f s (%s MB): %.2fx\n' \
        "$n" "${extra:+ $extra}" "$one" $((peak[1] / 1024)) "$cpus" "$all" $((peak[$cpus] / 1024)) \
        "$(echo "$one / $all" | bc -l)"
    # shellcheck disable=SC2086
    a=$("$nq" solve "$n" --force --quiet --placed --threads 1 $extra | md5sum | cut -c1-32)
    # shellcheck disable=SC2086
    b=$("$nq" solve "$n" --force --quiet --placed --threads "$cpus" $extra | md5sum | cut -c1-32)
    if [ "$a" = "$b" ]; then
        echo "  the same listing on 1 and $cpus threads (md5 $a)"
    else
        echo "  DIFFERENT listings on 1 and $cpus threads: $a / $b"
        exit 1
    fi
    unset secs peak
done
