//! The counting methods behind [`crate::engine`], each in its own folder, and their one
//! face: the [`CountingMethod`] trait (what a method takes: its name, boards, memory and
//! options, and how it splits a count) and [`MethodPlan`] (a count split by one method:
//! its sub-problems, weights, shard partition, projection and worker loop).
//!
//! Every method splits a count into sub-problems with stable ids and weights and offers a
//! worker loop ([`crate::schedule::Solver`]), so the scheduler, the progress bar,
//! checkpoints, shards and MPI treat them alike:
//! - [`backtrack`]: canonical border keys split into searches, each searched to the bottom
//!   by a vector kernel;
//! - [`halves`]: canonical row sets, each counted by joining precomputed quadrant
//!   placements;
//! - [`mirror`]: the classic mirror-halved bitmask counter, frozen, for `bench`.
//!
//! A new method is a folder beside them with a type that implements [`CountingMethod`],
//! and one entry in [`Method::ALL`]: the command line's `--method` values, `verify
//! --cross-check` and the error texts follow from that list.
//!
//! ```
//! use nqueens::Method;
//! let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
//! assert_eq!(names, ["backtrack", "halves", "mirror"]);
//! assert_eq!(Method::from_name("halves"), Some(Method::HALVES));
//! assert!(Method::MIRROR.boards().contains(&8));
//! ```

// The methods' folders and their shared parts: public for the binary, the benches and
// the tests, and not part of the library's API.
#[doc(hidden)]
pub mod backtrack;
mod face;
#[doc(hidden)]
pub mod halves;
#[doc(hidden)]
pub mod mirror;
#[doc(hidden)]
pub mod partition;
mod refusal;
#[doc(hidden)]
pub mod regression;
mod sampling;
#[doc(hidden)]
pub mod stratified;

pub use crate::cpu::Kernel;
pub use crate::schedule::Solver;
pub use face::{CountingMethod, MethodPlan, Partition, Sizing};
pub use refusal::Refusal;
pub use sampling::{Projected, Sampler, Timed};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// The deepest split backtracking takes (`Options::split_depth`).
pub use backtrack::split::MAX_SPLIT_DEPTH;

