//! A bucket's bit-sliced blocks, as the pair counter's kernels read them (see
//! [`super::pairs`]): for each chunk of the keys, each value of its bits, the 512-bit
//! mask of a block's patterns that lack every bit of that value.
//!
//! A block's 512 patterns lie in sixteen lanes of 32 (half a word of each mask). A load
//! of several weighted lists lays each list's patterns of a bucket out from a lane of its
//! own, so that a lane holds one list's patterns and the kernel can weigh its count by
//! lane ([`Lanes::weights`]).

use super::sliced::{BLOCK, Bits512, LANE, LANES, Layout, MAX_WIDTH};
use crate::cpu::{Kernel, KernelLevel};

/// Where a weighted bucket's blocks come from: its lists' patterns, each list from a
/// lane of its own, and each lane's weight, block by block.
#[derive(Default)]
pub(super) struct Lanes {
    /// The weight of each lane of each block built (0 for a lane with no pattern).
    pub(super) weights: Vec<[u64; LANES]>,
}

/// Appends the blocks of `patterns` (in blocks of [`BLOCK`]) to `sliced`.
pub(super) fn build(
    kernel: Kernel,
    patterns: &[u64],
    layout: Layout,
    lacking: &mut [Bits512],
    sliced: &mut Vec<Bits512>,
) {
    for block in patterns.chunks(BLOCK) {
        let mut lanes = [&[][..]; LANES];
        for (lane, keys) in lanes.iter_mut().zip(block.chunks(LANE)) {
            *lane = keys;
        }
        push_block(kernel, &lanes, layout, lacking, sliced);
    }
}

/// The lanes a weighted list takes at a time, in the order they are filled: one by
/// one, except for the AVX2 kernel, which adds a block's word `i` up with word `i + 4`
/// (its two halves), each word two lanes: four lanes (128 patterns) at a time. (The last
/// block, where what is left fits in its low half, takes a word at a time there: see
/// [`build_weighted`].)
fn lane_groups(kernel: Kernel) -> (usize, [usize; LANES]) {
    if kernel.level() == KernelLevel::Avx2 {
        (4, [0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15])
    } else {
        (1, std::array::from_fn(|lane| lane))
    }
}

/// The lanes a list of `len` patterns takes, `group` lanes at a time.
fn lanes_taken(len: usize, group: usize) -> usize {
    len.div_ceil(group * LANE) * group
}

/// How many blocks [`build_weighted`] takes at most for lists of these lengths.
pub(super) fn weighted_blocks(kernel: Kernel, lens: impl Iterator<Item = usize>) -> usize {
    let (group, _) = lane_groups(kernel);
    let lanes: usize = lens.map(|len| lanes_taken(len, group)).sum();
    lanes.div_ceil(LANES)
}

/// Appends the blocks of weighted `lists` to `sliced`, each list from a lane of its own
/// (its last lane part filled), and the weight of every lane to `lanes`: a list takes
/// less than a lane more than its patterns fill (for AVX2, less than four: see
/// [`lane_groups`]). For AVX2, a last block whose lists fit in its low four words a word
/// at a time is laid out there, so that the kernel visits that half alone: against four
/// lanes at a time, run at once, one thread, `--kernel avx2`: a pin of N = 28 0.978 of
/// the time, `count 24 --shard 7/20000` 0.979, `count 26 --shard 7/1000000` 0.985.
///
/// Lanes of 32, not 64 (a word of each mask): a list's last lane is left half as empty.
/// An even board's West is up to three such lists, and their last lanes' empty places
/// were a tenth of the lanes its loads' visits met (2026-11-28, 75d2ac8). Against lanes of 64,
/// one thread: `count 24 --shard 7/20000` 6.16 -> 5.99 s (medians of 5), shards of N =
/// 25 and 26 and a pin of N = 28 level.
pub(super) fn build_weighted(
    kernel: Kernel,
    lists: &[(&[u64], u64)],
    layout: Layout,
    lacking: &mut [Bits512],
    sliced: &mut Vec<Bits512>,
    lanes: &mut Lanes,
) {
    let (mut group, mut order) = lane_groups(kernel);
    lanes.weights.clear();
    let mut block = [&[][..]; LANES];
    let mut weights = [0; LANES];
    let mut filled = 0;
    for (i, &(list, weight)) in lists.iter().enumerate() {
        let mut lane = 0;
        while lane < lanes_taken(list.len(), group) {
            if filled == 0 && group > 2 {
                // The last block, if what is left fits in its low half a word at a time:
                // the AVX2 kernel then visits that half alone.
                let left = lanes_taken(list.len().saturating_sub(lane * LANE), 2)
                    + lists[i + 1..]
                        .iter()
                        .map(|(list, _)| lanes_taken(list.len(), 2))
                        .sum::<usize>();
                if left <= LANES / 2 {
                    (group, order) = (2, std::array::from_fn(|lane| lane));
                }
            }
            let keys = list.get(lane * LANE..).unwrap_or_default();
            let at = order[filled];
            (block[at], weights[at]) = (&keys[..keys.len().min(LANE)], weight);
            filled += 1;
            if filled == LANES {
                push_block(kernel, &block, layout, lacking, sliced);
                lanes.weights.push(weights);
                (block, weights, filled) = ([&[][..]; LANES], [0; LANES], 0);
            }
            lane += 1;
        }
    }
    if filled > 0 {
        push_block(kernel, &block, layout, lacking, sliced);
        lanes.weights.push(weights);
    }
}

