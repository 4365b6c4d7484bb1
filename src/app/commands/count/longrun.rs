//! The files of long runs: checkpoints (`--checkpoint FILE`, resumable) and shard results
//! (`--shard I/K --output FILE`, merged later), and the lock that keeps one run per
//! checkpoint.

use crate::app::escape::ShowPath;
use crate::app::failure::{Failure, too_many_shards};
use crate::app::output::write_atomically_with;
use crate::app::progress::Bar;
use crate::app::reading::{read_file, records_bytes};
use crate::app::system::hostname;
use nqueens::Plan;
use nqueens::Tally;
use nqueens::records::{
    CHECKPOINT_FORMAT, Checkpoint, Record, Run, SHARD_FORMAT, ShardResult, Streamed, digest,
    digest_in_order, parse, tally_map, write_sealed,
};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::app::system::VERSION;

/// Shard `I` of `K`, 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `I/K` (1 <= I <= K), or `slurm` for the job array's task.
pub fn parse_shard(spec: &str) -> Result<Shard, Failure> {
    if spec == "slurm" {
        let var = |name: &str| -> Result<usize, Failure> {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| Failure::refused(format!("--shard slurm: {name} is not set to a number (run it inside a Slurm job array)")))
        };
        let (id, count, min) = (
            var("SLURM_ARRAY_TASK_ID")?,
            var("SLURM_ARRAY_TASK_COUNT")?,
            var("SLURM_ARRAY_TASK_MIN")?,
        );
        let i = id.checked_sub(min).map(|x| x + 1).filter(|&i| i <= count);
        return i.map(|index| Shard { index, count }).ok_or_else(|| {
            Failure::refused(format!(
                "--shard slurm: task {id} is outside the array (min {min}, count {count})"
            ))
        });
    }
    let parsed = spec
        .split_once('/')
        .and_then(|(i, k)| Some((i.trim().parse().ok()?, k.trim().parse().ok()?)));
    match parsed {
        Some((index, count)) if (1..=count).contains(&index) => Ok(Shard { index, count }),
        _ => Err(Failure::refused(format!(
            "--shard '{}' is not a shard: write I/K with I from 1 to K (e.g. 3/8), or slurm",
            nqueens::words::shorten(spec)
        ))),
    }
}

/// What an interrupted run without a checkpoint says it kept.
pub const NOTHING_SAVED: &str = "nothing was saved (use --checkpoint FILE to keep partial work)";

/// The failure of a run stopped by a signal with `finished` of its `of` sub-problems
/// done, saying what was kept.
pub fn stopped_with(finished: usize, of: usize, saved: &str, status: u8) -> Failure {
    Failure::interrupted(
        format!(
            "interrupted with {} of {} done; {saved}",
            nqueens::words::thousands(finished as u64),
            nqueens::words::plural(of as u64, "sub-problem")
        ),
        status,
    )
}

/// The sub-problem ids a run covers: a shard's part, or every one of the plan's, which are
/// not listed (N = 28 has 280 million: 2.2 GB of ids, seconds to write, and a run stopped
/// while it was being costed spent them before it could save its checkpoint).
pub enum Covered {
    /// The ids below this many.
    All(usize),
    /// A shard's ids.
    Part(Vec<usize>),
}

impl Covered {
    /// How many ids.
    pub fn len(&self) -> usize {
        match self {
            Covered::All(len) => *len,
            Covered::Part(ids) => ids.len(),
        }
    }

    /// The ids where they are a part, as the engine's `Work::only` takes them (`None`:
    /// all).
    pub fn listed(&self) -> Option<&[usize]> {
        match self {
            Covered::All(_) => None,
            Covered::Part(ids) => Some(ids),
        }
    }

    /// Every id.
    pub fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        let (all, part) = match self {
            Covered::All(len) => (0..*len, &[][..]),
            Covered::Part(ids) => (0..0, ids.as_slice()),
        };
        all.chain(part.iter().copied())
    }

    /// How many of the ids `done` holds.
    pub fn finished(&self, done: &BTreeMap<usize, Tally>) -> usize {
        match self {
            Covered::All(len) => done.range(..*len).count(),
            Covered::Part(ids) => ids.iter().filter(|id| done.contains_key(id)).count(),
        }
    }
}

