#!/usr/bin/env bash
# The large-board targets of `nqueens find`: the explicit construction at N = 10,000,000
# and min-conflicts at N = 1,000,000 and 10,000,000, each with its O(N) check. Prints the time `find`
# reports (search and check; output excluded), the whole command's wall time, and its peak
# resident memory (GNU time, where installed). Memory target for N = 10,000,000: the board
# kept as one u32 column per row (40 MB) plus the check's bits, streamed out: under 64 MB.
#
#   scripts/bench-find.sh [RUNS=3]
set -euo pipefail
runs=${1:-3}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens
for spec in "10000000 explicit" "1000000 min-conflicts" "10000000 min-conflicts"; do
    set -- $spec
    for i in $(seq "$runs"); do
        start=$(date +%s.%N)
        line=$("$nq" find "$1" --method "$2" --format summary)
        end=$(date +%s.%N)
        printf '%s (wall %.3f s)\n' "$line" "$(echo "$end - $start" | bc -l)"
    done
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "  peak memory %M KB (find $1 --method $2 -o file)" \
            "$nq" find "$1" --method "$2" -o "${TMPDIR:-/tmp}/nqueens-find-$$.txt" --force
        rm -f "${TMPDIR:-/tmp}/nqueens-find-$$.txt"
    fi
done
