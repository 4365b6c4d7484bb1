//! `nqueens bench --ladder`: the classic algorithms against the engine, each up to the
//! board where its projected time passes the budget.

use super::figures::MAX_BENCH_N;
use crate::app::args::BenchArgs;
use crate::app::args::choices::{KernelArg, MethodArg};
use crate::app::args::engine::{EngineFlags, worded};
use crate::app::args::parse::BoardRange;
use crate::app::failure::Failure;
use crate::app::progress::spinner;
use crate::app::system::print_line;
use indicatif::ProgressBar;
use nqueens::NoProgress;
use nqueens::ladder::Rung;
use std::time::Instant;

const DEFAULT_LADDER_FIRST: usize = 10;
const DEFAULT_LADDER_LAST: usize = 14;
/// What one step of N costs the engine, at most, for projecting its next count.
const ENGINE_GROWTH: f64 = 10.0;

/// `--ladder`: each rung at each N, skipped when its projected time passes the budget.
pub fn run(args: &BenchArgs) -> Result<(), Failure> {
    let range = args.n.unwrap_or(BoardRange {
        first: DEFAULT_LADDER_FIRST,
        last: DEFAULT_LADDER_LAST,
    });
    if range.last > MAX_BENCH_N {
        return Err(Failure::refused(format!(
            "--n {} is out of range: the ladder runs N = 1 to {} (the engine counts each N, \
             and each step up costs it about 8x)",
            range.last, MAX_BENCH_N
        )));
    }
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
        spinner()
    };
    let options = EngineFlags {
        threads: None,
        split_depth: None,
        method: MethodArg::Auto,
        kernel: KernelArg::Auto,
    }
    .options()?;
    let mut engine_last: Option<f64> = None;
    for n in range.first.min(4)..=range.last {
        let report = n >= range.first;
        // The engine is the yardstick of every row, and keeps to the budget too.
        if let Some(projected) = engine_last
            .map(|t| t * ENGINE_GROWTH)
            .filter(|&p| p > args.budget)
        {
            print_line(
                &mut out,
                &format!(
                    "{n:>3}  stopped: the engine's count is projected at {projected:.1} s \
                     (budget {} s)",
                    args.budget
                ),
            )?;
            break;
        }
        let started = Instant::now();
        let engine = nqueens::count(n, &options, &NoProgress).map_err(worded)?;
        let engine_seconds = started.elapsed().as_secs_f64();
        engine_last = Some(engine_seconds);
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
                    "engine",
                    engine.total,
                    engine.nodes,
                    engine.method.node_unit(),
                    engine_seconds,
                    1.0
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
