//! The half-board join as a [`CountingMethod`]: its reach and memory, and its row sets
//! as a [`MethodPlan`].

use super::join::{Join, LARGEST_N, SMALLEST_N};
use super::{memory, sample};
use crate::methods::face::{CountingMethod, DEFAULT_SAMPLE_SECONDS, MethodPlan, Partition, Sizing};
use crate::methods::partition::shuffled_run;
use crate::methods::refusal::Refusal;
use crate::methods::sampling::{Projected, Sampler};
use std::ops::RangeInclusive;

/// The half-board join (meet in the middle).
pub struct HalfBoardJoin;

impl CountingMethod for HalfBoardJoin {
    fn name(&self) -> &'static str {
        "halves"
    }

    fn about(&self) -> &'static str {
        "The half-board join (meet in the middle), from N = 4"
    }

    fn node_unit(&self) -> &'static str {
        "half-boards built"
    }

    fn boards(&self) -> RangeInclusive<usize> {
        SMALLEST_N..=LARGEST_N
    }

    fn worker_bytes(&self, n: usize) -> u64 {
        memory::worker_bytes(n)
    }

    /// The quadrant table, or as much of it as the join keeps where the whole does not
    /// fit (see `memory::table_room`).
    fn table_bytes(&self, n: usize, budget: Option<u64>) -> u64 {
        memory::table_bytes(n).min(memory::table_room(n, budget))
    }

    fn long_from(&self) -> usize {
        22
    }

    fn plan(&self, n: usize, sizing: &Sizing) -> Result<Box<dyn MethodPlan>, Refusal> {
        let join = Join::new(n, sizing.table_budget, sizing.parts.max(1))?;
        Ok(Box::new(match sizing.other_way {
            false => join,
            true => join.the_other_way(),
        }))
    }
}

impl MethodPlan for Join {
    fn n(&self) -> usize {
        self.n
    }

    fn len(&self) -> usize {
        Join::len(self)
    }

    fn weight(&self, id: usize) -> u32 {
        Join::weight(self, id)
    }

    fn memory_for_part(&self, workers: usize, parts: usize) -> u64 {
        memory::need_for_part(self.n, Join::len(self), workers, parts, self.table_room())
            // The list of pieces: 4 bytes a row set (a block of sub-problems).
            .saturating_add(4 * self.blocks().0 as u64)
    }

    /// A run of the ids in a fixed pseudo-random order of row sets, a row set's pins
    /// together, each part found without listing the others'.
    fn partition(&self, shards: usize) -> Partition<'_> {
        Partition::found(move |index| {
            assert!(index < shards);
            let (blocks, per_block) = self.blocks();
            shuffled_run(blocks, per_block, shards, index, self.n)
        })
    }

    fn projected_seconds(&self, shards: usize, budget: f64, sampler: &dyn Sampler) -> Projected {
        sample::projected_seconds(self, shards, budget, sampler)
    }

    /// Where the table lets slabs go (N >= 25), a sub-problem takes seconds and builds
    /// its slabs cold: four seconds time a handful, and `estimate 27` came out 2.6x its
    /// figure from a minute's sample. A minute times dozens.
    fn sample_seconds(&self) -> f64 {
        match self.table_room() == u64::MAX {
            true => DEFAULT_SAMPLE_SECONDS,
            false => 60.0,
        }
    }
}
