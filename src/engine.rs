//! The counting engine: chooses a method, prepares its sub-problems, runs them on the
//! scheduler ([`crate::schedule`]), and sums.
//!
//! Totals come from the method's weighted sub-problems ([`crate::methods`]); the unique
//! count and the orbit split from the rotation-fixed searches
//! ([`crate::symmetry::fixed`]), run on the same scheduler, and Burnside's lemma
//! ([`crate::symmetry::orbits`]).
//!
//! Everything a count depends on is in its [`Options`]: the engine reads no environment
//! variable and no system file, so two runs given the same options split the same count
//! the same way, whatever machine they run on.

use crate::board::MAX_N;
use crate::cpu::{Kernel, KernelLevel};
use crate::error::Error;
use crate::methods::{MAX_SPLIT_DEPTH, Method, MethodChoice, Plan, Refusal, Sizing, auto_method};
use crate::schedule::{Halts, Noted, Scheduler};
use crate::symmetry::fixed::{FixedSearches, GROUPS};
use crate::symmetry::orbits::Orbits;
use crate::tally::Tally;
use std::sync::atomic::{AtomicBool, Ordering};

/// Receives progress from a running count: a no-op unless a caller wants to show it.
///
/// Called from worker threads, once per finished sub-problem; implementations should be
/// cheap and throttle any drawing themselves. Besides their number, sub-problems come with
/// an estimate of their work ([`Plan::estimated_work`]), so that the share of the work done
/// (and so an ETA) is honest even when the first sub-problems are the largest.
pub trait Progress: Sync {
    /// The run has `subproblems` pieces, of `work` estimated work in all.
    fn begin(&self, _subproblems: u64, _work: f64) {}
    /// `done` more sub-problems have finished, of `work` estimated work.
    fn advance(&self, _done: u64, _work: f64) {}
}

/// The progress sink that ignores everything.
pub struct NoProgress;

impl Progress for NoProgress {}

/// How to run a count: every input the engine uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Worker threads, 1 to [`crate::schedule::MAX_THREADS`]; `None` runs on the rayon
    /// pool the caller is in (outside any, rayon's global pool).
    pub threads: Option<usize>,
    /// Backtracking's split: free rows filled in per border key before the sub-problems
    /// start; `None` picks the board's default.
    pub split_depth: Option<usize>,
    /// The counting method.
    pub method: MethodChoice,
    /// The kernel level; `None` takes the fastest this CPU runs ([`KernelLevel::detect`]).
    pub kernel: Option<KernelLevel>,
    /// Bytes the count may hold in tables; `None` sets no limit. `auto` picks a method
    /// that fits; a method that was asked for and does not fit is refused.
    pub memory_budget: Option<u64>,
}

/// The result of counting one board size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Count {
    /// Board side.
    pub n: usize,
    /// All solutions (OEIS A000170).
    pub total: u128,
    /// Solutions up to symmetry (OEIS A002562).
    pub unique: u128,
    /// The orbit split.
    pub orbits: Orbits,
    /// Units of work (see [`Tally::nodes`]): the same for every thread count and split
    /// depth.
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
    pub kernel: KernelLevel,
}

/// Counts the solutions of the `n` x `n` board.
pub fn count(n: usize, options: &Options, progress: &dyn Progress) -> Result<Count, Error> {
    Engine::new(options)?.count(n, progress)
}

/// Which sub-problems a run covers, how it reports them, and how it stops early.
#[derive(Default)]
pub struct Work<'a> {
    /// Only these sub-problem ids (a shard); `None` means all of them.
    pub only: Option<&'a [usize]>,
    /// Ids finished by an earlier run, to skip (resuming from a checkpoint).
    pub skip: Option<&'a (dyn Fn(usize) -> bool + Sync)>,
    /// When set (by a signal handler, say), the run stops at once: no sub-problem is
    /// handed out, and those in hand are abandoned.
    pub stop: Option<&'a AtomicBool>,
    /// When set (a sample's deadline, say), no sub-problem is handed out, but those in
    /// hand are finished.
    pub close: Option<&'a AtomicBool>,
    /// Called with each sub-problem's id, tally and seconds (on its thread, from being
    /// handed out; 0 unless `timed`) as it finishes: a checkpoint writer, a projection's
    /// sample.
    pub finished: Option<&'a (dyn Fn(usize, Tally, f64) + Sync)>,
    /// Time each sub-problem (a projection's sample).
    pub timed: bool,
    /// Each tally goes to `finished` only, and [`Engine::run`] returns none: a caller
    /// that keeps the tallies itself holds no second copy of them.
    pub finished_only: bool,
}

/// Sub-problem ids [`Engine::run`] lists between two looks at the stop flag: a million
/// take a few milliseconds; N = 28's 280 million took about ten seconds, in which a
/// signal went unanswered.
const IDS_PER_LOOK: usize = 1 << 20;

