#!/usr/bin/env bash
# CI: scripts/slurm-array.sh on a real Slurm. A one-node cluster on this machine (munged,
# slurmctld and slurmd, every file of theirs in a temporary folder) runs N = 16 in 4
# array tasks; one task is requeued mid-count (`scontrol requeue`), so it must save its
# checkpoint on Slurm's SIGTERM and its second run resume from it; the merged shards must
# give the published count. Slurm and munge come from Debian when missing. Runs as root
# (the daemons and the jobs run as root); the cluster is torn down however it ends.
#
#   scripts/ci-slurm.sh NQUEENS_BINARY
set -euo pipefail
# shellcheck source=scripts/ci-common.sh
source "$(dirname "$0")/ci-common.sh"
nq=$(realpath "${1:?usage: scripts/ci-slurm.sh NQUEENS_BINARY}")
[ -x "$nq" ] || { echo "ci-slurm: not an executable: $nq" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "ci-slurm: Slurm's daemons run as root here: run it as root" >&2; exit 2; }
array=$(cd "$(dirname "$0")" && pwd)/slurm-array.sh
n=16 shards=4 total=14772512 unique=1846955

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v slurmd >/dev/null 2>&1 ||
    ! command -v munged >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        slurm-wlm munge >/dev/null
fi

# In /tmp, not TMPDIR: munged refuses a socket in a folder that not everyone may search,
# and every folder above it too.
tmp=$(mktemp -d /tmp/nqueens-slurm.XXXXXX)
chmod 755 "$tmp"
export SLURM_CONF=$tmp/slurm.conf
daemons=() jobid='' frozen=''

