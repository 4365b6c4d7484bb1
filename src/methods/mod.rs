//! The counting methods behind [`crate::engine`], side by side, each with its own kernel,
//! and their one public face: [`Method`] (what each takes: boards, memory, options) and
//! [`Plan`] (a count split by one method: its sub-problems, weights, work, shard
//! partition, projection and worker loop).
//!
//! Both split a count into sub-problems with stable ids and weights, and both offer a
//! worker loop ([`crate::schedule::Solver`]), so the scheduler, the progress bar,
//! checkpoints, shards and MPI treat them alike:
//! - [`backtrack`]: canonical border keys ([`backtrack::border`]) split into searches
//!   ([`backtrack::split`]), each searched to the bottom ([`backtrack::kernel`]);
//! - [`halves`]: canonical row sets ([`halves::join`]), each counted by joining
//!   precomputed quadrant placements (its pair counter in [`halves::pairs`]).
//!
//! Nothing outside this folder names a type of either method: a third method is a folder
//! beside them, a variant of [`Method`] and of the plan's kind, and the arms of the
//! matches below.

pub mod backtrack;
pub mod halves;
pub mod partition;
pub mod refusal;
pub mod regression;
pub mod sampling;
pub mod stratified;

use crate::board::MAX_N;
use crate::schedule::Solver;
use crate::shuffle::Shuffle;
use backtrack::split::{Split, default_split_depth};
use halves::join::{self, Join};
pub use refusal::Refusal;
use sampling::{Projected, Sampler};
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

/// The deepest split backtracking takes (`Options::split_depth`).
pub use backtrack::split::MAX_SPLIT_DEPTH;

/// A counting method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Bitmask backtracking over border keys.
    Backtrack,
    /// The half-board join (meet in the middle).
    Halves,
}

impl Method {
    /// Every method, in the order they are tried and listed.
    pub const ALL: [Method; 2] = [Method::Backtrack, Method::Halves];

    /// The method's name (in JSON and the files of long runs).
    pub fn name(self) -> &'static str {
        match self {
            Method::Backtrack => "backtrack",
            Method::Halves => "halves",
        }
    }

    /// What one of its nodes is (the unit of [`crate::Count::nodes`]).
    pub fn node_unit(self) -> &'static str {
        match self {
            Method::Backtrack => "queens placed",
            Method::Halves => "half-boards built",
        }
    }

    /// The method of a name, if any.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The board sides it counts (a board below them goes to backtracking; above them
    /// is refused).
    pub fn boards(self) -> RangeInclusive<usize> {
        match self {
            Method::Backtrack => 1..=MAX_N,
            Method::Halves => join::SMALLEST_N..=join::LARGEST_N,
        }
    }

    /// Whether it is split by a depth (`Options::split_depth`), rather than by its own
    /// pieces.
    pub fn takes_split_depth(self) -> bool {
        match self {
            Method::Backtrack => true,
            Method::Halves => false,
        }
    }

    /// Bytes of the buffers one worker holds while counting board `n`.
    pub fn worker_bytes(self, n: usize) -> u64 {
        match self {
            Method::Backtrack => 0,
            Method::Halves => halves::memory::worker_bytes(n),
        }
    }

    /// Bytes of the tables a whole count of board `n` holds with `budget` bytes for them
    /// (`None`: no limit): the join's quadrant table, or as much of it as it keeps where
    /// the whole does not fit (see `halves::memory::table_room`); backtracking has none.
    pub fn table_bytes(self, n: usize, budget: Option<u64>) -> u64 {
        match self {
            Method::Backtrack => 0,
            Method::Halves => {
                let room = halves::memory::table_room(n, budget);
                halves::memory::table_bytes(n).min(room)
            }
        }
    }

    /// The smallest board whose count may pass an hour on a machine of a few cores: worth
    /// a projection before it starts.
    pub fn long_from(self) -> usize {
        match self {
            Method::Backtrack => 20,
            Method::Halves => 22,
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which method a count should use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MethodChoice {
    /// The faster one for the board, memory allowing: [`auto_method`].
    #[default]
    Auto,
    /// This one (a board below its [`Method::boards`] goes to backtracking).
    Only(Method),
}

/// From this board size up, `auto` counts by halves (when its table fits the budget).
///
/// Measured on the team's 2-core Xeon with AVX-512 (`verify 4..14 --cross-check`, 2
/// threads; `scripts/bench-vs-anchors.sh`, 1 thread, medians): backtracking vs halves at
/// N = 10: 0.003 s vs 0.001 s; N = 12: 0.007 s vs 0.002 s; N = 14: 0.044 s vs 0.017 s;
/// N = 16: 1.33 s vs 0.45 s; N = 17: 8.9 s vs 1.7 s. Below 10 both take a millisecond or
/// two, and backtracking needs no table.
pub const HALVES_FROM: usize = 10;

/// The method `auto` picks for `n` with a memory budget of `budget` bytes (`None`: no
/// limit) on `workers` workers: the join from [`HALVES_FROM`] when it takes the board and
/// its table (whole, or the room it keeps where the whole does not fit) fits beside its
/// workers' buffers, else backtracking. A pure function of its arguments, so every run
/// given the same budget picks the same method.
pub fn auto_method(n: usize, budget: Option<u64>, workers: usize) -> Method {
    let buffers = (workers as u64).saturating_mul(Method::Halves.worker_bytes(n));
    let fits = budget.is_none_or(|budget| {
        let left = budget.saturating_sub(buffers);
        Method::Halves.table_bytes(n, Some(left)) <= left
    });
    if n >= HALVES_FROM && Join::takes(n) && fits {
        Method::Halves
    } else {
        Method::Backtrack
    }
}

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
    /// method without one (backtracking) refuses it ([`Refusal::NoOtherWay`]).
    pub other_way: bool,
}

/// The sub-problems of a plan cut into parts ([`Plan::partition`]).
pub struct Partition<'a>(Parts<'a>);

