//! The face every counting method shows the engine: [`CountingMethod`] (what it takes
//! and how it splits a count) and [`MethodPlan`] (the count split), with the options a
//! split reads ([`Sizing`]) and the cut of its sub-problems into shards ([`Partition`]).

use super::refusal::Refusal;
use super::sampling::{Projected, Sampler};
use crate::schedule::Solver;
use std::ops::RangeInclusive;

/// What a counting method is: its name and reach, and how it splits a count.
pub trait CountingMethod: Sync + 'static {
    /// The method's name (in `--method`, JSON and the files of long runs).
    fn name(&self) -> &'static str;

    /// One line on what it is (the command line's help for its `--method` value).
    fn about(&self) -> &'static str;

    /// What one of its nodes is (the unit of [`crate::Count::nodes`]).
    fn node_unit(&self) -> &'static str;

    /// The board sides it counts (a board below them goes to backtracking; above them
    /// is refused).
    fn boards(&self) -> RangeInclusive<usize>;

    /// Whether it is split by a depth (`Options::split_depth`), rather than by its own
    /// pieces.
    fn takes_split_depth(&self) -> bool {
        false
    }

    /// Bytes of the buffers one worker holds while counting board `n`.
    fn worker_bytes(&self, _n: usize) -> u64 {
        0
    }

    /// Bytes of the tables a whole count of board `n` holds with `budget` bytes for them
    /// (`None`: no limit); 0 for a method without tables.
    fn table_bytes(&self, _n: usize, _budget: Option<u64>) -> u64 {
        0
    }

    /// The smallest board whose count may pass an hour on a machine of a few cores: worth
    /// a projection before it starts.
    fn long_from(&self) -> usize;

    /// Splits the count of board `n` (within [`CountingMethod::boards`]) as `sizing`
    /// asks.
    fn plan(&self, n: usize, sizing: &Sizing) -> Result<Box<dyn MethodPlan>, Refusal>;
}

/// A count split into sub-problems by one method, with ids `0..len()` in a fixed order.
pub trait MethodPlan: Solver + Send {
    /// Board side.
    fn n(&self) -> usize;

    /// How many sub-problems.
    fn len(&self) -> usize;

    /// Whether there are none (N = 2 and 3 have none).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What sub-problem `id`'s count stands for: the number of symmetric copies.
    fn weight(&self, id: usize) -> u32;

    /// The split depth, for a method split by one; 0 otherwise.
    fn depth(&self) -> usize {
        0
    }

    /// A rough relative estimate of sub-problem `id`'s work, for progress.
    fn estimated_work(&self, _id: usize) -> f64 {
        1.0
    }

    /// Nodes counted while splitting (not part of any sub-problem).
    fn prefix_nodes(&self) -> u64 {
        0
    }

    /// Bytes one run of one of `parts` equal shares of the sub-problems (a shard; 1: the
    /// whole count) needs on `workers` workers.
    fn memory_for_part(&self, workers: usize, parts: usize) -> u64;

    /// The sub-problems cut into `shards` parts of about equal work, deterministically.
    fn partition(&self, shards: usize) -> Partition<'_>;

    /// The whole count's seconds on the sampler's threads, run whole (`shards` = 1) or in
    /// `shards` shards, projected from a sample of about `budget` seconds.
    fn projected_seconds(&self, shards: usize, budget: f64, sampler: &dyn Sampler) -> Projected;

    /// Seconds of sample a projection needs by default to be one to bet on.
    fn sample_seconds(&self) -> f64 {
        DEFAULT_SAMPLE_SECONDS
    }
}

/// The sample a projection takes by default: seconds time thousands of sub-problems
/// that take milliseconds each.
pub const DEFAULT_SAMPLE_SECONDS: f64 = 4.0;

/// How a plan is sized: the options a method reads when it splits a count.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sizing {
    /// Backtracking's split depth; `None` picks the default for the board.
    pub split_depth: Option<usize>,
    /// Bytes the plan's tables may take; `None`: no limit.
    pub table_budget: Option<u64>,
    /// The run counts one of this many equal shares of the sub-problems (a shard; 1 or 0:
    /// the whole count), and needs only its share's memory.
    pub parts: usize,
    /// Count each sub-problem by the method's other decomposition, where it has one (the
    /// join's: an even board's row sets pin by pin where they would be counted whole,
    /// and whole where pin by pin; an odd board's pins one by one where they are
    /// counted together): the same counts by another path, to check a result by. A
    /// method without one refuses it ([`Refusal::NoOtherWay`]).
    pub other_way: bool,
}

/// The sub-problems of a plan cut into parts ([`crate::methods::Plan::partition`]).
pub struct Partition<'a>(Parts<'a>);

/// How a method's parts are had.
enum Parts<'a> {
    /// Every part, listed (made at once).
    Listed(Vec<Vec<usize>>),
    /// Each part found alone, by its index (for plans too large to list).
    Found(Box<dyn Fn(usize) -> Vec<usize> + Sync + 'a>),
}

impl<'a> Partition<'a> {
    /// A partition of the parts listed, each its ids in increasing order.
    pub fn listed(parts: Vec<Vec<usize>>) -> Partition<'a> {
        Partition(Parts::Listed(parts))
    }

    /// A partition whose part `index` is `part(index)`, its ids in increasing order.
    pub fn found(part: impl Fn(usize) -> Vec<usize> + Sync + 'a) -> Partition<'a> {
        Partition(Parts::Found(Box::new(part)))
    }

    /// Part `index` (from 0), its ids in increasing order.
    pub fn part(&self, index: usize) -> Vec<usize> {
        match &self.0 {
            Parts::Listed(parts) => parts[index].clone(),
            Parts::Found(part) => part(index),
        }
    }
}
