//! Splitting a count into many independent sub-problems with stable ids.
//!
//! A sub-problem is one canonical border key (see [`super::border`]) with the first
//! `depth` free rows of its search already filled in. They are listed in a fixed order:
//! keys in increasing order, then the prefixes in search order (lowest column first). A
//! sub-problem's id is its index in that list, a pure function of `n` and `depth`, so
//! later runs (resumed, sharded) can name the same work.
//!
//! Filling the prefixes uses the kernel's own acceptance rule and counts its nodes once, so
//! the totals, and even the node counts, are the same at every depth.

use super::border::{BorderKey, canonical_keys};
use super::kernel::{count_completions, count_stream};
use super::row_plan::{Frame, RowPlan};
use crate::cpu::Kernel;
use crate::schedule::Solver;
use crate::tally::Tally;

/// Largest split depth accepted: deeper prefixes only multiply the bookkeeping.
pub const MAX_SPLIT_DEPTH: usize = 4;

/// The split depth used when none is given: a function of `n` alone, so sub-problem ids
/// do not depend on the machine. One row beyond the border keys gives roughly ten times
/// as many pieces as keys, plenty for dynamic balance while costing a few MB at most.
pub fn default_split_depth(n: usize) -> usize {
    if n < 10 { 0 } else { 1 }
}

/// A canonical key ready to search: its weight and its row plan.
#[derive(Clone, Debug)]
pub struct KeySearch {
    /// The canonical key.
    pub key: BorderKey,
    /// The size of the key's orbit: how many keys its completions stand for.
    pub weight: u32,
    /// The search, in the orientation chosen by [`BorderKey::search_orientation`].
    pub plan: RowPlan,
}

/// One independent piece of the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubProblem {
    /// Index of the key in [`Split::keys`].
    pub key_index: u32,
    /// The search state after the prefix.
    pub frame: Frame,
}

/// All the work of one count, split.
#[derive(Clone, Debug)]
pub struct Split {
    /// Board side.
    pub n: usize,
    /// Free rows filled in before the sub-problems start.
    pub depth: usize,
    /// The canonical keys, in increasing order.
    pub keys: Vec<KeySearch>,
    /// The sub-problems; a sub-problem's id is its index here.
    pub subproblems: Vec<SubProblem>,
    /// Nodes accepted while filling in the prefixes (not part of any sub-problem).
    pub prefix_nodes: u64,
}

impl Split {
    /// Splits the count of an `n` x `n` board at the given prefix depth.
    pub fn new(n: usize, depth: usize) -> Split {
        let keys: Vec<KeySearch> = canonical_keys(n)
            .into_iter()
            .map(|key| KeySearch {
                key,
                weight: key.orbit_size(n),
                plan: key.search_orientation(n).row_plan(n),
            })
            .collect();
        let mut subproblems = Vec::new();
        let mut prefix_nodes = 0;
        for (key_index, search) in keys.iter().enumerate() {
            let target = depth.min(search.plan.len());
            let mut push = |frame: Frame| {
                subproblems.push(SubProblem {
                    key_index: key_index as u32,
                    frame,
                })
            };
            prefix_nodes += fill_prefixes(&search.plan, Frame::default(), target, &mut push);
        }
        Split {
            n,
            depth,
            keys,
            subproblems,
            prefix_nodes,
        }
    }

    /// How many sub-problems.
    pub fn len(&self) -> usize {
        self.subproblems.len()
    }

    /// Whether there are none (never: every board has a key).
    pub fn is_empty(&self) -> bool {
        self.subproblems.is_empty()
    }

    /// Searches sub-problem `id`: its completions (not yet weighted) and nodes.
    pub fn solve(&self, id: usize) -> Tally {
        let (plan, start) = self.search(id);
        count_completions(plan, &start)
    }

    /// What sub-problem `id` searches: its key's plan and the frame after its prefix.
    pub fn search(&self, id: usize) -> (&RowPlan, Frame) {
        let sub = &self.subproblems[id];
        (&self.keys[sub.key_index as usize].plan, sub.frame)
    }

    /// The weight of sub-problem `id`: the orbit size of its key.
    pub fn weight(&self, id: usize) -> u32 {
        self.keys[self.subproblems[id].key_index as usize].weight
    }

    /// A rough relative cost of sub-problem `id`, to balance shards.
    pub fn estimated_cost(&self, id: usize) -> f64 {
        let (plan, start) = self.search(id);
        plan.estimated_cost(&start)
    }

    /// Bytes the sub-problem and key lists hold (their capacity: they grew by doubling).
    pub fn heap_bytes(&self) -> u64 {
        (self.subproblems.capacity() * std::mem::size_of::<SubProblem>()
            + self.keys.capacity() * std::mem::size_of::<KeySearch>()) as u64
    }
}

/// A worker runs one stream of searches and asks for the next id whenever one of them
/// ends, so that it keeps several searches interleaved (see [`count_stream`]).
impl Solver for Split {
    fn solve_all(
        &self,
        kernel: Kernel,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Tally),
        halted: &dyn Fn() -> bool,
    ) {
        count_stream(
            kernel,
            || {
                let id = next()?;
                let (plan, start) = self.search(id);
                Some((id, plan, start))
            },
            done,
            halted,
        );
    }
}

/// Calls `emit` with every accepted frame at depth `target` below `frame`, in search
/// order, and returns the nodes accepted on the way down (the emitted frames included).
fn fill_prefixes(plan: &RowPlan, frame: Frame, target: usize, emit: &mut dyn FnMut(Frame)) -> u64 {
    if frame.depth == target {
        emit(frame);
        return 0;
    }
    let mut nodes = 0;
    let mut free = plan.free_squares(&frame);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        if let Some(next) = plan.step(&frame, bit) {
            nodes += 1 + fill_prefixes(plan, next, target, emit);
        }
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn totals(n: usize, depth: usize) -> (u128, u128) {
        let split = Split::new(n, depth);
        let mut total = 0u128;
        let mut nodes = u128::from(split.prefix_nodes);
        for id in 0..split.subproblems.len() {
            let tally = split.solve(id);
            total += u128::from(split.weight(id)) * u128::from(tally.solutions);
            nodes += u128::from(tally.nodes);
        }
        (total, nodes)
    }

    #[test]
    fn every_depth_gives_the_same_total_and_nodes() {
        for n in 1..=11 {
            let unsplit = totals(n, 0);
            for depth in 1..=4 {
                assert_eq!(totals(n, depth), unsplit, "n = {n}, depth = {depth}");
            }
        }
    }

    #[test]
    fn ids_are_stable() {
        let a = Split::new(10, 2);
        let b = Split::new(10, 2);
        assert_eq!(a.subproblems, b.subproblems);
        assert!(a.subproblems.len() > a.keys.len());
    }
}
