//! The classic mirror-halved bitmask counter, as a method: the algorithm a user would
//! write or download before looking for something faster, and `bench`'s frozen
//! workload. Its sub-problems are the placements of the first two rows with the first
//! queen in the left half (the right half is its mirror image, so each counts twice),
//! and for an odd board the middle column with the second queen in the left half; each
//! is searched to the bottom by `search`.
//!
//! Frozen on purpose: its work per board never changes when the engine's other methods
//! get faster, so a machine's `bench` score stays comparable across versions (the role
//! an OpenMP backtracking counter at N = 18 plays in the Phoronix Test Suite). It runs
//! on the same sub-problems, rayon pool and checks as every method, and takes no vector
//! kernel.
//!
//! ```
//! use nqueens::{Method, MethodChoice, NoProgress, Options};
//! let options = Options { method: MethodChoice::Only(Method::MIRROR), ..Options::default() };
//! let count = nqueens::count(10, &options, &NoProgress).unwrap();
//! assert_eq!((count.method, count.total, count.unique), (Method::MIRROR, 724, 92));
//! ```

mod search;

use crate::board::MAX_N;
use crate::cpu::Kernel;
use crate::methods::face::{CountingMethod, MethodPlan, Partition, Sizing};
use crate::methods::partition::{by_cost, by_cost_bytes};
use crate::methods::refusal::Refusal;
use crate::methods::sampling::{Projected, Sampler};
use crate::schedule::Solver;
use crate::shuffle::Shuffle;
use crate::tally::Tally;
use std::ops::RangeInclusive;

/// The classic mirror-halved bitmask counter.
pub struct MirrorHalving;

impl CountingMethod for MirrorHalving {
    fn name(&self) -> &'static str {
        "mirror"
    }

    fn about(&self) -> &'static str {
        "The classic mirror-halved bitmask counter, frozen: bench's workload"
    }

    fn node_unit(&self) -> &'static str {
        "queens placed"
    }

    fn boards(&self) -> RangeInclusive<usize> {
        1..=MAX_N
    }

    fn long_from(&self) -> usize {
        19
    }

    fn plan(&self, n: usize, sizing: &Sizing) -> Result<Box<dyn MethodPlan>, Refusal> {
        if sizing.other_way {
            return Err(Refusal::NoOtherWay);
        }
        Ok(Box::new(Openings::new(n)))
    }
}

/// The first two rows' queens of every sub-problem, in a fixed order: its ids.
pub struct Openings {
    n: usize,
    /// The columns of the first row's and the second row's queens (`None` on a board of
    /// one row).
    openings: Vec<(u8, Option<u8>)>,
}

impl Openings {
    /// Lists the openings of board `n`: the first queen's column in the left half, the
    /// second's anywhere it is not attacked; for an odd board also the middle column
    /// first, with the second queen in the left half.
    pub fn new(n: usize) -> Openings {
        assert!((1..=MAX_N).contains(&n));
        if n == 1 {
            return Openings {
                n,
                openings: vec![(0, None)],
            };
        }
        let half = n / 2;
        let mut openings = Vec::new();
        let firsts = (0..half).chain((n % 2 == 1).then_some(half));
        for first in firsts {
            let seconds = if first == half { 0..half } else { 0..n };
            for second in seconds.filter(|&c| c.abs_diff(first) > 1) {
                openings.push((first as u8, Some(second as u8)));
            }
        }
        Openings { n, openings }
    }

    /// Counts sub-problem `id`, or `None` when `halted` says so part-way.
    pub fn solve(&self, id: usize, halted: &dyn Fn() -> bool) -> Option<Tally> {
        match self.openings[id] {
            (_, None) => Some(Tally {
                solutions: 1,
                nodes: 1,
            }),
            (first, Some(second)) => {
                search::from_two_rows(self.n, first.into(), second.into(), halted)
            }
        }
    }
}

impl Solver for Openings {
    fn solve_all(
        &self,
        _kernel: Kernel,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Tally),
        halted: &dyn Fn() -> bool,
    ) {
        // A sub-problem stopped part-way is not reported: it is counted again whole.
        while !halted() {
            let Some(id) = next() else { break };
            let Some(tally) = self.solve(id, halted) else {
                break;
            };
            done(id, tally);
        }
    }
}

impl MethodPlan for Openings {
    fn n(&self) -> usize {
        self.n
    }

    fn len(&self) -> usize {
        self.openings.len()
    }

    /// Each opening stands for itself and its mirror image; a board of one row has one
    /// solution, its own mirror image.
    fn weight(&self, _id: usize) -> u32 {
        if self.n == 1 { 1 } else { 2 }
    }

    /// Its openings, and the partition a shard's run cuts.
    fn memory_for_part(&self, _workers: usize, parts: usize) -> u64 {
        let cut = match parts > 1 {
            true => by_cost_bytes(self.openings.len(), parts),
            false => 0,
        };
        (self.openings.capacity() * size_of::<(u8, Option<u8>)>()) as u64 + cut
    }

    /// Dealt in turn, as if alike: they are few (at most N^2 / 2), and the first row's
    /// column decides most of a search's size, which each part gets a mix of.
    fn partition(&self, shards: usize) -> Partition<'_> {
        Partition::listed(by_cost(self.openings.len(), shards, |_| 1.0))
    }

    /// Sub-problems timed in a fixed pseudo-random order for about `budget` seconds, their
    /// mean scaled to all of them and shared by the threads.
    fn projected_seconds(&self, _shards: usize, budget: f64, sampler: &dyn Sampler) -> Projected {
        let order: Vec<usize> = Shuffle::new(self.openings.len(), self.n).iter().collect();
        let stop = sampler.stop();
        let halted = || stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        let (timed, elapsed) = sampler.run_for(&order, budget, &halted);
        let timed_seconds: Vec<f64> = timed.iter().map(|t| t.seconds).collect();
        let seconds = if timed.len() == order.len() {
            elapsed
        } else {
            let mean = timed_seconds.iter().sum::<f64>() / timed.len().max(1) as f64;
            mean * order.len() as f64 / sampler.threads().max(1) as f64
        };
        Projected {
            seconds,
            interval: None,
            sampled: timed.len(),
            sized: timed.len(),
            timed_seconds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle;

    #[test]
    fn the_openings_sum_to_the_oracle() {
        for n in 1..=10 {
            let plan = Openings::new(n);
            let total: u64 = (0..plan.len())
                .map(|id| plan.solve(id, &|| false).unwrap().solutions * u64::from(plan.weight(id)))
                .sum();
            assert_eq!(total as usize, oracle::all_solutions(n).len(), "N = {n}");
        }
    }

    #[test]
    fn every_opening_is_two_queens_that_do_not_attack() {
        for n in 2..=12 {
            for &(first, second) in &Openings::new(n).openings {
                let second = second.unwrap();
                assert!(usize::from(first) <= n / 2 && usize::from(second) < n);
                assert!(first.abs_diff(second) > 1, "N = {n}: {first}, {second}");
            }
        }
    }
}