/// The sub-problem ids a shard covers (all of them without a shard); refuses more shards
/// than [`Plan::most_shards`].
pub fn covered(plan: &Plan, shard: Option<Shard>) -> Result<Covered, Failure> {
    let Some(shard) = shard else {
        return Ok(Covered::All(plan.len()));
    };
    if shard.count > plan.most_shards() {
        let option = format!("--shard {shard}");
        let method = plan.method().name();
        return Err(too_many_shards(&option, plan.n(), method, plan.len()));
    }
    Ok(Covered::Part(plan.part(shard.count, shard.index - 1)))
}

/// What fixes the meaning of sub-problem ids: a checkpoint must match it to be resumed.
pub struct Numbering {
    n: usize,
    method: String,
    depth: usize,
    subproblems: usize,
    shard: Option<Shard>,
}

impl Numbering {
    pub fn of(plan: &Plan, shard: Option<Shard>) -> Numbering {
        Numbering {
            n: plan.n(),
            method: plan.method().name().into(),
            depth: plan.depth(),
            subproblems: plan.len(),
            shard,
        }
    }
}

/// The work earlier runs saved: finished sub-problems, the seconds spent on them, and the
/// runs that did it.
#[derive(Default)]
pub struct Saved {
    pub done: BTreeMap<usize, Tally>,
    pub seconds: f64,
    pub runs: Vec<Run>,
}

/// Reads a checkpoint for this numbering of sub-problems, or refuses it (leaving it
/// unchanged) with the reason.
pub fn load_checkpoint(path: &Path, numbering: &Numbering) -> Result<Saved, Failure> {
    let refuse = |why: String| {
        Failure::refused(format!(
            "checkpoint {}: {why}; it was left unchanged",
            path.shown()
        ))
    };
    let most = records_bytes(numbering.subproblems as u64);
    let bytes = read_file(path, most, "checkpoint").map_err(refuse)?;
    let text = String::from_utf8(bytes).map_err(|_| refuse("not UTF-8 text".into()))?;
    let cp: Checkpoint = parse(&text).map_err(refuse)?;
    if cp.format != CHECKPOINT_FORMAT {
        return Err(refuse(format!(
            "not a checkpoint (format {})",
            nqueens::words::shorten(&cp.format)
        )));
    }
    let Numbering {
        n,
        ref method,
        depth,
        subproblems,
        shard,
    } = *numbering;
    if (cp.n, &cp.method, cp.split_depth, cp.subproblems) != (n, method, depth, subproblems) {
        return Err(refuse(format!(
            "it is for N = {} by {} at split depth {}, this run is N = {n} by {method} at \
             split depth {depth}",
            cp.n, cp.method, cp.split_depth
        )));
    }
    let theirs = cp.shard.map(|(index, count)| Shard { index, count });
    if theirs != shard {
        let describe =
            |s: Option<Shard>| s.map_or("the whole count".into(), |s| format!("shard {s}"));
        return Err(refuse(format!(
            "it is for {}, this run is {}",
            describe(theirs),
            describe(shard)
        )));
    }
    if let Some(why) = nqueens::records::impossible_runs(cp.seconds, &cp.runs) {
        return Err(refuse(format!("{why}; the file was edited or damaged")));
    }
    if cp.version != VERSION {
        return Err(refuse(format!(
            "written by nqueens {}, this is {VERSION}",
            nqueens::words::shorten(&cp.version)
        )));
    }
    // This version writes the digest of every checkpoint's records: one missing, or
    // another than the records', is an edit.
    let own = digest(cp.done.iter().map(|&(id, solutions, _)| (id, solutions)));
    if cp.digest != own {
        let why = match cp.digest.is_empty() {
            true => "it has no digest of its records",
            false => "its digest does not match its records",
        };
        return Err(refuse(format!("{why}; the file was edited")));
    }
    Ok(Saved {
        done: tally_map(subproblems, &cp.done).map_err(refuse)?,
        seconds: cp.seconds.max(0.0),
        runs: cp.runs,
    })
}

fn records(done: &BTreeMap<usize, Tally>) -> Vec<Record> {
    done.iter()
        .map(|(&id, t)| (id, t.solutions, t.nodes))
        .collect()
}