/// How a method's parts are had.
enum Parts<'a> {
    /// Every part, listed (backtracking's, made at once).
    Listed(Vec<Vec<usize>>),
    /// The join's: runs of its fixed order, each found alone.
    Runs { join: &'a Join, shards: usize },
}

impl Partition<'_> {
    /// Part `index` (from 0), its ids in increasing order.
    pub fn part(&self, index: usize) -> Vec<usize> {
        match &self.0 {
            Parts::Listed(parts) => parts[index].clone(),
            Parts::Runs { join, shards } => {
                assert!(index < *shards);
                let (blocks, per_block) = join.blocks();
                partition::shuffled_run(blocks, per_block, *shards, index, join.n)
            }
        }
    }
}

/// A count split into sub-problems by one method.
pub struct Plan {
    kind: Kind,
}

/// The method's own split.
enum Kind {
    /// Border keys and their prefixes.
    Backtrack(Split),
    /// Row sets.
    Halves(Join),
}

impl Plan {
    /// Splits the count of board `n` by `method`.
    pub fn new(method: Method, n: usize, sizing: &Sizing) -> Result<Plan, Refusal> {
        let kind = match method {
            Method::Backtrack => {
                if !Method::Backtrack.boards().contains(&n) {
                    return Err(Refusal::BoardSize);
                }
                if sizing.other_way {
                    return Err(Refusal::NoOtherWay);
                }
                let depth = sizing.split_depth.unwrap_or_else(|| default_split_depth(n));
                Kind::Backtrack(Split::new(n, depth))
            }
            Method::Halves => {
                let join = Join::new(n, sizing.table_budget, sizing.parts.max(1))?;
                match sizing.other_way {
                    false => Kind::Halves(join),
                    true => Kind::Halves(join.the_other_way()),
                }
            }
        };
        Ok(Plan { kind })
    }

    /// Board side.
    pub fn n(&self) -> usize {
        match &self.kind {
            Kind::Backtrack(split) => split.n,
            Kind::Halves(join) => join.n,
        }
    }

    /// The method.
    pub fn method(&self) -> Method {
        match &self.kind {
            Kind::Backtrack(_) => Method::Backtrack,
            Kind::Halves(_) => Method::Halves,
        }
    }

    /// Bytes one run of one of `parts` equal shares of the sub-problems (a shard; 1: the
    /// whole count) needs on `workers` workers: the join's table slabs and buffers, or
    /// backtracking's split.
    pub fn memory_for_part(&self, workers: usize, parts: usize) -> u64 {
        match &self.kind {
            Kind::Backtrack(split) => split.heap_bytes(),
            Kind::Halves(join) => {
                let room = join.table_room();
                halves::memory::need_for_part(join.n, join.len(), workers, parts, room)
            }
        }
    }

    /// The split depth (backtracking; 0 for the join, whose pieces are row sets).
    pub fn depth(&self) -> usize {
        match &self.kind {
            Kind::Backtrack(split) => split.depth,
            Kind::Halves(_) => 0,
        }
    }

    /// How many sub-problems.
    pub fn len(&self) -> usize {
        match &self.kind {
            Kind::Backtrack(split) => split.len(),
            Kind::Halves(join) => join.len(),
        }
    }

