//! `nqueens count`: one pipeline for every way of counting (plain, checkpointed, one
//! shard, over MPI): check the request and claim every file it will write, prepare the
//! split, run the sub-problems with the sinks attached (progress, checkpoint), report.

mod longrun;
#[cfg_attr(not(feature = "mpi"), path = "no_mpi.rs")]
mod mpi_ranks;
mod published;
mod shard_report;
mod tallies;

use crate::app::args::CountArgs;
use crate::app::args::engine::{EngineFlags, worded};
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;
use crate::app::output::{FileLock, check_writable, same_file};
use crate::app::progress::Bar;
use crate::app::projection::{announce_long_range, long_run_note};
use crate::app::report::{Provenance, Seconds, describe_runs, print_count, print_header};
use crate::app::signals::Stop;
use crate::app::system::say;
use longrun::{
    Cadence, Checkpointer, Numbering, Saved, load_checkpoint, shard_result, this_run, with_run,
};
use mpi_ranks::Ranks;
use nqueens::records::Run;
use nqueens::{Engine, Plan, Progress, Tally, Work};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use tallies::Tallies;

pub fn run(args: &CountArgs) -> Result<(), Failure> {
    let ranks = if args.mpi {
        Some(mpi_ranks::join()?)
    } else {
        None
    };
    match (count(args, ranks.as_ref()), &ranks) {
        // Rank 0 ends the job; a worker ends itself, and the MPI runtime then ends the
        // others (rank 0 saving first).
        (Err(failure), Some(ranks)) => {
            say(&format!("nqueens: {}", failure.message));
            if ranks.is_coordinator() {
                ranks.abort(failure.status)
            }
            std::process::exit(i32::from(failure.status))
        }
        (outcome, _) => outcome,
    }
}

/// Bytes of this program and its threads before any count: its code, libraries and
/// allocator (5.6 to 6.0 MB measured on 1 and 2 threads, Debian 12, x86-64), and what
/// each worker thread touches of its stack and heap (117 to 295 KB measured a thread up
/// to 32 threads).
const PROCESS_BYTES: u64 = 7 << 20;
const THREAD_BYTES: u64 = 512 << 10;

/// Bytes a count that may pass an hour ([`Plan::may_be_long`]) holds for the projection
/// it makes first (`long_run_note`): backtracking's node rate plans boards of 12 to 16
/// beside its own, and the sample's order; the allocator keeps their pages (a count of
/// N = 20 by backtracking, the first that projects, peaked 1.1 MB above its bound
/// without this).
const PROJECTION_BYTES: u64 = 4 << 20;

/// Bytes a count of one of `shards` shares of `plan` (1: the whole count) holds at most
/// in this process: the program, the projection a long count makes first, the engine's
/// part ([`Engine::run_bytes`]) and the count's own bookkeeping: a tally a covered sub-problem and, in a shard, the list of
/// its ids and the result's records.
pub fn process_bytes(engine: &Engine, plan: &Plan, shards: usize) -> u64 {
    let covered = plan.len().div_ceil(shards.max(1)) as u64;
    let sharded = match shards > 1 {
        true => covered * (8 + 24),
        false => 0,
    };
    let projection = if plan.may_be_long() {
        PROJECTION_BYTES
    } else {
        0
    };
    PROCESS_BYTES
        .saturating_add(THREAD_BYTES * engine.threads() as u64)
        .saturating_add(projection)
        .saturating_add(engine.run_bytes(plan, shards))
        .saturating_add(tallies::tallies_bytes(covered))
        .saturating_add(sharded)
}

