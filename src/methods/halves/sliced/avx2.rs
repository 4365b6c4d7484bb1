//! The AVX2 kernel: carry-save adders and a nibble table for the popcount.

use super::layout::{Bits512, LANES, Layout, chunk_mask};
use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_and_si256, _mm256_extract_epi64,
    _mm256_load_si256, _mm256_or_si256, _mm256_sad_epu8, _mm256_set1_epi8, _mm256_set1_epi64x,
    _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi64,
    _mm256_srli_epi16, _mm256_xor_si256,
};

/// [`super::count_plain`] with AVX2: up to 32 patterns held in eight registers, each
/// item broadcast once against all of them, their masks of clear lanes joined into one
/// word and counted by one popcount (as the AVX-512 one). Against four patterns at a
/// time, each group against every item, `perf`'s samples in it fell 27% on `count 25
/// --shard 7/200000 --kernel avx2` (5.6% of the shard -> 4.3%).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_plain(patterns: &[u64], items: &[u64]) -> u64 {
    plain_by_groups!(
        patterns,
        items,
        4,
        plain_held,
        [1, 2, 3, 4, 5, 6, 7],
        PLAIN_GROUPS
    )
}

/// Registers of four patterns [`count_plain`] holds at once (of sixteen).
const PLAIN_GROUPS: usize = 8;

/// [`count_plain`] of at most `4 GROUPS` patterns, held in `GROUPS` registers.
#[inline(always)]
fn plain_held<const GROUPS: usize>(patterns: &[u64], items: &[u64]) -> u64 {
    use std::arch::x86_64::{
        _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_cmpgt_epi64, _mm256_maskload_epi64,
        _mm256_movemask_pd, _mm256_setr_epi64x,
    };
    assert!(patterns.len() <= 4 * GROUPS && GROUPS * 4 <= 64);
    // SAFETY (all blocks): only inlined into `count_plain`, which has the features; the
    // loads are masked to the patterns present.
    let held: [__m256i; GROUPS] = std::array::from_fn(|g| {
        let group = &patterns[(4 * g).min(patterns.len())..];
        unsafe {
            let lane_numbers = _mm256_setr_epi64x(0, 1, 2, 3);
            let count = _mm256_set1_epi64x(group.len().min(4) as i64);
            let present = _mm256_cmpgt_epi64(count, lane_numbers);
            _mm256_maskload_epi64(group.as_ptr().cast(), present)
        }
    });
    let present = u64::MAX >> (64 - patterns.len());
    let mut total = 0u64;
    for &item in items {
        let item = unsafe { _mm256_set1_epi64x(item as i64) };
        let clear = held.iter().enumerate().fold(0u64, |clear, (g, &lanes)| {
            let lanes_clear = unsafe {
                let shared = _mm256_and_si256(lanes, item);
                let clear = _mm256_cmpeq_epi64(shared, _mm256_setzero_si256());
                _mm256_movemask_pd(_mm256_castsi256_pd(clear))
            };
            clear | (lanes_clear as u64) << (4 * g)
        });
        total += u64::from((clear & present).count_ones());
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
    with_layout!(layout, sliced_avx2(sliced, items, None))
}

/// The AVX2 kernel weighted by lane ([`super::count_weighted`]): its adders take each
/// word of a block's low half with the same word of its high half, so the blocks are
/// laid out with words `i` and `i + 4` of one weight (see `blocks`), and the sums are
/// weighed at the end of each block.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_weighted(
    sliced: &[Bits512],
    layout: Layout,
    items: &[u64],
    weights: &[[u64; LANES]],
) -> u64 {
    with_layout!(layout, sliced_avx2(sliced, items, Some(weights)))
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
        let high = _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
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
    weights: Option<&[[u64; LANES]]>,
) -> u64 {
    // SAFETY (all blocks): only inlined into `count_sliced`, which has the features.
    unsafe {
        let zero = _mm256_setzero_si256();
        let (mut ones, mut twos, mut fours, mut eights) = (zero, zero, zero, zero);
        // Sixteens (in byte counters, then widened), and the items of no full group.
        let (mut sixteens, mut widened, mut singles) = (zero, zero, zero);
        let mut groups_in_bytes = 0;
        let mut weighed = 0;
        for (b, block) in sliced.chunks_exact(CHUNKS << WIDTH).enumerate() {
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
            if let Some(weights) = weights {
                // This block's sums, weighed, and the adders emptied for the next.
                widened = _mm256_add_epi64(widened, widen(sixteens));
                let sums = [widened, eights, fours, twos, ones, singles];
                let counts: [u64; 4] = std::mem::transmute(lane_sums(sums));
                // Word `i`'s lanes (`2i`, `2i + 1`) and word `i + 4`'s weigh the same.
                let weight = |word: usize| {
                    let lanes = [2 * word, 2 * word + 1, 2 * word + 8, 2 * word + 9];
                    let weight = weights[b][lanes[0]];
                    debug_assert!(lanes.iter().all(|&lane| weights[b][lane] == weight));
                    weight
                };
                weighed += counts
                    .iter()
                    .enumerate()
                    .map(|(i, c)| c * weight(i))
                    .sum::<u64>();
                (ones, twos, fours, eights) = (zero, zero, zero, zero);
                (sixteens, widened, singles, groups_in_bytes) = (zero, zero, zero, 0);
            }
        }
        if weights.is_some() {
            return weighed;
        }
        widened = _mm256_add_epi64(widened, widen(sixteens));
        lanes(lane_sums([widened, eights, fours, twos, ones, singles]))
    }
}

/// Lane by lane, the count the adders hold: `widened` (sixteens, widened), `eights`,
/// `fours`, `twos`, `ones` (bits) and `singles` (widened).
#[inline(always)]
fn lane_sums([widened, eights, fours, twos, ones, singles]: [__m256i; 6]) -> __m256i {
    // SAFETY: only inlined into `count_sliced` and `count_weighted`, which have AVX2.
    unsafe {
        let mut sum = _mm256_add_epi64(_mm256_slli_epi64::<4>(widened), singles);
        sum = _mm256_add_epi64(sum, _mm256_slli_epi64::<3>(widen(count_bytes(eights))));
        sum = _mm256_add_epi64(sum, _mm256_slli_epi64::<2>(widen(count_bytes(fours))));
        sum = _mm256_add_epi64(sum, _mm256_slli_epi64::<1>(widen(count_bytes(twos))));
        _mm256_add_epi64(sum, widen(count_bytes(ones)))
    }
}
