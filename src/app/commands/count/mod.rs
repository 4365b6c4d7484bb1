//! `nqueens count`: one pipeline for every way of counting (plain, checkpointed, one
//! shard, over MPI): check the request and claim every file it will write, prepare the
//! split, run the sub-problems with the sinks attached (progress, checkpoint), report.

mod longrun;
#[cfg(feature = "mpi")]
mod mpi_ranks;

use crate::app::args::CountArgs;
use crate::app::args::engine::{EngineFlags, worded};
use crate::app::failure::Failure;
use crate::app::output::{FileLock, check_writable, same_file, write_atomically};
use crate::app::progress::Bar;
use crate::app::report::{Seconds, print_count, print_header};
use crate::app::signals::Stop;
use crate::app::system::{available_cpus, print_line, say};
use longrun::{Checkpointer, Layout, Saved, Shard, load_checkpoint, shard_result};
use nqueens::records::Checksummed;
use nqueens::words::{duration, human_bytes, plural};
use nqueens::{Engine, Method, Plan, Progress, Tally, Work};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub fn run(args: &CountArgs) -> Result<(), Failure> {
    let shard = args
        .shard
        .as_deref()
        .map(longrun::parse_shard)
        .transpose()?;
    let long = args.checkpoint.is_some() || shard.is_some() || args.mpi;
    if long && args.range.first != args.range.last {
        return Err(Failure::usage(
            "--checkpoint, --shard and --mpi take one board size, not a range",
        ));
    }
    if shard.is_some() && args.output.is_none() {
        return Err(Failure::usage(
            "--shard needs --output FILE for the shard's result",
        ));
    }
    let flags = EngineFlags {
        threads: args.threads,
        split_depth: args.split_depth,
        method: args.method,
        kernel: args.kernel,
    };
    // The parts of one count (checkpointed runs, shards, MPI ranks) must agree on the
    // method wherever they run: their `auto` does not depend on this machine's memory.
    let options = if long {
        flags.options_for_part(args.range.first)?
    } else {
        flags.options()?
    };
    let engine = Engine::new(&options).map_err(worded)?;
    // Every file the run will write is checked, and the checkpoint claimed, before any
    // work: a run must not finish hours of work and then find it cannot save it.
    if let (Some(output), Some(checkpoint)) = (&args.output, &args.checkpoint)
        && same_file(output, checkpoint)
    {
        return Err(Failure::usage(format!(
            "{} is given as both --output and --checkpoint; they must be two files",
            output.display()
        )));
    }
    // A second run on the same output is refused now, not found out when both finish.
    let _output_lock = match &args.output {
        Some(path) => {
            check_writable(path, args.force)?;
            Some(FileLock::claim(path, "output")?)
        }
        None => None,
    };
    let _checkpoint_lock = match &args.checkpoint {
        Some(path) => {
            check_writable(path, true)?;
            Some(FileLock::claim(path, "checkpoint")?)
        }
        None => None,
    };
    let stop = Stop::on_signals()?;
    let mut out = std::io::stdout().lock();
    for (i, n) in args.range.sizes().enumerate() {
        // Preparing (the split, the shard's part) is part of the run's time.
        let started = Instant::now();
        let bar = Bar::new(format!("N = {n}"), args.quiet || args.mpi);
        let parts = shard.map_or(1, |shard| shard.count);
        let plan = engine.prepare_part(n, parts).map_err(worded)?;
        if shard.is_none() && !args.mpi {
            warn_if_long(&engine, &plan, &bar, &stop);
        }
        let covered = longrun::covered(&plan, shard)?;
        let layout = Layout::of(&plan, shard);
        let saved = match &args.checkpoint {
            Some(path) if path.exists() => load_checkpoint(path, &layout)?,
            _ => Saved::default(),
        };
        let ran = if args.mpi {
            match run_on_mpi(&engine, &plan, started)? {
                Some(ran) => ran,
                None => return Ok(()), // a worker rank: rank 0 reports
            }
        } else {
            let part = Part {
                plan: &plan,
                covered: &covered,
                layout: &layout,
                started,
                bar,
            };
            run_here(&engine, part, saved, args, &stop)
        };
        if !ran.complete(&covered) {
            return Err(interrupted(&ran, &covered, args, &stop));
        }
        match shard {
            Some(shard) => report_shard(&mut out, &plan, shard, &covered, &ran, args)?,
            None => {
                let tallies: Vec<Option<Tally>> = (0..plan.len())
                    .map(|id| ran.done.get(&id).copied())
                    .collect();
                let count = engine.finish(&plan, &tallies).map_err(|e| {
                    match (&e, &args.checkpoint) {
                        (nqueens::Error::Inconsistent { .. }, Some(path)) => {
                            Failure::usage(format!(
                                "{e}: the checkpoint {} holds results that were edited or damaged; \
                         remove it and count again",
                                path.display()
                            ))
                        }
                        _ => Failure::failed(e.to_string()),
                    }
                })?;
                // The header comes with the first result: a count that fails or is
                // interrupted before it leaves stdout empty.
                if i == 0 && !args.json {
                    print_header(&mut out)?;
                }
                print_count(&mut out, &count, ran.seconds, args.json)?;
                if ran.seconds.total > ran.seconds.run && !args.json {
                    say(&format!(
                        "N = {n}: {:.3} s in this run, {:.3} s over every run of the checkpoint",
                        ran.seconds.run, ran.seconds.total
                    ));
                }
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

/// Says on stderr, before the work, when a count is projected past an hour (a count of
/// N = 28 would otherwise start silently on a job of years). Only boards that may take
/// that long are sampled, for a second at most.
fn warn_if_long(engine: &Engine, plan: &Plan, bar: &Bar, stop: &Stop) {
    const HOUR: f64 = 3600.0;
    let may_be_long = match plan.method() {
        Method::Backtrack => plan.n() >= 20,
        Method::Halves => plan.n() >= 22,
    };
    if !may_be_long {
        return;
    }
    let p = engine.project(plan, 1.0, available_cpus(), Some(&stop.stop));
    if p.seconds > HOUR && !stop.stop.load(Ordering::Relaxed) {
        bar.note(&format!(
            "nqueens: N = {} by {} is projected to take {} on {} and {} of memory \
             (`nqueens estimate {}` for the figures); Ctrl-C stops it, and --checkpoint \
             FILE keeps its work",
            plan.n(),
            p.method,
            duration(p.seconds),
            plural(engine.threads() as u64, "thread"),
            human_bytes(p.memory_bytes),
            plan.n()
        ));
    }
}

/// What a run of the sub-problems left: every finished one (with those of earlier runs),
/// its time, and why the last checkpoint could not be written, if it could not.
struct Ran {
    done: BTreeMap<usize, Tally>,
    seconds: Seconds,
    checkpoint_failure: Option<String>,
}

impl Ran {
    fn complete(&self, covered: &[usize]) -> bool {
        covered.iter().all(|id| self.done.contains_key(id))
    }
}

/// The part of a count this run covers, and when its preparation began.
struct Part<'a> {
    plan: &'a Plan,
    covered: &'a [usize],
    layout: &'a Layout,
    started: Instant,
    /// The progress bar, up since the preparation began.
    bar: Bar,
}

/// Runs the sub-problems not yet saved on this machine's threads, with the progress bar
/// and (with `--checkpoint`) the checkpoint writer attached; the checkpoint is written
/// once more at the end, finished or stopped.
fn run_here(engine: &Engine, part: Part, saved: Saved, args: &CountArgs, stop: &Stop) -> Ran {
    let Part {
        plan,
        covered,
        layout,
        started,
        bar,
    } = part;
    let sink = Sink {
        bar,
        already: saved.done.len() as u64,
    };
    let fresh = Mutex::new(Vec::new());
    let checkpointer = args.checkpoint.as_deref().map(|path| Checkpointer {
        path,
        layout,
        every: args.checkpoint_every,
        seconds_before: saved.seconds,
        started,
    });
    let finished = AtomicBool::new(false);
    let results = std::thread::scope(|scope| {
        if let Some(writer) = &checkpointer {
            let (saved, sink, finished, fresh) = (&saved, &sink, &finished, &fresh);
            scope.spawn(move || writer.keep_writing(&saved.done, fresh, finished, &sink.bar));
        }
        let skip = |id: usize| saved.done.contains_key(&id);
        let record = |id: usize, tally: Tally| {
            fresh.lock().expect("no panics hold it").push((id, tally));
        };
        let work = Work {
            only: Some(covered),
            skip: Some(&skip),
            stop: Some(&stop.stop),
            finished: Some(&record),
            ..Work::default()
        };
        let results = engine.run(plan, &work, &sink);
        finished.store(true, Ordering::Relaxed);
        results
    });
    sink.bar.finish();
    let mut done = saved.done;
    done.extend(results);
    let checkpoint_failure = checkpointer.and_then(|writer| {
        writer
            .write(&done)
            .err()
            .map(|e| format!("cannot write checkpoint {}: {e}", writer.path.display()))
    });
    let run = started.elapsed().as_secs_f64();
    Ran {
        done,
        seconds: Seconds {
            run,
            total: saved.seconds + run,
        },
        checkpoint_failure,
    }
}

#[cfg(feature = "mpi")]
fn run_on_mpi(engine: &Engine, plan: &Plan, started: Instant) -> Result<Option<Ran>, Failure> {
    Ok(mpi_ranks::distribute(engine, plan)?.map(|done| Ran {
        done,
        seconds: Seconds::once(started.elapsed().as_secs_f64()),
        checkpoint_failure: None,
    }))
}

#[cfg(not(feature = "mpi"))]
fn run_on_mpi(_: &Engine, _: &Plan, _: Instant) -> Result<Option<Ran>, Failure> {
    Err(Failure::usage(
        "--mpi needs a build with the `mpi` feature: cargo build --release --features mpi",
    ))
}

/// The failure of a run stopped by a signal: what was done and what was kept.
fn interrupted(ran: &Ran, covered: &[usize], args: &CountArgs, stop: &Stop) -> Failure {
    let finished = covered
        .iter()
        .filter(|id| ran.done.contains_key(id))
        .count();
    let saved = match (&args.checkpoint, &ran.checkpoint_failure) {
        (Some(_), None) => "saved; run the same command again to resume".to_string(),
        (Some(_), Some(why)) => format!("{why} (the last checkpoint written is kept)"),
        (None, _) => "nothing was saved (use --checkpoint FILE to keep partial work)".into(),
    };
    let status = if ran.checkpoint_failure.is_some() {
        1
    } else {
        stop.status()
    };
    Failure::interrupted(
        format!(
            "interrupted with {finished} of {} done; {saved}",
            nqueens::words::plural(covered.len() as u64, "sub-problem")
        ),
        status,
    )
}

/// Writes the shard's result file; if it cannot be written, the result goes to stdout
/// instead (so the work is not lost) and the run fails naming the file and the reason.
fn report_shard(
    out: &mut impl std::io::Write,
    plan: &Plan,
    shard: Shard,
    covered: &[usize],
    ran: &Ran,
    args: &CountArgs,
) -> Result<(), Failure> {
    let result = shard_result(plan, shard, covered, &ran.done, ran.seconds.total);
    let path = args
        .output
        .as_deref()
        .expect("checked: a shard has an output");
    let text = result.to_file_text();
    let summary = format!(
        "shard {shard} of N = {}: {}, total contribution {}",
        plan.n(),
        nqueens::words::plural(covered.len() as u64, "sub-problem"),
        result.total
    );
    match write_atomically(path, &text, args.force) {
        Ok(()) => print_line(out, &format!("{summary}, written to {}", path.display())),
        Err(e) => {
            print_line(out, &format!("{summary}; its result file follows:"))?;
            print_line(out, text.trim_end())?;
            Err(Failure::failed(format!(
                "cannot write {}: {e}; the shard's result is on stdout: save that line as \
                 the file for `nqueens merge`",
                path.display()
            )))
        }
    }
}

/// Progress for a run: the bar, starting from the work already saved.
struct Sink {
    bar: Bar,
    already: u64,
}

impl Progress for Sink {
    fn begin(&self, subproblems: u64, work: f64) {
        self.bar.begin(self.already + subproblems, work);
        // The sub-problems saved before count on the bar, not in this run's work.
        self.bar.advance(self.already, 0.0);
    }

    fn advance(&self, done: u64, work: f64) {
        self.bar.advance(done, work);
    }
}
