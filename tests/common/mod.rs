//! What the test binaries share: the command under test, and the naive oracle (the
//! library's [`nqueens::oracle`], independent of the engine) with orbits found by applying
//! the eight symmetries with their textbook formulas.
//!
//! Each test binary uses only part of it.
#![allow(dead_code)]

use assert_cmd::Command;
pub use nqueens::oracle::all_solutions;
use serde_json::Value;
use std::collections::BTreeSet;

/// The `nqueens` binary, ready to be given arguments.
pub fn nqueens() -> Command {
    Command::cargo_bin("nqueens").expect("binary built")
}

/// Every subcommand, as `nqueens --help` lists them.
pub const COMMANDS: [&str; 12] = [
    "count",
    "verify",
    "bench",
    "solve",
    "find",
    "check",
    "trace",
    "merge",
    "recount",
    "estimate",
    "completions",
    "man",
];

/// The most threads the command line accepts on this machine: 128 per CPU, at most 1,024.
pub fn max_threads() -> usize {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    (128 * cpus).min(1024)
}

/// Says that a check did not run here, and why, in the test run's own output: written to
/// the process's stderr directly, past the test harness's capture, so a skipped check is
/// never silent.
pub fn skipped(check: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {check}: {why}");
}

/// A symmetry as a map of `(n, row, col)` to the image square.
type SquareMap = fn(usize, usize, usize) -> (usize, usize);

/// The eight images of a solution, by the formulas of the square's symmetries.
pub fn images(cols: &[usize]) -> Vec<Vec<usize>> {
    let n = cols.len();
    let maps: [SquareMap; 8] = [
        |_, r, c| (r, c),
        |n, r, c| (c, n - 1 - r),
        |n, r, c| (n - 1 - r, n - 1 - c),
        |n, r, c| (n - 1 - c, r),
        |_, r, c| (c, r),
        |n, r, c| (r, n - 1 - c),
        |n, r, c| (n - 1 - c, n - 1 - r),
        |n, r, c| (n - 1 - r, c),
    ];
    maps.iter()
        .map(|map| {
            let mut image = vec![0; n];
            for (r, &c) in cols.iter().enumerate() {
                let (r2, c2) = map(n, r, c);
                image[r2] = c2;
            }
            image
        })
        .collect()
}

/// Total, unique, and the number of orbits of each size 8, 4, 2, 1.
#[allow(dead_code)]
pub fn orbit_census(n: usize) -> (u128, u128, [u128; 4]) {
    let solutions = all_solutions(n);
    let mut seen = BTreeSet::new();
    let mut sizes = [0u128; 4];
    for s in &solutions {
        if seen.contains(s) {
            continue;
        }
        let orbit: BTreeSet<Vec<usize>> = images(s).into_iter().collect();
        let slot = match orbit.len() {
            8 => 0,
            4 => 1,
            2 => 2,
            1 => 3,
            other => panic!("orbit of {other}"),
        };
        sizes[slot] += 1;
        seen.extend(orbit);
    }
    (solutions.len() as u128, sizes.iter().sum(), sizes)
}

/// True when `cols` is a solution, in O(N): one pass with column and diagonal sets.
pub fn is_solution(cols: &[usize]) -> bool {
    let n = cols.len();
    let mut seen = vec![false; 5 * n];
    cols.iter().enumerate().all(|(r, &c)| {
        if c >= n {
            return false;
        }
        let slots = [c, n + r + c, 3 * n + r + n - 1 - c];
        let fresh = slots.iter().all(|&s| !seen[s]);
        slots.iter().for_each(|&s| seen[s] = true);
        fresh
    })
}

/// The JSON lines a successful run prints on stdout.
pub fn json_lines(args: &[&str]) -> Vec<Value> {
    stdout_of(args)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

/// What a successful run prints on stdout.
pub fn stdout_of(args: &[&str]) -> String {
    let out = nqueens()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// A solution printed as a list of columns.
pub fn parse_list(line: &str) -> Vec<usize> {
    line.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}