/// The count on this process: the whole job, or (with `ranks`) its part of an MPI job.
fn count(args: &CountArgs, ranks: Option<&Ranks>) -> Result<(), Failure> {
    let shard = args
        .shard
        .as_deref()
        .map(longrun::parse_shard)
        .transpose()?;
    let long = args.checkpoint.is_some() || shard.is_some() || ranks.is_some();
    if long && args.range.first != args.range.last {
        return Err(Failure::refused(
            "--checkpoint, --shard and --mpi take one board size, not a range",
        ));
    }
    if shard.is_some() && args.output.is_none() {
        return Err(Failure::refused(
            "--shard needs --output FILE for the shard's result",
        ));
    }
    let flags = EngineFlags::from_args(&args.engine, args.split_depth);
    // The parts of one count (checkpointed runs, shards, MPI ranks) must agree on the
    // method wherever they run: their `auto` does not depend on this machine's memory.
    let options = if long {
        flags.options_for_part(args.range.first)?
    } else {
        flags.options()?
    };
    let engine = Engine::new(&options).map_err(worded)?;
    // Only rank 0 of an MPI job reads and writes files.
    let keeps_files = ranks.is_none_or(Ranks::is_coordinator);
    // Every file the run will write is checked, and the checkpoint claimed, before any
    // work: a run must not finish hours of work and then find it cannot save it.
    let _locks = if keeps_files {
        claim_files(args)?
    } else {
        Vec::new()
    };
    let stop = Stop::on_signals(&stop_notice(args, ranks))?;
    let mut out = std::io::stdout().lock();
    if keeps_files {
        announce_long_range(&engine, &args.range, &stop.stop, HOW_TO_STOP)?;
    }
    for (i, n) in args.range.sizes().enumerate() {
        // Preparing (the split, the shard's part) is part of the run's time.
        let started = Instant::now();
        let bar = Bar::new(format!("N = {n}"), args.quiet || ranks.is_some());
        let parts = shard.map_or(1, |shard| shard.count);
        let plan = engine.prepare_part(n, parts).map_err(worded)?;
        if shard.is_none() && keeps_files {
            warn_if_long_plan(&engine, &plan, &bar, &stop);
        }
        let tallies = Tallies::new(longrun::covered(&plan, shard)?);
        let numbering = Numbering::of(&plan, shard);
        let saved = match &args.checkpoint {
            Some(path) if keeps_files && path.exists() => resume(path, &numbering, &tallies, &bar)?,
            _ => Saved::default(),
        };
        let part = Share {
            plan: &plan,
            tallies: &tallies,
            numbering: &numbering,
            started,
            bar,
        };
        let ran = match ranks {
            Some(ranks) => run_on_mpi(&engine, ranks, part, saved, args, &stop)?,
            None => run_here(&engine, part, saved, args, &stop),
        };
        if !keeps_files {
            return Ok(()); // an MPI worker: rank 0 reports
        }
        if !tallies.complete() {
            return Err(interrupted(&ran, &tallies, args, &stop));
        }
        match shard {
            Some(shard) => {
                let (seconds, runs) = (ran.seconds.total, ran.runs.clone());
                let result = shard_result(&plan, shard, &tallies, seconds, runs);
                shard_report::report(&mut out, &result, tallies.covered().len(), args)?
            }
            None => {
                let whole = Whole {
                    engine: &engine,
                    plan: &plan,
                    ran: &ran,
                    tallies: &tallies,
                    first: i == 0,
                    on_ranks: ranks.is_some(),
                };
                report_whole(&mut out, whole, args)?;
            }
        }
        // The result is out; a checkpoint that could not be saved is still a failure.
        if let Some(why) = ran.checkpoint_failure {
            return Err(Failure::failed(format!(
                "{why}; the result above is complete"
            )));
        }
    }
    Ok(())
}

/// Reads the checkpoint a run resumes from into `tallies`, and says so.
fn resume(
    path: &std::path::Path,
    numbering: &Numbering,
    tallies: &Tallies,
    bar: &Bar,
) -> Result<Saved, Failure> {
    let saved = load_checkpoint(path, numbering, tallies)?;
    bar.note(&format!(
        "resuming from {}: {} of {} done",
        path.shown(),
        nqueens::words::thousands(saved.finished as u64),
        nqueens::words::plural(tallies.covered().len() as u64, "sub-problem")
    ));
    Ok(saved)
}

/// A whole count that finished here: what [`report_whole`] prints.
struct Whole<'a> {
    engine: &'a Engine,
    plan: &'a Plan,
    ran: &'a Ran,
    tallies: &'a Tallies,
    /// The first board of the range: the table's header comes with it.
    first: bool,
    /// Counted over MPI ranks.
    on_ranks: bool,
}

/// Sums a whole count's sub-problems and prints it (with the runs that did it, when
/// more than this one did); a checkpoint whose results do not add up is refused.
fn report_whole(
    out: &mut impl std::io::Write,
    whole: Whole,
    args: &CountArgs,
) -> Result<(), Failure> {
    let Whole {
        engine,
        plan,
        ran,
        tallies,
        first,
        on_ranks,
    } = whole;
    let summed = tallies.summed(plan);
    let digest = summed.digest;
    let count = engine
        .finish_summed(plan, summed.total, summed.nodes)
        .map_err(|e| match (&e, &args.checkpoint) {
            (nqueens::Error::Inconsistent { .. }, Some(path)) => Failure::refused(format!(
                "{e}: the checkpoint {} holds results that were edited or damaged; remove \
                 it and count again",
                path.shown()
            )),
            _ => Failure::failed(e.to_string()),
        })?;
    // The header comes with the first result: a count that fails or is interrupted
    // before it leaves stdout empty.
    if first && !args.json {
        print_header(out)?;
    }
    // A count done by more than this run names every run that took part.
    let runs = if ran.runs.len() > 1 || on_ranks {
        &ran.runs[..]
    } else {
        &[]
    };
    let provenance = Provenance {
        runs,
        digest: Some(&digest),
    };
    // No wrong total is printed: a count that differs from the table fails instead.
    published::refuse_if_not_published(&count, ran.runs.len() > 1, args)?;
    print_count(out, &count, ran.seconds, provenance, args.json)?;
    if ran.seconds.total > ran.seconds.run && !args.json {
        say(&format!(
            "N = {}: {:.3} s in this run, {:.3} s over every run of the checkpoint ({})",
            plan.n(),
            ran.seconds.run,
            ran.seconds.total,
            describe_runs(&ran.runs)
        ));
    }
    Ok(())
}

