#!/usr/bin/env bash
# Times one count with each kernel level, and a build for generic x86-64 beside one for
# this machine (target-cpu=native), alternating round by round in one run, and prints
# each median and its ratio to the native build's auto kernel. Ratios from one run are
# what to compare: these machines are shared and noisy.
#
#   scripts/bench-kernels.sh [N=17] [THREADS=2] [ROUNDS=3] [METHOD=backtrack]
set -euo pipefail
n=${1:-17}
threads=${2:-2}
rounds=${3:-3}
method=${4:-backtrack}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench-out
build() { # NAME CPU: a release build for that target CPU in its own folder
    RUSTFLAGS="-C target-cpu=$2" cargo build --release --quiet \
        --manifest-path "$root/Cargo.toml" --target-dir "$out/target-$1"
    echo "$out/target-$1/release/nqueens"
}
native=$(build native native)
generic=$(build generic x86-64)
echo "kernels on this CPU: $("$generic" --version)"

declare -A cmd=(
    [native]="$native count $n --threads $threads --method $method --quiet"
    [generic]="$generic count $n --threads $threads --method $method --quiet"
)
for k in avx512 avx2 portable; do
    if "$generic" count 4 --kernel "$k" --quiet >/dev/null 2>&1; then
        cmd[generic-$k]="$generic count $n --threads $threads --method $method --kernel $k --quiet"
    else
        echo "kernel $k: not available on this CPU, not timed"
    fi
done
names=(native generic generic-avx512 generic-avx2 generic-portable)
declare -A times
for _ in $(seq "$rounds"); do
    for name in "${names[@]}"; do
        [ -n "${cmd[$name]:-}" ] || continue
        start=$(date +%s.%N)
        ${cmd[$name]} >/dev/null
        end=$(date +%s.%N)
        times[$name]="${times[$name]:-} $(echo "$end - $start" | bc -l)"
    done
done
# shellcheck source=scripts/common.sh
source "$root/scripts/common.sh"
base=$(median "${times[native]}")
for name in "${names[@]}"; do
    [ -n "${times[$name]:-}" ] || continue
    m=$(median "${times[$name]}")
    printf 'N=%s T=%s %-8s %-17s median %8.3f s  ratio to native %.3f  runs:%s\n' \
        "$n" "$threads" "$method" "$name" "$m" "$(echo "$m / $base" | bc -l)" "${times[$name]}"
done
