//! How counts are reported, by every command that prints one (count, verify, merge,
//! bench): the table's header and rows, the JSON line, and the seconds they quote.

use super::args::engine::worded;
use super::escape::escaped;
use super::failure::Failure;
use super::progress::Bar;
use super::projection::long_run_note;
use super::signals::Stop;
use super::system::{peak_memory, print_line};
use nqueens::records::Run;
use nqueens::{Count, Engine, Options, Work};
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
    /// Worker threads: the most that any run of the count used.
    threads: usize,
    subproblems: u64,
    split_depth: usize,
    method: &'static str,
    /// The kernel level, or the levels of every run that took part joined by "+".
    kernel: String,
    /// This process's peak resident memory so far, in bytes (Linux; absent elsewhere).
    #[serde(skip_serializing_if = "Option::is_none")]
    peak_memory_bytes: Option<u64>,
    /// Every run that did the work, oldest first, for a count that was resumed or merged
    /// from shards.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    runs: Vec<Run>,
    /// The digest of every sub-problem's count ([`nqueens::records::digest`]), where
    /// the count was made of sub-problems this process holds (`count`, `merge`).
    #[serde(skip_serializing_if = "Option::is_none")]
    digest: Option<String>,
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

/// Where a count's figures came from: the runs that did its work when that was more than
/// this process (a resumed count, a merge; else empty), and the digest of its
/// sub-problems' counts where they are at hand.
#[derive(Clone, Copy, Default)]
pub struct Provenance<'a> {
    pub runs: &'a [Run],
    pub digest: Option<&'a str>,
}

/// One count as a table row or a JSON line.
pub fn print_count(
    out: &mut impl std::io::Write,
    count: &Count,
    seconds: Seconds,
    provenance: Provenance,
    json: bool,
) -> Result<(), Failure> {
    let line = if json {
        let mut json = JsonCount::new(count, seconds).done_by(provenance.runs);
        json.digest = provenance.digest.map(String::from);
        serde_json::to_string(&json).expect("plain data serializes")
    } else {
        format!(
            "{:>3} {:>20} {:>20} {:>11.3}",
            count.n, count.total, count.unique, seconds.run
        )
    };
    print_line(out, &line)
}

/// Counts one board size with a progress bar, and times it. A count projected past an
/// hour says so first; a signal stops it within the kernels' reach of
/// the flag, keeping nothing (exit 128 + the signal).
pub fn timed_count(
    n: usize,
    options: &Options,
    quiet: bool,
    stop: &Stop,
) -> Result<(Count, f64), Failure> {
    let engine = Engine::new(options).map_err(worded)?;
    let bar = Bar::new(format!("N = {n}"), quiet);
    let started = Instant::now();
    let plan = engine.prepare(n).map_err(worded)?;
    if let Some(note) = long_run_note(&engine, &plan, &stop.stop, "Ctrl-C stops it") {
        bar.note(&note);
    }
    let work = Work {
        stop: Some(&stop.stop),
        ..Work::default()
    };
    let mut tallies = vec![None; plan.len()];
    for (id, tally) in engine.run(&plan, &work, &bar) {
        tallies[id] = Some(tally);
    }
    bar.finish();
    if stop.stopped() {
        return Err(Failure::interrupted(
            format!(
                "N = {n}: interrupted; nothing is kept (`nqueens count {n} --checkpoint FILE` \
                 keeps a long count's work)"
            ),
            stop.status(),
        ));
    }
    let count = engine.finish(&plan, &tallies).map_err(worded)?;
    Ok((count, started.elapsed().as_secs_f64()))
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
            kernel: count.kernel.name().into(),
            peak_memory_bytes: peak_memory(),
            runs: Vec::new(),
            digest: None,
        }
    }

    /// The count as done by `runs` (none: by this process alone): their kernels and
    /// threads, and the list of them.
    fn done_by(mut self, runs: &[Run]) -> JsonCount {
        if runs.is_empty() {
            return self;
        }
        self.kernel = distinct(runs.iter().map(|r| r.kernel.as_str())).join("+");
        self.threads = runs.iter().map(|r| r.threads).max().unwrap_or(self.threads);
        self.runs = runs.to_vec();
        self
    }
}

/// The runs in words, for a person: "3 runs on hosts a, b; kernels avx2+avx512; 1 to 2
/// threads".
pub fn describe_runs(runs: &[Run]) -> String {
    let hosts = distinct(runs.iter().map(|r| r.host.as_str()));
    let hosts: Vec<String> = hosts
        .iter()
        .map(|h| escaped(&nqueens::words::shorten(h)))
        .collect();
    let kernels = distinct(runs.iter().map(|r| r.kernel.as_str()));
    let kernels: Vec<String> = kernels
        .iter()
        .map(|k| escaped(&nqueens::words::shorten(k)))
        .collect();
    let least = runs.iter().map(|r| r.threads).min().unwrap_or(0);
    let most = runs.iter().map(|r| r.threads).max().unwrap_or(0);
    let threads = if least == most {
        nqueens::words::plural(most as u64, "thread")
    } else {
        format!("{least} to {most} threads")
    };
    format!(
        "{} on {}; kernel {}; {threads}",
        nqueens::words::plural(runs.len() as u64, "run"),
        hosts.join(", "),
        kernels.join("+")
    )
}

/// The values in their first order, each once.
fn distinct<'a>(values: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen: Vec<&str> = Vec::new();
    for value in values {
        if !seen.contains(&value) {
            seen.push(value);
        }
    }
    seen
}
