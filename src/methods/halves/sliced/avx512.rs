//! The AVX-512 kernel: one register per mask, VPOPCNTD (lanes of 32 patterns).

use super::layout::{Bits512, LANES, Layout, TILE_BLOCKS, half_last, item_masks, weigh};
use std::arch::x86_64::{
    __m512i, _mm256_and_si256, _mm256_load_si256, _mm256_set1_epi64x, _mm512_add_epi32,
    _mm512_and_si512, _mm512_load_si512, _mm512_popcnt_epi32, _mm512_set1_epi64,
    _mm512_setzero_si512, _mm512_zextsi256_si512,
};

/// [`super::count_plain`] with AVX-512: up to 48 patterns held in six registers, each
/// item broadcast once against all of them, their masks of clear lanes joined into one
/// word and counted by one popcount. Against eight patterns at a time, each group
/// against every item (a broadcast, a test and a popcount per eight pairs), `perf`'s
/// samples in it fell 21% on `count 25 --shard 7/200000` (4.4% of the shard -> 3.5%)
/// and 11% on a pin of N = 28.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_plain(patterns: &[u64], items: &[u64]) -> u64 {
    plain_by_groups!(
        patterns,
        items,
        8,
        plain_held,
        [1, 2, 3, 4, 5],
        PLAIN_GROUPS
    )
}

/// Registers of eight patterns [`count_plain`] holds at once.
const PLAIN_GROUPS: usize = 6;

/// [`count_plain`] of at most `8 GROUPS` patterns, held in `GROUPS` registers. With the
/// kernel's features, as every helper here: safe to call from the kernel (and inlined
/// into it), its intrinsics safe to call but for the loads through pointers.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn plain_held<const GROUPS: usize>(patterns: &[u64], items: &[u64]) -> u64 {
    use std::arch::x86_64::{_mm512_maskz_loadu_epi64, _mm512_testn_epi64_mask};
    assert!(patterns.len() <= 8 * GROUPS && GROUPS * 8 <= 64);
    let held: [__m512i; GROUPS] = std::array::from_fn(|g| {
        let group = &patterns[(8 * g).min(patterns.len())..];
        let present = (0xffu32 >> (8 - group.len().min(8))) as u8;
        // SAFETY: the load is masked to the lanes of the patterns present in `group`.
        unsafe { _mm512_maskz_loadu_epi64(present, group.as_ptr().cast()) }
    });
    let present = u64::MAX >> (64 - patterns.len());
    let mut total = 0u64;
    for &item in items {
        let item = _mm512_set1_epi64(item as i64);
        let clear = held.iter().enumerate().fold(0u64, |clear, (g, &lanes)| {
            let lanes_clear = _mm512_testn_epi64_mask(lanes, item);
            clear | u64::from(lanes_clear) << (8 * g)
        });
        total += u64::from((clear & present).count_ones());
    }
    total
}

/// The AVX-512 kernel: the same loop as the portable one, one register per mask.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_sliced(sliced: &[Bits512], layout: Layout, items: &[u64]) -> u64 {
    with_layout!(layout, by_tiles(sliced, items, None))
}

/// A visit: the count, lane by lane (32 bits each), of the patterns of `block` that
/// share no bit with the item whose masks lie at `masks`; of the low eight lanes only
/// if `half`.
///
/// # Safety
/// `block` holds every index of `masks` (the CPU's features are the function's own).
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
unsafe fn visit<const CHUNKS: usize>(
    block: &[Bits512],
    masks: [usize; CHUNKS],
    half: bool,
) -> __m512i {
    let at = |i: usize| {
        debug_assert!(i < block.len());
        // SAFETY: the caller's: `i` is an index of `block`.
        unsafe { block.as_ptr().add(i) }
    };
    if half {
        let mut acc = _mm256_set1_epi64x(-1);
        for i in masks {
            // SAFETY: `at(i)` is a `Bits512` of `block`, 64 bytes aligned to 64: the load
            // reads its low half.
            acc = _mm256_and_si256(acc, unsafe { _mm256_load_si256(at(i).cast()) });
        }
        _mm512_popcnt_epi32(_mm512_zextsi256_si512(acc))
    } else {
        let mut acc = _mm512_set1_epi64(-1);
        for i in masks {
            // SAFETY: `at(i)` is a `Bits512` of `block`, 64 bytes aligned to 64.
            acc = _mm512_and_si512(acc, unsafe { _mm512_load_si512(at(i).cast()) });
        }
        _mm512_popcnt_epi32(acc)
    }
}

/// The AVX-512 kernel weighted by lane ([`super::count_weighted`]): the same loop,
/// each block of a tile with its own sums, weighed lane by lane once the tile's
/// items are done (nothing more per visit).
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_weighted(
    sliced: &[Bits512],
    layout: Layout,
    items: &[u64],
    weights: &[[u64; LANES]],
) -> u64 {
    assert_eq!(
        weights.len() * layout.block(),
        sliced.len(),
        "a block's weights"
    );
    with_layout!(layout, by_tiles(sliced, items, Some(weights)))
}

