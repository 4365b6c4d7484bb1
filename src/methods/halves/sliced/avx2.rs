//! The AVX2 kernel: carry-save adders and a nibble table for the popcount.

use super::layout::{Bits512, LANES, Layout, chunk_mask, half_last};
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
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn plain_held<const GROUPS: usize>(patterns: &[u64], items: &[u64]) -> u64 {
    use std::arch::x86_64::{
        _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_cmpgt_epi64, _mm256_maskload_epi64,
        _mm256_movemask_pd, _mm256_setr_epi64x,
    };
    assert!(patterns.len() <= 4 * GROUPS && GROUPS * 4 <= 64);
    let held: [__m256i; GROUPS] = std::array::from_fn(|g| {
        let group = &patterns[(4 * g).min(patterns.len())..];
        let lane_numbers = _mm256_setr_epi64x(0, 1, 2, 3);
        let count = _mm256_set1_epi64x(group.len().min(4) as i64);
        let present = _mm256_cmpgt_epi64(count, lane_numbers);
        // SAFETY: the load is masked to the lanes of the patterns present in `group`.
        unsafe { _mm256_maskload_epi64(group.as_ptr().cast(), present) }
    });
    let present = u64::MAX >> (64 - patterns.len());
    let mut total = 0u64;
    for &item in items {
        let item = _mm256_set1_epi64x(item as i64);
        let clear = held.iter().enumerate().fold(0u64, |clear, (g, &lanes)| {
            let shared = _mm256_and_si256(lanes, item);
            let clear_lanes = _mm256_cmpeq_epi64(shared, _mm256_setzero_si256());
            let lanes_clear = _mm256_movemask_pd(_mm256_castsi256_pd(clear_lanes));
            clear | (lanes_clear as u64) << (4 * g)
        });
        total += u64::from((clear & present).count_ones());
    }
    total
}

/// Groups whose carry-out (each at most 8 a byte) the byte counters take before they
/// are widened: 31 x 8 < 256.
const GROUPS_PER_WIDENING: u32 = 31;

/// The AVX2 kernel: each block's masks ANDed in two 256-bit halves, and the results
/// added up by Harley and Seal's carry-save adders: sixteen halves (eight items' of one
/// block, or four items' of two blocks) give one vector of sixteens, counted with a
/// nibble table (VPSHUFB) into byte counters, widened (VPSADBW) every few groups; the
/// ones, twos, fours and eights left are counted at the end. Five logic operations a
/// half instead of seven for a nibble count of each (AVX2 has no VPOPCNTQ; moving words
/// out to POPCNT cost more). A last block whose patterns lie in its low half is visited
/// by that half alone. Both against one block at a time in two halves always, one
/// thread, run at once (`scripts/bench-builds.sh`, medians of 3 to 5): `count 26
/// --shard 7/1000000 --kernel avx2` 0.95 of the time, a shard of N = 27 0.94, of N =
/// 24 0.98, `count 18` 0.95, a pin of N = 28 (nearly all weighted, in blocks of
/// different weights) 1.008, then 0.961 with weighted loads' last blocks in their low
/// half (`blocks::build_weighted`). Two blocks of different weights at once, each with
/// adders of its own, spill registers: a shard of N = 24 1.06, the pin 0.99.
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

// The helpers below are functions, not closures: a closure in the kernel was compiled
// without AVX2 and called (its loads and shuffles in SSE halves), which cost the nibble
// count half the kernel's time before. Each has the kernel's features, so that it is
// safe to call from the kernel and the others (and inlines into them); only their loads
// through pointers stay `unsafe`.

/// The bits set in each byte of `v`, by a nibble table.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn count_bytes(v: __m256i) -> __m256i {
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

/// Byte counters added up in each 64-bit lane.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn widen(bytes: __m256i) -> __m256i {
    _mm256_sad_epu8(bytes, _mm256_setzero_si256())
}

/// The sum of the four 64-bit lanes.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn lanes(v: __m256i) -> u64 {
    (_mm256_extract_epi64::<0>(v)
        + _mm256_extract_epi64::<1>(v)
        + _mm256_extract_epi64::<2>(v)
        + _mm256_extract_epi64::<3>(v)) as u64
}

