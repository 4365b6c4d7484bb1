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
    let mut climbs: Vec<Climb> = Rung::ALL.into_iter().map(Climb::new).collect();
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
        for climb in &mut climbs {
            let name = climb.rung.name();
            let line = match climb.step(n, args.budget, &spinner) {
                Step::Skipped(why) => format!(
                    "{n:>3}  {name:<18} skipped: {why} (budget {} s)",
                    args.budget
                ),
                Step::Counted(got, _) if got.solutions != engine.total => {
                    return Err(Failure::failed(format!(
                        "{name} counted {} at N = {n}, the engine {}",
                        got.solutions, engine.total
                    )));
                }
                Step::Counted(got, seconds) => row(
                    n,
                    name,
                    [got.solutions, got.steps],
                    climb.rung.step_unit(),
                    [seconds, seconds / engine_seconds],
                ),
            };
            if report {
                print_line(&mut out, &line)?;
            }
        }
        if report {
            let unit = engine.method.node_unit();
            let line = row(
                n,
                "engine",
                [engine.total, engine.nodes],
                unit,
                [engine_seconds, 1.0],
            );
            print_line(&mut out, &line)?;
        }
    }
    spinner.finish_and_clear();
    Ok(())
}

/// One row of the ladder's table: the count and its steps, their unit, the seconds and
/// their ratio to the engine's.
fn row(
    n: usize,
    name: &str,
    [solutions, steps]: [u128; 2],
    unit: &str,
    [seconds, ratio]: [f64; 2],
) -> String {
    format!(
        "{n:>3}  {name:<18} {solutions:>14} {steps:>16} {unit:<21} {seconds:>10.4} {ratio:>12.1}"
    )
}

/// One rung's way up the board sizes: the time at the last size it ran, to project the
/// next one; once over budget it stays skipped for larger N, and says where it was first
/// skipped and why.
struct Climb {
    rung: Rung,
    last: Option<(usize, f64)>,
    first_skip: Option<(usize, f64)>,
}

/// What a rung did at one board size.
enum Step {
    /// Not run: why.
    Skipped(String),
    /// Run: its count, and the seconds it took.
    Counted(nqueens::ladder::RungCount, f64),
}

impl Climb {
    fn new(rung: Rung) -> Climb {
        Climb {
            rung,
            last: None,
            first_skip: None,
        }
    }

    /// Runs the rung at `n`, or says why not: its projected time passes `budget` here or
    /// did at a smaller N already.
    fn step(&mut self, n: usize, budget: f64, spinner: &ProgressBar) -> Step {
        let projected = self.last.map(|(m, t)| t * growth(self.rung, m, n));
        if self.first_skip.is_none()
            && let Some(p) = projected.filter(|&p| p > budget)
        {
            self.first_skip = Some((n, p));
        }
        if let Some((m, p)) = self.first_skip {
            let p = if p >= 10.0 {
                format!("{p:.0}")
            } else {
                format!("{p:.3}")
            };
            return Step::Skipped(if m == n {
                format!("projected {p} s")
            } else {
                format!("projected {p} s at N = {m} already")
            });
        }
        spinner.set_message(format!("N = {n}: {}", self.rung.name()));
        let started = Instant::now();
        let got = self.rung.count(n);
        let seconds = started.elapsed().as_secs_f64();
        self.last = Some((n, seconds));
        Step::Counted(got, seconds)
    }
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
