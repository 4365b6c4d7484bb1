//! Counting disjoint pairs: for a set of patterns (u64 bit sets) and many items, how many
//! patterns share no bit with each item. This is the hot loop of the half-board join.
//!
//! Patterns are stored bit-sliced in blocks of 512: for each key bit, a 512-bit mask of the
//! patterns that lack it. The patterns compatible with an item are then the AND of the
//! masks of the item's bits, and their number a popcount. The ANDs of every combination of
//! [`CHUNK_BITS`] neighbouring bits are precomputed, so an item costs one load and AND per
//! chunk of its key, whatever its bits, plus one popcount, per 512 patterns. Few patterns
//! are compared one by one instead.
//!
//! The kernels give the same counts: a portable one over `[u64; 8]` (also built for AVX2
//! with POPCNT), and an AVX-512 one (VPOPCNTQ), chosen at run time
//! ([`crate::cpu::KernelLevel`]).

use crate::cpu::KernelLevel;

/// Key bits precomputed together: each chunk of a key selects one of `2^CHUNK_BITS` masks.
pub const CHUNK_BITS: u32 = 6;
const CHUNK_MASKS: usize = 1 << CHUNK_BITS;
/// Patterns per block.
pub const BLOCK: usize = 512;
/// Below this many patterns they are compared one by one.
const MIN_SLICED: usize = 48;

/// 512 bits, one per pattern of a block.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Bits512(pub [u64; 8]);

/// Patterns prepared for counting; reusable (its buffers are kept between loads).
///
/// Many patterns are first sorted into buckets by a few *cut* bits; an item visits only
/// the buckets whose cut bits it does not share, so pairs that clash on a cut bit are
/// never looked at. Cut bits should be ones that many keys of both sides hold. Each
/// bucket should still fill a few blocks, so the number of cuts grows with the patterns.
pub struct PairCounter {
    kernel: KernelLevel,
    chunks: usize,
    /// The candidate cut bits, best first.
    cut_bits: Vec<u32>,
    /// How many of them the loaded patterns use.
    cuts: usize,
    /// One bucket per value of the cut bits.
    buckets: Vec<Bucket>,
    /// Scratch: patterns and items sorted by the value of their cut bits.
    by_cut: Vec<Vec<u64>>,
    items_by_cut: Vec<Vec<u64>>,
    /// Scratch: per key bit, a block's patterns that lack it.
    lacking: Vec<Bits512>,
}

/// Patterns per bucket below which one cut bit fewer is used.
const BUCKET_MIN: usize = 1024;

/// The patterns of one bucket: few as they are, or many in bit-sliced blocks.
#[derive(Default)]
struct Bucket {
    plain: Vec<u64>,
    /// Blocks of `chunks * CHUNK_MASKS` masks each.
    sliced: Vec<Bits512>,
}

impl PairCounter {
    /// An empty counter for keys of `key_bits` bits, counting with `kernel`, which may
    /// sort patterns by the key bits `cut_bits` (best first, at most 8).
    pub fn new(key_bits: u32, cut_bits: &[u32], kernel: KernelLevel) -> PairCounter {
        assert!(
            kernel.is_available(),
            "kernel {kernel} is not available here"
        );
        assert!(key_bits <= 64 && cut_bits.len() <= 8);
        assert!(cut_bits.iter().all(|&c| c < key_bits));
        let buckets = 1 << cut_bits.len();
        PairCounter {
            kernel,
            chunks: key_bits.div_ceil(CHUNK_BITS).max(1) as usize,
            cut_bits: cut_bits.to_vec(),
            cuts: 0,
            buckets: (0..buckets).map(|_| Bucket::default()).collect(),
            by_cut: vec![Vec::new(); buckets],
            items_by_cut: vec![Vec::new(); buckets],
            lacking: vec![Bits512([0; 8]); key_bits.max(1) as usize],
        }
    }

    /// The value of a key's cut bits.
    #[inline]
    fn cut_value(&self, key: u64) -> usize {
        self.cut_bits[..self.cuts]
            .iter()
            .enumerate()
            .fold(0, |v, (i, &bit)| v | ((key >> bit) as usize & 1) << i)
    }

    /// Replaces the patterns.
    pub fn load(&mut self, patterns: &[u64]) {
        self.cuts = 0;
        while self.cuts < self.cut_bits.len() && patterns.len() >> self.cuts >= 2 * BUCKET_MIN {
            self.cuts += 1;
        }
        let buckets = 1 << self.cuts;
        let mut by_cut = std::mem::take(&mut self.by_cut);
        for group in &mut by_cut[..buckets] {
            group.clear();
        }
        for &p in patterns {
            by_cut[self.cut_value(p)].push(p);
        }
        for (bucket, group) in self.buckets.iter_mut().zip(&by_cut[..buckets]) {
            bucket.load(group, self.chunks, &mut self.lacking);
        }
        self.by_cut = by_cut;
    }

