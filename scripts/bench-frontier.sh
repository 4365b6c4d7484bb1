#!/usr/bin/env bash
# The frontier's figures for the join in one run: the start-up of small shards
# (bench-startup.sh), the growth from N to N + 1 sampled by shards (the counting seconds
# of the same shard numbers k/K at both sizes, alternating), and, when asked, a whole
# count's time and peak memory. The frontier issue's steps from N = 22 to 26, each by
# shards 7 and 29 of K, at most 6x to an odd board and 8x to an even one:
#
#   GROWTH="22:200:7,29 23:2000:7,29 24:20000:7,29 25:200000:7,29" ROUNDS=3 \
#       STARTUP=none scripts/bench-frontier.sh 2
#
# (each growth line then names its target and whether it is met; 24 minutes on a 2-core
# Emerald Rapids Xeon, 12 on a Granite Rapids). Older targets: growth N = 20 -> 21 at most 7.5x; the whole N = 21
# at most 8 minutes and 400 MB on 2 threads.
#
#   scripts/bench-frontier.sh [THREADS=2]
#
# Environment: GROWTH (triples "N:K:k,k,..", default "20:20:1,11 21:40:1,21"; "none" skips
# it), STARTUP (N:K specs for bench-startup.sh, default its own; "none" skips it), WHOLE
# (board sizes to count whole, default none), BACKTRACK (a size N: whole backtracking
# counts of N and N + 1, alternating N, N + 1, N, N + 1, N, and the growth of their
# medians; the issue's target on AVX2 is 19 at most 9.5x 18), KERNEL (a --kernel value,
# default the CPU's best), ROUNDS (runs of each growth shard, default 1: each shard's
# seconds are then the median of its runs, N and N + 1 alternating in every round; on a
# shared host one shard's time moves by 10 to 30% from one minute to the next).
set -euo pipefail
threads=${1:-2}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens
kernel=()
[ -n "${KERNEL:-}" ] && kernel=(--kernel "$KERNEL")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$nq" --version

if [ "${STARTUP:-}" != none ]; then
    echo "== start-up of one shard ($threads threads)"
    # shellcheck disable=SC2086
    bash "$root/scripts/bench-startup.sh" "$threads" ${STARTUP:-}
fi

# Counting seconds (the JSON's, preparation included) and peak MB of shard k/K of N.
shard() {
    /usr/bin/time -f '%M' -o "$out/time" "$nq" count "$1" --method halves --threads "$threads" \
        "${kernel[@]}" --shard "$3/$2" --output "$out/shard.json" --force --quiet > /dev/null
    printf '%s %s\n' "$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' "$out/shard.json")" \
        "$(( $(cat "$out/time") / 1024 ))"
    rm -f "$out/shard.json"
}

# The frontier issue's bound on the step to board `$1` (from N = 23 to 26: 6x to an odd
# board, 8x to an even one) and whether step `$2` meets it; "-" outside those boards.
step_target() {
    if [ "$1" -lt 23 ] || [ "$1" -gt 26 ]; then echo -; return; fi
    local most=$(( $1 % 2 ? 6 : 8 ))
    if [ "$(echo "$2 <= $most" | bc -l)" = 1 ]; then echo "at most ${most}x: met"
    else echo "at most ${most}x: NOT met"; fi
}

rounds=${ROUNDS:-1}
echo "== growth sampled by shards ($threads threads): the same shard numbers at N and N + 1" \
    "(each shard's median of $rounds runs)"
printf '%4s %5s %-10s %12s %12s %8s %10s  %s\n' N K shards "N s" "N + 1 s" growth "peak MB" \
    "target (frontier issue)"
growth=${GROWTH:-20:20:1,11 21:40:1,21}
[ "$growth" = none ] && growth=
for spec in $growth; do
    IFS=: read -r n k list <<< "$spec"
    small=0; large=0; peak=0
    for i in ${list//,/ }; do
        # Alternate the two sizes shard by shard, round by round.
        small_runs=; large_runs=
        for _ in $(seq "$rounds"); do
            read -r s _ < <(shard "$n" "$k" "$i")
            read -r l mb < <(shard $((n + 1)) "$k" "$i")
            small_runs="$small_runs $s"; large_runs="$large_runs $l"
            [ "$mb" -gt "$peak" ] && peak=$mb
        done
        s=$(median "$small_runs"); l=$(median "$large_runs")
        small=$(echo "$small + $s" | bc -l); large=$(echo "$large + $l" | bc -l)
    done
    step=$(echo "$large / $small" | bc -l)
    printf '%4s %5s %-10s %12.2f %12.2f %7.2fx %10s  %s\n' "$n" "$k" "$list" "$small" "$large" \
        "$step" "$peak" "$(step_target "$((n + 1))" "$step")"
done

for n in ${WHOLE:-}; do
    echo "== whole count of N = $n by halves ($threads threads)"
    /usr/bin/time -f '%e %M' -o "$out/time" "$nq" count "$n" --method halves --threads "$threads" \
        "${kernel[@]}" --quiet --json > "$out/count.json"
    read -r wall kb < "$out/time"
    printf 'N = %s: total %s, %s s wall, peak %s MB\n' "$n" \
        "$(grep -o '"total":[0-9]*' "$out/count.json" | cut -d: -f2)" "$wall" $((kb / 1024))
done

if [ -n "${BACKTRACK:-}" ]; then
    n=$BACKTRACK
    echo "== backtracking, whole counts of N = $n and $((n + 1)) ($threads threads)"
    declare -A runs=()
    for size in $n $((n + 1)) $n $((n + 1)) $n; do
        "$nq" count "$size" --method backtrack --threads "$threads" "${kernel[@]}" --quiet \
            --json > "$out/count.json"
        s=$(sed 's/.*"seconds":\([0-9.]*\).*/\1/' "$out/count.json")
        runs[$size]="${runs[$size]:-} $s"
    done
    small=$(median "${runs[$n]}"); large=$(median "${runs[$((n + 1))]}")
    printf 'N = %s: median %.2f s (runs:%s)\nN = %s: median %.2f s (runs:%s)\ngrowth %.2fx\n' \
        "$n" "$small" "${runs[$n]}" $((n + 1)) "$large" "${runs[$((n + 1))]}" \
        "$(echo "$large / $small" | bc -l)"
fi
