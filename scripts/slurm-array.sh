#!/usr/bin/env bash
# A Slurm job array that counts N in K shards, one array task per shard, each task on
# the cores Slurm gives it, each resumable from its own checkpoint if requeued.
#
#   scripts/slurm-plan.sh 23 12 8                      # how many tasks: the sbatch line
#   sbatch --array=1-16 scripts/slurm-array.sh 20     # N = 20 in 16 shards
#   nqueens merge results/n20-shard-*.json           # once every task has finished
#   find results -name 'n20-shard-*.json' | nqueens merge --files-from -   # (more shards
#                                                    # than a command line holds)
#
# Each task writes results/nN-shard-TASK.json (and a checkpoint beside it, so a requeued
# task resumes: Slurm's SIGTERM makes nqueens save it before the task ends); logs go to
# the submit directory, appended to by a requeued task's later runs. NQUEENS names the
# binary if it is not on PATH (with --export=ALL); --cpus-per-task on the sbatch line
# overrides the 8 below. Extra arguments for every task's count (a --kernel, a --method)
# go in COUNT_ARGS; CHECKPOINT_EVERY (5m unless set) is how often a task saves its work.
# Tested in CI by scripts/ci-slurm.sh on a one-node Slurm 22.05 (N = 16 in 4 tasks, one
# requeued mid-count).
#
#SBATCH --job-name=nqueens
#SBATCH --cpus-per-task=8
#SBATCH --time=24:00:00
#SBATCH --output=%x-%A_%a.log
#SBATCH --requeue
#SBATCH --open-mode=append
set -euo pipefail
n=${1:?usage: sbatch --array=1-K slurm-array.sh N}
nqueens=${NQUEENS:-nqueens}
mkdir -p results
task=${SLURM_ARRAY_TASK_ID:?run this with sbatch --array}
read -r -a extra <<< "${COUNT_ARGS:-}"
# --shard slurm reads SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN.
exec "$nqueens" count "$n" --shard slurm \
    --threads "${SLURM_CPUS_PER_TASK:-1}" "${extra[@]}" \
    --checkpoint "results/n$n-shard-$task.checkpoint" \
    --checkpoint-every "${CHECKPOINT_EVERY:-5m}" \
    --output "results/n$n-shard-$task.json" --force
