# Helpers the benchmark scripts share; sourced, not run.

# The median of the numbers in the arguments (split at spaces, so one string of them
# will do), or of those on standard input.
median() {
    # shellcheck disable=SC2048,SC2086
    if [ $# -gt 0 ]; then printf '%s\n' $*; else cat; fi \
        | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'
}

# The project's root (set by sourcing), and the release binary built fresh: sets $nq.
# NQUEENS names a binary to use instead (nothing is built then).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_nqueens() {
    if [ -n "${NQUEENS:-}" ]; then
        nq=$NQUEENS
        [ -x "$nq" ] || { echo "NQUEENS is not an executable: $nq" >&2; exit 2; }
        return
    fi
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    nq=$root/target/release/nqueens
}
