#!/usr/bin/env bash
# How good `nqueens estimate` is: its projection beside the real count's time, for each
# "N:METHOD" given (default: 16..20 by halves, 16..19 by backtracking), on THREADS threads,
# and whether the count's time lies inside the projection's 90% interval (the join's;
# backtracking's probes give none). SECONDS_OF_SAMPLE: the estimate's --seconds (4).
#
#   scripts/bench-estimate.sh [THREADS=2] [N:METHOD ...]
set -euo pipefail
threads=${1:-2}
shift || true
specs=("$@")
[ ${#specs[@]} -eq 0 ] && specs=(16:halves 17:halves 18:halves 19:halves 20:halves
                                  16:backtrack 17:backtrack 18:backtrack 19:backtrack)
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens
field() { sed "s/.*\"$1\":\([0-9.e+-]*\).*/\1/"; }

printf '%4s %10s %12s %22s %12s %8s %8s\n' N method "projected s" "90% interval" "counted s" error inside
for spec in "${specs[@]}"; do
    n=${spec%%:*}; method=${spec##*:}
    json=$("$nq" estimate "$n" --method "$method" --threads "$threads" --seconds "${SECONDS_OF_SAMPLE:-4}" --json)
    projected=$(field seconds <<< "$json")
    low=$(sed 's/.*"seconds_low":\([0-9.e+-]*\|null\).*/\1/' <<< "$json")
    high=$(sed 's/.*"seconds_high":\([0-9.e+-]*\|null\).*/\1/' <<< "$json")
    counted=$("$nq" count "$n" --method "$method" --threads "$threads" --json --quiet | field seconds)
    error=$(echo "($projected - $counted) / $counted * 100" | bc -l)
    inside=-
    if [ "$low" != null ]; then
        inside=$(echo "$low <= $counted && $counted <= $high" | bc -l | sed 's/1/yes/; s/0/NO/')
    fi
    printf '%4s %10s %12.2f %10s..%-10s %12.2f %+7.0f%% %8s\n' "$n" "$method" "$projected" \
        "$low" "$high" "$counted" "$error" "$inside"
done
