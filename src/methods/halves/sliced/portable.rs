//! The portable kernel, over `[u64; 8]`: block by block (each stays in cache), every item
//! against it.

use super::layout::{Bits512, LANE, LANES, chunk_mask, weigh};

/// The portable kernel for keys of `CHUNKS` chunks: block by block (each stays in cache),
/// every item against it.
#[inline(always)]
pub(super) fn sliced_portable<const CHUNKS: usize, const WIDTH: u32>(
    sliced: &[Bits512],
    items: &[u64],
) -> u64 {
    let blocks = sliced.chunks_exact(CHUNKS << WIDTH);
    blocks
        .map(|block| {
            lane_counts::<CHUNKS, WIDTH>(block, items)
                .iter()
                .sum::<u64>()
        })
        .sum()
}

/// The portable kernel weighted by lane ([`super::count_weighted`]).
#[inline(always)]
pub(super) fn weighted_portable<const CHUNKS: usize, const WIDTH: u32>(
    sliced: &[Bits512],
    items: &[u64],
    weights: &[[u64; LANES]],
) -> u64 {
    let blocks = sliced.chunks_exact(CHUNKS << WIDTH).zip(weights);
    blocks
        .map(|(block, weights)| weigh(lane_counts::<CHUNKS, WIDTH>(block, items), weights))
        .sum()
}

/// Lane by lane of one block, how many of its pairs with `items` share no bit.
#[inline(always)]
fn lane_counts<const CHUNKS: usize, const WIDTH: u32>(
    block: &[Bits512],
    items: &[u64],
) -> [u64; LANES] {
    let mut lanes = [0u64; LANES];
    for &item in items {
        let mut acc = [!0u64; 8];
        for chunk in 0..CHUNKS {
            let mask = chunk_mask::<CHUNKS, WIDTH>(block, item, chunk);
            acc.iter_mut().zip(mask.0).for_each(|(a, m)| *a &= m);
        }
        for (pair, a) in lanes.chunks_exact_mut(2).zip(acc) {
            pair[0] += u64::from((a as u32).count_ones());
            pair[1] += u64::from((a >> LANE).count_ones());
        }
    }
    lanes
}