/// Writes the checkpoint whole, or leaves the previous one: the finished sub-problems
/// are those `done` lists (by increasing id), streamed from where the run keeps them.
/// `runs` are every run so far, this one last.
pub fn write_checkpoint<I>(
    path: &Path,
    numbering: &Numbering,
    done: impl Fn() -> I,
    seconds: f64,
    runs: Vec<Run>,
) -> std::io::Result<()>
where
    I: Iterator<Item = (usize, Tally)>,
{
    let digest = digest_in_order(done().map(|(id, t)| (id, t.solutions)));
    let cp = Checkpoint {
        format: CHECKPOINT_FORMAT.into(),
        version: VERSION.into(),
        n: numbering.n,
        method: numbering.method.clone(),
        split_depth: numbering.depth,
        subproblems: numbering.subproblems,
        shard: numbering.shard.map(|s| (s.index, s.count)),
        done: Streamed(|| done().map(|(id, t)| (id, t.solutions, t.nodes))),
        seconds,
        runs,
        digest,
        checksum: String::new(),
    };
    write_atomically_with(path, true, |file| write_sealed(&cp, file))
}

/// The shard's result file, from its finished sub-problems and the runs that did them.
pub fn shard_result(
    plan: &Plan,
    shard: Shard,
    covered: &Covered,
    done: &BTreeMap<usize, Tally>,
    seconds: f64,
    runs: Vec<Run>,
) -> ShardResult {
    let mine: BTreeMap<usize, Tally> = covered.ids().map(|id| (id, done[&id])).collect();
    ShardResult {
        format: SHARD_FORMAT.into(),
        version: VERSION.into(),
        n: plan.n(),
        method: plan.method().name().into(),
        split_depth: plan.depth(),
        subproblems: plan.len(),
        shard: shard.index,
        shards: shard.count,
        total: mine
            .iter()
            .map(|(&id, t)| u128::from(plan.weight(id)) * u128::from(t.solutions))
            .sum(),
        nodes: mine.values().map(|t| u128::from(t.nodes)).sum(),
        digest: digest(mine.iter().map(|(&id, t)| (id, t.solutions))),
        results: records(&mine),
        seconds,
        host: hostname(),
        runs,
        checksum: String::new(),
    }
}

/// The checkpoint writer waits at least this many times as long as its last write took.
const WRITE_SHARE: u32 = 20;

/// Writes the checkpoint every `every` while a run goes on: a failed write is reported on
/// stderr at once and tried again at the next interval, and never ends the count.
pub struct Checkpointer<'a> {
    pub path: &'a Path,
    pub numbering: &'a Numbering,
    pub every: Duration,
    /// Seconds spent by earlier runs.
    pub seconds_before: f64,
    /// The runs before this one.
    pub runs_before: Vec<Run>,
    /// This run (its seconds are filled in at each write).
    pub this_run: Run,
    pub started: Instant,
}

/// When the next checkpoint is due: `every` after the last write, and at least
/// [`WRITE_SHARE`] times as long as that write took (writing takes a core from the count:
/// `--checkpoint-every 1ms` made a count 2-3x slower).
pub struct Cadence {
    every: Duration,
    last: Instant,
    gap: Duration,
}

impl Cadence {
    pub fn new(every: Duration) -> Cadence {
        Cadence {
            every,
            last: Instant::now(),
            gap: every,
        }
    }

    pub fn due(&self) -> bool {
        self.last.elapsed() >= self.gap
    }

    /// How long until the next write is due.
    pub fn wait(&self) -> Duration {
        self.gap.saturating_sub(self.last.elapsed())
    }

    /// Times a write and sets the next one's gap from it.
    pub fn time<T>(&mut self, write: impl FnOnce() -> T) -> T {
        self.last = Instant::now();
        let result = write();
        self.gap = self.every.max(self.last.elapsed() * WRITE_SHARE);
        result
    }
}