/// A carry-save adder: the bits of `a + b + c` as (twos, ones).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn csa(a: __m256i, b: __m256i, c: __m256i) -> (__m256i, __m256i) {
    let u = _mm256_xor_si256(a, b);
    (
        _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(u, c)),
        _mm256_xor_si256(u, c),
    )
}

/// The patterns of `block` compatible with `item`, as two 256-bit halves.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn compatible<const CHUNKS: usize, const WIDTH: u32>(
    block: &[Bits512],
    item: u64,
) -> (__m256i, __m256i) {
    let (mut low, mut high) = (_mm256_set1_epi64x(-1), _mm256_set1_epi64x(-1));
    for chunk in 0..CHUNKS {
        let mask = chunk_mask::<CHUNKS, WIDTH>(block, item, chunk)
            .0
            .as_ptr()
            .cast::<__m256i>();
        // SAFETY: the loads read the two halves of one `Bits512`, 64 bytes aligned to 64.
        unsafe {
            low = _mm256_and_si256(low, _mm256_load_si256(mask));
            high = _mm256_and_si256(high, _mm256_load_si256(mask.add(1)));
        }
    }
    (low, high)
}

/// [`compatible`]'s low half alone: for a block whose patterns all lie in its low four
/// words (see [`half_last`]; at N = 26 and 27 such visits are 23% of this kernel's, at
/// N = 24 11%, at a pin of N = 28 8%).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn compatible_low<const CHUNKS: usize, const WIDTH: u32>(block: &[Bits512], item: u64) -> __m256i {
    let mut low = _mm256_set1_epi64x(-1);
    for chunk in 0..CHUNKS {
        let mask = chunk_mask::<CHUNKS, WIDTH>(block, item, chunk);
        // SAFETY: the load reads the low half of one `Bits512`, 64 bytes aligned to 64.
        low = _mm256_and_si256(low, unsafe { _mm256_load_si256(mask.0.as_ptr().cast()) });
    }
    low
}

/// The carry-save adders' state: the bits of the sums so far (`ones` to `eights`), the
/// sixteens in byte counters (`sixteens`, for `groups_in_bytes` groups) and widened, and
/// the items of no full group (widened).
struct Adders {
    ones: __m256i,
    twos: __m256i,
    fours: __m256i,
    eights: __m256i,
    sixteens: __m256i,
    widened: __m256i,
    singles: __m256i,
    groups_in_bytes: u32,
}