/// Appends the masks of one block of patterns, lane by lane (at most 32 each, the others
/// empty), to `sliced`, compiled for the kernel's level (AVX2 moves a mask in two
/// instructions, SSE2 in four: the loads of an odd board's pins and an even board's spend
/// a tenth of their time here).
fn push_block(
    kernel: Kernel,
    lanes: &[&[u64]; LANES],
    layout: Layout,
    lacking: &mut [Bits512],
    sliced: &mut Vec<Bits512>,
) {
    #[cfg(target_arch = "x86_64")]
    if kernel.has_avx2() {
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        unsafe { push_block_avx2(lanes, layout, lacking, sliced) };
        return;
    }
    let _ = kernel;
    push_block_body(lanes, layout, lacking, sliced);
}

/// [`push_block_body`] compiled with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn push_block_avx2(
    lanes: &[&[u64]; LANES],
    layout: Layout,
    lacking: &mut [Bits512],
    sliced: &mut Vec<Bits512>,
) {
    push_block_body(lanes, layout, lacking, sliced);
}

/// See [`push_block`].
#[inline(always)]
fn push_block_body(
    lanes: &[&[u64]; LANES],
    layout: Layout,
    lacking: &mut [Bits512],
    sliced: &mut Vec<Bits512>,
) {
    // Bits512 where a lane holds no pattern: chunk 0 (which every item reads) leaves
    // them out.
    let mut present = Bits512([0; 8]);
    for (word, halves) in lanes.chunks_exact(2).enumerate() {
        let held = |keys: &[u64]| (1u64 << keys.len()) - 1;
        present.0[word] = held(halves[0]) | (held(halves[1]) << LANE);
        if present.0[word] == 0 {
            for bits in lacking.iter_mut() {
                bits.0[word] = !0;
            }
            continue;
        }
        // Transposed, row `b` holds the word's bit `b`. A whole lane is copied as a
        // fixed-size array (a slice of any length went through `memmove`, called for
        // each of them).
        let mut rows = [0u64; 64];
        for (half, keys) in rows.chunks_exact_mut(LANE).zip(halves) {
            match <&[u64; LANE]>::try_from(*keys) {
                Ok(whole) => half.copy_from_slice(whole),
                Err(_) => half[..keys.len()].copy_from_slice(keys),
            }
        }
        transpose(&mut rows);
        for (bits, row) in lacking.iter_mut().zip(rows) {
            bits.0[word] = !row;
        }
    }
    // A chunk's mask for a value is the AND of its low half's mask and its high half's:
    // the two halves' small tables are built first, and each mask of the chunk is then
    // one AND of two of theirs. Each mask built from one built just before (the AND of
    // its lowest bit's) made every shard 2 to 3% slower, from N = 23 to 28 (`count 24
    // --shard 7/20000`: 4.45 -> 4.34 s, `count 28 --shard 100000007/280840224
    // --threads 1`: 4.95 -> 4.84 s).
    let width = layout.width as usize;
    let (low_bits, high_bits) = (width / 2, width - width / 2);
    let lacks = |bit: usize| lacking.get(bit).copied().unwrap_or(Bits512([!0; 8]));
    let and = |a: Bits512, b: Bits512| Bits512(std::array::from_fn(|w| a.0[w] & b.0[w]));
    let table = |first: usize, bits: usize, start: Bits512, out: &mut [Bits512; HALF]| {
        out[0] = start;
        for value in 1..1usize << bits {
            let low = value.trailing_zeros() as usize;
            out[value] = and(out[value & (value - 1)], lacks(first + low));
        }
    };
    let (mut low, mut high) = ([Bits512([0; 8]); HALF], [Bits512([0; 8]); HALF]);
    for chunk in 0..layout.chunks {
        let first = if chunk == 0 {
            present
        } else {
            Bits512([!0; 8])
        };
        let bit = chunk * width;
        table(bit, low_bits, first, &mut low);
        table(bit + low_bits, high_bits, Bits512([!0; 8]), &mut high);
        for &high in &high[..1 << high_bits] {
            sliced.extend(low[..1 << low_bits].iter().map(|&low| and(low, high)));
        }
    }
}

