//! The counting engine: splits a count, spreads the pieces over worker threads
//! ([`crate::workers`]), and sums.
//!
//! Totals come from the border-key split ([`crate::split`]); the unique count and the
//! orbit split come from Burnside's lemma with the rotation-fixed counts of
//! [`crate::fixed`]. For every `n > 1` no solution is fixed by a reflection, so orbits have
//! 8, 4 or 2 members:
//!
//! ```text
//! c2 = fix90 / 2,  c4 = (fix180 - fix90) / 4,  c8 = (total - 4*c4 - 2*c2) / 8
//! ```
//!
//! The 1x1 board's one solution is fixed by all eight symmetries: an orbit of one, counted
//! as `c1` (computed, like the rest, by searching for it).

use crate::cpu::Kernel;
use crate::fixed::count_fixed;
use crate::halves;
use crate::kernel::{MAX_N, Tally, count_stream};
use crate::methods::{Method, MethodChoice, Plan, auto_method};
use crate::split::Split;
use crate::symmetry::Symmetry;
use crate::workers::{Cursor, MAX_THREADS, default_threads, on_threads};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Receives progress from a running count: a no-op unless a caller wants to show it.
///
/// Called from worker threads, once per finished sub-problem; implementations should be
/// cheap and throttle any drawing themselves.
pub trait Progress: Sync {
    /// The count is split into `subproblems` pieces.
    fn begin(&self, _subproblems: u64) {}
    /// `done` more sub-problems have finished.
    fn advance(&self, _done: u64) {}
    /// Sub-problem `id` finished with this tally (for checkpoints).
    fn finished(&self, _id: usize, _tally: Tally) {}
}

/// The progress sink that ignores everything.
pub struct NoProgress;

impl Progress for NoProgress {}

/// How to run a count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Worker threads, 1 to [`MAX_THREADS`]; `None` takes `RAYON_NUM_THREADS`, else every
    /// CPU the process may use ([`default_threads`]).
    pub threads: Option<usize>,
    /// Free rows filled in per border key before the sub-problems start; `None` picks
    /// [`default_split_depth`].
    pub split_depth: Option<usize>,
    /// The counting method.
    pub method: MethodChoice,
    /// The kernel level; `None` takes the fastest this CPU runs ([`Kernel::detect`]).
    pub kernel: Option<Kernel>,
}

/// Largest split depth accepted: deeper prefixes only multiply the bookkeeping.
pub const MAX_SPLIT_DEPTH: usize = 4;

/// The split depth used when none is given: a function of `n` alone, so sub-problem ids
/// do not depend on the machine. One row beyond the border keys gives roughly ten times
/// as many pieces as keys, plenty for dynamic balance while costing a few MB at most.
pub fn default_split_depth(n: usize) -> usize {
    if n < 10 { 0 } else { 1 }
}

/// Orbits of solutions under the eight symmetries, by size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orbits {
    /// Orbits of 8: solutions no symmetry fixes.
    pub c8: u128,
    /// Orbits of 4: solutions fixed by the 180-degree turn only.
    pub c4: u128,
    /// Orbits of 2: solutions fixed by the 90-degree turn.
    pub c2: u128,
    /// Orbits of 1: solutions every symmetry fixes (only the 1x1 board has one).
    pub c1: u128,
}

/// The result of counting one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Board side.
    pub n: usize,
    /// All solutions (OEIS A000170).
    pub total: u128,
    /// Solutions up to symmetry (OEIS A002562).
    pub unique: u128,
    /// The orbit split.
    pub orbits: Orbits,
    /// Queens the searches accepted (the same for every thread count and split depth).
    pub nodes: u128,
    /// Sub-problems the main search was split into.
    pub subproblems: u64,
    /// The split depth used.
    pub split_depth: usize,
    /// Worker threads the count ran on.
    pub threads: usize,
    /// The method that counted the total.
    pub method: Method,
    /// The kernel level it ran.
    pub kernel: Kernel,
}

