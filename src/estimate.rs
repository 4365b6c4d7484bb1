//! Projecting what a count will cost before it starts: its time on the engine's threads
//! and its memory, from a sample of its own sub-problems.
//!
//! - Backtracking: the nodes of a sample of sub-problems (in a fixed pseudo-random order)
//!   by Knuth's random probes ([`crate::methods::backtrack::probe`]), scaled to all of
//!   them, over the node rate the engine reaches here on a smaller board. Probes cost
//!   microseconds, so this works for any N, however long the count.
//! - The join: a sample of row sets counted twice, the first time building the quadrant
//!   slabs they need, the second time not; the counting time is scaled to all row sets,
//!   the slab-building time to the whole table.

use crate::engine::{Engine, NoProgress, Work};
use crate::methods::halves::join::Join;
use crate::methods::{Method, Plan};
use crate::shuffle::shuffled;
use crate::tally::Tally;
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
    /// Bytes the count holds at most (the join's table and its workers' buffers; for
    /// backtracking, its sub-problem list).
    pub memory_bytes: u64,
    /// Sub-problems the projection looked at.
    pub sampled: usize,
}

impl Engine {
    /// Projects the count of `plan`, spending about `budget` seconds on the sample, on a
    /// machine with `cpus` CPUs: the sample runs on the engine's threads here, and the
    /// projection is for as many threads each as fast as one of this machine's CPUs (so
    /// `--threads 64` on a 2-CPU machine projects a 64-core node like this one).
    ///
    /// Once `stop` is set the sample ends at once (it hands out no further sub-problem),
    /// and the projection is made from what was sampled.
    pub fn project(
        &self,
        plan: &Plan,
        budget: f64,
        cpus: usize,
        stop: Option<&AtomicBool>,
    ) -> Projection {
        let order = shuffled(plan.len(), plan.n());
        let busy = self.threads().min(cpus.max(1)) as f64;
        let speed_up = self.threads() as f64 / busy;
        let (seconds, sampled) = match plan {
            Plan::Backtrack(split) => {
                let (nodes, sampled) = sampled_nodes(split, &order, budget, stop);
                let rate = self.node_rate(plan.n(), budget / 2.0, stop);
                (nodes / rate, sampled)
            }
            Plan::Halves(join) => self.sampled_join(plan, join, &order, budget, stop),
        };
        Projection {
            method: plan.method(),
            subproblems: plan.len(),
            seconds: seconds / speed_up,
            memory_bytes: plan.memory_for_part(self.threads(), 1),
            sampled,
        }
    }

    /// Nodes per second on this engine's threads, counting a board small enough to take
    /// about `budget` seconds at most.
    fn node_rate(&self, n: usize, budget: f64, stop: Option<&AtomicBool>) -> f64 {
        let mut rate = 0.0;
        for board in 12..=n.min(16) {
            let Ok(plan) = self.prepare_backtrack(board) else {
                break;
            };
            let ids: Vec<usize> = (0..plan.len()).collect();
            let (done, seconds) = self.run_for(&plan, &ids, budget, &|| false, stop);
            let nodes: u64 = done.iter().map(|(_, t)| t.nodes).sum();
            rate = nodes as f64 / seconds.max(1e-9);
            // The next board takes about 8x as long.
            if seconds * 8.0 > budget {
                break;
            }
        }
        rate.max(1.0)
    }

    /// The join's projected seconds from row sets counted twice (see the module docs),
    /// and how many were sampled. The sample is made of runs of consecutive row sets, each
    /// from a place in `order`: neighbours share their south rows and the pieces prepared
    /// for them, as in a count. The first pass hands out row sets for half the budget (a
    /// row set in hand is finished: the deadline only stops handing them out), or until
    /// the slabs it built fill what the memory budget leaves for the table (a shard's
    /// budget may hold a small part of it); the second counts the finished ones again,
    /// their slabs built.
    fn sampled_join(
        &self,
        plan: &Plan,
        join: &Join,
        order: &[usize],
        budget: f64,
        stop: Option<&AtomicBool>,
    ) -> (f64, usize) {
        const RUN: usize = 16;
        // The runs in `order`'s order, each id once: the first ones handed out are a
        // sample of whole runs.
        let mut seen = vec![false; order.len()];
        let ids: Vec<usize> = order
            .iter()
            .take(self.threads() * 64)
            .flat_map(|&start| start..(start + RUN).min(order.len()))
            .filter(|&id| !std::mem::replace(&mut seen[id], true))
            .collect();
        // Each worker's row set in hand may still add its slabs once the table is full.
        let in_hand = self.threads() as u64 * join.row_set_bytes();
        let room = self
            .table_budget(plan.n())
            .map(|budget| budget.saturating_sub(in_hand));
        let full = || room.is_some_and(|room| join.heap_bytes() > room);
        let (finished, cold) = self.run_for(plan, &ids, budget / 2.0, &full, stop);
        let finished: Vec<usize> = finished.iter().map(|&(id, _)| id).collect();
        let (_, warm) = self.run_for(plan, &finished, f64::INFINITY, &|| false, stop);
        let scale = order.len() as f64 / finished.len().max(1) as f64;
        let built = join.built_bytes().max(1) as f64;
        let whole_table = Join::table_bytes(plan.n()) as f64;
        let building = (cold - warm).max(0.0) * (whole_table / built).max(1.0);
        (warm * scale + building.min(cold * scale), finished.len())
    }

    /// Runs the sub-problems `ids` of `plan`, handing out none after `seconds` or once
    /// `full` says so (those in hand are finished, so a sample is of whole sub-problems)
    /// and abandoning the run once `stop` is set; returns those that finished and the
    /// seconds it took.
    fn run_for(
        &self,
        plan: &Plan,
        ids: &[usize],
        seconds: f64,
        full: &(dyn Fn() -> bool + Sync),
        stop: Option<&AtomicBool>,
    ) -> (Vec<(usize, Tally)>, f64) {
        let (close, over) = (AtomicBool::new(false), AtomicBool::new(false));
        let finished = AtomicUsize::new(0);
        let started = Instant::now();
        let done = std::thread::scope(|scope| {
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
                finished: Some(&|_, _| {
                    finished.fetch_add(1, Ordering::Relaxed);
                }),
                ..Work::default()
            };
            let done = self.run(plan, &work, &NoProgress);
            over.store(true, Ordering::Relaxed);
            done
        });
        (done, started.elapsed().as_secs_f64())
    }
}

/// The nodes of every sub-problem of `split`, from probes of those first in `order`,
/// with about `budget` / 2 seconds of probing; and how many were probed.
fn sampled_nodes(
    split: &crate::methods::backtrack::split::Split,
    order: &[usize],
    budget: f64,
    stop: Option<&AtomicBool>,
) -> (f64, usize) {
    use crate::methods::backtrack::probe::probe_nodes;
    const PROBES: u32 = 64;
    let mut rng = fastrand::Rng::with_seed(order.len() as u64);
    let started = Instant::now();
    let (mut sum, mut taken) = (0.0, 0);
    for &id in order {
        let (plan, start) = split.search(id);
        let mut pick = |k: u32| rng.u32(..k);
        let nodes: f64 = (0..PROBES)
            .map(|_| probe_nodes(plan, &start, &mut pick))
            .sum();
        sum += nodes / f64::from(PROBES);
        taken += 1;
        let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped || started.elapsed().as_secs_f64() > budget / 2.0 && taken >= 64 {
            break;
        }
    }
    let scale = order.len() as f64 / taken as f64;
    (sum * scale + split.prefix_nodes as f64, taken)
}