# Prints what the daemons and the tasks logged, for a failure's reader.
show_logs() {
    for log in "$tmp"/*.log "$tmp"/work/*.log; do
        [ -f "$log" ] || continue
        echo "--- ${log#"$tmp"/} (last 30 lines)" >&2
        tail -n 30 "$log" >&2
    done
}
fail() {
    echo "ci-slurm: FAILED: $*" >&2
    show_logs
    exit 1
}
# Ends the jobs first (slurmstepd and its tasks outlive slurmd), then the daemons.
teardown() {
    local status=$?
    trap - EXIT
    # shellcheck disable=SC2086 # one or more pids
    [ -z "$frozen" ] || kill -CONT $frozen 2>/dev/null || true
    if [ -n "$jobid" ]; then
        scancel "$jobid" 2>/dev/null || true
        wait_for 20 no_jobs || echo "ci-slurm: job $jobid was still there at teardown" >&2
    fi
    for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
        kill "${daemons[i]}" 2>/dev/null || true
        wait "${daemons[i]}" 2>/dev/null || true
    done
    rm -rf "$tmp"
    exit "$status"
}
trap teardown EXIT

# (A squeue that fails, its slurmctld gone, is no empty queue.)
no_jobs() { local queue; queue=$(squeue -h 2>/dev/null) && [ -z "$queue" ]; }
munge_up() { munge -S "$tmp/munge.socket" -n >/dev/null 2>&1; }
node_idle() { [ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = idle ]; }
# The state of array task $1 (empty once it has left the queue).
state() { squeue -h -j "$jobid"_"$1" -o %T 2>/dev/null; }
pending() { [ "$(state "$1")" = PENDING ]; }
saved_or_done() { saved_some "$1" || no_jobs; }

# Munge: a fresh key and a daemon of its own, on a socket slurm.conf names.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
# Each daemon apart from this script (setsid): a Ctrl-C (or a CI's cancel) to this script's
# process group must not end them before the teardown has ended the jobs.
setsid munged --foreground --key-file="$tmp/munge.key" --socket="$tmp/munge.socket" \
    --pid-file="$tmp/munged.pid" --seed-file="$tmp/munged.seed" 2> "$tmp/munged.log" &
daemons+=($!)
wait_for 10 munge_up || fail "munged did not start"

# One node with this machine's own CPUs (slurmd -C measures them; a node that claims more
# than it has is drained), one partition, no accounting. Ports off Slurm's defaults, so a
# real Slurm on the machine is not in the way.
node_line=$(slurmd -C | head -n 1 | sed 's/ RealMemory=[0-9]*//')
node=$(printf '%s\n' "$node_line" | sed -n 's/^NodeName=\([^ ]*\).*/\1/p')
[ -n "$node" ] || fail "slurmd -C printed no node: $node_line"
mkdir "$tmp/ctld" "$tmp/slurmd"
cat > "$SLURM_CONF" <<EOF
ClusterName=nqueens-ci
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge.socket
StateSaveLocation=$tmp/ctld
SlurmdSpoolDir=$tmp/slurmd
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
# Seconds between the SIGTERM of a requeue and the SIGKILL.
KillWait=10
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
setsid slurmctld -D -f "$SLURM_CONF" > "$tmp/slurmctld.out" 2>&1 &
daemons+=($!)
setsid slurmd -D -f "$SLURM_CONF" > "$tmp/slurmd.out" 2>&1 &
daemons+=($!)
wait_for 30 node_idle || fail "node $node did not come up idle: $(sinfo -h -o '%T %E' 2>&1)"
echo "ci-slurm: one-node Slurm $(sinfo -V | cut -d' ' -f2) up on $node ($(sinfo -h -o %c) CPUs)"

# The mirror method on one thread makes each task take about a second (the default
# method counts a shard of N = 16 in milliseconds), and a checkpoint every 50 ms has
# finished sub-problems in it well before the end.
mkdir "$tmp/work"
cd "$tmp/work"
jobid=$(NQUEENS=$nq COUNT_ARGS="--method mirror" CHECKPOINT_EVERY=50ms \
    sbatch --parsable --array=1-"$shards" --cpus-per-task=1 "$array" "$n") ||
    fail "sbatch refused the array"
jobid=${jobid%%;*}
echo "ci-slurm: submitted array job $jobid: N = $n in $shards tasks"

# A task is stopped (SIGSTOP) once its checkpoint holds finished work, so that it is
# certainly mid-count when the requeue reaches it (Slurm sends SIGCONT before SIGTERM).
# A task that finished first leaves the next one to be the requeued one.
requeued=''
for task in $(seq 1 "$shards"); do
    checkpoint=results/n$n-shard-$task.checkpoint
    wait_for 60 saved_or_done "$checkpoint" ||
        fail "task $task saved no finished sub-problem in $checkpoint within 60 s"
    saved_some "$checkpoint" ||
        fail "the array ended with no finished sub-problem in $checkpoint"
    raw=$(squeue -h -j "$jobid"_"$task" -o %A 2>/dev/null || true)
    [ -n "$raw" ] || continue
    pids=$(scontrol listpids "$raw" 2>/dev/null | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
    [ -n "${pids// /}" ] || continue
    # shellcheck disable=SC2086 # one or more pids
    kill -STOP $pids 2>/dev/null || continue
    frozen=$pids
    if [ -f "results/n$n-shard-$task.json" ]; then
        # shellcheck disable=SC2086
        kill -CONT $pids 2>/dev/null || true
        frozen=''
        continue
    fi
    requeued=$task
    break
done
[ -n "$requeued" ] || fail "every task finished before it could be stopped mid-count"
before=$(finished "$checkpoint")
echo "ci-slurm: task $requeued stopped mid-count (finished sub-problems in its checkpoint: $before); requeued"
scontrol requeue "$jobid"_"$requeued" || fail "scontrol requeue refused task $requeued"
frozen=''
wait_for 30 pending "$requeued" || fail "task $requeued was not requeued (state $(state "$requeued"))"
log=nqueens-${jobid}_$requeued.log
# (The log is the task's: what nqueens said on SIGTERM is in it once the task has ended.)
wait_for 10 grep -qs 'terminated (SIGTERM)' "$log" ||
    fail "task $requeued heard no SIGTERM from the requeue (killed without saving?)"
# nqueens says how much it saved: "interrupted with K of M sub-problems done; saved in".
said=$(sed -n 's/.*interrupted with \([0-9]*\) of \([0-9]*\) sub-problems done; saved in.*/\1 \2/p' \
    "$log")
read -r saved of <<< "${said:-0 0}"
if [ "$saved" -lt "$before" ] || [ "$saved" -ge "$of" ]; then
    fail "task $requeued saved $saved of $of sub-problems on SIGTERM (had $before before it)"
fi
[ "$(finished "$checkpoint")" -eq "$saved" ] ||
    fail "the checkpoint of task $requeued holds $(finished "$checkpoint"), not the $saved it said"
# Slurm holds a requeued job back for about two minutes; this test need not wait.
scontrol update JobId="$jobid"_"$requeued" StartTime=now ||
    fail "scontrol could not start task $requeued again now"
wait_for 120 no_jobs || fail "the array did not finish within 120 s: $(squeue -h 2>&1)"

# Every task completed with 0, the requeued one on its second start.
seen=0
while read -r line; do
    seen=$((seen + 1))
    task=$(sed -n 's/.* ArrayTaskId=\([0-9]*\) .*/\1/p' <<< "$line")
    case "$line" in
        *' JobState=COMPLETED '*' ExitCode=0:0 '*) ;;
        *) fail "task $task did not complete with status 0: $line" ;;
    esac
    restarts=$(sed -n 's/.* Restarts=\([0-9]*\) .*/\1/p' <<< "$line")
    want=0
    [ "$task" != "$requeued" ] || want=1
    [ "$restarts" = "$want" ] || fail "task $task started $((restarts + 1)) times, not $((want + 1))"
done < <(scontrol -o show job "$jobid")
[ "$seen" -eq "$shards" ] || fail "scontrol shows $seen tasks of job $jobid, not $shards"
for task in $(seq 1 "$shards"); do
    result=results/n$n-shard-$task.json
    [ -f "$result" ] || fail "task $task wrote no $result"
    want=1
    [ "$task" != "$requeued" ] || want=2
    [ "$(runs "$result")" -eq "$want" ] ||
        fail "$result names $(runs "$result") runs, not $want (a resumed task names both)"
done
echo "ci-slurm: task $requeued resumed from its checkpoint ($saved of $of sub-problems saved" \
    "on SIGTERM; its result names both runs); its log:"
sed 's/^/    /' "$log"

merged=$("$nq" merge results/n"$n"-shard-*.json --json)
echo "ci-slurm: nqueens merge: $merged"
case "$merged" in
    *"\"total\":$total,\"unique\":$unique,"*)
        echo "ci-slurm: N = $n over $shards Slurm tasks, one requeued: $total ($unique unique), the published count" ;;
    *) fail "the merged count of N = $n is not the published $total ($unique unique)" ;;
esac
