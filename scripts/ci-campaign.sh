#!/usr/bin/env bash
# CI: scripts/campaign.sh stopped and run again for real. N = 16 in 4 shards; a Ctrl-C
# (SIGINT to the campaign's process group) in the middle of shard 2 must end it with 130,
# keeping shard 1's result and shard 2's checkpoint; the same command again must resume
# shard 2 from that checkpoint, count shards 3 and 4, and merge the published count.
#
#   scripts/ci-campaign.sh NQUEENS_BINARY
set -euo pipefail
# shellcheck source=scripts/ci-common.sh
source "$(dirname "$0")/ci-common.sh"
nq=$(realpath "${1:?usage: scripts/ci-campaign.sh NQUEENS_BINARY}")
[ -x "$nq" ] || { echo "ci-campaign: not an executable: $nq" >&2; exit 2; }
campaign=$(cd "$(dirname "$0")" && pwd)/campaign.sh
n=16 k=4 total=14772512 unique=1846955 stopped=2

tmp=$(mktemp -d -t nqueens-campaign.XXXXXX)
dir=$tmp/q16
pid=''
fail() {
    echo "ci-campaign: FAILED: $*" >&2
    for f in "$tmp"/run-*.log "$dir/times.tsv"; do
        [ -f "$f" ] && { echo "--- ${f#"$tmp"/}" >&2; cat "$f" >&2; }
    done
    exit 1
}
# A campaign still running (this script stopped early) is stopped with it.
teardown() {
    local status=$?
    trap - EXIT
    if [ -n "$pid" ]; then
        kill -CONT -- -"$pid" 2>/dev/null || true
        kill -TERM -- -"$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
    exit "$status"
}
trap teardown EXIT

# Finished work in the checkpoint, or the campaign over without any.
saved_or_over() { saved_some "$1" || ! kill -0 "$pid" 2>/dev/null; }

# The mirror method on one thread makes a shard take about a second (the default method
# counts one in milliseconds), and a checkpoint every 50 ms has finished sub-problems in
# it well before the shard's end.
export NQUEENS=$nq COUNT_ARGS="--method mirror" CHECKPOINT_EVERY=50ms
# Job control puts the campaign in a process group of its own (its pid), with SIGINT
# not ignored, as a terminal's Ctrl-C finds a command.
set -m
"$campaign" "$n" "$k" "$dir" 1 > "$tmp/run-1.log" 2>&1 &
pid=$!
set +m
checkpoint=$dir/n$n-shard-$stopped.checkpoint
wait_for 60 saved_or_over "$checkpoint" || fail "shard $stopped saved nothing within 60 s"
# The group is stopped first, so that the shard is certainly mid-count when the SIGINT
# reaches it (delivered on SIGCONT).
kill -STOP -- -"$pid" 2>/dev/null || fail "the campaign ended before shard $stopped was under way"
[ ! -f "$dir/n$n-shard-$stopped.json" ] || fail "shard $stopped finished before it could be stopped"
before=$(finished "$checkpoint")
kill -INT -- -"$pid"
kill -CONT -- -"$pid"
status=0
wait "$pid" || status=$?
pid=''
[ "$status" -eq 130 ] || fail "the interrupted campaign exited with $status, not 130 (SIGINT)"
grep -q "interrupted (SIGINT)" "$tmp/run-1.log" || fail "shard $stopped heard no SIGINT"
# nqueens says how much it saved: "interrupted with K of M sub-problems done; saved in".
said=$(sed -n 's/.*interrupted with \([0-9]*\) of \([0-9]*\) sub-problems done; saved in.*/\1 \2/p' \
    "$tmp/run-1.log")
read -r saved of <<< "${said:-0 0}"
if [ "$saved" -lt "$before" ] || [ "$saved" -ge "$of" ]; then
    fail "shard $stopped saved $saved of $of sub-problems on SIGINT (had $before before it)"
fi
[ "$(finished "$checkpoint")" -eq "$saved" ] ||
    fail "the checkpoint of shard $stopped holds $(finished "$checkpoint"), not the $saved it said"
if [ ! -f "$dir/n$n-shard-1.json" ] || [ -e "$dir/n$n-shard-1.checkpoint" ]; then
    fail "shard 1 is not kept as finished (its result, without its checkpoint)"
fi
for shard in $(seq "$stopped" "$k"); do
    [ ! -e "$dir/n$n-shard-$shard.json" ] || fail "shard $shard has a result after the stop"
done
echo "ci-campaign: stopped by SIGINT in shard $stopped, $saved of $of sub-problems saved: exit 130"
sed 's/^/    /' "$tmp/run-1.log"
first=$(sha256sum < "$dir/n$n-shard-1.json")

"$campaign" "$n" "$k" "$dir" 1 > "$tmp/run-2.log" 2>&1 ||
    fail "the campaign run again exited with $?"
[ "$(sha256sum < "$dir/n$n-shard-1.json")" = "$first" ] || fail "shard 1 was counted again"
for shard in $(seq 1 "$k"); do
    want=1
    [ "$shard" -ne "$stopped" ] || want=2
    [ "$(runs "$dir/n$n-shard-$shard.json")" -eq "$want" ] ||
        fail "shard $shard names $(runs "$dir/n$n-shard-$shard.json") runs, not $want"
done
# The record: shard 1 once, shard 2 stopped (130) then done, shards 3 and 4 once.
record=$(tail -n +2 "$dir/times.tsv" | cut -f 1,4 | tr '\t\n' ': ')
[ "$record" = "1:0 2:130 2:0 3:0 4:0 " ] || fail "times.tsv records $record"
grep -q "$total" "$tmp/run-2.log" || fail "the campaign's merge does not give $total"
echo "ci-campaign: run again: shard $stopped resumed from its checkpoint, shards 3-4 counted; its output:"
sed 's/^/    /' "$tmp/run-2.log"
merged=$("$nq" merge "$dir" --json)
case "$merged" in
    *"\"total\":$total,\"unique\":$unique,"*)
        echo "ci-campaign: N = $n in $k shards, stopped once and resumed: $total ($unique unique), the published count" ;;
    *) fail "the merged count of N = $n is not the published $total ($unique unique): $merged" ;;
esac