/// The blocks' counts, tile by tile ([`TILE_BLOCKS`] blocks an item meets in a row),
/// added up, each block's weighed lane by lane by `weights` if given.
///
/// The kernel's features are on this function, [`tile_total`] and [`tile_counts`]
/// themselves, not only on their callers by inlining: a closure inherits the features of
/// the function it is written in, and each compiles only where its caller has them.
/// Before, one layout more made LLVM keep a fold over the tiles out of line, its closure
/// compiled without the features and every intrinsic a call: a pin of N = 28 took 60 s,
/// not 4.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn by_tiles<const CHUNKS: usize, const WIDTH: u32>(
    sliced: &[Bits512],
    items: &[u64],
    weights: Option<&[[u64; LANES]]>,
) -> u64 {
    let block = CHUNKS << WIDTH;
    let half = half_last(sliced, block);
    let tiles = sliced.chunks(TILE_BLOCKS * block);
    let last_tile = tiles.len().saturating_sub(1);
    let mut total = 0;
    for (t, tile) in tiles.enumerate() {
        for items in items.chunks(ITEMS_PER_RUN) {
            total += tile_total::<CHUNKS, WIDTH>(
                tile,
                items,
                half && t == last_tile,
                weights.map(|w| &w[t * TILE_BLOCKS..]),
            );
        }
    }
    total
}

/// Items a tile meets at a time: a lane's sum grows by at most 32 a visit, and holds 32
/// bits.
const ITEMS_PER_RUN: usize = 1 << 26;

/// [`by_tiles`]'s sum over one tile (of at most [`TILE_BLOCKS`] blocks), `half` if its
/// last block is visited by halves, each block's lanes weighed by `weights` if given.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn tile_total<const CHUNKS: usize, const WIDTH: u32>(
    tile: &[Bits512],
    items: &[u64],
    half: bool,
    weights: Option<&[[u64; LANES]]>,
) -> u64 {
    let block = CHUNKS << WIDTH;
    let counts = match (tile.len() / block, half) {
        (4, false) => tile_counts::<CHUNKS, WIDTH, 4, false>(tile, items),
        (3, false) => tile_counts::<CHUNKS, WIDTH, 3, false>(tile, items),
        (2, false) => tile_counts::<CHUNKS, WIDTH, 2, false>(tile, items),
        (_, false) => tile_counts::<CHUNKS, WIDTH, 1, false>(tile, items),
        (4, true) => tile_counts::<CHUNKS, WIDTH, 4, true>(tile, items),
        (3, true) => tile_counts::<CHUNKS, WIDTH, 3, true>(tile, items),
        (2, true) => tile_counts::<CHUNKS, WIDTH, 2, true>(tile, items),
        (_, true) => tile_counts::<CHUNKS, WIDTH, 1, true>(tile, items),
    };
    match weights {
        Some(weights) => counts
            .iter()
            .zip(weights)
            .map(|(&lanes, w)| weigh(lanes, w))
            .sum::<u64>(),
        None => counts
            .as_flattened()
            .iter()
            .map(|&count| u64::from(count))
            .sum(),
    }
}

/// Lane by lane, the patterns of each block of a tile of `BLOCKS` blocks that share no
/// bit with each item (the blocks past `BLOCKS` count 0), for at most [`ITEMS_PER_RUN`]
/// items. `BLOCKS` is a constant so that each block's sums stay in a register, and so is
/// `HALF`, whether its last block is visited by halves (see [`half_last`]), so that the
/// test leaves the item loop: with it a value, a pin of N = 28 spilled the items' pointer
/// from the registers. With the kernel's features, so that only a caller that has them
/// compiles.
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn tile_counts<const CHUNKS: usize, const WIDTH: u32, const BLOCKS: usize, const HALF: bool>(
    tile: &[Bits512],
    items: &[u64],
) -> [[u32; LANES]; TILE_BLOCKS] {
    let block = CHUNKS << WIDTH;
    assert!(tile.len() == BLOCKS * block && BLOCKS <= TILE_BLOCKS);
    assert!(items.len() <= ITEMS_PER_RUN);
    let mut sums: [__m512i; BLOCKS] = [_mm512_setzero_si512(); BLOCKS];
    for &item in items {
        let masks = item_masks::<CHUNKS, WIDTH>(item);
        for (b, sum) in sums.iter_mut().enumerate() {
            // SAFETY: block `b` lies in the tile (asserted above) and holds `masks`.
            let counts =
                unsafe { visit(&tile[b * block..][..block], masks, HALF && b == BLOCKS - 1) };
            *sum = _mm512_add_epi32(*sum, counts);
        }
    }
    let mut counts = [[0; LANES]; TILE_BLOCKS];
    for (lanes, sum) in counts.iter_mut().zip(sums) {
        // SAFETY: a `__m512i` is sixteen `u32` lanes, and any bits are a `u32`.
        *lanes = unsafe { std::mem::transmute::<__m512i, [u32; LANES]>(sum) };
    }
    counts
}