/// Masks of a chunk's half (the higher, of up to 5 of its at most 10 bits).
const HALF: usize = 1 << MAX_WIDTH.div_ceil(2);

/// Transposes a 64 x 64 bit matrix: bit `j` of row `i` becomes bit `i` of row `j`. In six
/// rounds, each swapping the off-diagonal quarters of every square of twice `WIDTH`
/// rows: rows `k` and `k + WIDTH` run side by side, so each round's loop vectorizes.
#[inline(always)]
fn transpose(rows: &mut [u64; 64]) {
    swap_quarters::<32>(rows, 0x0000_0000_ffff_ffff);
    swap_quarters::<16>(rows, 0x0000_ffff_0000_ffff);
    swap_quarters::<8>(rows, 0x00ff_00ff_00ff_00ff);
    swap_quarters::<4>(rows, 0x0f0f_0f0f_0f0f_0f0f);
    swap_quarters::<2>(rows, 0x3333_3333_3333_3333);
    swap_quarters::<1>(rows, 0x5555_5555_5555_5555);
}

/// One round of [`transpose`]: in each square of `2 WIDTH` rows, the high `WIDTH` bits
/// (under `!low`) of its first half change places with the low ones of its second.
#[inline(always)]
fn swap_quarters<const WIDTH: usize>(rows: &mut [u64; 64], low: u64) {
    for square in rows.chunks_exact_mut(2 * WIDTH) {
        let (first, second) = square.split_at_mut(WIDTH);
        for (a, b) in first.iter_mut().zip(second) {
            let swap = ((*a >> WIDTH) ^ *b) & low;
            *a ^= swap << WIDTH;
            *b ^= swap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_moves_every_bit() {
        let mut rng = fastrand::Rng::with_seed(3);
        let original: [u64; 64] = std::array::from_fn(|_| rng.u64(..));
        let mut rows = original;
        transpose(&mut rows);
        for (i, row) in original.iter().enumerate() {
            for (j, column) in rows.iter().enumerate() {
                assert_eq!(row >> j & 1, column >> i & 1, "({i}, {j})");
            }
        }
    }

    #[test]
    fn each_list_starts_a_lane_and_each_lane_has_its_weight() {
        let kernel = Kernel::portable();
        let layout = Layout::for_bits(12);
        let mut lacking = vec![Bits512([0; 8]); 12];
        let (a, b, c) = (vec![1u64; 70], vec![2u64; 0], vec![4u64; 600]);
        let (mut sliced, mut lanes) = (Vec::new(), Lanes::default());
        let lists = [(&a[..], 1), (&b[..], 2), (&c[..], 4)];
        build_weighted(
            kernel,
            &lists,
            layout,
            &mut lacking,
            &mut sliced,
            &mut lanes,
        );
        // 70 take three lanes, 600 nineteen: 22 lanes, two blocks.
        assert_eq!(
            lanes.weights,
            vec![
                [1, 1, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
                [4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            ]
        );
        assert_eq!(sliced.len(), 2 * layout.block());
        // Chunk 0's first mask: the patterns present, word by word (two lanes a word).
        let present = |block: usize| sliced[block * layout.block()].0;
        let part = (1u64 << (600 - 18 * 32)) - 1;
        assert_eq!(
            present(0),
            [!0, ((1 << 6) - 1) | (!0 << 32), !0, !0, !0, !0, !0, !0]
        );
        assert_eq!(
            present(1),
            [!0, !0, u64::from(u32::MAX) | (part << 32), 0, 0, 0, 0, 0]
        );
        // For AVX2, four lanes at a time (two of word i, two of word i + 4): 70 take
        // four, 600 twelve in the first block; its last 216 fit in the low half of the
        // last block, a word (two lanes) at a time.
        let Some(avx2) = Kernel::new(KernelLevel::Avx2) else {
            return;
        };
        sliced.clear();
        build_weighted(avx2, &lists, layout, &mut lacking, &mut sliced, &mut lanes);
        assert_eq!(
            lanes.weights,
            vec![
                [1, 1, 4, 4, 4, 4, 4, 4, 1, 1, 4, 4, 4, 4, 4, 4],
                [4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0],
            ]
        );
        let part = (1u64 << (600 - 9 * 64)) - 1;
        let present = |block: usize| sliced[block * layout.block()].0;
        assert_eq!(present(0), [!0, !0, !0, !0, (1 << 6) - 1, !0, !0, !0]);
        assert_eq!(present(1), [!0, !0, !0, part, 0, 0, 0, 0]);
    }
}
