#!/usr/bin/env bash
# Times `nqueens count` by each method beside the public counters (the anchors) and the
# baseline, alternating them round by round in one run (../shared/anchors/race.sh), and
# prints each median and each ratio to the first program of a line. Ratios from one run
# are what to compare: these machines are shared and noisy.
#
#   scripts/bench-vs-anchors.sh ANCHORS_BIN [SPEC...]
#
# ANCHORS_BIN: the bin/ folder (or the output folder) that ../shared/anchors/build.sh made (the recipe and the
# repositories it needs are in ../shared/anchors/README.md; nothing of them is kept here).
# A SPEC is N:THREADS:ROUNDS:PROGRAMS, PROGRAMS a comma list of anchor names, refq, and
# nq-halves / nq-backtrack / nq-auto for this project's binary by method. The default is
# the table of the README. KERNEL=avx2 (or another --kernel value) times this project's
# binary on that kernel: on an AVX-512 machine, the AVX2 path (build the anchors with
# OPT="-O3 -march=x86-64-v3" to race them on AVX2 too).
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
anchors=$(cd "$1" && pwd); shift
[ -d "$anchors/bin" ] && anchors=$anchors/bin   # the build folder itself will do too
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
race=${RACE:-$root/../shared/anchors/race.sh}
[ -x "$race" ] || [ -f "$race" ] || { echo "race.sh not found: $race (set RACE)" >&2; exit 2; }
build_nqueens

# One folder with the anchors and a wrapper per method, each printing the anchors' line.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
for a in "$anchors"/*; do ln -s "$a" "$bin/"; done
for method in halves backtrack auto; do
    cat > "$bin/nq-$method" <<WRAP
#!/usr/bin/env bash
total=\$("$nq" count "\$1" --threads "\$2" --method $method ${KERNEL:+--kernel $KERNEL} --quiet --json | grep -o '"total":[0-9]*' | cut -d: -f2)
echo "anchor=nq-$method n=\$1 threads=\$2 total=\$total"
WRAP
    chmod +x "$bin/nq-$method"
done

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
for spec in "${specs[@]}"; do
    bash "$race" "$bin" "$nq" "$spec" | tee "$bin/out"
    awk '{for (i = 1; i <= NF; i++) if ($i == "median") {name[NR] = $(i-1); t[NR] = $(i+1)}}
         END {for (r = 2; r <= NR; r++) printf "  ratio %s / %s = %.3f\n", name[1], name[r], t[1] / t[r]}' "$bin/out"
done