    /// How many (pattern, item) pairs share no bit.
    pub fn count(&mut self, items: &[u64]) -> u64 {
        if self.cuts == 0 {
            return self.buckets[0].count(items, self.chunks, self.kernel);
        }
        let buckets = 1 << self.cuts;
        let mut items_by_cut = std::mem::take(&mut self.items_by_cut);
        for group in &mut items_by_cut[..buckets] {
            group.clear();
        }
        for &item in items {
            items_by_cut[self.cut_value(item)].push(item);
        }
        let mut total = 0;
        for (cut, bucket) in self.buckets[..buckets].iter().enumerate() {
            for (item_cut, group) in items_by_cut[..buckets].iter().enumerate() {
                if cut & item_cut == 0 && !group.is_empty() {
                    total += bucket.count(group, self.chunks, self.kernel);
                }
            }
        }
        self.items_by_cut = items_by_cut;
        total
    }
}

impl Bucket {
    fn load(&mut self, patterns: &[u64], chunks: usize, lacking: &mut [Bits512]) {
        self.plain.clear();
        self.sliced.clear();
        if patterns.len() < MIN_SLICED {
            self.plain.extend_from_slice(patterns);
            return;
        }
        for block in patterns.chunks(BLOCK) {
            self.push_block(block, chunks, lacking);
        }
    }

    fn push_block(&mut self, block: &[u64], chunks: usize, lacking: &mut [Bits512]) {
        let key_bits = lacking.len();
        // Sixty-four patterns at a time: transposed, row `b` holds their bit `b`.
        for (word, group) in block.chunks(64).enumerate() {
            let mut rows = [0u64; 64];
            rows[..group.len()].copy_from_slice(group);
            transpose(&mut rows);
            for (lanes, row) in lacking.iter_mut().zip(rows) {
                lanes.0[word] = !row;
            }
        }
        for lanes in lacking.iter_mut() {
            for word in &mut lanes.0[block.len().div_ceil(64)..] {
                *word = !0;
            }
        }
        // Bits512 past the block's end hold no pattern: chunk 0 (which every item reads)
        // leaves them out.
        let mut present = Bits512([0; 8]);
        for (i, word) in present.0.iter_mut().enumerate() {
            let filled = block.len().saturating_sub(i * 64).min(64);
            *word = if filled == 64 {
                !0
            } else {
                (1u64 << filled) - 1
            };
        }
        for chunk in 0..chunks {
            let base = self.sliced.len();
            let first = if chunk == 0 {
                present
            } else {
                Bits512([!0; 8])
            };
            self.sliced.push(first);
            for value in 1..CHUNK_MASKS {
                let low = value.trailing_zeros() as usize;
                let bit = chunk * CHUNK_BITS as usize + low;
                let mut lanes = self.sliced[base + (value & (value - 1))];
                if bit < key_bits {
                    for (w, l) in lanes.0.iter_mut().zip(lacking[bit].0) {
                        *w &= l;
                    }
                }
                self.sliced.push(lanes);
            }
        }
    }

    fn count(&self, items: &[u64], chunks: usize, kernel: KernelLevel) -> u64 {
        let plain: u64 = items
            .iter()
            .map(|&item| self.plain.iter().filter(|&&p| p & item == 0).count() as u64)
            .sum();
        if self.sliced.is_empty() {
            return plain;
        }
        let sliced = match kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `PairCounter` only takes an available kernel (see `new`).
            KernelLevel::Avx512 => unsafe { avx512::count_sliced(&self.sliced, chunks, items) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            KernelLevel::Avx2 => unsafe { count_sliced_avx2(&self.sliced, chunks, items) },
            _ => count_sliced_portable(&self.sliced, chunks, items),
        };
        plain + sliced
    }
}

