#!/usr/bin/env bash
# Whether `estimate`'s "memory at most" holds: for each board, method and thread count,
# the estimate's figure beside the peak resident memory of the real count (GNU time's
# %M), and their ratio. Fails if a peak passes its bound, or (from N = 18, where the
# bound is more than the program's own few MB) if a bound is more than 1.5x its peak.
#
#   scripts/check-memory-bound.sh [N...]        # default: 12 to 22
#
# Backtracking builds its whole plan, and the tallies of its sub-problems, before its
# first second: from N = STOP_FROM (21) it is stopped after STOP_AFTER (30) seconds, its
# peak already reached (the table says "stopped"). The join builds its tables as it
# goes: it always runs whole. NQUEENS names the binary; METHODS and THREADS the columns.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
if [ -n "${NQUEENS:-}" ]; then nq=$NQUEENS; else build_nqueens; fi
[ -x /usr/bin/time ] || { echo "check-memory-bound: needs GNU time (/usr/bin/time)" >&2; exit 2; }
read -r -a methods <<< "${METHODS:-backtrack halves}"
read -r -a thread_counts <<< "${THREADS:-1 2}"
stop_from=${STOP_FROM:-21}
stop_after=${STOP_AFTER:-30}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(12 13 14 15 16 17 18 19 20 21 22)
echo "# $("$nq" --version), $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf 'N\tmethod\tthreads\tsub-problems\tbound_MB\tpeak_MB\tbound/peak\trun\n'
failed=0
for n in "${sizes[@]}"; do
    for method in "${methods[@]}"; do
        for threads in "${thread_counts[@]}"; do
            json=$("$nq" estimate "$n" --method "$method" --threads "$threads" --seconds 0.5 --json --quiet)
            read -r bound subproblems < <(echo "$json" | python3 -c \
                'import json, sys; e = json.load(sys.stdin); print(e["memory_bytes"], e["subproblems"])')
            run=whole
            limit=()
            if [ "$method" = backtrack ] && [ "$n" -ge "$stop_from" ]; then
                run="stopped after ${stop_after} s"
                limit=(timeout -s INT "$stop_after")
            fi
            # A stopped run exits 130 (124 from timeout); its peak stands.
            peak_kb=$({ /usr/bin/time -f '%M' "${limit[@]}" "$nq" count "$n" --method "$method" \
                --threads "$threads" --quiet > /dev/null || true; } 2>&1 | tail -1)
            peak=$((peak_kb * 1024))
            ratio=$(echo "$bound / $peak" | bc -l)
            verdict=""
            if [ "$peak" -gt "$bound" ]; then
                verdict="  PEAK PASSES THE BOUND"
                failed=1
            elif [ "$n" -ge 18 ] && [ "$(echo "$ratio > 1.5" | bc -l)" = 1 ]; then
                verdict="  BOUND MORE THAN 1.5x THE PEAK"
                failed=1
            fi
            printf '%s\t%s\t%s\t%s\t%.1f\t%.1f\t%.2f\t%s%s\n' "$n" "$method" "$threads" \
                "$subproblems" "$(echo "$bound / 1048576" | bc -l)" \
                "$(echo "$peak / 1048576" | bc -l)" "$ratio" "$run" "$verdict"
        done
    done
done
exit "$failed"
