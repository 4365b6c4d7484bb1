//! A large bucket split further, bit by bit, each part by a bit of its own.
//!
//! A load's cut bits are the same for every bucket, chosen for the load as a whole. But
//! the buckets differ: those whose patterns hold few cut bits are the largest and are met
//! by the most items, and within a bucket the bits that skip the most pairs are not the
//! load's (bits hang together with the cut bits the bucket holds or lacks). So a bucket
//! of many patterns is split again by the bit its own patterns and items hold the most
//! pairs of, and each part again, until the parts are small: the part whose patterns hold
//! the bit is met only by the items that lack it. These bits stay in the keys (each part
//! its own), so no key is rearranged; the patterns are partitioned in place, and each
//! part's items are filtered from its parent's.

use super::held::held_by_sample;
use super::{ITEMS_PER_LOOK, LISTS, MIN_SLICED, PairCounter, Parts, subsets};
use crate::cpu::Kernel;
#[cfg(target_arch = "x86_64")]
use crate::cpu::KernelLevel;
use crate::methods::halves::cuts;
use crate::methods::halves::sliced::{BLOCK, Layout};
use std::ops::Range;

/// Patterns and items sampled to choose a part's bit: a pin of N = 27 took the same
/// with 128, 2% longer with 32.
const SAMPLE: usize = 64;
/// What a split costs and saves, in loads of a mask of a block (the kernel's unit of
/// work): an item's visit to a part costs [`VISIT`] and a load a chunk of its key per
/// block; filtering an item for a part, [`FILTER`]; partitioning a pattern, [`PARTITION`].
/// A pin of N = 27 (`count 27 --shard 3000017/135207800 --threads 1`) took 1.9 to 2.0 s
/// with visits costing 0 to 4 and filters 0 to 1, all level within the noise.
const VISIT: f64 = 4.0;
const FILTER: f64 = 0.5;
const PARTITION: f64 = 1.0;
/// The most cut bits a load takes fewer, to split its large buckets further.
const SPLIT_CUTS: usize = 3;

/// The most splits below a bucket.
const MAX_SPLITS: usize = 12;