/// Transposes a 64 x 64 bit matrix: bit `j` of row `i` becomes bit `i` of row `j`.
fn transpose(rows: &mut [u64; 64]) {
    let mut width = 32;
    let mut mask = 0x0000_0000_ffff_ffffu64;
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            // Swap the high `width` bits of row k with the low `width` bits of row k + width.
            let swap = ((rows[k] >> width) ^ rows[k + width]) & mask;
            rows[k] ^= swap << width;
            rows[k + width] ^= swap;
            k = ((k | width) + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

/// Calls `$kernel::<CHUNKS>($args)` with the chunk count as a constant, so that each
/// kernel's chunk loop unrolls with constant shifts (the index arithmetic, not the memory,
/// is what a variable count costs).
macro_rules! with_chunks {
    ($chunks:expr, $kernel:ident($($args:expr),*)) => {
        match $chunks {
            1 => $kernel::<1>($($args),*),
            2 => $kernel::<2>($($args),*),
            3 => $kernel::<3>($($args),*),
            4 => $kernel::<4>($($args),*),
            5 => $kernel::<5>($($args),*),
            6 => $kernel::<6>($($args),*),
            7 => $kernel::<7>($($args),*),
            8 => $kernel::<8>($($args),*),
            9 => $kernel::<9>($($args),*),
            10 => $kernel::<10>($($args),*),
            11 => $kernel::<11>($($args),*),
            other => unreachable!("{other} chunks: keys have at most 64 bits"),
        }
    };
}

/// The mask of `masks` (one chunk's) that item `item` selects for chunk `chunk`.
#[inline(always)]
fn chunk_mask(masks: &[Bits512], item: u64, chunk: usize) -> &Bits512 {
    let value = (item >> (chunk as u32 * CHUNK_BITS)) as usize & (CHUNK_MASKS - 1);
    &masks[chunk * CHUNK_MASKS..][..CHUNK_MASKS][value]
}

/// The portable kernel compiled for AVX2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn count_sliced_avx2(sliced: &[Bits512], chunks: usize, items: &[u64]) -> u64 {
    with_chunks!(chunks, sliced_portable(sliced, items))
}

/// The portable kernel.
fn count_sliced_portable(sliced: &[Bits512], chunks: usize, items: &[u64]) -> u64 {
    with_chunks!(chunks, sliced_portable(sliced, items))
}

/// The portable kernel for keys of `CHUNKS` chunks: block by block (each stays in cache),
/// every item against it.
#[inline(always)]
fn sliced_portable<const CHUNKS: usize>(sliced: &[Bits512], items: &[u64]) -> u64 {
    let mut total = 0u64;
    for block in sliced.chunks_exact(CHUNKS * CHUNK_MASKS) {
        for &item in items {
            let mut acc = [!0u64; 8];
            for chunk in 0..CHUNKS {
                for (a, m) in acc.iter_mut().zip(chunk_mask(block, item, chunk).0) {
                    *a &= m;
                }
            }
            total += acc.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        }
    }
    total
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{Bits512, CHUNK_MASKS, chunk_mask};
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_load_si512, _mm512_popcnt_epi64,
        _mm512_reduce_add_epi64, _mm512_set1_epi64, _mm512_setzero_si512,
    };

    /// The AVX-512 kernel: the same loop as the portable one, one register per mask.
    #[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,popcnt,bmi1,bmi2,lzcnt")]
    pub(super) fn count_sliced(sliced: &[Bits512], chunks: usize, items: &[u64]) -> u64 {
        with_chunks!(chunks, sliced_avx512(sliced, items))
    }

    #[inline(always)]
    fn sliced_avx512<const CHUNKS: usize>(sliced: &[Bits512], items: &[u64]) -> u64 {
        // SAFETY (all blocks): only inlined into `count_sliced`, which has the features.
        let mut sums: __m512i = unsafe { _mm512_setzero_si512() };
        for block in sliced.chunks_exact(CHUNKS * CHUNK_MASKS) {
            for &item in items {
                let mut acc = unsafe { _mm512_set1_epi64(-1) };
                for chunk in 0..CHUNKS {
                    let mask = chunk_mask(block, item, chunk);
                    // SAFETY: `Bits512` is 64 bytes, aligned to 64.
                    acc =
                        unsafe { _mm512_and_si512(acc, _mm512_load_si512(mask.0.as_ptr().cast())) };
                }
                sums = unsafe { _mm512_add_epi64(sums, _mm512_popcnt_epi64(acc)) };
            }
        }
        unsafe { _mm512_reduce_add_epi64(sums) as u64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(patterns: &[u64], items: &[u64]) -> u64 {
        items
            .iter()
            .map(|&i| patterns.iter().filter(|&&p| p & i == 0).count() as u64)
            .sum()
    }

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
    fn every_kernel_counts_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(7);
        for kernel in KernelLevel::available() {
            for (key_bits, cut_bits) in [
                (1u32, &[][..]),
                (5, &[2][..]),
                (13, &[][..]),
                (30, &[3, 17, 20][..]),
                (38, &[0, 9, 18, 37][..]),
                (62, &[61][..]),
            ] {
                let mut counter = PairCounter::new(key_bits, cut_bits, kernel);
                for len in [0usize, 1, 47, 48, 511, 512, 513, 1500, 2048, 4100, 9000] {
                    // Sparse keys, as half-boards have: each bit set with probability ~1/4.
                    let key = |rng: &mut fastrand::Rng| {
                        (0..key_bits).fold(0u64, |k, b| k | u64::from(rng.u8(..4) == 0) << b)
                    };
                    let patterns: Vec<u64> = (0..len).map(|_| key(&mut rng)).collect();
                    let mut items: Vec<u64> = (0..200).map(|_| key(&mut rng)).collect();
                    items.push(0);
                    counter.load(&patterns);
                    assert_eq!(
                        counter.count(&items),
                        naive(&patterns, &items),
                        "{kernel:?}, {key_bits} bits, {len} patterns"
                    );
                }
            }
        }
    }
}