impl Adders {
    /// Empty adders.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn new() -> Adders {
        let zero = _mm256_setzero_si256();
        Adders {
            ones: zero,
            twos: zero,
            fours: zero,
            eights: zero,
            sixteens: zero,
            widened: zero,
            singles: zero,
            groups_in_bytes: 0,
        }
    }

    /// Lane by lane, the count they hold.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn lane_sums(&self) -> __m256i {
        let widened = _mm256_add_epi64(self.widened, widen(self.sixteens));
        lane_sums([
            widened,
            self.eights,
            self.fours,
            self.twos,
            self.ones,
            self.singles,
        ])
    }

    /// Four vectors into the ones and twos, giving a carry of fours.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn add_four(&mut self, [a, b, c, d]: [__m256i; 4]) -> __m256i {
        let (twos_a, ones) = csa(self.ones, a, b);
        let (twos_b, ones) = csa(ones, c, d);
        self.ones = ones;
        let (fours, twos) = csa(self.twos, twos_a, twos_b);
        self.twos = twos;
        fours
    }

    /// Two carries of fours into the fours, giving a carry of eights.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn add_fours(&mut self, a: __m256i, b: __m256i) -> __m256i {
        let (eights, fours) = csa(self.fours, a, b);
        self.fours = fours;
        eights
    }

    /// Two carries of eights into the eights, and their carry of sixteens counted.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn add_eights(&mut self, a: __m256i, b: __m256i) {
        let (sixteens, eights) = csa(self.eights, a, b);
        self.eights = eights;
        self.sixteens = _mm256_add_epi8(self.sixteens, count_bytes(sixteens));
        self.groups_in_bytes += 1;
        if self.groups_in_bytes == GROUPS_PER_WIDENING {
            self.widened = _mm256_add_epi64(self.widened, widen(self.sixteens));
            self.sixteens = _mm256_setzero_si256();
            self.groups_in_bytes = 0;
        }
    }

    /// Vectors of no full group, at most 15, each adding at most 8 to a byte.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn add_singles(&mut self, vectors: impl Iterator<Item = __m256i>) {
        let mut bytes = _mm256_setzero_si256();
        for v in vectors {
            bytes = _mm256_add_epi8(bytes, count_bytes(v));
        }
        self.singles = _mm256_add_epi64(self.singles, widen(bytes));
    }

    /// Adds up the patterns of `block` compatible with each of `items`: sixteen vectors
    /// a group, each item's two halves (eight items), or with `HALF` (the block's
    /// patterns all in its low half) each item's low half (sixteen items).
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn add_block<const CHUNKS: usize, const WIDTH: u32, const HALF: bool>(
        &mut self,
        block: &[Bits512],
        items: &[u64],
    ) {
        // Four vectors: four items' low halves, or two items' both. (A macro: a closure
        // here was not compiled with AVX2 while this was no `#[target_feature]` function.)
        macro_rules! four {
            ($items:expr) => {{
                let items = $items;
                if HALF {
                    [
                        compatible_low::<CHUNKS, WIDTH>(block, items[0]),
                        compatible_low::<CHUNKS, WIDTH>(block, items[1]),
                        compatible_low::<CHUNKS, WIDTH>(block, items[2]),
                        compatible_low::<CHUNKS, WIDTH>(block, items[3]),
                    ]
                } else {
                    let (a, b) = compatible::<CHUNKS, WIDTH>(block, items[0]);
                    let (c, d) = compatible::<CHUNKS, WIDTH>(block, items[1]);
                    [a, b, c, d]
                }
            }};
        }
        let per_four = if HALF { 4 } else { 2 };
        let mut groups = items.chunks_exact(4 * per_four);
        for group in groups.by_ref() {
            let mut fours = group.chunks_exact(per_four);
            let mut next = || fours.next().expect("four of them");
            let a = self.add_four(four!(next()));
            let b = self.add_four(four!(next()));
            let eights_a = self.add_fours(a, b);
            let c = self.add_four(four!(next()));
            let d = self.add_four(four!(next()));
            let eights_b = self.add_fours(c, d);
            self.add_eights(eights_a, eights_b);
        }
        for &item in groups.remainder() {
            if HALF {
                self.add_singles(std::iter::once(compatible_low::<CHUNKS, WIDTH>(
                    block, item,
                )));
            } else {
                let (low, high) = compatible::<CHUNKS, WIDTH>(block, item);
                self.add_singles([low, high].into_iter());
            }
        }
    }

    /// [`Adders::add_block`] of two full blocks at once: each item's four halves, its
    /// masks' places found once for both. (Four blocks at once, two items a group, were
    /// 2% slower on `count 26 --shard 7/1000000 --kernel avx2`.)
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    fn add_two_blocks<const CHUNKS: usize, const WIDTH: u32>(
        &mut self,
        first: &[Bits512],
        second: &[Bits512],
        items: &[u64],
    ) {
        macro_rules! four {
            ($item:expr) => {{
                let item = $item;
                let (a, b) = compatible::<CHUNKS, WIDTH>(first, item);
                let (c, d) = compatible::<CHUNKS, WIDTH>(second, item);
                [a, b, c, d]
            }};
        }
        let mut groups = items.chunks_exact(4);
        for group in groups.by_ref() {
            let a = self.add_four(four!(group[0]));
            let b = self.add_four(four!(group[1]));
            let eights_a = self.add_fours(a, b);
            let c = self.add_four(four!(group[2]));
            let d = self.add_four(four!(group[3]));
            let eights_b = self.add_fours(c, d);
            self.add_eights(eights_a, eights_b);
        }
        for &item in groups.remainder() {
            self.add_singles(four!(item).into_iter());
        }
    }
}

