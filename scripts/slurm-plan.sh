#!/usr/bin/env bash
# How many array tasks a Slurm campaign of N needs, from `nqueens estimate` on this
# machine: enough that each task's projected time is at most half the task time limit
# (a margin for slower nodes and the projection's spread). Prints the sbatch line for
# scripts/slurm-array.sh.
#
#   scripts/slurm-plan.sh N [HOURS_PER_TASK=12] [CPUS_PER_TASK=8]
#   NQUEENS=path/to/nqueens scripts/slurm-plan.sh 23     # without building here
set -euo pipefail
n=${1:?usage: scripts/slurm-plan.sh N [HOURS_PER_TASK] [CPUS_PER_TASK]}
hours=${2:-12}
cpus=${3:-8}
[[ $hours =~ ^[1-9][0-9]*$ ]] || { echo "HOURS_PER_TASK must be a whole number of hours, 1 or more" >&2; exit 2; }
[[ $cpus =~ ^[1-9][0-9]*$ ]] || { echo "CPUS_PER_TASK must be a whole number, 1 or more" >&2; exit 2; }
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
[ -n "${NQUEENS:-}" ] || build_nqueens
bin=${NQUEENS:-$nq}
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
estimate=$("$bin" estimate "$n" --threads "$cpus" --seconds 10 --json)
seconds=$(printf '%s' "$estimate" | field seconds)
subproblems=$(printf '%s' "$estimate" | field subproblems)
method=$(printf '%s' "$estimate" | field method)
k=$(awk -v s="$seconds" -v h="$hours" -v max="$subproblems" \
    'BEGIN { k = int(s / (h * 3600 / 2)) + 1; if (k > max) k = max; print k }')
# The shard count must be one the memory allows too: ask for one shard's figures.
shard=$("$bin" estimate "$n" --threads "$cpus" --seconds 5 --shards "$k" --json)
high=$(printf '%s' "$shard" | field seconds_per_shard_high)
# One task in twenty is projected to take longer than this (null where not projected).
case $high in null|'') high= ;; *) high=$(printf ' (one in twenty over %.0f s)' "$high") ;; esac
printf 'N = %s by %s: projected %.0f s on %s cores like this one; %s task(s) of about %.0f s each%s, %s MB a task\n' \
    "$n" "$method" "$seconds" "$cpus" "$k" "$(printf '%s' "$shard" | field seconds_per_shard)" \
    "$high" "$(( $(printf '%s' "$shard" | field memory_bytes_per_shard) / 1000000 ))"
echo "sbatch --array=1-$k --cpus-per-task=$cpus --time=$hours:00:00 scripts/slurm-array.sh $n"
