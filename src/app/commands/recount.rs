//! `nqueens recount FILE`: a random sample of a shard result's sub-problems counted again,
//! with a kernel none of the file's runs used where this CPU has one and, where the method
//! has one, by its other decomposition (the join's even boards: row sets pin by pin where
//! they were counted whole, and whole where pin by pin; from N = 28, each pin against East
//! whole where it was counted against East queen by queen, and the reverse; its odd
//! boards: each pin apart where the pins sharing East were counted together), each count
//! compared with the file's. Volunteer grids check their results by a quorum of two;
//! this checks one at a chosen fraction of the cost.

use crate::app::args::RecountArgs;
use crate::app::args::choices::KernelArg;
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;
use crate::app::progress::Bar;
use crate::app::shard_files::{Purpose, plan_of, read_recountable};
use crate::app::signals::Stop;
use crate::app::system::print_line;
use nqueens::Work;
use nqueens::cpu::KernelLevel;
use nqueens::records::ShardResult;
use nqueens::words::plural;
use serde::Serialize;

/// What `recount --json` prints.
#[derive(Serialize)]
struct JsonRecount {
    n: usize,
    method: String,
    shard: usize,
    shards: usize,
    /// Sub-problems in the file.
    subproblems: usize,
    /// Those counted again.
    recounted: usize,
    seed: u64,
    kernel: &'static str,
    /// Whether each sub-problem was counted by the method's other decomposition (the
    /// join's); else by the same one (backtracking's), with another kernel.
    other_decomposition: bool,
    /// Kernels of the runs that wrote the file.
    file_kernels: Vec<String>,
    /// Sub-problems whose count differs from the file's.
    differ: Vec<usize>,
}

pub fn run(args: &RecountArgs) -> Result<(), Failure> {
    let read = read_recountable(&args.file)?;
    let shard = &read.shard;
    let kernel = match args.kernel {
        KernelArg::Auto => KernelArg::from_level(other_kernel(shard)),
        chosen => chosen,
    };
    let (engine, plan, other_way) =
        plan_of(shard, read.file, args.threads, kernel, Purpose::Recount)?;
    let seed = args.seed.unwrap_or_else(|| fastrand::u64(..));
    let sample = sample_of(shard, args.sample, seed);
    let stop = Stop::on_signals("stopping; the recount is abandoned")?;
    let work = Work {
        only: Some(&sample),
        stop: Some(&stop.stop),
        ..Work::default()
    };
    let label = format!("recount of shard {}/{}", shard.shard, shard.shards);
    let bar = Bar::new(label, args.quiet);
    let counted = engine.run(&plan, &work, &bar);
    bar.finish();
    if stop.stopped() {
        return Err(Failure::interrupted(
            "recount interrupted; nothing to keep",
            stop.status(),
        ));
    }
    let recorded: std::collections::BTreeMap<usize, u64> = shard
        .results
        .iter()
        .map(|&(id, solutions, _)| (id, solutions))
        .collect();
    let mut differ: Vec<usize> = counted
        .iter()
        .filter(|(id, tally)| recorded.get(id) != Some(&tally.solutions))
        .map(|&(id, _)| id)
        .collect();
    differ.sort_unstable();
    let report = JsonRecount {
        n: shard.n,
        method: shard.method.clone(),
        shard: shard.shard,
        shards: shard.shards,
        subproblems: shard.results.len(),
        recounted: counted.len(),
        seed,
        kernel: engine.kernel().name(),
        other_decomposition: other_way,
        file_kernels: file_kernels(shard),
        differ,
    };
    print(&report, args.json)?;
    if !report.differ.is_empty() {
        return Err(Failure::failed(format!(
            "{}: {} of the sample counted differently: {}; count that shard again",
            args.file.shown(),
            plural(report.differ.len() as u64, "sub-problem"),
            nqueens::words::first_of(&report.differ, 10)
        )));
    }
    Ok(())
}

/// The kernels of the runs that wrote the file.
fn file_kernels(shard: &ShardResult) -> Vec<String> {
    let mut kernels: Vec<String> = shard.runs.iter().map(|r| r.kernel.clone()).collect();
    kernels.sort();
    kernels.dedup();
    kernels
}

/// The fastest level this CPU runs that none of the file's runs used; the fastest it runs
/// when it has no other (the count is still a second one, on other threads).
fn other_kernel(shard: &ShardResult) -> KernelLevel {
    let used = file_kernels(shard);
    KernelLevel::available()
        .into_iter()
        .rev()
        .find(|k| !used.iter().any(|u| u == k.name()))
        .unwrap_or_else(KernelLevel::detect)
}

/// `percent` of the file's sub-problems (one at least), drawn by `seed`, in increasing
/// order.
fn sample_of(shard: &ShardResult, percent: f64, seed: u64) -> Vec<usize> {
    let mut ids: Vec<usize> = shard.results.iter().map(|r| r.0).collect();
    let take = ((ids.len() as f64 * percent / 100.0).ceil() as usize).clamp(1, ids.len().max(1));
    fastrand::Rng::with_seed(seed).shuffle(&mut ids);
    ids.truncate(take);
    ids.sort_unstable();
    ids
}

fn print(report: &JsonRecount, json: bool) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    if json {
        return print_line(
            &mut out,
            &serde_json::to_string(report).expect("plain data serializes"),
        );
    }
    let agree = report.recounted - report.differ.len();
    print_line(
        &mut out,
        &format!(
            "shard {}/{} of N = {} by {}: recounted {} of {} (seed {}) with kernel {} \
             (the file's runs: {}){}; {agree} agree, {} differ",
            report.shard,
            report.shards,
            report.n,
            report.method,
            report.recounted,
            plural(report.subproblems as u64, "sub-problem"),
            report.seed,
            report.kernel,
            if report.file_kernels.is_empty() {
                "unrecorded".to_string()
            } else {
                report.file_kernels.join(", ")
            },
            if report.other_decomposition {
                ", each by the other decomposition"
            } else {
                ""
            },
            report.differ.len()
        ),
    )
}
