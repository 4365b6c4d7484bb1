//! The counting methods behind [`crate::engine`], side by side, each with its own kernel,
//! and the choice between them.
//!
//! Both split a count into sub-problems with stable ids and weights, and both offer a
//! worker loop ([`crate::schedule::Solver`]), so the scheduler, the progress bar,
//! checkpoints, shards and MPI treat them alike:
//! - [`backtrack`]: canonical border keys ([`backtrack::border`]) split into searches
//!   ([`backtrack::split`]), each searched to the bottom ([`backtrack::kernel`]);
//! - [`halves`]: canonical row sets ([`halves::join`]), each counted by joining
//!   precomputed quadrant placements (its pair counter in [`halves::pairs`]).

pub mod backtrack;
pub mod halves;

use crate::schedule::Solver;
use backtrack::split::Split;
use halves::join::Join;
use std::fmt;

/// A counting method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Bitmask backtracking over border keys.
    Backtrack,
    /// The half-board join (meet in the middle).
    Halves,
}

impl Method {
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
        [Method::Backtrack, Method::Halves]
            .into_iter()
            .find(|m| m.name() == name)
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
    /// This one (the join hands boards below [`halves::join::MIN_N`] to backtracking).
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
/// limit): the join from [`HALVES_FROM`] when it takes the board and its table fits, else
/// backtracking. A pure function of its arguments, so every run given the same budget
/// picks the same method.
pub fn auto_method(n: usize, budget: Option<u64>) -> Method {
    let fits = budget.is_none_or(|budget| Join::table_bytes(n) <= budget);
    if n >= HALVES_FROM && Join::takes(n) && fits {
        Method::Halves
    } else {
        Method::Backtrack
    }
}

/// A count split into sub-problems by one method.
pub enum Plan {
    /// Border keys and their prefixes.
    Backtrack(Split),
    /// Row sets.
    Halves(Join),
}

impl Plan {
    /// Board side.
    pub fn n(&self) -> usize {
        match self {
            Plan::Backtrack(split) => split.n,
            Plan::Halves(join) => join.n,
        }
    }

    /// The method.
    pub fn method(&self) -> Method {
        match self {
            Plan::Backtrack(_) => Method::Backtrack,
            Plan::Halves(_) => Method::Halves,
        }
    }

    /// Bytes one run of one of `parts` equal shares of the sub-problems (a shard; 1: the
    /// whole count) needs on `workers` workers: the join's table slabs and buffers, or
    /// backtracking's split.
    pub fn memory_for_part(&self, workers: usize, parts: usize) -> u64 {
        match self {
            Plan::Backtrack(split) => split.heap_bytes(),
            Plan::Halves(join) => join.memory_need_for_part(workers, parts),
        }
    }

    /// The split depth (backtracking; 0 for the join, whose pieces are row sets).
    pub fn depth(&self) -> usize {
        match self {
            Plan::Backtrack(split) => split.depth,
            Plan::Halves(_) => 0,
        }
    }

    /// How many sub-problems.
    pub fn len(&self) -> usize {
        match self {
            Plan::Backtrack(split) => split.len(),
            Plan::Halves(join) => join.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What sub-problem `id`'s count stands for: the number of symmetric copies.
    pub fn weight(&self, id: usize) -> u32 {
        match self {
            Plan::Backtrack(split) => split.weight(id),
            Plan::Halves(join) => join.weight(id),
        }
    }

    /// A rough relative estimate of sub-problem `id`'s work, for progress: backtracking's
    /// cost estimate (its searches differ by orders of magnitude, the largest first);
    /// 1 for the join's row sets, whose costs are alike enough at this grain.
    pub fn estimated_work(&self, id: usize) -> f64 {
        match self {
            Plan::Backtrack(split) => split.estimated_cost(id),
            Plan::Halves(_) => 1.0,
        }
    }

    /// Nodes counted while splitting (not part of any sub-problem).
    pub fn prefix_nodes(&self) -> u64 {
        match self {
            Plan::Backtrack(split) => split.prefix_nodes,
            Plan::Halves(_) => 0,
        }
    }

    /// The method's worker loop, for the scheduler.
    pub fn solver(&self) -> &dyn Solver {
        match self {
            Plan::Backtrack(split) => split,
            Plan::Halves(join) => join,
        }
    }
}