    /// The most shards the count splits into: one a sub-problem (none empty), and one for
    /// a board without sub-problems (N = 2, 3), whose count is 0.
    pub fn most_shards(&self) -> usize {
        self.len().max(1)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What sub-problem `id`'s count stands for: the number of symmetric copies.
    pub fn weight(&self, id: usize) -> u32 {
        match &self.kind {
            Kind::Backtrack(split) => split.weight(id),
            Kind::Halves(join) => join.weight(id),
        }
    }

    /// A rough relative estimate of sub-problem `id`'s work, for progress: backtracking's
    /// cost estimate (its searches differ by orders of magnitude, the largest first);
    /// 1 for the join's row sets, whose costs are alike enough at this grain.
    pub fn estimated_work(&self, id: usize) -> f64 {
        match &self.kind {
            Kind::Backtrack(split) => split.estimated_cost(id),
            Kind::Halves(_) => 1.0,
        }
    }

    /// Nodes counted while splitting (not part of any sub-problem).
    pub fn prefix_nodes(&self) -> u64 {
        match &self.kind {
            Kind::Backtrack(split) => split.prefix_nodes,
            Kind::Halves(_) => 0,
        }
    }

    /// Part `index` (from 0) of the sub-problems cut into `shards` parts of about equal
    /// work, deterministically (a pure function of the plan, `shards` and `index`, so
    /// every shard of a count computes the same parts), its ids in increasing order.
    ///
    /// - Backtracking: largest estimated cost first, each to the part with the least
    ///   estimated work so far ([`partition::by_cost`]).
    /// - The join: a run of its ids in a fixed pseudo-random order of row sets, a row
    ///   set's pins together ([`partition::shuffled_run`]), found without listing the
    ///   others' (N = 28 has 280 million). Its cost estimate would need the quadrant
    ///   pieces of every row set, which a shard must not build; taken at random, a
    ///   part's work is a sample of the whole.
    pub fn part(&self, shards: usize, index: usize) -> Vec<usize> {
        self.partition(shards).part(index)
    }

    /// The cut into `shards` parts that [`Plan::part`] takes one of, for taking several:
    /// backtracking's is made once, the join's parts are each found alone.
    pub fn partition(&self, shards: usize) -> Partition<'_> {
        assert!(shards >= 1);
        match &self.kind {
            Kind::Backtrack(split) => Partition(Parts::Listed(partition::by_cost(
                split.len(),
                shards,
                |id| split.estimated_cost(id),
            ))),
            Kind::Halves(join) => Partition(Parts::Runs { join, shards }),
        }
    }

    /// The whole count's seconds on the sampler's threads, run whole (`shards` = 1) or in
    /// `shards` shards, projected from a sample of its sub-problems (in the fixed
    /// pseudo-random order of [`Shuffle`]) for about `budget` seconds, and how many were
    /// sampled: backtracking by random probes ([`backtrack::sample`]) and the node rate,
    /// the join by timing the sub-problems of a stratified sample, or sizing
    /// many and timing a few on the largest boards ([`halves::sample`]), which gives a
    /// 90% interval too.
    pub fn projected_seconds(
        &self,
        shards: usize,
        budget: f64,
        sampler: &dyn Sampler,
    ) -> Projected {
        match &self.kind {
            Kind::Backtrack(split) => {
                let stop: Option<&AtomicBool> = sampler.stop();
                let order = &Shuffle::new(split.len(), split.n);
                let (nodes, sampled) = backtrack::sample::sampled_nodes(split, order, budget, stop);
                Projected {
                    seconds: nodes / sampler.node_rate(budget / 2.0),
                    interval: None,
                    sampled,
                    sized: sampled,
                    // Its sub-problems are many to a shard, each a sliver of it.
                    timed_seconds: Vec::new(),
                }
            }
            Kind::Halves(join) => halves::sample::projected_seconds(join, shards, budget, sampler),
        }
    }

    /// Whether the count may pass an hour (see [`Method::long_from`]).
    pub fn may_be_long(&self) -> bool {
        self.n() >= self.method().long_from()
    }

    /// The method's worker loop, for the scheduler.
    pub fn solver(&self) -> &dyn Solver {
        match &self.kind {
            Kind::Backtrack(split) => split,
            Kind::Halves(join) => join,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partition_covers_every_id_once() {
        let sizing = Sizing {
            split_depth: Some(1),
            ..Sizing::default()
        };
        for method in Method::ALL {
            let plan = Plan::new(method, 11, &sizing).unwrap();
            for shards in [1, 3, 7] {
                let parts: Vec<Vec<usize>> =
                    (0..shards).map(|index| plan.part(shards, index)).collect();
                let mut all: Vec<usize> = parts.concat();
                all.sort_unstable();
                assert_eq!(all, (0..plan.len()).collect::<Vec<_>>());
                assert_eq!(
                    parts[shards - 1],
                    plan.part(shards, shards - 1),
                    "deterministic"
                );
                let sizes: Vec<usize> = parts.iter().map(Vec::len).collect();
                if method == Method::Halves {
                    let (min, max) = (sizes.iter().min(), sizes.iter().max());
                    assert!(max.unwrap() - min.unwrap() <= 1, "dealt evenly: {sizes:?}");
                }
            }
        }
    }

    #[test]
    fn each_method_refuses_boards_outside_its_own() {
        for method in Method::ALL {
            let (first, last) = method.boards().into_inner();
            assert!(Plan::new(method, first, &Sizing::default()).is_ok());
            let below = Plan::new(method, first - 1, &Sizing::default());
            assert!(
                matches!(below, Err(Refusal::BoardSize)),
                "{method} below {first}"
            );
            let above = Plan::new(method, last + 1, &Sizing::default());
            assert!(above.is_err(), "{method} above {last}");
        }
    }
}
