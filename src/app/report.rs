//! How counts are reported, by every command that prints one (count, verify, merge,
//! bench): the table's header and rows, the JSON line, and the seconds they quote.

use super::args::engine::worded;
use super::failure::Failure;
use super::progress::Bar;
use super::system::{peak_memory, print_line};
use nqueens::{Count, Options};
use serde::Serialize;
use std::time::Instant;

/// One result as printed by `--json`.
#[derive(Serialize)]
pub struct JsonCount {
    n: usize,
    total: u128,
    unique: u128,
    orbits: JsonOrbits,
    nodes: u128,
    /// Seconds of this run.
    seconds: f64,
    /// Seconds of the whole count, over every run that resumed it.
    total_seconds: f64,
    threads: usize,
    subproblems: u64,
    split_depth: usize,
    method: &'static str,
    kernel: &'static str,
    /// The process's peak resident memory so far, in bytes (Linux; absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    peak_memory_bytes: Option<u64>,
}

#[derive(Serialize)]
struct JsonOrbits {
    c8: u128,
    c4: u128,
    c2: u128,
    c1: u128,
}

/// Time spent on a count: in this run, and over every run that resumed it.
#[derive(Clone, Copy)]
pub struct Seconds {
    pub run: f64,
    pub total: f64,
}

impl Seconds {
    /// A count done in one run.
    pub fn once(seconds: f64) -> Seconds {
        Seconds {
            run: seconds,
            total: seconds,
        }
    }
}

/// The table's header line.
pub fn print_header(out: &mut impl std::io::Write) -> Result<(), Failure> {
    print_line(
        out,
        &format!(
            "{:>3} {:>20} {:>20} {:>11}",
            "N", "total", "unique", "seconds"
        ),
    )
}

/// One count as a table row or a JSON line.
pub fn print_count(
    out: &mut impl std::io::Write,
    count: &Count,
    seconds: Seconds,
    json: bool,
) -> Result<(), Failure> {
    let line = if json {
        serde_json::to_string(&JsonCount::new(count, seconds)).expect("plain data serializes")
    } else {
        format!(
            "{:>3} {:>20} {:>20} {:>11.3}",
            count.n, count.total, count.unique, seconds.run
        )
    };
    print_line(out, &line)
}

/// Counts one board size with a progress bar, and times it.
pub fn timed_count(n: usize, options: &Options, quiet: bool) -> Result<(Count, f64), Failure> {
    let bar = Bar::new(format!("N = {n}"), quiet);
    let started = Instant::now();
    let count = nqueens::count(n, options, &bar).map_err(worded)?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    Ok((count, seconds))
}

/// Seconds for JSON: rounded to the microsecond.
pub fn json_seconds(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

impl JsonCount {
    pub fn new(count: &Count, seconds: Seconds) -> JsonCount {
        JsonCount {
            n: count.n,
            total: count.total,
            unique: count.unique,
            orbits: JsonOrbits {
                c8: count.orbits.c8,
                c4: count.orbits.c4,
                c2: count.orbits.c2,
                c1: count.orbits.c1,
            },
            nodes: count.nodes,
            seconds: json_seconds(seconds.run),
            total_seconds: json_seconds(seconds.total),
            threads: count.threads,
            subproblems: count.subproblems,
            split_depth: count.split_depth,
            method: count.method.name(),
            kernel: count.kernel.name(),
            peak_memory_bytes: peak_memory(),
        }
    }
}
