//! The AVX-512 kernel: one register per mask, VPOPCNTQ.

use super::layout::{Bits512, Layout, TILE_BLOCKS, item_masks, weigh};
use std::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_load_si512, _mm512_popcnt_epi64,
    _mm512_reduce_add_epi64, _mm512_set1_epi64, _mm512_setzero_si512,
};

/// [`super::count_plain`] with AVX-512: eight patterns a step, each against every
/// item.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_plain(patterns: &[u64], items: &[u64]) -> u64 {
    use std::arch::x86_64::{_mm512_maskz_loadu_epi64, _mm512_testn_epi64_mask};
    let mut total = 0u64;
    // SAFETY: compiled with AVX-512 F; the loads are masked to the patterns present.
    unsafe {
        for eight in patterns.chunks(8) {
            let present = (0xffu32 >> (8 - eight.len())) as u8;
            let lanes = _mm512_maskz_loadu_epi64(present, eight.as_ptr().cast());
            for &item in items {
                let clear = _mm512_testn_epi64_mask(lanes, _mm512_set1_epi64(item as i64));
                total += u64::from((clear & present).count_ones());
            }
        }
    }
    total
}

/// The AVX-512 kernel: the same loop as the portable one, one register per mask.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_sliced(sliced: &[Bits512], layout: Layout, items: &[u64]) -> u64 {
    with_layout!(layout, sliced_avx512(sliced, items))
}

#[inline(always)]
fn sliced_avx512<const CHUNKS: usize, const WIDTH: u32>(sliced: &[Bits512], items: &[u64]) -> u64 {
    // SAFETY (all blocks): only inlined into `count_sliced`, which has the features.
    let mut sums: __m512i = unsafe { _mm512_setzero_si512() };
    for tile in sliced.chunks(TILE_BLOCKS * (CHUNKS << WIDTH)) {
        for &item in items {
            let masks = item_masks::<CHUNKS, WIDTH>(item);
            for block in tile.chunks_exact(CHUNKS << WIDTH) {
                let mut acc = unsafe { _mm512_set1_epi64(-1) };
                for at in masks {
                    // SAFETY: `at` is below `CHUNKS << WIDTH`, the block's length;
                    // `Bits512` is 64 bytes, aligned to 64.
                    acc = unsafe {
                        _mm512_and_si512(acc, _mm512_load_si512(block.as_ptr().add(at).cast()))
                    };
                }
                sums = unsafe { _mm512_add_epi64(sums, _mm512_popcnt_epi64(acc)) };
            }
        }
    }
    // SAFETY: compiled with AVX-512 F (this function's target features).
    unsafe { _mm512_reduce_add_epi64(sums) as u64 }
}

/// The AVX-512 kernel weighted by lane ([`super::count_weighted`]): the same loop,
/// each block of a tile with its own sums, weighed lane by lane once the tile's
/// items are done (nothing more per visit).
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_weighted(
    sliced: &[Bits512],
    layout: Layout,
    items: &[u64],
    weights: &[[u64; 8]],
) -> u64 {
    with_layout!(layout, weighted_avx512(sliced, items, weights))
}

#[inline(always)]
fn weighted_avx512<const CHUNKS: usize, const WIDTH: u32>(
    sliced: &[Bits512],
    items: &[u64],
    weights: &[[u64; 8]],
) -> u64 {
    let block = CHUNKS << WIDTH;
    let tiles = sliced
        .chunks(TILE_BLOCKS * block)
        .zip(weights.chunks(TILE_BLOCKS));
    tiles
        .map(|(tile, weights)| match tile.len() / block {
            4 => weighted_tile::<CHUNKS, WIDTH, 4>(tile, items, weights),
            3 => weighted_tile::<CHUNKS, WIDTH, 3>(tile, items, weights),
            2 => weighted_tile::<CHUNKS, WIDTH, 2>(tile, items, weights),
            _ => weighted_tile::<CHUNKS, WIDTH, 1>(tile, items, weights),
        })
        .sum()
}

/// One tile of `BLOCKS` blocks (a constant, so that each block's sums stay in a
/// register).
#[inline(always)]
fn weighted_tile<const CHUNKS: usize, const WIDTH: u32, const BLOCKS: usize>(
    tile: &[Bits512],
    items: &[u64],
    weights: &[[u64; 8]],
) -> u64 {
    let block = CHUNKS << WIDTH;
    assert!(tile.len() == BLOCKS * block && weights.len() == BLOCKS);
    // SAFETY (all blocks): only inlined into `count_weighted`, which has the features.
    let mut sums: [__m512i; BLOCKS] = [unsafe { _mm512_setzero_si512() }; BLOCKS];
    for &item in items {
        let masks = item_masks::<CHUNKS, WIDTH>(item);
        for (b, sum) in sums.iter_mut().enumerate() {
            let mut acc = unsafe { _mm512_set1_epi64(-1) };
            for at in masks {
                // SAFETY: `at` is below `block`, and block `b` lies in the tile
                // (asserted above); `Bits512` is 64 bytes, aligned to 64.
                acc = unsafe {
                    let mask = tile.as_ptr().add(b * block + at);
                    _mm512_and_si512(acc, _mm512_load_si512(mask.cast()))
                };
            }
            *sum = unsafe { _mm512_add_epi64(*sum, _mm512_popcnt_epi64(acc)) };
        }
    }
    // SAFETY: a __m512i is eight u64 lanes.
    let lanes = sums.map(|sum| unsafe { std::mem::transmute::<__m512i, [u64; 8]>(sum) });
    lanes
        .iter()
        .zip(weights)
        .map(|(&lanes, w)| weigh(lanes, w))
        .sum()
}