/// The options of a count, checked, and the worker threads that run it.
pub struct Engine {
    scheduler: Scheduler,
    split_depth: Option<usize>,
    method: MethodChoice,
    kernel: Kernel,
    memory_budget: Option<u64>,
}

impl Engine {
    /// Checks the options and starts the worker threads.
    pub fn new(options: &Options) -> Result<Engine, Error> {
        if let Some(depth) = options.split_depth.filter(|&d| d > MAX_SPLIT_DEPTH) {
            return Err(Error::SplitDepth(depth));
        }
        if let (Some(_), MethodChoice::Only(method)) = (options.split_depth, options.method)
            && !method.takes_split_depth()
        {
            return Err(Error::SplitDepthNotTaken(method));
        }
        let kernel = match options.kernel {
            None => Kernel::detect(),
            Some(level) => Kernel::new(level).ok_or(Error::Kernel(level))?,
        };
        let scheduler = match options.threads {
            Some(threads) => Scheduler::new(threads),
            None => Scheduler::new(rayon::current_num_threads()),
        }?;
        Ok(Engine {
            scheduler,
            split_depth: options.split_depth,
            method: options.method,
            kernel,
            memory_budget: options.memory_budget,
        })
    }

    /// Worker threads a count runs on.
    pub fn threads(&self) -> usize {
        self.scheduler.threads()
    }

    /// Runs `work` once on each worker thread, and returns when all have.
    pub fn on_each_thread(&self, work: &(dyn Fn() + Sync)) {
        self.scheduler.on_each_thread(work);
    }

