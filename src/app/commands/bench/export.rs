//! A benchmark's figures as text, as a Markdown table, and beside a saved report.

use super::figures::{BenchReport, ThreadResult};
use crate::app::escape::{ShowPath, escaped};
use crate::app::failure::Failure;
use crate::app::reading::{BENCH_REPORT_BYTES, read_file};
use crate::app::system::{Machine, print_line};
use std::io::Write;

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

pub fn print_text(out: &mut impl Write, r: &BenchReport) -> Result<(), Failure> {
    for line in machine_lines(&r.machine) {
        print_line(out, &line)?;
    }
    print_line(
        out,
        &format!(
            "workload: count N = {}, {} + {} per thread count",
            r.n,
            nqueens::words::plural(r.warmup, "warm-up"),
            nqueens::words::plural(r.runs, "timed run")
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
            "score: {:.4e} nodes/s at {} (N = {}, {}, kernel {})",
            r.score_nodes_per_second,
            nqueens::words::plural(r.score_threads as u64, "thread"),
            r.n,
            r.method,
            r.results.last().map_or("", |t| t.kernel.as_str())
        ),
    )
}

pub fn print_markdown(out: &mut impl Write, r: &BenchReport) -> Result<(), Failure> {
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
            "Score: **{:.3e} nodes/s** at {}.\n",
            r.score_nodes_per_second,
            nqueens::words::plural(r.score_threads as u64, "thread")
        ),
    )?;
    for line in machine_lines(&r.machine) {
        print_line(out, &format!("- {line}"))?;
    }
    Ok(())
}

pub fn load_report(path: &std::path::Path) -> Result<BenchReport, Failure> {
    let bytes = read_file(path, BENCH_REPORT_BYTES, "saved bench report")
        .map_err(|why| Failure::refused(format!("{}: {why}", path.shown())))?;
    let report: BenchReport = serde_json::from_slice(&bytes).map_err(|e| {
        Failure::refused(format!(
            "{} is not a saved `nqueens bench --json` result: {e}",
            path.shown()
        ))
    })?;
    check_report(&report).map_err(|why| {
        Failure::refused(format!(
            "{}: {why}: not a report a run of `nqueens bench` writes",
            path.shown()
        ))
    })?;
    Ok(report)
}

/// Why a report read back cannot be one a run wrote: a figure no run gives (a median of
/// zero, a time that is not finite, a thread count of zero).
fn check_report(report: &BenchReport) -> Result<(), String> {
    if report.results.is_empty() {
        return Err("it holds no results".into());
    }
    for r in &report.results {
        let times = [r.median_seconds, r.min_seconds, r.max_seconds];
        if r.threads == 0 || times.iter().any(|t| !t.is_finite() || *t <= 0.0) {
            return Err(format!(
                "a result of {} threads with median {} s cannot be",
                r.threads, r.median_seconds
            ));
        }
    }
    Ok(())
}

pub fn print_comparison(
    out: &mut impl Write,
    new: &BenchReport,
    old: &BenchReport,
) -> Result<(), Failure> {
    print_line(
        out,
        &format!(
            "compared with {} (commit {}, {}, N = {}): ratio new / old",
            escaped(&old.machine.date),
            escaped(&old.machine.git_commit),
            escaped(&old.machine.cpu),
            old.n
        ),
    )?;
    if (old.n, &old.method) != (new.n, &new.method) {
        print_line(
            out,
            "note: the two runs used different N or methods; ratios compare unlike workloads",
        )?;
    }
    for t in &new.results {
        match old.results.iter().find(|o| o.threads == t.threads) {
            Some(o) => print_line(
                out,
                &format!(
                    "{:>4} {}: median time {:.3}x, nodes/s {:.3}x, solutions/s {:.3}x",
                    t.threads,
                    threads_word(t.threads),
                    t.median_seconds / o.median_seconds,
                    t.nodes_per_second / o.nodes_per_second,
                    t.solutions_per_second / o.solutions_per_second
                ),
            )?,
            None => print_line(
                out,
                &format!(
                    "{:>4} {}: not in the old run",
                    t.threads,
                    threads_word(t.threads)
                ),
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

/// "thread" for one, else "threads" (the number stands in its own column).
fn threads_word(threads: usize) -> &'static str {
    if threads == 1 { "thread" } else { "threads" }
}
