#!/usr/bin/env bash
# How good `nqueens estimate` is: its projection beside the real count's time, for each
# "N:METHOD" given (default: 16..20 by halves, 16..19 by backtracking), on THREADS threads.
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

printf '%4s %10s %12s %12s %8s\n' N method "projected s" "counted s" error
for spec in "${specs[@]}"; do
    n=${spec%%:*}; method=${spec##*:}
    projected=$("$nq" estimate "$n" --method "$method" --threads "$threads" --json | field seconds)
    counted=$("$nq" count "$n" --method "$method" --threads "$threads" --json --quiet | field seconds)
    error=$(echo "($projected - $counted) / $counted * 100" | bc -l)
    printf '%4s %10s %12.2f %12.2f %+7.0f%%\n' "$n" "$method" "$projected" "$counted" "$error"
done