    /// The kernel level the searches run with.
    pub fn kernel(&self) -> KernelLevel {
        self.kernel.level()
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

    /// The method a count of `n` uses: the choice, with `auto` resolved by
    /// [`auto_method`] (a pure function of `n`, the memory budget and the workers) and
    /// boards below the method's sent to backtracking. A split depth asks for
    /// backtracking.
    pub fn method_for(&self, n: usize) -> Method {
        let method = match self.method {
            MethodChoice::Auto if self.split_depth.is_some() => Method::BACKTRACK,
            MethodChoice::Auto => auto_method(n, self.memory_budget, self.threads()),
            MethodChoice::Only(method) => method,
        };
        if n < *method.boards().start() {
            Method::BACKTRACK
        } else {
            method
        }
    }

    /// Checks `n` and splits its count by the chosen method.
    pub fn prepare(&self, n: usize) -> Result<Plan, Error> {
        self.prepare_part(n, 1)
    }

    /// As [`Engine::prepare`], for a run that counts one of `parts` equal shares of the
    /// sub-problems (a shard): the memory it needs is its share's.
    pub fn prepare_part(&self, n: usize, parts: usize) -> Result<Plan, Error> {
        self.prepare_by(self.method_for(n), n, parts, false)
    }

    /// As [`Engine::prepare_part`], with each sub-problem counted by the method's other
    /// decomposition (see [`Sizing::other_way`]): the same ids and counts by another
    /// path, to check a result by. A board with one way only is an error.
    pub fn prepare_other_way(&self, n: usize, parts: usize) -> Result<Plan, Error> {
        self.prepare_by(self.method_for(n), n, parts, true)
    }

    /// Splits board `n` by `method`, whatever the options choose (the projection's node
    /// rate is backtracking's).
    pub(crate) fn prepare_by(
        &self,
        method: Method,
        n: usize,
        parts: usize,
        other_way: bool,
    ) -> Result<Plan, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::BoardSize(n));
        }
        let sizing = Sizing {
            split_depth: self.split_depth,
            table_budget: self.table_budget(method, n),
            parts,
            other_way,
        };
        Plan::new(method, n, &sizing).map_err(|refusal| match refusal {
            Refusal::BoardSize => Error::BoardSize(n),
            Refusal::NoOtherWay => Error::NoOtherWay { n, method },
            Refusal::Memory { needed, budget } => Error::Memory {
                n,
                needed: needed.saturating_add(self.workers_bytes(method, n)),
                budget: budget.and(self.memory_budget),
                workers: self.threads(),
            },
        })
    }

    /// The memory budget left for a method's tables once its workers have their buffers.
    pub(crate) fn table_budget(&self, method: Method, n: usize) -> Option<u64> {
        let workers = self.workers_bytes(method, n);
        self.memory_budget
            .map(|budget| budget.saturating_sub(workers))
    }

    /// Bytes a run of one of `parts` shares of `plan` (1: the whole count) holds at most
    /// on this engine's threads: the method's tables and its workers' buffers, and the
    /// list of the ids [`Engine::run`] hands out.
    pub fn run_bytes(&self, plan: &Plan, parts: usize) -> u64 {
        let listed = plan.len().div_ceil(parts.max(1)) as u64;
        plan.memory_for_part(self.threads(), parts)
            .saturating_add(listed.saturating_mul(size_of::<usize>() as u64))
    }

    /// What a method's workers' buffers take on board `n`, all together.
    fn workers_bytes(&self, method: Method, n: usize) -> u64 {
        (self.threads() as u64).saturating_mul(method.worker_bytes(n))
    }

    /// Solves the sub-problems `work` selects on the worker threads and returns each
    /// finished one's tally (in no particular order; none with [`Work::finished_only`]).
    /// Stopped early, it returns those that finished.
    pub fn run(&self, plan: &Plan, work: &Work, progress: &dyn Progress) -> Vec<(usize, Tally)> {
        // Listing and costing the sub-problems takes seconds at N = 28 (280 million of
        // them): a stop during the preparation or the listing is answered at once, the
        // flag asked between slices of the ids.
        let stopped = || work.stop.is_some_and(|stop| stop.load(Ordering::Relaxed));
        let listed = work.only.map_or(plan.len(), <[usize]>::len);
        let id_at = |i: usize| work.only.map_or(i, |ids| ids[i]);
        let (mut todo, mut total_work) = (Vec::new(), 0.0);
        for start in (0..listed).step_by(IDS_PER_LOOK) {
            if stopped() {
                return Vec::new();
            }
            for id in (start..listed.min(start + IDS_PER_LOOK)).map(id_at) {
                if !work.skip.is_some_and(|skip| skip(id)) {
                    todo.push(id);
                    total_work += plan.estimated_work(id);
                }
            }
        }
        progress.begin(todo.len() as u64, total_work);
        self.scheduler.run(
            plan.solver(),
            self.kernel,
            &todo,
            Halts {
                stop: work.stop,
                close: work.close,
            },
            Noted {
                timed: work.timed,
                keep: !work.finished_only,
            },
            &|id, tally, seconds| {
                if let Some(finished) = work.finished {
                    finished(id, tally, seconds);
                }
                progress.advance(1, plan.estimated_work(id));
            },
        )
    }

    /// The count from every sub-problem's tally (indexed by id): the weighted total, and
    /// the unique count and orbit split from the rotation-fixed searches.
    pub fn finish(&self, plan: &Plan, tallies: &[Option<Tally>]) -> Result<Count, Error> {
        let missing =
            tallies.iter().filter(|t| t.is_none()).count() + plan.len().abs_diff(tallies.len());
        if missing > 0 {
            return Err(Error::Incomplete(missing));
        }
        let (mut total, mut nodes) = (0u128, 0u128);
        for (id, tally) in tallies.iter().enumerate() {
            let tally = tally.expect("checked above");
            total += u128::from(plan.weight(id)) * u128::from(tally.solutions);
            nodes += u128::from(tally.nodes);
        }
        self.finish_summed(plan, total, nodes)
    }

    /// [`Engine::finish`] from sums a caller made itself, holding no tallies: `total`,
    /// every sub-problem's solutions times its [`Plan::weight`], and `nodes`, theirs
    /// summed (a merge of a million shards sums them file by file).
    pub fn finish_summed(&self, plan: &Plan, total: u128, nodes: u128) -> Result<Count, Error> {
        let mut nodes = nodes + u128::from(plan.prefix_nodes());
        let n = plan.n();
        let fixed = self.fixed_counts(n);
        nodes += fixed.iter().map(|t| u128::from(t.nodes)).sum::<u128>();
        let [fix90, fix180, fix_all] = fixed.map(|t| u128::from(t.solutions));
        let orbits =
            Orbits::split(total, fix90, fix180, fix_all).ok_or(Error::Inconsistent { n, total })?;
        Ok(Count {
            n,
            total,
            unique: orbits.unique(),
            orbits,
            nodes,
            subproblems: plan.len() as u64,
            split_depth: plan.depth(),
            threads: self.threads(),
            method: plan.method(),
            kernel: self.kernel.level(),
        })
    }

    /// The solutions fixed by each of [`GROUPS`] (90-degree turn, 180-degree turn, all),
    /// searched on the worker threads.
    fn fixed_counts(&self, n: usize) -> [Tally; 3] {
        let searches = FixedSearches::new(n);
        let ids: Vec<usize> = (0..searches.len()).collect();
        let mut by_group = [Tally::default(); GROUPS.len()];
        for (id, tally) in self.scheduler.run(
            &searches,
            self.kernel,
            &ids,
            Halts::default(),
            Noted {
                timed: false,
                keep: true,
            },
            &|_, _, _| {},
        ) {
            by_group[searches.group_of(id)] += tally;
        }
        by_group
    }
}
