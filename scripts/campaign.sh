#!/usr/bin/env bash
# A campaign on one machine: count N in K shards, one after another, each resumable from
# its own checkpoint, and merge them when the last is in. Stopped at any point (a
# logout, a reboot, Ctrl-C), run the same command again: finished shards are kept,
# the interrupted one resumes from its checkpoint, the rest follow.
#
#   scripts/campaign.sh N K DIR [THREADS=2]
#
# DIR gets nN-shard-k.json (each shard's result), their checkpoints while running, and
# times.tsv: a line per shard run (shard, wall seconds, peak MB, exit status), so the
# record of wall time and peak memory per shard is the campaign's own. NQUEENS names the
# binary (a copy kept for the campaign, so a rebuild in between cannot change the
# decomposition under it); without it, the project's release build is used. Extra
# arguments for every shard (a --kernel, a --method) go in COUNT_ARGS; CHECKPOINT_EVERY
# (1m unless set) is how often a shard saves its work. Tested in CI, stopped mid-shard
# by a Ctrl-C and run again, by scripts/ci-campaign.sh.
set -euo pipefail
n=${1:?usage: campaign.sh N K DIR [THREADS]}
k=${2:?usage: campaign.sh N K DIR [THREADS]}
dir=${3:?usage: campaign.sh N K DIR [THREADS]}
threads=${4:-2}
# shellcheck source=scripts/common.sh
source "$(dirname "$0")/common.sh"
if [ -n "${NQUEENS:-}" ]; then nq=$NQUEENS; else build_nqueens; fi
read -r -a extra <<< "${COUNT_ARGS:-}"
mkdir -p "$dir"
# GNU time gives each shard's peak memory; without it the column says "-".
timer=()
[ -x /usr/bin/time ] && timer=(/usr/bin/time -f '%M' -o "$dir/.peak")
[ -f "$dir/times.tsv" ] || printf 'shard\twall_s\tpeak_mb\tstatus\n' > "$dir/times.tsv"

for shard in $(seq 1 "$k"); do
    result=$dir/n$n-shard-$shard.json
    [ -f "$result" ] && continue
    start=$(date +%s.%N)
    rm -f "$dir/.peak"
    status=0
    "${timer[@]}" "$nq" count "$n" --shard "$shard/$k" --threads "$threads" "${extra[@]}" \
        --checkpoint "$dir/n$n-shard-$shard.checkpoint" \
        --checkpoint-every "${CHECKPOINT_EVERY:-1m}" \
        --output "$result" --quiet > /dev/null || status=$?
    peak=-
    [ -s "$dir/.peak" ] && peak=$(( $(tail -1 "$dir/.peak") / 1024 ))
    printf '%s\t%.1f\t%s\t%s\n' "$shard" "$(echo "$(date +%s.%N) - $start" | bc -l)" \
        "$peak" "$status" >> "$dir/times.tsv"
    # A stopped shard (a signal: 128 + N) or a failed one ends the campaign here; its
    # checkpoint is kept for the next run.
    [ "$status" -eq 0 ] || exit "$status"
    rm -f "$dir/n$n-shard-$shard.checkpoint"
done
# Listed, not globbed: a campaign of a million shards passes a command line's limit.
find "$dir" -maxdepth 1 -name "n$n-shard-*.json" | "$nq" merge --files-from -
