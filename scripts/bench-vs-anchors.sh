#!/usr/bin/env bash
# Times `nqueens count` by each method beside the public counters (the anchors) and the
# baseline (scripts/baseline/refq.c), round by round in one run (scripts/race.sh), and
# prints each median and its ratio to the fastest public counter of the line (lower is
# better). Ratios from one run are what to compare: a shared host's speed moves from
# minute to minute, and the programs of one run meet the same moments of it.
#
#   scripts/bench-vs-anchors.sh ANCHORS [SPEC...]
#
# ANCHORS: the folder scripts/build-anchors.sh built (or its bin/). A SPEC is
# N:THREADS:ROUNDS:PROGRAMS as race.sh takes it (PROGRAMS: anchor names, refq, and
# nq-halves / nq-backtrack / nq for this project's binary by method); the default is the
# README's table and more. KERNEL=avx2 (or another --kernel value) runs this project's
# binary on that kernel: on an AVX-512 machine, the AVX2 path (build the anchors with
# OPT="-O3 -march=x86-64-v3" to race them on AVX2 too).
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
[ -d "$1" ] || { echo "bench-vs-anchors.sh: not a folder: $1" >&2; exit 2; }
anchors=$(cd "$1" && pwd); shift
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
build_nqueens

specs=("$@")
if [ ${#specs[@]} -eq 0 ]; then
    specs=(
        "16:1:5:nq-halves,nq-backtrack,kluev,refq"
        "17:1:3:nq-halves,nq-backtrack,kluev"
        "17:2:3:nq-halves,nq-backtrack,kluev"
        "18:2:3:nq-halves,nq-backtrack,kluev"
        "19:2:1:nq-halves,kluev"
        "20:2:1:nq-halves,kluev"
    )
fi
if [ -n "${KERNEL:-}" ]; then
    # nq-halves becomes nq-halves-avx2, and so on: race.sh reads the kernel from the name.
    for i in "${!specs[@]}"; do
        IFS=: read -r n t rounds list <<< "${specs[$i]}"
        IFS=, read -r -a names <<< "$list"
        for j in "${!names[@]}"; do
            case ${names[$j]} in nq|nq-*) names[$j]=${names[$j]}-$KERNEL ;; esac
        done
        specs[$i]="$n:$t:$rounds:$(IFS=,; echo "${names[*]}")"
    done
fi
NQUEENS=$nq ANCHORS=$anchors exec "$root/scripts/race.sh" "${specs[@]}"
