//! Shard partitions: the sub-problems cut into parts of about equal work, each a pure
//! function of its inputs, so every shard of a count computes the same parts. A method
//! picks one through its face ([`crate::methods::Plan::part`]).

use crate::shuffle::Shuffle;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bytes [`by_cost`] holds at most while it cuts `len` ids into `shards` parts: the
/// costs by id, and the parts as they grow.
pub fn by_cost_bytes(len: usize, shards: usize) -> u64 {
    let listed = size_of::<(f64, usize)>() + 2 * size_of::<usize>();
    (len as u64).saturating_mul(listed as u64) + (shards as u64) * size_of::<Vec<usize>>() as u64
}

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

/// Part `index` (from 0) of `shards`: a run of consecutive positions of an order in which
/// `blocks` blocks of `per_block` consecutive ids (a row set's pins, say) stand in the
/// fixed pseudo-random order of [`Shuffle`] (seeded by the board side `n`), each block's
/// ids together; parts differ in size by one at most. Without a cost per id, a part's
/// work is a sample of the whole; computed alone, in time and memory of its own size.
pub fn shuffled_run(
    blocks: usize,
    per_block: usize,
    shards: usize,
    index: usize,
    n: usize,
) -> Vec<usize> {
    assert!(index < shards);
    let order = Shuffle::new(blocks, n);
    let len = (blocks * per_block) as u128;
    let edge = |part: usize| (len * part as u128 / shards as u128) as usize;
    let mut ids: Vec<usize> = (edge(index)..edge(index + 1))
        .map(|position| order.at(position / per_block) * per_block + position % per_block)
        .collect();
    ids.sort_unstable();
    ids
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs of every shard count cover every id once, in parts whose sizes differ by
    /// one at most; with blocks, a part holds each of its blocks whole but at its ends.
    #[test]
    fn shuffled_runs_cover_every_id_once() {
        for (blocks, per_block) in [(1, 1), (7, 1), (100, 1), (100, 5), (33, 14)] {
            let len = blocks * per_block;
            for shards in [1, 2, 3, 7, len] {
                let parts: Vec<Vec<usize>> = (0..shards)
                    .map(|index| shuffled_run(blocks, per_block, shards, index, 20))
                    .collect();
                let mut all = parts.concat();
                all.sort_unstable();
                assert_eq!(all, (0..len).collect::<Vec<_>>(), "{blocks} x {per_block}");
                let sizes: Vec<usize> = parts.iter().map(Vec::len).collect();
                let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(max - min <= 1, "{sizes:?}");
                for part in &parts {
                    let split = part
                        .iter()
                        .filter(|&&id| !part.contains(&(id / per_block * per_block)))
                        .count();
                    assert!(split < 2 * per_block, "blocks kept together: {part:?}");
                }
                assert_eq!(parts[0], shuffled_run(blocks, per_block, shards, 0, 20));
            }
        }
    }
}
