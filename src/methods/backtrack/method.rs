//! Backtracking as a [`CountingMethod`]: its reach, and its split as a [`MethodPlan`].

use super::sample::sampled_nodes;
use super::split::{Split, default_split_depth};
use crate::board::MAX_N;
use crate::methods::face::{CountingMethod, MethodPlan, Partition, Sizing};
use crate::methods::partition::{by_cost, by_cost_bytes};
use crate::methods::refusal::Refusal;
use crate::methods::sampling::{Projected, Sampler};
use crate::shuffle::Shuffle;
use std::ops::RangeInclusive;

/// Bitmask backtracking over border keys reduced by the eight symmetries.
pub struct Backtracking;

impl CountingMethod for Backtracking {
    fn name(&self) -> &'static str {
        "backtrack"
    }

    fn about(&self) -> &'static str {
        "Bitmask backtracking over border keys"
    }

    fn node_unit(&self) -> &'static str {
        "queens placed"
    }

    fn boards(&self) -> RangeInclusive<usize> {
        1..=MAX_N
    }

    fn takes_split_depth(&self) -> bool {
        true
    }

    fn long_from(&self) -> usize {
        20
    }

    fn plan(&self, n: usize, sizing: &Sizing) -> Result<Box<dyn MethodPlan>, Refusal> {
        if sizing.other_way {
            return Err(Refusal::NoOtherWay);
        }
        let depth = sizing.split_depth.unwrap_or_else(|| default_split_depth(n));
        Ok(Box::new(Split::new(n, depth)))
    }
}

impl MethodPlan for Split {
    fn n(&self) -> usize {
        self.n
    }

    fn len(&self) -> usize {
        Split::len(self)
    }

    fn weight(&self, id: usize) -> u32 {
        Split::weight(self, id)
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn estimated_work(&self, id: usize) -> f64 {
        self.estimated_cost(id)
    }

    fn prefix_nodes(&self) -> u64 {
        self.prefix_nodes
    }

    /// The lists, and three quarters as much again: while a list doubles its old buffer
    /// and the new one are both held, and the planning's own lists come and go (beside
    /// the engine's and the count's bookkeeping, counts peaked at 1.35x the lists at N =
    /// 18 and 1.7x at N = 22); a shard's run also cuts the partition.
    fn memory_for_part(&self, _workers: usize, parts: usize) -> u64 {
        let cut = match parts > 1 {
            true => by_cost_bytes(Split::len(self), parts),
            false => 0,
        };
        (self.heap_bytes().saturating_mul(7) / 4).saturating_add(cut)
    }

    /// Largest estimated cost first, each to the part with the least estimated work so
    /// far.
    fn partition(&self, shards: usize) -> Partition<'_> {
        Partition::listed(by_cost(Split::len(self), shards, |id| {
            self.estimated_cost(id)
        }))
    }

    /// Random probes of the searches, and the node rate of the sampler's threads.
    fn projected_seconds(&self, _shards: usize, budget: f64, sampler: &dyn Sampler) -> Projected {
        let order = &Shuffle::new(Split::len(self), self.n);
        let (nodes, sampled) = sampled_nodes(self, order, budget, sampler.stop());
        Projected {
            seconds: nodes / sampler.node_rate(budget / 2.0),
            interval: None,
            sampled,
            sized: sampled,
            // Its sub-problems are many to a shard, each a sliver of it.
            timed_seconds: Vec::new(),
        }
    }
}
