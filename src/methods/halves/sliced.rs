//! The pair counter's kernels: how many patterns of each bit-sliced block are compatible
//! with each item, added up (see [`super::pairs`] for the layout). A portable kernel over
//! `[u64; 8]`, an AVX2 one (carry-save adders and a nibble table for the popcount) and an
//! AVX-512 one (VPOPCNTQ), chosen at run time ([`crate::cpu::Kernel`]); all give the
//! same counts.

use crate::cpu::{Kernel, KernelLevel};

/// Patterns per block: one bit of a [`Bits512`] each.
pub const BLOCK: usize = 512;

/// How a load's keys are cut into chunks: each chunk of `width` neighbouring key bits
/// selects one of `2^width` precomputed masks of a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub chunks: usize,
    pub width: u32,
}

/// The most chunks of 7 bits a block has: 5 make 40 KB of masks a block; 6 (48 KB)
/// made count 21's shards 8% slower than 7 chunks of 6 bits (28 KB).
const MAX_WIDE_CHUNKS: u32 = 5;

impl Layout {
    /// The layout for keys of `bits` bits: chunks of 6 bits, or of 7 where that takes
    /// a chunk fewer (a load and AND less per item and block, for twice the masks of a
    /// chunk to build and hold), up to [`MAX_WIDE_CHUNKS`]. Count 18 by halves (keys of
    /// 32 to 34 bits: 5 chunks of 7 instead of 6 of 6), 2 threads, medians of 5: 1.05 ->
    /// 0.98 s on AVX-512, 1.16 -> 1.13 s on the AVX2 path; count 20 --shard 3/40: 1.38 ->
    /// 1.34 s and 1.54 -> 1.49 s; shards of N = 21 unchanged.
    pub fn for_bits(bits: u32) -> Layout {
        let (six, seven) = (bits.div_ceil(6).max(1), bits.div_ceil(7).max(1));
        if seven < six && seven <= MAX_WIDE_CHUNKS {
            Layout {
                chunks: seven as usize,
                width: 7,
            }
        } else {
            Layout {
                chunks: six as usize,
                width: 6,
            }
        }
    }

    /// Masks per chunk.
    pub fn masks(self) -> usize {
        1 << self.width
    }

    /// Masks per block.
    pub fn block(self) -> usize {
        self.chunks << self.width
    }
}

/// 512 bits, one per pattern of a block.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Bits512(pub [u64; 8]);

/// How many (pattern, item) pairs of these blocks (laid out by `layout`) share no bit.
pub(super) fn count(kernel: Kernel, sliced: &[Bits512], layout: Layout, items: &[u64]) -> u64 {
    match kernel.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        KernelLevel::Avx512 => unsafe { avx512::count_sliced(sliced, layout, items) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        KernelLevel::Avx2 => unsafe { avx2::count_sliced(sliced, layout, items) },
        _ => count_sliced_portable(sliced, layout, items),
    }
}

/// How many (pattern, item) pairs of these few patterns, as they are, share no bit:
/// a bucket too small to slice (at N = 26 with twelve cut bits, many are). Compared
/// eight (AVX-512) or four (AVX2) patterns at once; with plain 64-bit code these
/// comparisons took 7% of a shard of N = 26.
pub(super) fn count_plain(kernel: Kernel, patterns: &[u64], items: &[u64]) -> u64 {
    if patterns.is_empty() {
        return 0;
    }
    match kernel.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        KernelLevel::Avx512 => unsafe { avx512::count_plain(patterns, items) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        KernelLevel::Avx2 => unsafe { avx2::count_plain(patterns, items) },
        _ => items
            .iter()
            .map(|&item| patterns.iter().filter(|&&p| p & item == 0).count() as u64)
            .sum(),
    }
}

/// Calls `$kernel::<CHUNKS, WIDTH>($args)` with the layout as constants, so that each
/// kernel's chunk loop unrolls with constant shifts (the index arithmetic, not the memory,
/// is what a variable count costs).
macro_rules! with_layout {
    ($layout:expr, $kernel:ident($($args:expr),*)) => {
        match ($layout.chunks, $layout.width) {
            (1, 6) => $kernel::<1, 6>($($args),*),
            (2, 6) => $kernel::<2, 6>($($args),*),
            (3, 6) => $kernel::<3, 6>($($args),*),
            (4, 6) => $kernel::<4, 6>($($args),*),
            (5, 6) => $kernel::<5, 6>($($args),*),
            (6, 6) => $kernel::<6, 6>($($args),*),
            (7, 6) => $kernel::<7, 6>($($args),*),
            (8, 6) => $kernel::<8, 6>($($args),*),
            (9, 6) => $kernel::<9, 6>($($args),*),
            (10, 6) => $kernel::<10, 6>($($args),*),
            (1, 7) => $kernel::<1, 7>($($args),*),
            (2, 7) => $kernel::<2, 7>($($args),*),
            (3, 7) => $kernel::<3, 7>($($args),*),
            (4, 7) => $kernel::<4, 7>($($args),*),
            (5, 7) => $kernel::<5, 7>($($args),*),
            (6, 7) => $kernel::<6, 7>($($args),*),
            (7, 7) => $kernel::<7, 7>($($args),*),
            (8, 7) => $kernel::<8, 7>($($args),*),
            (9, 7) => $kernel::<9, 7>($($args),*),
            other => unreachable!("{other:?}: keys have at most 58 bits"),
        }
    };
}

