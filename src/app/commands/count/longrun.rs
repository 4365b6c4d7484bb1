//! The files of long runs: checkpoints (`--checkpoint FILE`, resumable) and shard results
//! (`--shard I/K --output FILE`, merged later), and the lock that keeps one run per
//! checkpoint.

use super::tallies::{Covered, Refused, Tallies};
use crate::app::escape::ShowPath;
use crate::app::failure::{Failure, too_many_shards};
use crate::app::output::write_atomically_with;
use crate::app::progress::Bar;
use crate::app::reading::{open_file, records_bytes};
use crate::app::system::hostname;
use nqueens::Plan;
use nqueens::Tally;
use nqueens::records::{
    CHECKPOINT_FORMAT, Checkpoint, Digesting, Run, SHARD_FORMAT, ShardResult, Streamed,
    digest_in_order, read_checkpoint, write_sealed,
};
use std::path::Path;
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
    let ids = plan.part(shard.count, shard.index - 1);
    debug_assert!(ids.is_sorted(), "a part's ids are by increasing id");
    Ok(Covered::Part(ids))
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

/// What earlier runs saved besides their tallies: how many sub-problems they finished,
/// the seconds spent on them, and the runs that did it.
#[derive(Default)]
pub struct Saved {
    pub finished: usize,
    pub seconds: f64,
    pub runs: Vec<Run>,
}

/// Reads a checkpoint for this numbering of sub-problems into `tallies`, or refuses it
/// (leaving the file unchanged) with the reason. The file is streamed: neither its text
/// nor a list of its records is held.
pub fn load_checkpoint(
    path: &Path,
    numbering: &Numbering,
    tallies: &Tallies,
) -> Result<Saved, Failure> {
    let refuse = |why: String| {
        Failure::refused(format!(
            "checkpoint {}: {why}; it was left unchanged",
            path.shown()
        ))
    };
    let most = records_bytes(numbering.subproblems as u64);
    let mut file = open_file(path, most, "checkpoint").map_err(refuse)?;
    // The records' digest, their order, and the first that this run cannot take; told
    // after the header's checks, which say more about a file of another count.
    let mut digesting = Digesting::default();
    let mut last: Option<usize> = None;
    let mut misfit: Option<String> = None;
    let cp = read_checkpoint(&mut file, &mut |(id, solutions, nodes)| {
        digesting.add(id, solutions);
        if misfit.is_some() {
            return;
        }
        if last.is_some_and(|last| id <= last) {
            misfit = Some(format!("sub-problem {id} is out of order"));
        }
        last = Some(id);
        misfit = misfit
            .take()
            .or(match tallies.record(id, Tally { solutions, nodes }) {
                Ok(()) => None,
                Err(Refused::Twice(id)) => Some(format!("sub-problem {id} appears twice")),
                Err(Refused::NotCovered(id)) => Some(format!(
                    "sub-problem {id} is not one of this run's {}",
                    numbering.subproblems
                )),
            });
    })
    .map_err(refuse)?;
    check_header(&cp, numbering).map_err(refuse)?;
    // This version writes the digest of every checkpoint's records: one missing, or
    // another than the records', is an edit.
    if cp.digest != digesting.finish() {
        let why = match cp.digest.is_empty() {
            true => "it has no digest of its records",
            false => "its digest does not match its records",
        };
        return Err(refuse(format!("{why}; the file was edited")));
    }
    if let Some(why) = misfit {
        return Err(refuse(format!("{why}; the file was edited or damaged")));
    }
    Ok(Saved {
        finished: cp.done,
        seconds: cp.seconds.max(0.0),
        runs: cp.runs,
    })
}

/// Why a checkpoint's header is not one this run resumes from (`Ok` when it is).
fn check_header(cp: &Checkpoint<usize>, numbering: &Numbering) -> Result<(), String> {
    if cp.format != CHECKPOINT_FORMAT {
        return Err(format!(
            "not a checkpoint (format {})",
            nqueens::words::shorten(&cp.format)
        ));
    }
    let Numbering {
        n,
        ref method,
        depth,
        subproblems,
        shard,
    } = *numbering;
    if (cp.n, &cp.method, cp.split_depth, cp.subproblems) != (n, method, depth, subproblems) {
        return Err(format!(
            "it is for N = {} by {} at split depth {}, this run is N = {n} by {method} at \
             split depth {depth}",
            cp.n,
            nqueens::words::shorten(&cp.method),
            cp.split_depth
        ));
    }
    let theirs = cp.shard.map(|(index, count)| Shard { index, count });
    if theirs != shard {
        let describe =
            |s: Option<Shard>| s.map_or("the whole count".into(), |s| format!("shard {s}"));
        return Err(format!(
            "it is for {}, this run is {}",
            describe(theirs),
            describe(shard)
        ));
    }
    if let Some(why) = nqueens::records::impossible_runs(cp.seconds, &cp.runs) {
        return Err(format!("{why}; the file was edited or damaged"));
    }
    if cp.version != VERSION {
        return Err(format!(
            "written by nqueens {}, this is {VERSION}",
            nqueens::words::shorten(&cp.version)
        ));
    }
    Ok(())
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

/// The shard's result file, from its sub-problems' tallies and the runs that did them.
pub fn shard_result(
    plan: &Plan,
    shard: Shard,
    tallies: &Tallies,
    seconds: f64,
    runs: Vec<Run>,
) -> ShardResult {
    let summed = tallies.summed(plan);
    ShardResult {
        format: SHARD_FORMAT.into(),
        version: VERSION.into(),
        n: plan.n(),
        method: plan.method().name().into(),
        split_depth: plan.depth(),
        subproblems: plan.len(),
        shard: shard.index,
        shards: shard.count,
        total: summed.total,
        nodes: summed.nodes,
        digest: summed.digest,
        results: tallies
            .iter()
            .map(|(id, t)| (id, t.solutions, t.nodes))
            .collect(),
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
    /// The loop of the writer thread, until `finished` is set: each write streams the
    /// tallies from where the workers keep them.
    pub fn keep_writing(&self, tallies: &Tallies, finished: &AtomicBool, bar: &Bar) {
        let mut cadence = Cadence::new(self.every);
        let mut failing = false;
        while !finished.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(20).min(cadence.wait()));
            if !cadence.due() {
                continue;
            }
            let written = cadence.time(|| self.write(tallies));
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

    /// Writes the checkpoint with the sub-problems `tallies` holds now: those finished
    /// when it starts (the workers go on finishing others while it is written, and the
    /// records and their digest must be of one set).
    pub fn write(&self, tallies: &Tallies) -> std::io::Result<()> {
        let run = self.started.elapsed().as_secs_f64();
        let snapshot = tallies.snapshot();
        write_checkpoint(
            self.path,
            self.numbering,
            || snapshot.iter(),
            self.seconds_before + run,
            with_run(&self.runs_before, &self.this_run, run),
        )
    }
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