/// Items to count against a bucket or a part of one: for each list of items, its slices
/// and its weight.
pub(super) type ItemSets<'a> = [(&'a [&'a [u64]], u64)];

impl PairCounter {
    /// How many of `cuts` cut bits of a load of keys of `bits` bits to take for all
    /// buckets alike, where its buckets are split: up to [`SPLIT_CUTS`] fewer, as long as
    /// the keys left keep their layout (chunks as many and as wide); the large buckets are
    /// then split further by bits of their own. A pin of N = 27 (`count 27 --shard
    /// 3000017/135207800 --threads 1`, keys of 44 bits, 12 cuts) took 2.10 s with 12
    /// uniform cuts, 1.96 s with 10 and 1.85 s with 9 (fewer would take a sixth chunk); a
    /// pin of N = 28 (100000007) 6.79, 6.18 and 6.16 s. Keeping the chunks but widening
    /// them (a block twice the size) made `count 25 --shard 7/20000` 1 to 2% slower.
    pub(super) fn uniform_cuts(cuts: usize, bits: u32) -> usize {
        let layout = |cuts: usize| Layout::for_bits(bits - cuts as u32);
        let mut uniform = cuts;
        while uniform > 0 && uniform + SPLIT_CUTS > cuts && layout(uniform - 1) == layout(cuts) {
            uniform -= 1;
        }
        uniform
    }

    /// How many pairs of bucket `cut`'s patterns and `lists` of items share no bit (each
    /// counted by its weights), the bucket split while its parts are large; `None` if
    /// halted. The items come sorted by their cut bits (`sorted`: each list's keys and
    /// where each cut value's start); those whose cut bits are among `free` (the cut bits
    /// the bucket lacks) count.
    pub(super) fn count_split(
        &mut self,
        cut: usize,
        lists: &[(&[u64], u64)],
        (free, sorted, starts): (usize, &[Vec<u64>; LISTS], &[Vec<usize>; LISTS]),
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let groups: [Vec<&[u64]>; LISTS] = std::array::from_fn(|i| {
            if i >= lists.len() {
                return Vec::new();
            }
            let (keys, starts) = (&sorted[i], &starts[i]);
            subsets(free)
                .map(|item_cut| &keys[starts[item_cut]..starts[item_cut + 1]])
                .filter(|group| !group.is_empty())
                .collect()
        });
        let weight = |i: usize| lists.get(i).map_or(0, |&(_, w)| w);
        let items: [(&[&[u64]], u64); LISTS] = std::array::from_fn(|i| (&groups[i][..], weight(i)));
        let items = &items[..lists.len()];
        let parts = self.bucket(cut);
        let mut filtered = std::mem::take(&mut self.filtered);
        filtered.resize_with(MAX_SPLITS, Default::default);
        let total = self.count_part(parts, items, &mut filtered, halted);
        self.filtered = filtered;
        // The built blocks are a part's, not the bucket's.
        self.built = None;
        total
    }

    /// [`PairCounter::count_split`] of the patterns of `parts`, split while large and
    /// while `filtered` (each split's items, one entry a depth) lasts.
    fn count_part(
        &mut self,
        parts: Parts,
        items: &ItemSets,
        filtered: &mut [[Vec<u64>; LISTS]],
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let no_items = items
            .iter()
            .all(|(sets, _)| sets.iter().all(|s| s.is_empty()));
        if no_items {
            return Some(0);
        }
        let len: usize = parts.iter().map(Range::len).sum();
        let bit = match filtered {
            [_, ..] if len >= self.split_from => self.split_bit(&parts, len, items),
            _ => None,
        };
        let (Some(bit), [clear, deeper @ ..]) = (bit, filtered) else {
            return self.count_leaf(&parts, items, halted);
        };
        // Each list's part, the patterns that lack the bit first.
        let mut lacking = parts.clone();
        let mut holding = parts;
        for l in 0..self.lists {
            let part = &mut self.patterns[l][holding[l].clone()];
            let at =
                holding[l].start + partition(self.kernel, part, bit, &mut self.partition_scratch);
            (lacking[l].end, holding[l].start) = (at, at);
        }
        // The patterns that hold the bit meet only the items that lack it.
        for (clear, &(sets, _)) in clear.iter_mut().zip(items) {
            clear.clear();
            for set in sets {
                cuts::append_clear(self.kernel, set, 1 << bit, clear);
            }
        }
        let sets: [[&[u64]; 1]; LISTS] = std::array::from_fn(|i| [&clear[i][..]]);
        let cleared: [(&[&[u64]], u64); LISTS] =
            std::array::from_fn(|i| (&sets[i][..], items.get(i).map_or(0, |&(_, w)| w)));
        let held = self.count_part(holding, &cleared[..items.len()], deeper, halted)?;
        Some(held + self.count_part(lacking, items, deeper, halted)?)
    }

    /// The bit to split the patterns of `parts` (`len` in all) by: the one held by the
    /// most pairs of them and `items` (estimated on samples), if splitting by it saves
    /// more than it costs.
    fn split_bit(&self, parts: &Parts, len: usize, items: &ItemSets) -> Option<u32> {
        let patterns: [&[u64]; LISTS] =
            std::array::from_fn(|l| &self.patterns[l][parts[l].clone()]);
        let (by_patterns, sampled_patterns) = held_by_sample(&patterns, SAMPLE);
        let sets: Vec<&[u64]> = items
            .iter()
            .flat_map(|(sets, _)| sets.iter().copied())
            .collect();
        let (by_items, sampled_items) = held_by_sample(&sets, SAMPLE);
        let pairs = |b: usize| by_patterns[b] * by_items[b];
        let best = (0..64).max_by_key(|&b| pairs(b))?;
        if pairs(best) == 0 {
            return None;
        }
        // The cost of a visit per item, in loads of a mask (see `VISIT`).
        let chunks = self.layout.chunks as f64;
        let visit = |len: f64| {
            if len < 1.0 {
                0.0
            } else if len < MIN_SLICED as f64 {
                len / 8.0
            } else {
                VISIT + chunks * (len / BLOCK as f64).ceil()
            }
        };
        let items_len: usize = sets.iter().map(|s| s.len()).sum();
        let held = len as f64 * by_patterns[best] as f64 / sampled_patterns as f64;
        let lack = 1.0 - by_items[best] as f64 / sampled_items as f64;
        let whole = visit(len as f64);
        let split = FILTER + visit(len as f64 - held) + lack * visit(held);
        let saved = items_len as f64 * (whole - split) - PARTITION * len as f64;
        (saved > 0.0).then_some(best as u32)
    }

    /// How many pairs of the patterns of `parts` and `items` share no bit, their blocks
    /// built once for all items.
    fn count_leaf(
        &mut self,
        parts: &Parts,
        items: &ItemSets,
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let sliced = parts.iter().map(Range::len).sum::<usize>() >= MIN_SLICED;
        if sliced {
            let sets = items.iter().flat_map(|(sets, _)| sets.iter());
            self.build_part(parts, sets.map(|set| set.len()).sum());
        }
        let mut total = 0;
        for &(sets, weight) in items {
            for set in sets {
                for slice in set.chunks(ITEMS_PER_LOOK) {
                    if halted() {
                        return None;
                    }
                    total += weight
                        * if sliced {
                            self.count_built(slice)
                        } else {
                            self.count_plain_part(parts, slice)
                        };
                }
            }
        }
        Some(total)
    }
}

/// Reorders `keys` so that those lacking `bit` come first (in their order), and says how
/// many they are, without a branch (about half the keys hold a split's bit).
fn partition(kernel: Kernel, keys: &mut [u64], bit: u32, scratch: &mut Vec<u64>) -> usize {
    #[cfg(target_arch = "x86_64")]
    if kernel.level() == KernelLevel::Avx512 {
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        return unsafe { partition_avx512(keys, bit, scratch) };
    }
    let _ = kernel;
    // Each key is written at both ends of `scratch`, and only one end moves on.
    scratch.clear();
    scratch.resize(keys.len(), 0);
    let (mut lacking, mut end) = (0, keys.len());
    for &key in keys.iter() {
        let holds = (key >> bit & 1) as usize;
        // Fewer keys placed than slots, so `lacking < end`.
        scratch[lacking] = key;
        scratch[end - 1] = key;
        lacking += 1 - holds;
        end -= holds;
    }
    keys.copy_from_slice(scratch);
    lacking
}

/// [`partition`] with AVX-512: eight keys at a time, those lacking the bit compressed
/// back into `keys` (never past the keys read) and those holding it into `held`, then
/// copied after them. A pin of N = 27 took 1.74 s against 1.84 s with the portable
/// partition (medians of 3).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
fn partition_avx512(keys: &mut [u64], bit: u32, held: &mut Vec<u64>) -> usize {
    use std::arch::x86_64::{
        _mm512_loadu_si512, _mm512_maskz_compress_epi64, _mm512_set1_epi64, _mm512_storeu_si512,
        _mm512_test_epi64_mask,
    };
    held.clear();
    held.reserve(keys.len() + 8);
    let (len, to, out) = (keys.len(), keys.as_mut_ptr(), held.as_mut_ptr());
    let bit_lanes = _mm512_set1_epi64(1 << bit);
    let (mut lacking, mut holding, mut at) = (0, 0, 0);
    while at + 8 <= len {
        // SAFETY: the load reads keys `at..at + 8`. The first store writes eight keys
        // from `lacking <= at`, so within those read (and `keys`); the second, eight
        // slots from `holding <= at` of `held`, whose capacity is `len + 8`.
        unsafe {
            let lanes = _mm512_loadu_si512(to.add(at).cast());
            let holds = _mm512_test_epi64_mask(lanes, bit_lanes);
            _mm512_storeu_si512(
                to.add(lacking).cast(),
                _mm512_maskz_compress_epi64(!holds, lanes),
            );
            _mm512_storeu_si512(
                out.add(holding).cast(),
                _mm512_maskz_compress_epi64(holds, lanes),
            );
            let held_here = holds.count_ones() as usize;
            (lacking, holding) = (lacking + 8 - held_here, holding + held_here);
        }
        at += 8;
    }
    // SAFETY: the first `holding` slots of `held` were written.
    unsafe { held.set_len(holding) };
    for at in at..len {
        let key = keys[at];
        if key >> bit & 1 == 0 {
            keys[lacking] = key;
            lacking += 1;
        } else {
            held.push(key);
        }
    }
    keys[lacking..].copy_from_slice(held);
    lacking
}

#[cfg(test)]
mod tests {
    use super::super::tests::{naive, random_keys};
    use super::*;

    #[test]
    fn split_buckets_count_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(41);
        let key_bits = 44;
        let patterns = [9_000, 0, 4_000].map(|len| random_keys(&mut rng, len, key_bits, 3));
        let items = [900, 300, 0].map(|len| random_keys(&mut rng, len, key_bits, 3));
        let items: [(&[u64], u64); 3] = [(&items[0], 1), (&items[1], 3), (&items[2], 2)];
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            counter.bucket_min = 512;
            // Split however few the cuts (this load's are).
            counter.splits_from_cuts = 0;
            // Parts that stay whole, that split down to a block, and to a few patterns
            // (compared one by one).
            for split_from in [1 << 30, 1024, 48] {
                counter.split_from = split_from;
                counter.filtered.clear();
                for lists in [
                    &[(&patterns[0][..], 1)][..],
                    &[(&patterns[0], 2), (&patterns[1], 1), (&patterns[2], 7)],
                ] {
                    counter.load_lists(lists, &[items[0].0, items[1].0]);
                    assert!(counter.cuts > 0);
                    let want: u64 = lists
                        .iter()
                        .flat_map(|&(p, pw)| {
                            items.iter().map(move |&(i, iw)| pw * iw * naive(p, i))
                        })
                        .sum();
                    let got = counter.count_weighted_until(&items, &|| false);
                    assert_eq!(
                        got,
                        Some(want),
                        "{kernel:?}, split from {split_from}, {} lists",
                        lists.len()
                    );
                    assert_eq!(counter.count_weighted_until(&items, &|| true), None);
                }
                // Some part was split (its items filtered) where parts may be small.
                let filtered = counter.filtered.first();
                let split = filtered.is_some_and(|f| f.iter().any(|v| v.capacity() > 0));
                assert_eq!(split, split_from < 1 << 30, "split from {split_from}");
            }
        }
    }

    #[test]
    fn loads_take_fewer_cuts_where_their_keys_take_no_more_chunks() {
        // 44 bits: 12 cuts leave 32 (5 chunks of 7), 9 leave 35 (still 5 of 7).
        assert_eq!(PairCounter::uniform_cuts(12, 44), 9);
        // 50 bits: 12 cuts leave 38 (7 chunks of 6), 9 leave 41 (still 7 of 6).
        assert_eq!(PairCounter::uniform_cuts(12, 50), 9);
        // 40 bits: 12 cuts leave 28 (4 chunks of 7), 11 would leave 29 (5 chunks).
        assert_eq!(PairCounter::uniform_cuts(12, 40), 12);
        // 42 bits: 12 cuts leave 30 (5 chunks of 6), 11 would leave 31 (5 of 7).
        assert_eq!(PairCounter::uniform_cuts(12, 42), 12);
        // No cut to take away.
        assert_eq!(PairCounter::uniform_cuts(0, 44), 0);
    }

    #[test]
    fn a_partition_puts_the_keys_lacking_the_bit_first() {
        let keys: Vec<u64> = (0..100u64).map(|k| k * 7919 % 1000).collect();
        for (kernel, bit) in Kernel::available()
            .into_iter()
            .flat_map(|k| [0, 3, 9, 40].map(|b| (k, b)))
        {
            let mut parted = keys.clone();
            let at = partition(kernel, &mut parted, bit, &mut Vec::new());
            assert!(parted[..at].iter().all(|k| k >> bit & 1 == 0));
            assert!(parted[at..].iter().all(|k| k >> bit & 1 == 1));
            let (mut a, mut b) = (parted.clone(), keys.clone());
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "the same keys");
        }
    }
}
