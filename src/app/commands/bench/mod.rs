//! `nqueens bench`: a fixed, repeatable workload at several thread counts, checked against
//! the published table, with the machine beside the figures; or, with `--ladder`, the
//! classic algorithms against the engine.

mod export;
mod figures;
mod ladder;

use crate::app::args::BenchArgs;
use crate::app::args::engine::EngineFlags;
use crate::app::args::parse::BoardRange;
use crate::app::failure::Failure;
use crate::app::progress::Bar;
use crate::app::report::{json_seconds, timed_count};
use crate::app::signals::Stop;
use crate::app::system::{available_cpus, describe, print_line};
use export::{load_report, print_comparison, print_markdown, print_text};
use figures::{BenchReport, MAX_BENCH_N, ThreadResult};
use nqueens::verify::verdict;
use nqueens::{Count, Options};

const DEFAULT_N: usize = 16;

pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    if args.ladder {
        return ladder::run(args);
    }
    let n = workload(args)?;
    let old = match &args.compare {
        Some(path) => Some(load_report(path)?),
        None => None,
    };
    let results = measure(n, args)?;
    let top = results.last().expect("one thread count at least");
    let report = BenchReport {
        machine: describe(),
        n,
        method: top.method.clone(),
        runs: args.runs,
        warmup: args.warmup,
        score_nodes_per_second: top.nodes_per_second,
        score_threads: top.threads,
        results,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        // One compact object on one line, like every other --json.
        print_line(
            &mut out,
            &serde_json::to_string(&report).expect("serializes"),
        )?;
    } else if args.markdown {
        print_markdown(&mut out, &report)?;
    } else {
        print_text(&mut out, &report)?;
    }
    if let Some(old) = old {
        print_comparison(&mut out, &report, &old)?;
    }
    Ok(())
}

/// The workload's board: one size, at most [`MAX_BENCH_N`].
fn workload(args: &BenchArgs) -> Result<usize, Failure> {
    let n = match args.n {
        None => DEFAULT_N,
        Some(BoardRange { first, last }) if first == last => first,
        Some(_) => {
            return Err(Failure::refused(
                "--n takes one board size (a range only with --ladder)",
            ));
        }
    };
    if n > MAX_BENCH_N {
        return Err(Failure::refused(format!(
            "--n {n} is out of range: a benchmark's workload is N = 1 to {MAX_BENCH_N} (one count \
             of N = {} takes minutes, and a benchmark makes several); time one larger \
             board with `nqueens count {n}`",
            MAX_BENCH_N + 1
        )));
    }
    Ok(n)
}

/// Counts `n` at each thread count, warm-up runs first, every count checked; the figures
/// per thread count, with speed-up and efficiency against one thread.
fn measure(n: usize, args: &BenchArgs) -> Result<Vec<ThreadResult>, Failure> {
    let threads = thread_counts(args.threads_list.as_deref());
    let total_runs = threads.len() as u64 * u64::from(args.runs + args.warmup);
    let bar = Bar::new(format!("bench N = {n}"), args.quiet).whole_runs(total_runs);
    let base = EngineFlags {
        threads: None,
        split_depth: None,
        method: args.method,
        kernel: args.kernel,
    }
    .options()?;
    let stop = Stop::on_signals("stopping; the benchmark is abandoned")?;
    let mut results = Vec::new();
    let mut projected = false;
    for &t in &threads {
        let options = Options {
            threads: Some(t),
            ..base
        };
        let mut seconds = Vec::new();
        let mut last: Option<Count> = None;
        for run in 0..args.warmup + args.runs {
            let (count, elapsed) = timed_count(n, &options, true, &stop)?;
            if !projected {
                projected = true;
                announce_if_long(elapsed * total_runs as f64, total_runs, &bar);
            }
            check(&count, last.as_ref(), t)?;
            if run >= args.warmup {
                seconds.push(elapsed);
            }
            last = Some(count);
            bar.run_done();
        }
        let count = last.expect("at least one run");
        results.push(summarize(t, seconds, &count));
    }
    bar.finish();
    let one = results
        .iter()
        .find(|r| r.threads == 1)
        .map(|r| r.median_seconds);
    for r in &mut results {
        r.speedup = one.map(|b| b / r.median_seconds);
        r.efficiency = r.speedup.map(|s| s / r.threads as f64);
    }
    Ok(results)
}

/// 1, 2, 4, ... up to every available CPU, and that number itself.
fn thread_counts(list: Option<&[usize]>) -> Vec<usize> {
    if let Some(list) = list {
        return list.to_vec();
    }
    let cpus = available_cpus();
    let mut counts: Vec<usize> = std::iter::successors(Some(1), |&t| Some(t * 2))
        .take_while(|&t| t < cpus)
        .collect();
    counts.push(cpus);
    counts
}

/// Says, after the first run, when the benchmark's runs are projected past an hour
/// (every run as long as the first, which ran on the fewest threads).
fn announce_if_long(seconds: f64, runs: u64, bar: &Bar) {
    if seconds > 3600.0 {
        bar.note(&format!(
            "nqueens: the benchmark's {} are projected to take up to {}; Ctrl-C stops it",
            nqueens::words::plural(runs, "run"),
            nqueens::words::duration(seconds)
        ));
    }
}

/// A wrong count fails the whole benchmark: against the table where it has the row,
/// else against the previous run.
fn check(count: &Count, previous: Option<&Count>, threads: usize) -> Result<(), Failure> {
    let v = verdict(count);
    let differs = previous.is_some_and(|p| (p.total, p.unique) != (count.total, count.unique));
    if !v.passed() || (!v.published && differs) {
        return Err(Failure::failed(format!(
            "WRONG COUNT at N = {}, {}: total {} unique {}; the benchmark is void",
            count.n,
            nqueens::words::plural(threads as u64, "thread"),
            count.total,
            count.unique
        )));
    }
    Ok(())
}

fn summarize(threads: usize, seconds: Vec<f64>, count: &Count) -> ThreadResult {
    let mut sorted = seconds.clone();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    let median = if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    };
    ThreadResult {
        threads,
        method: count.method.name().into(),
        kernel: count.kernel.name().into(),
        median_seconds: json_seconds(median),
        min_seconds: json_seconds(sorted[0]),
        max_seconds: json_seconds(sorted[sorted.len() - 1]),
        seconds: seconds.into_iter().map(json_seconds).collect(),
        nodes: count.nodes,
        solutions: count.total,
        nodes_per_second: count.nodes as f64 / median,
        solutions_per_second: count.total as f64 / median,
        speedup: None,
        efficiency: None,
    }
}
