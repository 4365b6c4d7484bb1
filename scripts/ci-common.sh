# Shell functions the CI scripts that drive long runs share (scripts/ci-campaign.sh,
# scripts/ci-slurm.sh).

# Waits up to $1 seconds for the command after it to succeed; fails if it never does.
wait_for() {
    local end=$((SECONDS + $1))
    shift
    until "$@"; do
        [ "$SECONDS" -lt "$end" ] || return 1
        sleep 0.02
    done
}
# How many finished sub-problems a checkpoint or shard file lists ([id, count, nodes]).
finished() { { grep -o '\[[0-9]*,[0-9]*,[0-9]*\]' "$1" || true; } | wc -l; }
# How many runs a shard result names (a resumed shard names each run that did its work).
runs() { { grep -o '"ranks":' "$1" || true; } | wc -l; }
# Whether a checkpoint exists and holds a finished sub-problem.
saved_some() { [ -f "$1" ] && [ "$(finished "$1")" -gt 0 ]; }