/// Why a count could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// `n` outside `1..=MAX_N`.
    BoardSize(usize),
    /// A thread count outside `1..=MAX_THREADS`.
    Threads(usize),
    /// `RAYON_NUM_THREADS` is set to something other than a thread count.
    ThreadsVar(String),
    /// A split depth above [`MAX_SPLIT_DEPTH`].
    SplitDepth(usize),
    /// A split depth with the half-board join, which splits by row sets instead.
    SplitDepthWithHalves,
    /// Results are missing for this many sub-problems.
    Incomplete(usize),
    /// The kernel is not one this CPU runs.
    Kernel(Kernel),
    /// The half-board join's tables for board `n` need more memory than is available.
    Memory {
        /// Board side.
        n: usize,
        /// Bytes needed (a lower bound for the largest boards).
        needed: u64,
        /// Bytes available.
        available: u64,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BoardSize(n) => {
                write!(f, "board size {n} is out of range: N must be 1 to {MAX_N}")
            }
            Error::Threads(t) => write!(
                f,
                "thread count {t} is out of range: it must be 1 to {MAX_THREADS}"
            ),
            Error::ThreadsVar(text) => write!(
                f,
                "{} = '{}' is not a thread count: it must be 1 to {MAX_THREADS}",
                crate::workers::THREADS_VAR,
                crate::words::shorten(text)
            ),
            Error::SplitDepth(d) => {
                write!(
                    f,
                    "split depth {d} is out of range: it must be 0 to {MAX_SPLIT_DEPTH}"
                )
            }
            Error::SplitDepthWithHalves => write!(
                f,
                "a split depth applies to backtracking; the half-board join splits by row sets \
                 (drop the split depth or use --method backtrack)"
            ),
            Error::Incomplete(missing) => {
                write!(
                    f,
                    "the results of {} are missing",
                    crate::words::plural(*missing as u64, "sub-problem")
                )
            }
            Error::Kernel(kernel) => {
                let here: Vec<&str> = Kernel::available().iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "kernel {kernel} is not available on this CPU: it runs {}",
                    here.join(", ")
                )
            }
            Error::Memory {
                n,
                needed,
                available,
            } => write!(
                f,
                "counting N = {n} by halves needs {} of memory for its quadrant table, but \
                 {} is available; use --method backtrack",
                human_bytes(*needed),
                human_bytes(*available)
            ),
        }
    }
}

impl std::error::Error for Error {}

/// Bytes in MB or GB, for messages.
fn human_bytes(bytes: u64) -> String {
    if bytes >= 10_000_000_000 {
        format!("{:.0} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.0} MB", (bytes as f64 / 1e6).ceil())
    }
}

/// Memory the system can give this process now (Linux `MemAvailable`); unknown elsewhere.
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        })
        .unwrap_or(u64::MAX)
}

/// Counts the solutions of the `n` x `n` board.
pub fn count(n: usize, options: &Options, progress: &dyn Progress) -> Result<Count, Error> {
    Engine::new(options)?.count(n, progress)
}

/// Which sub-problems a run covers, and how it stops early.
#[derive(Default)]
pub struct Work<'a> {
    /// Only these sub-problem ids (a shard); `None` means all of them.
    pub only: Option<&'a [usize]>,
    /// Ids finished by an earlier run, to skip (resuming from a checkpoint).
    pub skip: Option<&'a (dyn Fn(usize) -> bool + Sync)>,
    /// When set (by a signal handler, say), the run stops between sub-problems.
    pub stop: Option<&'a AtomicBool>,
}

/// The options of a count, checked.
pub struct Engine {
    threads: usize,
    split_depth: Option<usize>,
    method: MethodChoice,
    kernel: Kernel,
}

impl Engine {
    /// Checks the options and starts the pool.
    pub fn new(options: &Options) -> Result<Engine, Error> {
        if let Some(depth) = options.split_depth.filter(|&d| d > MAX_SPLIT_DEPTH) {
            return Err(Error::SplitDepth(depth));
        }
        if options.split_depth.is_some() && options.method == MethodChoice::Only(Method::Halves) {
            return Err(Error::SplitDepthWithHalves);
        }
        let kernel = options.kernel.unwrap_or_else(Kernel::detect);
        if !kernel.is_available() {
            return Err(Error::Kernel(kernel));
        }
        let threads = match options.threads {
            Some(t) if !(1..=MAX_THREADS).contains(&t) => return Err(Error::Threads(t)),
            Some(t) => t,
            None => default_threads()?,
        };
        Ok(Engine {
            threads,
            split_depth: options.split_depth,
            method: options.method,
            kernel,
        })
    }

    /// Worker threads a count runs on.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Counts the solutions of the `n` x `n` board.
    pub fn count(&self, n: usize, progress: &dyn Progress) -> Result<Count, Error> {
        let plan = self.prepare(n)?;
        let mut tallies = vec![None; plan.len()];
        for (id, tally) in self.run(&plan, &Work::default(), progress) {
            tallies[id] = Some(tally);
        }
        self.finish(&plan, &tallies)
    }

    /// The method a count of `n` would use: the choice, with `auto` resolved and boards
    /// the join does not take sent to backtracking. A split depth asks for backtracking.
    pub fn method_for(&self, n: usize) -> Method {
        let method = match self.method {
            MethodChoice::Auto if self.split_depth.is_some() => Method::Backtrack,
            MethodChoice::Auto => auto_method(n),
            MethodChoice::Only(method) => method,
        };
        match method {
            Method::Halves if n < halves::MIN_N => Method::Backtrack,
            Method::Halves
                if self.method == MethodChoice::Auto
                    && halves::Plan::table_bytes(n) > available_memory() =>
            {
                Method::Backtrack
            }
            other => other,
        }
    }

