//! Shard partitions: the sub-problems cut into parts of about equal work, each a pure
//! function of its inputs, so every shard of a count computes the same parts. A method
//! picks one through its face ([`crate::methods::Plan::partition`]).

use crate::shuffle::shuffled;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Longest processing time first: the ids `0..len` by decreasing `cost` (ties by id),
/// each to the part with the least cost so far (ties to the lowest part).
pub fn by_cost(len: usize, shards: usize, cost: impl Fn(usize) -> f64) -> Vec<Vec<usize>> {
    let mut costs: Vec<(f64, usize)> = (0..len).map(|id| (cost(id), id)).collect();
    costs.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut lightest: BinaryHeap<Reverse<(Load, usize)>> =
        (0..shards).map(|part| Reverse((Load(0.0), part))).collect();
    let mut parts = vec![Vec::new(); shards];
    for (cost, id) in costs {
        let Reverse((Load(load), part)) = lightest.pop().expect("one part at least");
        parts[part].push(id);
        lightest.push(Reverse((Load(load + cost), part)));
    }
    sorted(parts)
}

/// The ids `0..len` in the order of [`shuffled`] (seeded by the board side `n`), dealt
/// to the parts in turn: without a cost per id, a part's work is a sample of the whole.
pub fn dealt(len: usize, shards: usize, n: usize) -> Vec<Vec<usize>> {
    let order = shuffled(len, n);
    let mut parts = vec![Vec::with_capacity(len / shards + 1); shards];
    for (turn, id) in order.into_iter().enumerate() {
        parts[turn % shards].push(id);
    }
    sorted(parts)
}

/// Each part's ids in increasing order.
fn sorted(mut parts: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    for part in &mut parts {
        part.sort_unstable();
    }
    parts
}

/// A part's estimated work, ordered by `f64::total_cmp`.
#[derive(Clone, Copy, PartialEq)]
struct Load(f64);

impl Eq for Load {}

impl PartialOrd for Load {
    fn partial_cmp(&self, other: &Load) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Load {
    fn cmp(&self, other: &Load) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