/// [`count`] where each pattern counts by the weight of its lane: `weights` holds each
/// block's, lane by lane (a load of several weighted lists, see `blocks`). The AVX2
/// kernel adds lanes up together (its carry-save adders mix them), so on that level the
/// portable kernel counts, and the pair counter loads lists one at a time instead.
pub(super) fn count_weighted(
    kernel: Kernel,
    sliced: &[Bits512],
    layout: Layout,
    items: &[u64],
    weights: &[[u64; 8]],
) -> u64 {
    match kernel.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        KernelLevel::Avx512 => unsafe { avx512::count_weighted(sliced, layout, items, weights) },
        _ => with_layout!(layout, weighted_portable(sliced, items, weights)),
    }
}

/// The sum over lanes of their weight times their count.
#[inline(always)]
fn weigh(lanes: [u64; 8], weights: &[u64; 8]) -> u64 {
    lanes
        .iter()
        .zip(weights)
        .map(|(count, weight)| count * weight)
        .sum()
}

/// Blocks an item meets in a row ([`item_masks`] once for them all). The chunks'
/// shifts and masks, done again for every block, were what bound the AVX-512 kernel;
/// four blocks (80 to 160 KB of masks) still sit in L2. `count 26 --shard 29/1000000`,
/// medians of 3: 13.5 s one block at a time, 11.8 s by four (8: 11.8, 16: 12.0, all
/// of a bucket: 12.2); count 18: 0.83 -> 0.78 s. The AVX2 kernel meets one block at a
/// time: the offsets of its eight items at once spill from the registers (tried: 19.7 ->
/// 21.8 s on that shard of N = 26, 1.09 -> 1.16 s on count 18).
const TILE_BLOCKS: usize = 4;

/// Where in a block the masks that `item` selects lie, chunk by chunk (indices of
/// `Bits512` from the block's start): [`chunk_mask`]'s masks, computed once for a tile.
#[inline(always)]
fn item_masks<const CHUNKS: usize, const WIDTH: u32>(item: u64) -> [usize; CHUNKS] {
    let masks = 1 << WIDTH;
    std::array::from_fn(|chunk| {
        chunk * masks + ((item >> (chunk as u32 * WIDTH)) as usize & (masks - 1))
    })
}

/// The mask of `block` that item `item` selects for chunk `chunk`.
#[inline(always)]
fn chunk_mask<const CHUNKS: usize, const WIDTH: u32>(
    block: &[Bits512],
    item: u64,
    chunk: usize,
) -> &Bits512 {
    let masks = 1 << WIDTH;
    assert!(block.len() == CHUNKS * masks && chunk < CHUNKS);
    // The item's chunk as a byte offset, in two instructions (shift, and): the item is
    // scaled by the size of a mask first, once for all its chunks (keys have at most
    // `MAX_KEY_BITS` bits, so nothing is shifted out).
    const SCALE: u32 = size_of::<Bits512>().trailing_zeros();
    let scaled = item << SCALE;
    let offset = (scaled >> (chunk as u32 * WIDTH)) as usize & ((masks - 1) << SCALE);
    // SAFETY: `offset` is a multiple of the mask's size, below `masks` masks, and
    // chunk `chunk`'s masks lie inside `block` (asserted above, for constants).
    unsafe {
        &*block
            .as_ptr()
            .add(chunk * masks)
            .cast::<u8>()
            .add(offset)
            .cast::<Bits512>()
    }
}

/// The portable kernel.
fn count_sliced_portable(sliced: &[Bits512], layout: Layout, items: &[u64]) -> u64 {
    with_layout!(layout, sliced_portable(sliced, items))
}