/// The kernel for a layout: the blocks' counts added up, or weighed by `weights`. A
/// function of its own for each layout, with the kernel's features (so its helpers
/// inline into it), not inlined into [`count_sliced`] for all of them by force: there,
/// an unoptimized build gave `count_sliced` a frame of 7 MB (the helpers' locals of
/// every layout side by side), past a worker thread's 2 MB stack (184 KB now).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn sliced_avx2<const CHUNKS: usize, const WIDTH: u32>(
    sliced: &[Bits512],
    items: &[u64],
    weights: Option<&[[u64; LANES]]>,
) -> u64 {
    let block_len = CHUNKS << WIDTH;
    let half = half_last(sliced, block_len);
    let Some(weights) = weights else {
        return lanes(run_sums::<CHUNKS, WIDTH>(sliced, items, half));
    };
    // Runs of blocks of the same weights (a list's patterns fill whole blocks but its
    // last), added up together and weighed once.
    let blocks = sliced.len() / block_len;
    let mut weighed = 0;
    let mut start = 0;
    while start < blocks {
        let end = (start + 1..blocks)
            .find(|&b| weights[b] != weights[start])
            .unwrap_or(blocks);
        let run = &sliced[start * block_len..end * block_len];
        let half_run = half && end == blocks;
        let sums = run_sums::<CHUNKS, WIDTH>(run, items, half_run);
        // SAFETY: a `__m256i` is four `u64` lanes, and any bits are a `u64`.
        let counts: [u64; 4] = unsafe { std::mem::transmute(sums) };
        // Word `i`'s lanes (`2i`, `2i + 1`) and word `i + 4`'s weigh the same (a half
        // block's high words hold no pattern: see `blocks::build_weighted`).
        let weight = |word: usize| {
            let lanes = [2 * word, 2 * word + 1, 2 * word + 8, 2 * word + 9];
            let weight = weights[start][lanes[0]];
            let alike = if half_run { &lanes[..2] } else { &lanes[..] };
            debug_assert!(alike.iter().all(|&lane| weights[start][lane] == weight));
            weight
        };
        weighed += counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * weight(i))
            .sum::<u64>();
        start = end;
    }
    weighed
}

/// Lane by lane (words `i` and `i + 4` together), the patterns of these blocks
/// compatible with each of `items`, `half` if the last block's lie in its low half.
/// Called twice in [`sliced_avx2`], it stays a function of its own per layout (its
/// helpers inline into it): as many instructions as inlined into both calls by
/// `#[inline(always)]` before (callgrind, `count 16 --method halves --kernel avx2`:
/// 193.0 M then, 193.2 M now), and one call of it for both was 0.5% more.
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn run_sums<const CHUNKS: usize, const WIDTH: u32>(
    sliced: &[Bits512],
    items: &[u64],
    half: bool,
) -> __m256i {
    let block_len = CHUNKS << WIDTH;
    let mut adders = Adders::new();
    let full = sliced.len() / block_len - usize::from(half);
    let (pairs, rest) = sliced.split_at(full / 2 * 2 * block_len);
    for pair in pairs.chunks_exact(2 * block_len) {
        let (first, second) = pair.split_at(block_len);
        adders.add_two_blocks::<CHUNKS, WIDTH>(first, second, items);
    }
    // At most one full block, and the half one.
    let rest_blocks = rest.len() / block_len;
    for (b, block) in rest.chunks_exact(block_len).enumerate() {
        if half && b + 1 == rest_blocks {
            adders.add_block::<CHUNKS, WIDTH, true>(block, items);
        } else {
            adders.add_block::<CHUNKS, WIDTH, false>(block, items);
        }
    }
    adders.lane_sums()
}

/// Lane by lane, the count the adders hold: `widened` (sixteens, widened), `eights`,
/// `fours`, `twos`, `ones` (bits) and `singles` (widened).
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
#[inline]
fn lane_sums([widened, eights, fours, twos, ones, singles]: [__m256i; 6]) -> __m256i {
    let mut sum = _mm256_add_epi64(_mm256_slli_epi64::<4>(widened), singles);
    sum = _mm256_add_epi64(sum, _mm256_slli_epi64::<3>(widen(count_bytes(eights))));
    sum = _mm256_add_epi64(sum, _mm256_slli_epi64::<2>(widen(count_bytes(fours))));
    sum = _mm256_add_epi64(sum, _mm256_slli_epi64::<1>(widen(count_bytes(twos))));
    _mm256_add_epi64(sum, widen(count_bytes(ones)))
}