/// Checks and claims every file the run will write: the output (`--force` to replace it)
/// and the checkpoint, each locked so that a second run on them is refused now.
fn claim_files(args: &CountArgs) -> Result<Vec<FileLock>, Failure> {
    if let (Some(output), Some(checkpoint)) = (&args.output, &args.checkpoint)
        && same_file(output, checkpoint)
    {
        return Err(Failure::refused(format!(
            "{} is given as both --output and --checkpoint; they must be two files",
            output.shown()
        )));
    }
    let mut locks = Vec::new();
    if let Some(path) = &args.output {
        check_writable(path, args.force)?;
        locks.push(FileLock::claim(path, "output")?);
    }
    if let Some(path) = &args.checkpoint {
        // A checkpoint is replaced as the run goes: one its owner made read-only (even
        // where root could replace it) is kept as it is.
        let read_only = std::fs::metadata(path).is_ok_and(|m| m.permissions().readonly());
        if read_only {
            return Err(Failure::refused(format!(
                "checkpoint {} is read-only, and a run rewrites its checkpoint as it goes; \
                 make it writable (chmod u+w) to resume from it, or name another file",
                path.shown()
            )));
        }
        check_writable(path, true)?;
        locks.push(FileLock::claim(path, "checkpoint")?);
    }
    Ok(locks)
}

/// What a signal will do to this run's work, as the signal's notice says it.
fn stop_notice(args: &CountArgs, ranks: Option<&Ranks>) -> String {
    match (ranks, &args.checkpoint) {
        (Some(ranks), _) if !ranks.is_coordinator() => format!(
            "stopping rank {}; rank 0 keeps what has reached it",
            ranks.rank()
        ),
        (_, Some(path)) => format!(
            "stopping, saving every finished sub-problem in {}",
            path.shown()
        ),
        (_, None) => "stopping; nothing is kept (--checkpoint FILE keeps a count's work)".into(),
    }
}

/// The note said before a count that may pass an hour.
const HOW_TO_STOP: &str = "Ctrl-C stops it, and --checkpoint FILE keeps its work";

/// Says on stderr, before the work, when a count is projected past an hour (a count of
/// N = 28 would otherwise start silently on a job of years).
fn warn_if_long_plan(engine: &Engine, plan: &Plan, bar: &Bar, stop: &Stop) {
    if let Some(note) = long_run_note(engine, plan, &stop.stop, HOW_TO_STOP) {
        bar.note(&note);
    }
}

/// What a run of the sub-problems left (its tallies are in [`Tallies`]): its time, and
/// why the last checkpoint could not be written, if it could not.
struct Ran {
    seconds: Seconds,
    /// Every run that did the work, this one last.
    runs: Vec<Run>,
    checkpoint_failure: Option<String>,
}

/// The part of a count this run covers, and when its preparation began.
struct Share<'a> {
    plan: &'a Plan,
    tallies: &'a Tallies,
    numbering: &'a Numbering,
    started: Instant,
    /// The progress bar, up since the preparation began.
    bar: Bar,
}