impl Checkpointer<'_> {
    /// The loop of the writer thread, until `finished` is set.
    pub fn keep_writing(
        &self,
        saved: &BTreeMap<usize, Tally>,
        fresh: &Mutex<Vec<(usize, Tally)>>,
        finished: &AtomicBool,
        bar: &Bar,
    ) {
        let mut cadence = Cadence::new(self.every);
        let mut failing = false;
        // This run's finished sub-problems as of the last write, by id. Only those
        // finished since are copied from `fresh` at each write (so the workers wait on
        // its lock for no longer than that): the map of earlier runs and the list are
        // never copied whole, nor the records gathered, to write them.
        let mut mine: Vec<(usize, Tally)> = Vec::new();
        while !finished.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20).min(cadence.wait()));
            if !cadence.due() {
                continue;
            }
            let taken = mine.len();
            mine.extend_from_slice(&fresh.lock().expect("no panics hold it")[taken..]);
            // Two runs in order: the stable sort merges them in one pass.
            mine.sort_by_key(|&(id, _)| id);
            let written =
                cadence.time(|| self.write(|| in_id_order(tallies(saved), mine.iter().copied())));
            self.tell(written, &mut failing, |line| bar.note(line));
        }
    }

    /// Says on stderr that a write failed (the count goes on), or that writing works
    /// again after failing.
    pub fn tell(&self, written: std::io::Result<()>, failing: &mut bool, say: impl Fn(&str)) {
        match written {
            Ok(()) if *failing => {
                *failing = false;
                say(&format!("checkpoint {} written again", self.path.shown()));
            }
            Ok(()) => {}
            Err(e) => {
                *failing = true;
                say(&format!(
                    "nqueens: cannot write checkpoint {}: {e}; the count goes on and tries \
                     again in {}",
                    self.path.shown(),
                    humantime::format_duration(self.every)
                ));
            }
        }
    }

    /// Writes the checkpoint with the sub-problems `done` lists (by increasing id).
    pub fn write<I>(&self, done: impl Fn() -> I) -> std::io::Result<()>
    where
        I: Iterator<Item = (usize, Tally)>,
    {
        let run = self.started.elapsed().as_secs_f64();
        write_checkpoint(
            self.path,
            self.numbering,
            done,
            self.seconds_before + run,
            with_run(&self.runs_before, &self.this_run, run),
        )
    }
}

/// The tallies of a map of finished sub-problems, by increasing id.
pub fn tallies(done: &BTreeMap<usize, Tally>) -> impl Iterator<Item = (usize, Tally)> + '_ {
    done.iter().map(|(&id, &tally)| (id, tally))
}

/// Two lists of sub-problems, each by increasing id and none in both, as one by id.
fn in_id_order(
    a: impl Iterator<Item = (usize, Tally)>,
    b: impl Iterator<Item = (usize, Tally)>,
) -> impl Iterator<Item = (usize, Tally)> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if y.0 < x.0 => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}

/// This process's run, for the files of long runs (its seconds still 0).
pub fn this_run(engine: &nqueens::Engine, ranks: usize) -> Run {
    Run {
        host: hostname(),
        kernel: engine.kernel().name().into(),
        threads: engine.threads(),
        ranks,
        seconds: 0.0,
    }
}

/// The runs before, and this one with its seconds.
pub fn with_run(before: &[Run], this: &Run, seconds: f64) -> Vec<Run> {
    let mut runs = before.to_vec();
    runs.push(Run {
        seconds,
        ..this.clone()
    });
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two lists by id become one by id, whichever holds the smallest, the largest or
    /// nothing.
    #[test]
    fn lists_by_id_merge_into_one() {
        let tally = |id: usize| {
            (
                id,
                Tally {
                    solutions: id as u64 * 3,
                    nodes: 1,
                },
            )
        };
        let cases: [(&[usize], &[usize]); 5] = [
            (&[], &[]),
            (&[1, 4, 5], &[]),
            (&[], &[0, 2]),
            (&[0, 3, 9], &[1, 2, 10, 11]),
            (&[5, 6], &[0, 1]),
        ];
        for (a, b) in cases {
            let merged: Vec<(usize, Tally)> =
                in_id_order(a.iter().map(|&id| tally(id)), b.iter().map(|&id| tally(id))).collect();
            let mut want: Vec<usize> = a.iter().chain(b).copied().collect();
            want.sort_unstable();
            assert_eq!(merged, want.into_iter().map(tally).collect::<Vec<_>>());
        }
    }
}
