//! `nqueens count`: a table or JSON Lines, one board size at a time.

use super::cli::CountArgs;
use super::progress::Bar;
use super::{Failure, print_line};
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
    seconds: f64,
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

pub fn run(args: &CountArgs) -> Result<(), Failure> {
    let options = Options {
        threads: args.threads.map(|t| t as usize),
        split_depth: args.split_depth.map(|d| d as usize),
        method: args.method.choice(),
        kernel: args.kernel.choice(),
    };
    if args.mpi {
        #[cfg(feature = "mpi")]
        return super::mpi_run::run(args, &options);
        #[cfg(not(feature = "mpi"))]
        return Err(Failure::usage(
            "--mpi needs a build with the `mpi` feature: cargo build --release --features mpi",
        ));
    }
    if args.checkpoint.is_some() || args.shard.is_some() {
        return super::longrun::run(args, &options);
    }
    let mut out = std::io::stdout().lock();
    for (i, n) in args.range.sizes().enumerate() {
        let (count, seconds) = timed_count(n, &options, args.quiet)?;
        // The header comes with the first result: a count that fails or is interrupted
        // before it leaves stdout empty.
        if i == 0 && !args.json {
            print_header(&mut out)?;
        }
        print_count(&mut out, &count, seconds, args.json)?;
    }
    Ok(())
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
    seconds: f64,
    json: bool,
) -> Result<(), Failure> {
    let line = if json {
        json_line(count, seconds)
    } else {
        format!(
            "{:>3} {:>20} {:>20} {:>11.3}",
            count.n, count.total, count.unique, seconds
        )
    };
    print_line(out, &line)
}

/// Counts one board size with a progress bar, and times it.
pub fn timed_count(n: usize, options: &Options, quiet: bool) -> Result<(Count, f64), Failure> {
    let bar = Bar::new(format!("N = {n}"), quiet);
    let started = Instant::now();
    let count = nqueens::count(n, options, &bar).map_err(|e| Failure::usage(e.to_string()))?;
    let seconds = started.elapsed().as_secs_f64();
    bar.finish();
    Ok((count, seconds))
}

/// The process's peak resident set (`VmHWM`), where Linux tells it.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn json_line(count: &Count, seconds: f64) -> String {
    serde_json::to_string(&JsonCount::new(count, seconds)).expect("plain data serializes")
}

impl JsonCount {
    pub fn new(count: &Count, seconds: f64) -> JsonCount {
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
            seconds,
            threads: count.threads,
            subproblems: count.subproblems,
            split_depth: count.split_depth,
            method: count.method.name(),
            kernel: count.kernel.name(),
            peak_memory_bytes: peak_memory(),
        }
    }
}
