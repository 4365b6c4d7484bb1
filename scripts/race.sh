#!/usr/bin/env bash
# The race: nqueens timed beside other N-Queens counters in one run, round by round, the
# programs taking turns, so that every program meets the same moments of a noisy host.
# For each line it prints every program's median wall time, its runs and its total, and
# each program's time as a ratio to the fastest public counter of the line (lower is
# better); totals that differ fail the race (exit 1).
#
#   scripts/race.sh SPEC...
#
# A SPEC is N:THREADS:ROUNDS:PROGRAMS, PROGRAMS a comma list:
#   nq                 this project's binary, `nqueens count N --threads T` (method auto)
#   nq-WORD[-WORD]     the same with a word for `--method` (halves, backtrack, ...) and/or
#                      a kernel level for `--kernel` (avx512, avx2, portable):
#                      nq-halves, nq-avx2, nq-halves-avx2
#   refq               the baseline counter, scripts/baseline/refq.c (built once, with
#                      gcc -O3 -march=native -fopenmp, into bench-out/)
#   NAME               any other program run as `NAME N THREADS` that ends its output with
#                      a line `anchor=NAME n=N threads=T total=COUNT`: the public counters
#                      scripts/build-anchors.sh builds, looked up in $ANCHORS
# Every program but nq* and refq counts as a public counter; a line without one gives
# its ratios to its first program.
#
# Environment: NQUEENS (the nqueens binary; default the project's release build, built if
# missing), ANCHORS (the folder of the public counters' programs: build-anchors.sh's
# OUTDIR or OUTDIR/bin), CC (default gcc).
#
# Example, the figures of the README's table:
#   ANCHORS=~/anchors scripts/race.sh 16:1:5:nq,nq-avx2,kluev 18:2:3:nq,nq-avx2,kluev \
#       20:2:1:nq,nq-avx2,kluev
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,29p' "$0" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)

nq=${NQUEENS:-$root/target/release/nqueens}
if [ -z "${NQUEENS:-}" ] && [ ! -x "$nq" ]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
fi
[ -x "$nq" ] || { echo "race.sh: not an executable: $nq (set NQUEENS)" >&2; exit 2; }
anchors=${ANCHORS:-}
[ -n "$anchors" ] && [ -d "$anchors/bin" ] && anchors=$anchors/bin

refq=$root/bench-out/refq
built_refq=false
ensure_refq() {
    $built_refq && return 0
    mkdir -p "$root/bench-out"
    "${CC:-gcc}" -O3 -march=native -fopenmp -o "$refq" "$root/scripts/baseline/refq.c"
    built_refq=true
}

# command_of NAME N T: the command line for one program, one word a line.
command_of() {
    local name=$1 n=$2 t=$3 word
    case $name in
        nq|nq-*)
            printf '%s\n' "$nq" count "$n" --threads "$t" --quiet --json
            local rest=${name#nq}
            for word in ${rest//-/ }; do
                case $word in
                    avx512|avx2|portable) printf '%s\n' --kernel "$word" ;;
                    *) printf '%s\n' --method "$word" ;;
                esac
            done ;;
        refq) printf '%s\n' "$refq" "$n" "$t" ;;
        *)
            local exe=$name
            [ -n "$anchors" ] && [ -x "$anchors/$name" ] && exe=$anchors/$name
            command -v "$exe" > /dev/null || {
                echo "race.sh: no program $name (set ANCHORS to build-anchors.sh's folder)" >&2
                exit 2
            }
            printf '%s\n' "$exe" "$n" "$t" ;;
    esac
}

# run_one NAME N T: runs it once; sets run_seconds and run_total ("-" where none printed).
run_one() {
    local name=$1 n=$2 t=$3 out t0 t1
    local -a cmd
    mapfile -t cmd < <(command_of "$name" "$n" "$t")
    t0=$(date +%s%N)
    if ! out=$("${cmd[@]}" 2>&1); then
        printf '%s\n' "$out" | tail -n 5 >&2
        echo "race.sh: $name failed at N = $n: ${cmd[*]}" >&2
        exit 1
    fi
    t1=$(date +%s%N)
    case $name in
        nq|nq-*) run_total=$(printf '%s\n' "$out" | sed -n 's/.*"total":\([0-9]*\).*/\1/p' | tail -n 1) ;;
        *) run_total=$(printf '%s\n' "$out" | sed -n 's/^anchor=.* total=\([0-9]*\).*/\1/p' | tail -n 1) ;;
    esac
    run_total=${run_total:--}
    run_seconds=$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f", ns / 1e9 }')
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# The CPU as /proc/cpuinfo names it, with its family and model (under a hypervisor the
# name alone often fits CPUs of several generations).
cpuinfo() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //'; }
cpu="$(cpuinfo 'model name') (family $(cpuinfo 'cpu family'), model $(cpuinfo model))"
echo "race: $(date -u +%Y-%m-%d), $("$nq" --version | head -n 1), $cpu, $(nproc) CPUs"

failed=0
for spec in "$@"; do
    IFS=: read -r n t rounds list <<< "$spec"
    case "$n:$t:$rounds" in
        *[!0-9:]*|:*|*::*|*:|*:0) echo "race.sh: a SPEC is N:THREADS:ROUNDS:PROGRAMS: $spec" >&2; exit 2 ;;
    esac
    [ -n "${list:-}" ] || { echo "race.sh: no programs in $spec" >&2; exit 2; }
    IFS=, read -r -a names <<< "$list"
    for name in "${names[@]}"; do
        [ "$name" = refq ] && ensure_refq
        command_of "$name" "$n" "$t" > /dev/null
    done
    declare -A times=() totals=()
    k=${#names[@]}
    for ((r = 0; r < rounds; r++)); do
        # Each round starts one program further on, so that none always runs first.
        for ((i = 0; i < k; i++)); do
            name=${names[$(((i + r) % k))]}
            run_one "$name" "$n" "$t"
            times[$name]="${times[$name]:-} $run_seconds"
            totals[$name]=$run_total
        done
    done
    declare -A med=()
    best=""
    for name in "${names[@]}"; do
        med[$name]=$(median <<< "${times[$name]}")
        case $name in nq|nq-*|refq) ;; *)
            if [ -z "$best" ] || awk -v a="${med[$name]}" -v b="${med[$best]}" 'BEGIN { exit !(a < b) }'; then
                best=$name
            fi ;;
        esac
    done
    [ -n "$best" ] || best=${names[0]}
    for name in "${names[@]}"; do
        ratio=$(awk -v a="${med[$name]}" -v b="${med[$best]}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else printf "-" }')
        printf 'N=%s T=%s %-16s median %9.3f s  %s / %s = %-6s runs:%s  total=%s\n' \
            "$n" "$t" "$name" "${med[$name]}" "$name" "$best" "$ratio" "${times[$name]}" "${totals[$name]}"
    done
    distinct=$(printf '%s\n' "${totals[@]}" | sort -u | wc -l)
    if [ "$distinct" -ne 1 ]; then
        echo "N=$n T=$t: the totals differ: ${totals[*]}" >&2
        failed=1
    fi
    unset times totals med
done
exit $failed