    /// Checks `n` and splits its count by the chosen method.
    pub fn prepare(&self, n: usize) -> Result<Plan, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::BoardSize(n));
        }
        match self.method_for(n) {
            Method::Backtrack => {
                let depth = self.split_depth.unwrap_or_else(|| default_split_depth(n));
                Ok(Plan::Backtrack(Split::new(n, depth)))
            }
            Method::Halves => halves::Plan::new(n, available_memory())
                .map(Plan::Halves)
                .map_err(|refusal| match refusal {
                    halves::Refusal::BoardSize => Error::BoardSize(n),
                    halves::Refusal::Memory { needed, available } => Error::Memory {
                        n,
                        needed,
                        available,
                    },
                }),
        }
    }

    /// Searches the sub-problems `work` selects, spread over the pool, and returns each
    /// finished one's tally (in no particular order). Stopped early, it returns those that
    /// finished; each is also reported to `progress` as it finishes.
    pub fn run(&self, plan: &Plan, work: &Work, progress: &dyn Progress) -> Vec<(usize, Tally)> {
        let todo: Vec<usize> = match work.only {
            Some(ids) => ids.to_vec(),
            None => (0..plan.len()).collect(),
        }
        .into_iter()
        .filter(|&id| !work.skip.is_some_and(|skip| skip(id)))
        .collect();
        progress.begin(todo.len() as u64);
        let stopped = || work.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let cursor = Cursor::new(todo.len());
        let split = match plan {
            Plan::Backtrack(split) => split,
            Plan::Halves(plan) => {
                // One row set at a time from a shared cursor, each thread with its own
                // buffers.
                let kernel = self.kernel;
                let finished = on_threads(self.threads, |_| {
                    let mut scratch = plan.scratch(kernel);
                    let mut finished = Vec::new();
                    while !stopped() {
                        let Some(id) = cursor.next().map(|i| todo[i]) else {
                            break;
                        };
                        let tally = plan.solve(id, &mut scratch);
                        progress.finished(id, tally);
                        progress.advance(1);
                        finished.push((id, tally));
                    }
                    finished
                });
                return finished.into_iter().flatten().collect();
            }
        };
        // Every thread runs one stream of searches and takes the next id from a shared
        // cursor whenever one of its searches ends: the balance of work stealing, one
        // sub-problem at a time, so that each thread keeps several searches interleaved
        // (see `kernel::count_stream`). Ids are handed out in increasing order.
        let finished = on_threads(self.threads, |_| {
            let mut finished = Vec::new();
            count_stream(
                self.kernel,
                || {
                    if stopped() {
                        return None;
                    }
                    let id = todo[cursor.next()?];
                    let (plan, start) = split.search(id);
                    Some((id, plan, start))
                },
                |id, tally| {
                    progress.finished(id, tally);
                    progress.advance(1);
                    finished.push((id, tally));
                },
            );
            finished
        });
        finished.into_iter().flatten().collect()
    }

    /// The count from every sub-problem's tally (indexed by id): the weighted total, and
    /// the unique count and orbit split from the rotation-fixed searches.
    pub fn finish(&self, plan: &Plan, tallies: &[Option<Tally>]) -> Result<Count, Error> {
        let missing =
            tallies.iter().filter(|t| t.is_none()).count() + plan.len().abs_diff(tallies.len());
        if missing > 0 {
            return Err(Error::Incomplete(missing));
        }
        let (mut total, mut main_nodes) = (0u128, 0u128);
        for (id, tally) in tallies.iter().enumerate() {
            let tally = tally.expect("checked above");
            total += u128::from(plan.weight(id)) * u128::from(tally.solutions);
            main_nodes += u128::from(tally.nodes);
        }
        let n = plan.n();
        let (fix90, fix180, fix_all) = (
            count_fixed(n, &[Symmetry::ROT90], self.threads),
            count_fixed(n, &[Symmetry::ROT180], self.threads),
            count_fixed(n, &[Symmetry::ROT90, Symmetry::TRANSPOSE], self.threads),
        );
        let orbits = orbit_split(total, fix180, fix90, fix_all);
        let nodes = [fix90, fix180, fix_all]
            .iter()
            .fold(main_nodes + u128::from(plan.prefix_nodes()), |sum, t| {
                sum + u128::from(t.nodes)
            });
        Ok(Count {
            n,
            total,
            unique: orbits.c8 + orbits.c4 + orbits.c2 + orbits.c1,
            orbits,
            nodes,
            subproblems: plan.len() as u64,
            split_depth: plan.depth(),
            threads: self.threads(),
            method: plan.method(),
            kernel: self.kernel,
        })
    }
}

/// The orbit split from the total and the fixed counts (Burnside, see the module docs).
fn orbit_split(total: u128, fix180: Tally, fix90: Tally, fix_all: Tally) -> Orbits {
    let exact = |num: u128, den: u128| {
        assert!(
            num.is_multiple_of(den),
            "orbit split: {num} is not a multiple of {den}"
        );
        num / den
    };
    let (fix180, fix90, c1) = (
        u128::from(fix180.solutions),
        u128::from(fix90.solutions),
        u128::from(fix_all.solutions),
    );
    let c2 = exact(fix90 - c1, 2);
    let c4 = exact(fix180 - fix90, 4);
    let c8 = exact(total - c1 - 2 * c2 - 4 * c4, 8);
    Orbits { c8, c4, c2, c1 }
}