/// Runs the sub-problems not yet saved on this machine's threads, each tally noted where
/// the run keeps them, with the progress bar and (with `--checkpoint`) the checkpoint
/// writer attached; the checkpoint is written once more at the end, finished or stopped.
fn run_here(engine: &Engine, part: Share, saved: Saved, args: &CountArgs, stop: &Stop) -> Ran {
    let Share {
        plan,
        tallies,
        numbering,
        started,
        bar,
    } = part;
    let sink = BarProgress {
        bar,
        already: saved.finished as u64,
    };
    let me = this_run(engine, 1);
    let checkpointer = checkpointer(args, numbering, &saved, &me, started);
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(writer) = &checkpointer {
            let (sink, finished) = (&sink, &finished);
            scope.spawn(move || writer.keep_writing(tallies, finished, &sink.bar));
        }
        let skip = |id: usize| tallies.contains(id);
        let record = |id: usize, tally: Tally, _seconds: f64| {
            tallies
                .record(id, tally)
                .expect("the engine hands out each covered sub-problem once");
        };
        let work = Work {
            only: tallies.covered().listed(),
            skip: Some(&skip),
            stop: Some(&stop.stop),
            finished: Some(&record),
            finished_only: true,
            ..Work::default()
        };
        engine.run(plan, &work, &sink);
        finished.store(true, Ordering::Relaxed);
    });
    sink.bar.finish();
    finish_run(tallies, checkpointer, &saved, &me, started)
}

/// The checkpoint writer of a run with `--checkpoint`: this run (`me`) after the saved
/// ones.
fn checkpointer<'a>(
    args: &'a CountArgs,
    numbering: &'a Numbering,
    saved: &Saved,
    me: &Run,
    started: Instant,
) -> Option<Checkpointer<'a>> {
    args.checkpoint.as_deref().map(|path| Checkpointer {
        path,
        numbering,
        every: args.checkpoint_every,
        seconds_before: saved.seconds,
        runs_before: saved.runs.clone(),
        this_run: me.clone(),
        started,
    })
}

/// What a run left, once its checkpoint (if any) is written a last time.
fn finish_run(
    tallies: &Tallies,
    checkpointer: Option<Checkpointer>,
    saved: &Saved,
    me: &Run,
    started: Instant,
) -> Ran {
    let checkpoint_failure = checkpointer.and_then(|writer| {
        writer
            .write(tallies)
            .err()
            .map(|e| format!("cannot write checkpoint {}: {e}", writer.path.shown()))
    });
    let run = started.elapsed().as_secs_f64();
    Ran {
        seconds: Seconds {
            run,
            total: saved.seconds + run,
        },
        runs: with_run(&saved.runs, me, run),
        checkpoint_failure,
    }
}

/// Runs the part over the MPI job's ranks. Rank 0 notes every tally that arrives and
/// writes the checkpoint as [`run_here`] does (when due, and once more at the end, whether
/// the work finished or a signal stopped it); the other ranks only count.
fn run_on_mpi(
    engine: &Engine,
    ranks: &Ranks,
    part: Share,
    saved: Saved,
    args: &CountArgs,
    stop: &Stop,
) -> Result<Ran, Failure> {
    let Share {
        plan,
        tallies,
        numbering,
        started,
        ..
    } = part;
    let me = this_run(engine, ranks.size());
    let checkpointer = checkpointer(args, numbering, &saved, &me, started);
    let todo: Vec<usize> = tallies
        .covered()
        .ids()
        .filter(|&id| !tallies.contains(id))
        .collect();
    let mut cadence = Cadence::new(args.checkpoint_every);
    let mut failing = false;
    ranks.distribute(engine, plan, &todo, stop, tallies, || {
        if let Some(writer) = &checkpointer
            && cadence.due()
        {
            let written = cadence.time(|| writer.write(tallies));
            writer.tell(written, &mut failing, say);
        }
    })?;
    Ok(finish_run(tallies, checkpointer, &saved, &me, started))
}

/// The failure of a run stopped by a signal: what was done and what was kept.
fn interrupted(ran: &Ran, tallies: &Tallies, args: &CountArgs, stop: &Stop) -> Failure {
    let finished = tallies.finished();
    let saved = match (&args.checkpoint, &ran.checkpoint_failure) {
        (Some(path), None) if args.mpi => format!(
            "saved in {}; run the same command again (with any number of ranks) to resume",
            path.shown()
        ),
        (Some(path), None) => format!(
            "saved in {}; run the same command again to resume",
            path.shown()
        ),
        (Some(_), Some(why)) => format!("{why} (the last checkpoint written is kept)"),
        (None, _) => longrun::NOTHING_SAVED.into(),
    };
    let status = if ran.checkpoint_failure.is_some() {
        1
    } else {
        stop.status()
    };
    longrun::stopped_with(finished, tallies.covered().len(), &saved, status)
}

/// Progress for a run: the bar, starting from the work already saved.
struct BarProgress {
    bar: Bar,
    already: u64,
}

impl Progress for BarProgress {
    fn begin(&self, subproblems: u64, work: f64) {
        self.bar.begin(self.already + subproblems, work);
        // The sub-problems saved before count on the bar, not in this run's work.
        self.bar.advance(self.already, 0.0);
    }

    fn advance(&self, done: u64, work: f64) {
        self.bar.advance(done, work);
    }
}
