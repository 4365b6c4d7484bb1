//! The join's projection: a sample of row sets counted twice, the first time building the
//! quadrant slabs they need, the second time not; the counting time is scaled to all row
//! sets, the slab-building time to the whole table.

use super::join::Join;
use super::memory;
use crate::methods::sampling::Sampler;

/// The join's projected seconds, and how many row sets were sampled. The sample is made
/// of runs of consecutive row sets, each from a place in `order`: neighbours share their
/// south rows and the pieces prepared for them, as in a count. The first pass hands out
/// row sets for half the budget (a row set in hand is finished: the deadline only stops
/// handing them out), or until the slabs it built fill what the memory budget leaves for
/// the table (a shard's budget may hold a small part of it); the second counts the
/// finished ones again, their slabs built.
pub fn projected_seconds(
    join: &Join,
    order: &[usize],
    budget: f64,
    sampler: &dyn Sampler,
) -> (f64, usize) {
    const RUN: usize = 16;
    // The runs in `order`'s order, each id once: the first ones handed out are a sample
    // of whole runs.
    let mut seen = vec![false; order.len()];
    let ids: Vec<usize> = order
        .iter()
        .take(sampler.threads() * 64)
        .flat_map(|&start| start..(start + RUN).min(order.len()))
        .filter(|&id| !std::mem::replace(&mut seen[id], true))
        .collect();
    // Each worker's row set in hand may still add its slabs once the table is full.
    let in_hand = sampler.threads() as u64 * memory::row_set_bytes(join.n);
    let room = sampler
        .table_budget()
        .map(|budget| budget.saturating_sub(in_hand));
    let full = || room.is_some_and(|room| join.heap_bytes() > room);
    let (finished, cold) = sampler.run_for(&ids, budget / 2.0, &full);
    let finished: Vec<usize> = finished.iter().map(|&(id, _)| id).collect();
    let (_, warm) = sampler.run_for(&finished, f64::INFINITY, &|| false);
    let scale = order.len() as f64 / finished.len().max(1) as f64;
    let built = join.built_bytes().max(1) as f64;
    let whole_table = memory::table_bytes(join.n) as f64;
    let building = (cold - warm).max(0.0) * (whole_table / built).max(1.0);
    (warm * scale + building.min(cold * scale), finished.len())
}
