//! The figures of a benchmark, as printed and saved (`--json`) and read back
//! (`--compare`).

use crate::app::system::Machine;
use serde::{Deserialize, Serialize};

/// The largest board of a workload or the ladder: N = 18 takes seconds by the join, half
/// a minute by backtracking and a minute and a half by the mirror counter on 2 cores;
/// each step up costs about 8x.
pub const MAX_BENCH_N: usize = 18;

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

pub fn backtrack() -> String {
    nqueens::Method::BACKTRACK.name().into()
}