/// The portable kernel for keys of `CHUNKS` chunks: block by block (each stays in cache),
/// every item against it.
#[inline(always)]
fn sliced_portable<const CHUNKS: usize, const WIDTH: u32>(
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

/// The portable kernel weighted by lane ([`count_weighted`]).
#[inline(always)]
fn weighted_portable<const CHUNKS: usize, const WIDTH: u32>(
    sliced: &[Bits512],
    items: &[u64],
    weights: &[[u64; 8]],
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
) -> [u64; 8] {
    let mut lanes = [0u64; 8];
    for &item in items {
        let mut acc = [!0u64; 8];
        for chunk in 0..CHUNKS {
            let mask = chunk_mask::<CHUNKS, WIDTH>(block, item, chunk);
            acc.iter_mut().zip(mask.0).for_each(|(a, m)| *a &= m);
        }
        for (lane, a) in lanes.iter_mut().zip(acc) {
            *lane += u64::from(a.count_ones());
        }
    }
    lanes
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Bits512, Layout, chunk_mask};
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_and_si256, _mm256_extract_epi64,
        _mm256_load_si256, _mm256_or_si256, _mm256_sad_epu8, _mm256_set1_epi8, _mm256_set1_epi64x,
        _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
        _mm256_xor_si256,
    };

    /// [`super::count_plain`] with AVX2: four patterns a step, each against every item.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn count_plain(patterns: &[u64], items: &[u64]) -> u64 {
        use std::arch::x86_64::{
            _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_cmpgt_epi64, _mm256_maskload_epi64,
            _mm256_movemask_pd, _mm256_setr_epi64x,
        };
        let mut total = 0u64;
        // SAFETY: compiled with AVX2; the loads are masked to the patterns present.
        unsafe {
            let lane_numbers = _mm256_setr_epi64x(0, 1, 2, 3);
            for four in patterns.chunks(4) {
                let present =
                    _mm256_cmpgt_epi64(_mm256_set1_epi64x(four.len() as i64), lane_numbers);
                let lanes = _mm256_maskload_epi64(four.as_ptr().cast(), present);
                let present = _mm256_movemask_pd(_mm256_castsi256_pd(present));
                for &item in items {
                    let shared = _mm256_and_si256(lanes, _mm256_set1_epi64x(item as i64));
                    let clear = _mm256_cmpeq_epi64(shared, _mm256_setzero_si256());
                    let clear = _mm256_movemask_pd(_mm256_castsi256_pd(clear)) & present;
                    total += u64::from(clear.count_ones());
                }
            }
        }
        total
    }

    /// Items added up at once by carry-save adders (two 256-bit halves each).
    const GROUP: usize = 8;
    /// Groups whose carry-out (each at most 8 a byte) the byte counters take before they
    /// are widened: 31 x 8 < 256.
    const GROUPS_PER_WIDENING: u32 = 31;

    /// The AVX2 kernel: each block's masks ANDed in two 256-bit halves, and the results
    /// added up by Harley and Seal's carry-save adders: eight items' sixteen halves give
    /// one vector of sixteens, counted with a nibble table (VPSHUFB) into byte counters,
    /// widened (VPSADBW) every few groups; the ones, twos, fours and eights left are
    /// counted at the end. Five logic operations a half instead of seven for a nibble
    /// count of each (AVX2 has no VPOPCNTQ; moving words out to POPCNT cost more).
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn count_sliced(sliced: &[Bits512], layout: Layout, items: &[u64]) -> u64 {
        with_layout!(layout, sliced_avx2(sliced, items))
    }

    // The helpers below are functions, not closures: a closure in the kernel is compiled
    // without AVX2 and called (its loads and shuffles in SSE halves), which cost the
    // nibble count half the kernel's time before.

    /// The bits set in each byte of `v`, by a nibble table.
    #[inline(always)]
    fn count_bytes(v: __m256i) -> __m256i {
        // SAFETY: only inlined into `count_sliced`, which has AVX2.
        unsafe {
            let nibble = _mm256_set1_epi8(0x0f);
            #[rustfmt::skip]
            let table = _mm256_setr_epi8(
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
            );
            let low = _mm256_shuffle_epi8(table, _mm256_and_si256(v, nibble));
            let high =
                _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
            _mm256_add_epi8(low, high)
        }
    }

    /// Byte counters added up in each 64-bit lane.
    #[inline(always)]
    fn widen(bytes: __m256i) -> __m256i {
        // SAFETY: only inlined into `count_sliced`, which has AVX2.
        unsafe { _mm256_sad_epu8(bytes, _mm256_setzero_si256()) }
    }

    /// The sum of the four 64-bit lanes.
    #[inline(always)]
    fn lanes(v: __m256i) -> u64 {
        // SAFETY: only inlined into `count_sliced`, which has AVX2.
        unsafe {
            (_mm256_extract_epi64::<0>(v)
                + _mm256_extract_epi64::<1>(v)
                + _mm256_extract_epi64::<2>(v)
                + _mm256_extract_epi64::<3>(v)) as u64
        }
    }

    /// A carry-save adder: the bits of `a + b + c` as (twos, ones).
    #[inline(always)]
    fn csa(a: __m256i, b: __m256i, c: __m256i) -> (__m256i, __m256i) {
        // SAFETY: only inlined into `count_sliced`, which has AVX2.
        unsafe {
            let u = _mm256_xor_si256(a, b);
            (
                _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(u, c)),
                _mm256_xor_si256(u, c),
            )
        }
    }

    /// The patterns of `block` compatible with `item`, as two 256-bit halves.
    #[inline(always)]
    fn compatible<const CHUNKS: usize, const WIDTH: u32>(
        block: &[Bits512],
        item: u64,
    ) -> (__m256i, __m256i) {
        // SAFETY: only inlined into `count_sliced`, which has AVX2; every load is of a
        // `Bits512`, 64 bytes aligned to 64.
        unsafe {
            let (mut low, mut high) = (_mm256_set1_epi64x(-1), _mm256_set1_epi64x(-1));
            for chunk in 0..CHUNKS {
                let mask = chunk_mask::<CHUNKS, WIDTH>(block, item, chunk)
                    .0
                    .as_ptr()
                    .cast::<__m256i>();
                low = _mm256_and_si256(low, _mm256_load_si256(mask));
                high = _mm256_and_si256(high, _mm256_load_si256(mask.add(1)));
            }
            (low, high)
        }
    }

    #[inline(always)]
    fn sliced_avx2<const CHUNKS: usize, const WIDTH: u32>(
        sliced: &[Bits512],
        items: &[u64],
    ) -> u64 {
        // SAFETY (all blocks): only inlined into `count_sliced`, which has the features.
        unsafe {
            let zero = _mm256_setzero_si256();
            let (mut ones, mut twos, mut fours, mut eights) = (zero, zero, zero, zero);
            // Sixteens (in byte counters, then widened), and the items of no full group.
            let (mut sixteens, mut widened, mut singles) = (zero, zero, zero);
            let mut groups_in_bytes = 0;
            for block in sliced.chunks_exact(CHUNKS << WIDTH) {
                let mut groups = items.chunks_exact(GROUP);
                for group in groups.by_ref() {
                    // Two items into the ones and twos, giving a carry of fours. (A macro:
                    // a closure here would not be compiled with AVX2.)
                    macro_rules! two_items {
                        ($first:expr, $second:expr) => {{
                            let (a, b) = compatible::<CHUNKS, WIDTH>(block, $first);
                            let (twos_a, o) = csa(ones, a, b);
                            let (c, d) = compatible::<CHUNKS, WIDTH>(block, $second);
                            let (twos_b, o) = csa(o, c, d);
                            ones = o;
                            let (carry, t) = csa(twos, twos_a, twos_b);
                            twos = t;
                            carry
                        }};
                    }
                    let fours_a = two_items!(group[0], group[1]);
                    let fours_b = two_items!(group[2], group[3]);
                    let (eights_a, f) = csa(fours, fours_a, fours_b);
                    fours = f;
                    let fours_a = two_items!(group[4], group[5]);
                    let fours_b = two_items!(group[6], group[7]);
                    let (eights_b, f) = csa(fours, fours_a, fours_b);
                    fours = f;
                    let (carry, e) = csa(eights, eights_a, eights_b);
                    eights = e;
                    sixteens = _mm256_add_epi8(sixteens, count_bytes(carry));
                    groups_in_bytes += 1;
                    if groups_in_bytes == GROUPS_PER_WIDENING {
                        widened = _mm256_add_epi64(widened, widen(sixteens));
                        sixteens = zero;
                        groups_in_bytes = 0;
                    }
                }
                // At most 7 items, each adding at most 16 to a byte.
                let mut bytes = zero;
                for &item in groups.remainder() {
                    let (low, high) = compatible::<CHUNKS, WIDTH>(block, item);
                    bytes = _mm256_add_epi8(bytes, count_bytes(low));
                    bytes = _mm256_add_epi8(bytes, count_bytes(high));
                }
                singles = _mm256_add_epi64(singles, widen(bytes));
            }
            widened = _mm256_add_epi64(widened, widen(sixteens));
            let count = |v: __m256i| lanes(widen(count_bytes(v)));
            16 * lanes(widened)
                + 8 * count(eights)
                + 4 * count(fours)
                + 2 * count(twos)
                + count(ones)
                + lanes(singles)
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Bits512, Layout, TILE_BLOCKS, item_masks, weigh};
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
    fn sliced_avx512<const CHUNKS: usize, const WIDTH: u32>(
        sliced: &[Bits512],
        items: &[u64],
    ) -> u64 {
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
}