/// A counting method: a handle on one of [`Method::ALL`].
#[derive(Clone, Copy)]
pub struct Method(&'static dyn CountingMethod);

impl Method {
    /// Bitmask backtracking over border keys.
    pub const BACKTRACK: Method = Method(&backtrack::method::Backtracking);
    /// The half-board join (meet in the middle).
    pub const HALVES: Method = Method(&halves::method::HalfBoardJoin);
    /// The classic mirror-halved bitmask counter, frozen: `bench`'s workload.
    pub const MIRROR: Method = Method(&mirror::MirrorHalving);

    /// Every method, in the order they are tried and listed: the one list of them.
    pub const ALL: [Method; 3] = [Method::BACKTRACK, Method::HALVES, Method::MIRROR];

    /// The method of a name, if any.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The names of every method, joined by `", "` (for messages).
    pub fn names() -> String {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        names.join(", ")
    }
}

impl Deref for Method {
    type Target = dyn CountingMethod;

    fn deref(&self) -> &Self::Target {
        self.0
    }
}

impl PartialEq for Method {
    fn eq(&self, other: &Method) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Method {}

impl Hash for Method {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which method a count should use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum MethodChoice {
    /// The faster one for the board, memory allowing: [`auto_method`].
    #[default]
    Auto,
    /// This one (a board below its [`CountingMethod::boards`] goes to backtracking).
    Only(Method),
}

/// From this board size up, `auto` counts by halves (when its table fits the budget).
///
/// Measured on a 2-core Xeon with AVX-512 (`verify 4..14 --cross-check`, 2 threads;
/// `scripts/bench-vs-anchors.sh`, 1 thread, medians): backtracking vs halves at N = 10:
/// 0.003 s vs 0.001 s; N = 12: 0.007 s vs 0.002 s; N = 14: 0.044 s vs 0.017 s; N = 16:
/// 1.33 s vs 0.45 s; N = 17: 8.9 s vs 1.7 s. Below 10 both take a millisecond or two,
/// and backtracking needs no table.
pub const HALVES_FROM: usize = 10;

/// The method `auto` picks for `n` with a memory budget of `budget` bytes (`None`: no
/// limit) on `workers` workers: the join from [`HALVES_FROM`] when it takes the board and
/// its table (whole, or the room it keeps where the whole does not fit) fits beside its
/// workers' buffers, else backtracking. A pure function of its arguments, so every run
/// given the same budget picks the same method.
pub fn auto_method(n: usize, budget: Option<u64>, workers: usize) -> Method {
    let buffers = (workers as u64).saturating_mul(Method::HALVES.worker_bytes(n));
    let fits = budget.is_none_or(|budget| {
        let left = budget.saturating_sub(buffers);
        Method::HALVES.table_bytes(n, Some(left)) <= left
    });
    if n >= HALVES_FROM && Method::HALVES.boards().contains(&n) && fits {
        Method::HALVES
    } else {
        Method::BACKTRACK
    }
}

/// A count split into sub-problems by one method.
pub struct Plan {
    method: Method,
    split: Box<dyn MethodPlan>,
}

impl Plan {
    /// Splits the count of board `n` by `method`.
    pub fn new(method: Method, n: usize, sizing: &Sizing) -> Result<Plan, Refusal> {
        // Above its boards a method says why (the join: the memory its table needs).
        if n < *method.boards().start() || n > crate::board::MAX_N {
            return Err(Refusal::BoardSize);
        }
        let split = method.plan(n, sizing)?;
        Ok(Plan { method, split })
    }

    /// Board side.
    pub fn n(&self) -> usize {
        self.split.n()
    }

    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// Bytes one run of one of `parts` equal shares of the sub-problems (a shard; 1: the
    /// whole count) needs on `workers` workers: the join's table slabs and buffers, or
    /// backtracking's split.
    pub fn memory_for_part(&self, workers: usize, parts: usize) -> u64 {
        self.split.memory_for_part(workers, parts)
    }

    /// The split depth (backtracking; 0 for a method whose pieces are not split by one).
    pub fn depth(&self) -> usize {
        self.split.depth()
    }

    /// How many sub-problems.
    pub fn len(&self) -> usize {
        self.split.len()
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
        self.split.weight(id)
    }

    /// A rough relative estimate of sub-problem `id`'s work, for progress: backtracking's
    /// cost estimate (its searches differ by orders of magnitude, the largest first);
    /// 1 for the join's row sets, whose costs are alike enough at this grain.
    pub fn estimated_work(&self, id: usize) -> f64 {
        self.split.estimated_work(id)
    }

    /// Nodes counted while splitting (not part of any sub-problem).
    pub fn prefix_nodes(&self) -> u64 {
        self.split.prefix_nodes()
    }

    /// Part `index` (from 0) of the sub-problems cut into `shards` parts of about equal
    /// work, deterministically (a pure function of the plan, `shards` and `index`, so
    /// every shard of a count computes the same parts), its ids in increasing order.
    ///
    /// - Backtracking: largest estimated cost first, each to the part with the least
    ///   estimated work so far.
    /// - The join: a run of its ids in a fixed pseudo-random order of row sets, a row
    ///   set's pins together, found without listing the others' (N = 28 has 280
    ///   million). Its cost estimate would need the quadrant pieces of every row set,
    ///   which a shard must not build; taken at random, a part's work is a sample of the
    ///   whole.
    pub fn part(&self, shards: usize, index: usize) -> Vec<usize> {
        self.partition(shards).part(index)
    }

    /// The cut into `shards` parts that [`Plan::part`] takes one of, for taking several:
    /// a listed partition is made once, a found one's parts are each found alone.
    pub fn partition(&self, shards: usize) -> Partition<'_> {
        assert!(shards >= 1);
        self.split.partition(shards)
    }

    /// The whole count's seconds on the sampler's threads, run whole (`shards` = 1) or in
    /// `shards` shards, projected from a sample of its sub-problems for about `budget`
    /// seconds, and how many were sampled: backtracking by random probes and the node
    /// rate, the join by timing the sub-problems of a stratified sample (which gives a
    /// 90% interval too), the mirror counter by timing sub-problems in a fixed
    /// pseudo-random order.
    pub fn projected_seconds(
        &self,
        shards: usize,
        budget: f64,
        sampler: &dyn Sampler,
    ) -> Projected {
        self.split.projected_seconds(shards, budget, sampler)
    }

    /// Seconds of sample [`Plan::projected_seconds`] needs by default: a few where
    /// sub-problems take milliseconds, a minute where they take seconds (the join where
    /// its table lets slabs go, from N = 25).
    pub fn sample_seconds(&self) -> f64 {
        self.split.sample_seconds()
    }

    /// Whether the count may pass an hour (see [`CountingMethod::long_from`]).
    pub fn may_be_long(&self) -> bool {
        self.n() >= self.method.long_from()
    }

    /// The method's worker loop, for the scheduler.
    pub fn solver(&self) -> &dyn Solver {
        self.split.as_ref()
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
                if method == Method::HALVES {
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
