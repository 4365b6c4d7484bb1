//! `nqueens bench`: a fixed, repeatable workload at several thread counts, checked against
//! the published table, with the machine beside the figures; or, with `--ladder`, the
//! classic algorithms against the engine.

use super::cli::BenchArgs;
use super::count::json_seconds;
use super::machine::{Machine, available_cpus, describe};
use super::parse::BoardRange;
use super::progress::Bar;
use super::{Failure, print_line};
use indicatif::ProgressBar;
use nqueens::ladder::Rung;
use nqueens::verify::verdict;
use nqueens::{Count, NoProgress, Options};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::time::Instant;

const DEFAULT_N: usize = 16;
const DEFAULT_LADDER_FIRST: usize = 10;
const DEFAULT_LADDER_LAST: usize = 14;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchReport {
    pub machine: Machine,
    pub n: usize,
    /// The counting method of the workload (reports from before it was recorded were
    /// backtracking).
    #[serde(default = "backtrack")]
    pub method: String,
    pub runs: u32,
    pub warmup: u32,
    pub results: Vec<ThreadResult>,
    /// Nodes per second at the largest thread count: the one figure to compare machines.
    pub score_nodes_per_second: f64,
    pub score_threads: usize,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ThreadResult {
    pub threads: usize,
    #[serde(default = "backtrack")]
    pub method: String,
    /// The kernel level (absent in reports from before it was recorded).
    #[serde(default)]
    pub kernel: String,
    pub median_seconds: f64,
    pub min_seconds: f64,
    pub max_seconds: f64,
    pub seconds: Vec<f64>,
    pub nodes: u128,
    pub solutions: u128,
    pub nodes_per_second: f64,
    pub solutions_per_second: f64,
    /// Median time at 1 thread over median time here (absent when 1 thread was not run).
    pub speedup: Option<f64>,
    pub efficiency: Option<f64>,
}

fn backtrack() -> String {
    nqueens::Method::Backtrack.name().into()
}

pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    if args.ladder {
        return ladder(args);
    }
    let n = match args.n {
        None => DEFAULT_N,
        Some(BoardRange { first, last }) if first == last => first,
        Some(_) => {
            return Err(Failure::usage(
                "--n takes one board size (a range only with --ladder)",
            ));
        }
    };
    let old = match &args.compare {
        Some(path) => Some(load_report(path)?),
        None => None,
    };
    let threads = thread_counts(args.threads_list.as_deref());
    let total_runs = threads.len() as u64 * u64::from(args.runs + args.warmup);
    let bar = Bar::new(format!("bench N = {n}"), args.quiet).whole_runs(total_runs);

    let mut results = Vec::new();
    for &t in &threads {
        let options = Options {
            threads: Some(t),
            split_depth: None,
            method: args.method.choice(),
            kernel: args.kernel.choice(),
        };
        let mut seconds = Vec::new();
        let mut last: Option<Count> = None;
        for run in 0..args.warmup + args.runs {
            let started = Instant::now();
            let count = nqueens::count(n, &options, &NoProgress)
                .map_err(|e| Failure::usage(e.to_string()))?;
            let elapsed = started.elapsed().as_secs_f64();
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
    let base = results
        .iter()
        .find(|r| r.threads == 1)
        .map(|r| r.median_seconds);
    for r in &mut results {
        r.speedup = base.map(|b| b / r.median_seconds);
        r.efficiency = r.speedup.map(|s| s / r.threads as f64);
    }
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

/// A wrong count fails the whole benchmark: against the table where it has the row,
/// else against the previous run.
fn check(count: &Count, previous: Option<&Count>, threads: usize) -> Result<(), Failure> {
    let v = verdict(count);
    let differs = previous.is_some_and(|p| (p.total, p.unique) != (count.total, count.unique));
    if !v.passed() || (!v.published && differs) {
        return Err(Failure::failed(format!(
            "WRONG COUNT at N = {}, {threads} threads: total {} unique {}; the benchmark is void",
            count.n, count.total, count.unique
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

fn optional(value: Option<f64>, digits: usize) -> String {
    value.map_or("-".into(), |v| format!("{v:.digits$}"))
}

fn machine_lines(m: &Machine) -> Vec<String> {
    vec![
        format!("CPU: {} ({} logical CPUs available)", m.cpu, m.logical_cpus),
        format!("CPU features the kernels use: {}", m.cpu_features.join(" ")),
        format!(
            "memory: {:.1} GiB; OS: {}",
            m.memory_bytes as f64 / (1u64 << 30) as f64,
            m.os
        ),
        format!(
            "nqueens {} (commit {}), {}; {}",
            m.nqueens_version, m.git_commit, m.rustc, m.date
        ),
    ]
}

const COLUMNS: [&str; 8] = [
    "threads",
    "median s",
    "min s",
    "max s",
    "nodes/s",
    "solutions/s",
    "speed-up",
    "efficiency",
];

impl ThreadResult {
    /// The row's figures, formatted, in the order of [`COLUMNS`].
    fn cells(&self) -> [String; 8] {
        [
            self.threads.to_string(),
            format!("{:.3}", self.median_seconds),
            format!("{:.3}", self.min_seconds),
            format!("{:.3}", self.max_seconds),
            format!("{:.3e}", self.nodes_per_second),
            format!("{:.3e}", self.solutions_per_second),
            optional(self.speedup, 2),
            optional(self.efficiency, 2),
        ]
    }
}

fn print_text(out: &mut impl Write, r: &BenchReport) -> Result<(), Failure> {
    for line in machine_lines(&r.machine) {
        print_line(out, &line)?;
    }
    print_line(
        out,
        &format!(
            "workload: count N = {}, {} warm-up + {} timed runs per thread count",
            r.n, r.warmup, r.runs
        ),
    )?;
    let row = |cells: &[String]| cells.iter().map(|c| format!("{c:>12}")).collect::<String>();
    print_line(out, &row(&COLUMNS.map(String::from)))?;
    for t in &r.results {
        print_line(out, &row(&t.cells()))?;
    }
    print_line(
        out,
        &format!(
            "score: {:.4e} nodes/s at {} threads (N = {}, {}, kernel {})",
            r.score_nodes_per_second,
            r.score_threads,
            r.n,
            r.method,
            r.results.last().map_or("", |t| t.kernel.as_str())
        ),
    )
}

fn print_markdown(out: &mut impl Write, r: &BenchReport) -> Result<(), Failure> {
    print_line(
        out,
        &format!(
            "`nqueens bench`: count N = {}, median of {} runs after {} warm-up\n",
            r.n, r.runs, r.warmup
        ),
    )?;
    let row = |cells: &[String]| format!("| {} |", cells.join(" | "));
    print_line(out, &row(&COLUMNS.map(String::from)))?;
    print_line(out, &row(&COLUMNS.map(|_| "---:".to_string())))?;
    for t in &r.results {
        print_line(out, &row(&t.cells()))?;
    }
    print_line(out, "")?;
    print_line(
        out,
        &format!(
            "Score: **{:.3e} nodes/s** at {} threads.\n",
            r.score_nodes_per_second, r.score_threads
        ),
    )?;
    for line in machine_lines(&r.machine) {
        print_line(out, &format!("- {line}"))?;
    }
    Ok(())
}

fn load_report(path: &std::path::Path) -> Result<BenchReport, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        Failure::usage(format!(
            "{} is not a saved `nqueens bench --json` result: {e}",
            path.display()
        ))
    })
}

fn print_comparison(
    out: &mut impl Write,
    new: &BenchReport,
    old: &BenchReport,
) -> Result<(), Failure> {
    print_line(
        out,
        &format!(
            "compared with {} (commit {}, {}, N = {}): ratio new / old",
            old.machine.date, old.machine.git_commit, old.machine.cpu, old.n
        ),
    )?;
    if old.n != new.n {
        print_line(
            out,
            "note: the two runs used different N; ratios compare unlike workloads",
        )?;
    }
    for t in &new.results {
        match old.results.iter().find(|o| o.threads == t.threads) {
            Some(o) => print_line(
                out,
                &format!(
                    "{:>4} threads: median time {:.3}x, nodes/s {:.3}x, solutions/s {:.3}x",
                    t.threads,
                    t.median_seconds / o.median_seconds,
                    t.nodes_per_second / o.nodes_per_second,
                    t.solutions_per_second / o.solutions_per_second
                ),
            )?,
            None => print_line(
                out,
                &format!("{:>4} threads: not in the old run", t.threads),
            )?,
        }
    }
    print_line(
        out,
        &format!(
            "score: {:.3}x",
            new.score_nodes_per_second / old.score_nodes_per_second
        ),
    )
}

/// `--ladder`: each rung at each N, skipped when its projected time passes the budget.
fn ladder(args: &BenchArgs) -> Result<(), Failure> {
    let range = args.n.unwrap_or(BoardRange {
        first: DEFAULT_LADDER_FIRST,
        last: DEFAULT_LADDER_LAST,
    });
    let mut out = std::io::stdout().lock();
    print_line(
        &mut out,
        &format!(
            "{:>3}  {:<18} {:>14} {:>16} {:<21} {:>10} {:>12}",
            "N", "algorithm", "solutions", "steps", "(unit)", "seconds", "x engine"
        ),
    )?;
    // Per rung: the time at the last size run, to project the next one; once over budget
    // a rung stays skipped for larger N, and says where it was first skipped and why.
    let mut last_time: Vec<Option<(usize, f64)>> = vec![None; Rung::ALL.len()];
    let mut first_skip: Vec<Option<(usize, f64)>> = vec![None; Rung::ALL.len()];
    let spinner = if args.quiet {
        ProgressBar::hidden()
    } else {
        super::progress::spinner()
    };
    for n in range.first.min(4)..=range.last {
        let report = n >= range.first;
        let started = Instant::now();
        let engine = nqueens::count(n, &Options::default(), &NoProgress)
            .map_err(|e| Failure::usage(e.to_string()))?;
        let engine_seconds = started.elapsed().as_secs_f64();
        for (i, rung) in Rung::ALL.iter().enumerate() {
            let projected = last_time[i].map(|(m, t)| t * growth(*rung, m, n));
            if first_skip[i].is_none()
                && let Some(p) = projected.filter(|&p| p > args.budget)
            {
                first_skip[i] = Some((n, p));
            }
            if let Some((m, p)) = first_skip[i] {
                if report {
                    let p = if p >= 10.0 {
                        format!("{p:.0}")
                    } else {
                        format!("{p:.3}")
                    };
                    let why = if m == n {
                        format!("projected {p} s")
                    } else {
                        format!("projected {p} s at N = {m} already")
                    };
                    print_line(
                        &mut out,
                        &format!(
                            "{n:>3}  {:<18} skipped: {why} (budget {} s)",
                            rung.name(),
                            args.budget
                        ),
                    )?;
                }
                continue;
            }
            spinner.set_message(format!("N = {n}: {}", rung.name()));
            let started = Instant::now();
            let got = rung.count(n);
            let seconds = started.elapsed().as_secs_f64();
            last_time[i] = Some((n, seconds));
            if got.solutions != engine.total {
                return Err(Failure::failed(format!(
                    "{} counted {} at N = {n}, the engine {}",
                    rung.name(),
                    got.solutions,
                    engine.total
                )));
            }
            if report {
                print_line(
                    &mut out,
                    &format!(
                        "{n:>3}  {:<18} {:>14} {:>16} {:<21} {:>10.4} {:>12.1}",
                        rung.name(),
                        got.solutions,
                        got.steps,
                        rung.step_unit(),
                        seconds,
                        seconds / engine_seconds
                    ),
                )?;
            }
        }
        if report {
            print_line(
                &mut out,
                &format!(
                    "{n:>3}  {:<18} {:>14} {:>16} {:<21} {:>10.4} {:>12.1}",
                    "engine", engine.total, engine.nodes, "queens placed", engine_seconds, 1.0
                ),
            )?;
        }
    }
    spinner.finish_and_clear();
    Ok(())
}

/// How much longer a rung takes at `n` than at `m < n`: from the size of what it walks
/// (N^N boards, N! permutations, or a backtracking tree that grows about 7-fold per N).
fn growth(rung: Rung, m: usize, n: usize) -> f64 {
    (m + 1..=n)
        .map(|k| {
            let k = k as f64;
            match rung {
                Rung::BruteForce => k.powf(k) / (k - 1.0).powf(k - 1.0),
                Rung::Permutations => k,
                _ => 7.0,
            }
        })
        .product()
}
