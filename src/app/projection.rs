//! What a long command says before it starts: a projection on stderr for any count that
//! may pass an hour (`count`, `verify`, `bench`), so that a count of years never starts
//! without a word.

use nqueens::words::{duration, human_bytes, plural};
use nqueens::{Engine, Plan};
use std::sync::atomic::{AtomicBool, Ordering};

use super::args::engine::worded;
use super::args::parse::BoardRange;
use super::failure::Failure;
use super::system::{available_cpus, say};

/// Counts projected past this many seconds are announced.
const HOUR: f64 = 3600.0;

/// The note to print before counting `plan` when it is projected to pass an hour; `None`
/// for a shorter count, or when `stop` ended the sample. Only boards that may take that
/// long are sampled, for a second at most. `how_to_stop` ends the note ("Ctrl-C stops
/// it").
pub fn long_run_note(
    engine: &Engine,
    plan: &Plan,
    stop: &AtomicBool,
    how_to_stop: &str,
) -> Option<String> {
    if !plan.may_be_long() {
        return None;
    }
    let p = nqueens::estimate::project(engine, plan, 1, 1.0, available_cpus(), Some(stop));
    (p.seconds > HOUR && !stop.load(Ordering::Relaxed)).then(|| {
        format!(
            "nqueens: N = {} by {} is projected to take {} on {} and {} of memory \
             (`nqueens estimate {}` for the figures); {how_to_stop}",
            plan.n(),
            p.method,
            duration(p.seconds),
            plural(engine.threads() as u64, "thread"),
            human_bytes(p.memory_bytes),
            plan.n()
        )
    })
}

/// Says on stderr, before a range of boards starts, when its last board alone is
/// projected past an hour (`count 1..32` would otherwise start on years without a word).
pub fn announce_long_range(
    engine: &Engine,
    range: &BoardRange,
    stop: &AtomicBool,
    how_to_stop: &str,
) -> Result<(), Failure> {
    let last = range.last;
    if range.first == last {
        return Ok(());
    }
    let plan = engine.prepare(last).map_err(worded)?;
    if let Some(note) = long_run_note(engine, &plan, stop, how_to_stop) {
        say(&format!("{note} (N = {last} ends the range)"));
    }
    Ok(())
}
