//! Projecting what a count will cost before it starts: its time on the engine's threads
//! and its memory, from a sample of its own sub-problems.
//!
//! Each method samples its own sub-problems ([`Plan::projected_seconds`]); the engine
//! lends it its threads ([`Sampler`]): runs with a deadline, and backtracking's node rate
//! here, measured on a smaller board.

use crate::cpu::Kernel;
use crate::engine::{Engine, NoProgress, Work};
use crate::methods::{Method, Plan};
use crate::methods::{Sampler, Timed};
use crate::schedule::makespan::{self, ShardSeconds};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What a count is projected to cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// The method the count uses.
    pub method: Method,
    /// Its sub-problems.
    pub subproblems: usize,
    /// Seconds of the whole count on the engine's threads.
    pub seconds: f64,
    /// Their 90% interval, where the sample gives one (the join's: a stratified sample
    /// of timed sub-problems; backtracking's probes give none).
    pub interval: Option<(f64, f64)>,
    /// Bytes the engine holds at most for the count ([`Engine::run_bytes`]: the join's
    /// table and its workers' buffers; for backtracking, its sub-problem list; the ids
    /// handed out).
    pub memory_bytes: u64,
    /// Sub-problems the projection timed.
    pub sampled: usize,
    /// Sub-problems it sized, the timed ones among them (see [`Projected::sized`]).
    ///
    /// [`Projected::sized`]: crate::methods::Projected::sized
    pub sized: usize,
    /// One shard's wall time on the engine's threads, where the count is in shards: its
    /// work divided by the threads, and the wait for the last of its units where they are
    /// few a worker (see [`makespan`]).
    pub shard: Option<ShardSeconds>,
}

/// Projects the count of `plan` by `engine`, run whole (`shards` = 1) or in `shards`
/// shards, spending about `budget` seconds on the sample, on a
/// machine with `cpus` CPUs: the sample runs on the engine's threads here, and the
/// projection is for as many threads each as fast as one of this machine's CPUs (so
/// `--threads 64` on a 2-CPU machine projects a 64-core node like this one).
///
/// Once `stop` is set the sample ends at once (it hands out no further sub-problem),
/// and the projection is made from what was sampled.
pub fn project(
    engine: &Engine,
    plan: &Plan,
    shards: usize,
    budget: f64,
    cpus: usize,
    stop: Option<&AtomicBool>,
) -> Projection {
    let busy = engine.threads().min(cpus.max(1)) as f64;
    let speed_up = engine.threads() as f64 / busy;
    let sampler = EngineSampler { engine, plan, stop };
    let projected = plan.projected_seconds(shards, budget, &sampler);
    let seconds = projected.seconds / speed_up;
    let shard = (shards > 1).then(|| {
        // A worker keeps to a run of sub-problems that share their work (a row set's
        // pins at N = 28): the run is the unit dealt out.
        let per_unit = plan.solver().ids_per_run();
        let units = plan.len() as f64 / shards as f64 / per_unit as f64;
        let threads = engine.threads();
        let work = seconds * threads as f64 / shards as f64;
        makespan::shard_seconds(&projected.timed_seconds, per_unit, units, threads, work)
    });
    Projection {
        method: plan.method(),
        subproblems: plan.len(),
        seconds,
        interval: projected
            .interval
            .map(|(low, high)| (low / speed_up, high / speed_up)),
        memory_bytes: engine.run_bytes(plan, 1),
        sampled: projected.sampled,
        sized: projected.sized,
        shard,
    }
}

/// Nodes per second on this engine's threads, counting a board small enough to take
/// about `budget` seconds at most.
fn node_rate(engine: &Engine, n: usize, budget: f64, stop: Option<&AtomicBool>) -> f64 {
    let mut rate = 0.0;
    // Board 12 at least (a smaller board, whose count is projected too, runs too fast to
    // time: N = 10 was projected at an hour), 16 at most.
    for board in 12..=n.clamp(12, 16) {
        let Ok(plan) = engine.prepare_by(Method::BACKTRACK, board, 1, false) else {
            break;
        };
        let ids: Vec<usize> = (0..plan.len()).collect();
        let (done, seconds) = run_for(engine, &plan, &ids, budget, &|| false, stop);
        let nodes: u64 = done.iter().map(|t| t.tally.nodes).sum();
        rate = nodes as f64 / seconds.max(1e-9);
        // The next board takes about 8x as long.
        if seconds * 8.0 > budget {
            break;
        }
    }
    rate.max(1.0)
}

/// Runs the sub-problems `ids` of `plan`, handing out none after `seconds` or once
/// `full` says so (those in hand are finished, so a sample is of whole sub-problems)
/// and abandoning the run once `stop` is set; returns those that finished and the
/// seconds it took.
fn run_for(
    engine: &Engine,
    plan: &Plan,
    ids: &[usize],
    seconds: f64,
    full: &(dyn Fn() -> bool + Sync),
    stop: Option<&AtomicBool>,
) -> (Vec<Timed>, f64) {
    let (close, over) = (AtomicBool::new(false), AtomicBool::new(false));
    let finished = AtomicUsize::new(0);
    let timed = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !over.load(Ordering::Relaxed) {
                // A full sample still has one sub-problem, to project from.
                let has_one = finished.load(Ordering::Relaxed) > 0;
                if started.elapsed().as_secs_f64() > seconds || has_one && full() {
                    close.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let work = Work {
            only: Some(ids),
            stop,
            close: Some(&close),
            timed: true,
            finished: Some(&|id, tally, seconds| {
                finished.fetch_add(1, Ordering::Relaxed);
                let one = Timed { id, tally, seconds };
                timed.lock().expect("no panics hold it").push(one);
            }),
            ..Work::default()
        };
        engine.run(plan, &work, &NoProgress);
        over.store(true, Ordering::Relaxed);
    });
    let timed = timed.into_inner().expect("no panics hold it");
    (timed, started.elapsed().as_secs_f64())
}

/// The engine's threads lent to a plan's sample.
struct EngineSampler<'a> {
    engine: &'a Engine,
    plan: &'a Plan,
    stop: Option<&'a AtomicBool>,
}

impl Sampler for EngineSampler<'_> {
    fn threads(&self) -> usize {
        self.engine.threads()
    }

    fn kernel(&self) -> Kernel {
        Kernel::new(self.engine.kernel()).expect("the engine's kernel runs on this CPU")
    }

    fn table_budget(&self) -> Option<u64> {
        self.engine.table_budget(self.plan.method(), self.plan.n())
    }

    fn run_for(
        &self,
        ids: &[usize],
        seconds: f64,
        full: &(dyn Fn() -> bool + Sync),
    ) -> (Vec<Timed>, f64) {
        run_for(self.engine, self.plan, ids, seconds, full, self.stop)
    }

    fn on_each_thread(&self, work: &(dyn Fn() + Sync)) {
        self.engine.on_each_thread(work);
    }

    fn node_rate(&self, seconds: f64) -> f64 {
        node_rate(self.engine, self.plan.n(), seconds, self.stop)
    }

    fn stop(&self) -> Option<&AtomicBool> {
        self.stop
    }
}
