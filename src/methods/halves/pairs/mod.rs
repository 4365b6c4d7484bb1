//! Counting disjoint pairs: for a set of patterns (u64 bit sets) and many items, how many
//! patterns share no bit with each item. This is the hot loop of the half-board join.
//!
//! Patterns are stored bit-sliced in blocks of 512: for each key bit, a 512-bit mask of the
//! patterns that lack it. The patterns compatible with an item are then the AND of the
//! masks of the item's bits, and their number a popcount. The ANDs of every combination of
//! six or seven neighbouring bits are precomputed, so an item costs one load and AND per
//! chunk of its key, whatever its bits, plus one popcount, per 512 patterns; a bucket (or
//! part) that many items meet takes chunks of up to nine bits, fewer loads a visit for
//! more masks to build. Few patterns are compared one by one instead.
//!
//! The blocks are built by `blocks` and counted by the kernels of `sliced` (portable,
//! AVX2, AVX-512), chosen by the counter's kernel level.
//!
//! Counting costs less per pair the more patterns a load holds (a larger load takes more
//! cut bits, and each item visits a smaller share of it), so several weighted lists of
//! patterns (an even board's West by class) are loaded at once where the kernel can weigh
//! its counts lane by lane, each list from a lane of its own.

mod held;
mod joint;
mod part;
pub mod presorted;
mod split;
mod squeeze;

use super::blocks::{self, Lanes};
use super::cuts;
use super::load_side::{self, Side};
use super::sliced::{BLOCK, Bits512, Layout};
use crate::cpu::Kernel;
use held::{held_bits, held_by_sample};
use std::ops::Range;

/// The widest key the counter takes (a join's keys have `2n - 2` bits: 50 at N = 26).
pub const MAX_KEY_BITS: u32 = 58;
/// Items counted between two looks at the stop flag ([`PairCounter::count_until`]).
const ITEMS_PER_LOOK: usize = 4096;
/// Below this many patterns they are compared one by one.
const MIN_SLICED: usize = 48;

/// Patterns prepared for counting; reusable (its buffers are kept between loads).
///
/// Many patterns are first sorted into buckets by a few *cut* bits; an item visits only
/// the buckets whose cut bits it does not share, so pairs that clash on a cut bit are
/// never looked at. The cut bits are chosen per load as those held by the most pairs of
/// the patterns and the items to come (at N = 21 this skipped about a sixth more work
/// than four fixed bits beside the long diagonals). Each bucket should still fill a few
/// blocks, so the number of cuts grows with the patterns. A bucket's blocks are built
/// when it is first counted, against every list of items the count was given, and
/// dropped for the next bucket's: they stay in the cache between building and counting,
/// and the counter holds the blocks of one bucket, not of all.
pub struct PairCounter {
    kernel: Kernel,
    key_bits: u32,
    /// The loaded patterns' key bits, squeezed (see [`PairCounter::load`]).
    bits: u32,
    /// The bits the loaded keys are squeezed to (see [`PairCounter::load`]); else 0.
    squeeze: u64,
    /// The bits some loaded pattern holds that the squeeze left out because none of the
    /// items to be counted holds them (`squeeze`): an item that
    /// holds one would be miscounted, so the items counted are checked against them.
    dropped_held: u64,
    /// How the loaded patterns' keys, their cut bits taken out, are cut into chunks.
    layout: Layout,
    /// The cut bits for the loaded patterns, best first.
    cut_bits: Vec<u32>,
    /// How many of them the loaded patterns use.
    cuts: usize,
    /// Whether the cut bits are taken out by PEXT (BMI2, where it is fast).
    fast_extract: bool,
    /// The loaded patterns as counted (squeezed, their cut bits out), list by list, each
    /// sorted by the value of its cut bits: value `v`'s of list `l` are
    /// `patterns[l][starts[l][v]..starts[l][v + 1]]`; bucket `v` is those of every list.
    patterns: [Vec<u64>; LISTS],
    starts: [Vec<usize>; LISTS],
    /// The loaded lists' weights; how many lists are loaded (one, of weight 1, but where
    /// [`PairCounter::load_lists`] loads several).
    weights: [u64; LISTS],
    lists: usize,
    /// The weight of each lane of the built bucket's blocks, where several lists are
    /// loaded.
    lanes: Lanes,
    /// The bit-sliced blocks of one bucket (`layout.block()` masks each), built when the
    /// bucket is first counted and replaced by the next one's: built for all buckets at
    /// once, they were written out to memory and read back (56 bytes a pattern, a
    /// seventh of a shard of N = 24 spent writing them).
    sliced: Vec<Bits512>,
    /// Which bucket `sliced` holds, and how its blocks lie (the load's layout, or
    /// wider chunks where many items meet them: see [`PairCounter::part_layout`]).
    built: Option<usize>,
    built_layout: Layout,
    /// Scratch: each list of items as counted (squeezed or sorted by cut), and where
    /// each cut value's start.
    items: [Vec<u64>; LISTS],
    item_starts: [Vec<usize>; LISTS],
    /// Scratch: per key bit, a block's patterns that lack it.
    lacking: Vec<Bits512>,
    /// Patterns per bucket below which a cut bit fewer is used ([`BUCKET_MIN`]; the tests
    /// take small buckets to reach every cut with few patterns).
    bucket_min: usize,
    /// Patterns of a bucket or part from which it is split further ([`SPLIT_FROM`], see
    /// `split`; small in the tests).
    split_from: usize,
    /// Cut bits from which a load's buckets are split ([`SPLITS_FROM_CUTS`]; 0 in the
    /// tests), and whether the loaded patterns' are.
    splits_from_cuts: usize,
    splits: bool,
    /// How a load's pairs set the sample by which it chooses its cut bits jointly
    /// (`joint::SAMPLE_SHIFT`; 0 in the tests, so that small loads do).
    joint_shift: u32,
    /// Scratch for `split`: each depth's items, list by list, and a partition's keys.
    filtered: Vec<[Vec<u64>; LISTS]>,
    partition_scratch: Vec<u64>,
    /// Scratch for sorting by many cut bits (`cuts::sort_by_pext`).
    sort_scratch: Vec<u64>,
}

/// The most cut bits a load uses. The large loads of N >= 25 (a million patterns and
/// more) fill buckets with 10 to 11 cuts: `count 26 --shard 29/1000000` compared 14% of
/// its pairs with at most 8 and 8.1% with 12, and took 13.0 s instead of 19.1 s (7/1000000:
/// 12.4 s instead of 14.5 s).
const MAX_CUTS: usize = 12;
/// Patterns per bucket below which no cut is used, and twice the size below which no
/// further cut is. Larger buckets skip fewer pairs but load and sort less: count 18 by
/// halves, 2 threads, medians of 7, took 1.59 s with 1024, 1.45 s with 2048 and 1.37 s
/// with 4096 (AVX2 path: 1.57, 1.46, 1.51 s); 512 and 256 were slower still. Once the
/// items are sorted for a first cut, a further one costs less: buckets half the size
/// after it took `count 20 --shard 3/10` from 2.90 to 2.72 s (medians of 3), shards 7
/// of N = 23 and 25 6 to 7% less, N = 22's 1% less, N = 24's 2 to 4% more; 3/4 the
/// size gave 3%, 2.5%, 6% less and N = 24 2% less; `count 18` unchanged.
const BUCKET_MIN: usize = 2048;
/// Items to count from which buckets of half [`BUCKET_MIN`] pay: a cut bit more skips
/// more pairs for each of many items, while few items leave each cut value's group too
/// small to count well. `count 22 --shard k/400` (about 18,000 items a load), k = 21 and
/// 200, medians of 3: 9.44 + 9.03 s with 2048, 7.83 + 8.60 s with 1024; `count 18`
/// (about 5,000): slower with 1024 (1.49 to 1.85 s against 1.27 to 1.35 s).
const MANY_ITEMS: usize = 8192;

/// How many keys of each side a load samples to choose its cut bits: a share of them,
/// within bounds. With 512 whatever the load, a larger sample of a large load chose cut
/// bits that skip more pairs: with 4,096 the kernel's loads of a mask fell 2.0% on
/// `count 24 --shard 7/20000`, 1.0% on `count 25 --shard 7/200000` and 2.1% on `count 26
/// --shard 29/1000000` (16,384 gave no more); a small load's sample would cost as much
/// as its count.
struct Sample {
    share: usize,
    least: usize,
    most: usize,
}
const CUT_SAMPLE: Sample = Sample {
    share: 32,
    least: 512,
    most: 4096,
};

/// Patterns of a bucket (or a part of one) from which it is split further by a bit of
/// its own (see `split`).
const SPLIT_FROM: usize = 1024;

/// Cut bits from which a load's large buckets are split (smaller loads' buckets are
/// about the bucket size already, and splitting them cost more than it saved): shards of
/// N = 23 (`count 23 --shard 7/2000`, 2 threads) took 5.10 s unsplit, 5.32 to 5.38 s
/// split from any number of cuts. From 10 cuts, against 12 (where the most cuts leave
/// buckets larger than wanted): `count 26 --shard 7/1000000 --threads 1` 15.1 against
/// 15.6 to 16.0 s (unsplit 16.0 s), `count 25 --shard 7/20000` 35.3 to 36.2 against
/// 35.4 to 36.4 s (unsplit 35.0 to 35.7 s), pins of N = 27 and 28 the same.
const SPLITS_FROM_CUTS: usize = 10;

/// The most lists of items counted at once (an even board's West: three classes).
pub const LISTS: usize = 3;

impl PairCounter {
    /// An empty counter for keys of `key_bits` bits, counting with `kernel`.
    pub fn new(key_bits: u32, kernel: Kernel) -> PairCounter {
        assert!(key_bits <= MAX_KEY_BITS);
        PairCounter {
            kernel,
            key_bits,
            bits: key_bits,
            squeeze: 0,
            dropped_held: 0,
            layout: Layout::for_bits(key_bits),
            built_layout: Layout::for_bits(key_bits),
            cut_bits: Vec::new(),
            cuts: 0,
            fast_extract: kernel.has_avx2() && crate::cpu::fast_pext(),
            patterns: Default::default(),
            starts: Default::default(),
            weights: [1; LISTS],
            lists: 1,
            lanes: Lanes::default(),
            sliced: Vec::new(),
            built: None,
            items: Default::default(),
            item_starts: Default::default(),
            lacking: vec![Bits512([0; 8]); key_bits.max(1) as usize],
            bucket_min: BUCKET_MIN,
            split_from: SPLIT_FROM,
            splits_from_cuts: SPLITS_FROM_CUTS,
            joint_shift: joint::SAMPLE_SHIFT,
            splits: false,
            filtered: Vec::new(),
            partition_scratch: Vec::new(),
            sort_scratch: Vec::new(),
        }
    }

    /// Puts `keys` in `sorted` as the loaded patterns are counted: sorted by the value
    /// of their cut bits (a counting sort), each without its cut bits, value `v`'s keys
    /// then `sorted[starts[v]..starts[v + 1]]` (value bit `i` is the `i`-th lowest cut
    /// bit); squeezed as the patterns are. With no cut, one value.
    ///
    /// The keys come as given to [`PairCounter::load`] or [`PairCounter::count`]: where
    /// the load squeezes, the same PEXT squeezes them.
    fn arrange(
        &self,
        keys: &[u64],
        (sorted, starts): (&mut Vec<u64>, &mut Vec<usize>),
        scratch: &mut Vec<u64>,
    ) {
        if self.cuts == 0 {
            starts.clear();
            starts.extend([0, keys.len()]);
            if self.squeeze != 0 {
                cuts::squeeze(self.kernel, self.squeeze, keys, sorted);
            } else {
                sorted.clear();
                sorted.extend_from_slice(keys);
            }
            return;
        }
        let cut_bits = &self.cut_bits[..self.cuts];
        if !self.fast_extract {
            // No squeeze either (it needs PEXT).
            cuts::sort_by_shifts(cut_bits, keys, (sorted, starts), scratch);
            return;
        }
        // The cut bits among the keys' own: squeezed bit `i` is the squeeze's `i`-th.
        let within = if self.squeeze != 0 { self.squeeze } else { !0 };
        let value = cuts::deposit(cut_bits.iter().fold(0, |m, &b| m | 1 << b), within);
        let out = (sorted, starts);
        cuts::sort_by_pext(value, within & !value, self.kernel, keys, out, scratch)
            .expect("PEXT is fast only with a kernel of the AVX2 level");
    }

    /// Chooses the cut bits for counting `items` against `patterns`, so that the buckets
    /// skip the most pairs: on a large load, each the bit that skips the most of the
    /// sampled pairs the bits before it leave (see `joint`); on a smaller one, the bits
    /// held by the most pairs each on its own (estimated on a sample of each side, see
    /// [`CUT_SAMPLE`]).
    fn choose_cuts(&mut self, patterns: &[&[u64]], items: &[&[u64]]) {
        // Neither side is squeezed yet: the bits are chosen among those of the keys as
        // they come that the load uses, and bit `b` is the squeezed key's bit `i` if it
        // is the `i`-th of those.
        let used = match self.squeeze {
            0 => u64::MAX >> (64 - self.bits),
            squeeze => squeeze,
        };
        let len = |sets: &[&[u64]]| sets.iter().map(|set| set.len()).sum::<usize>();
        let chosen = match joint::joint_sample(len(patterns), len(items), self.joint_shift) {
            Some(sample) => joint::joint_cuts(patterns, items, used, self.cuts, sample),
            None => {
                let held = |sets: &[&[u64]]| {
                    let sample = len(sets) / CUT_SAMPLE.share;
                    held_by_sample(sets, sample.clamp(CUT_SAMPLE.least, CUT_SAMPLE.most)).0
                };
                let (by_patterns, by_items) = (held(patterns), held(items));
                let mut bits: Vec<u32> = (0..64).filter(|&b| used >> b & 1 != 0).collect();
                bits.sort_by_key(|&b| {
                    std::cmp::Reverse(by_patterns[b as usize] * by_items[b as usize])
                });
                bits.truncate(MAX_CUTS);
                bits
            }
        };
        self.cut_bits = chosen.into_iter().map(|b| squeezed(used, b)).collect();
    }

    /// How many cut bits a load of `patterns` patterns against `items` items takes
    /// ([`PairCounter::cuts_for`]), and whether its buckets are split (then with fewer
    /// cuts, see `split`).
    fn plan_cuts(&mut self, patterns: usize, items: usize) {
        let cuts = self.cuts_for(patterns, items, self.bits);
        self.splits = cuts >= self.splits_from_cuts;
        self.cuts = if self.splits {
            Self::uniform_cuts(cuts, self.bits)
        } else {
            cuts
        };
    }

    /// Replaces the patterns, to be counted against `items` (or keys like them, in any
    /// number of slices: they only guide the choice of cut bits; any items may be
    /// counted after).
    ///
    /// Where PEXT is fast and the patterns leave enough key bits unused to save a chunk,
    /// patterns and items are squeezed to the bits the patterns use (an item's other bits
    /// never clash): an odd board's West never holds its pin's four barred diagonals, and
    /// 34 bits are 5 chunks where N = 21's 38 are 7. (Where the items given are the ones
    /// counted, as in [`PairCounter::count_disjoint`], the squeeze also leaves out the
    /// bits none of them holds.)
    pub fn load(&mut self, patterns: &[u64], items: &[&[u64]]) {
        self.load_lists(&[(patterns, 1)], items);
    }

    /// [`PairCounter::load`] of several lists of patterns, each pair a pattern of a list
    /// makes counted by the list's weight: one load, its cut bits chosen and its items
    /// sorted once for all of them, and a larger load takes more cut bits (see
    /// `merges_lists`). Each bucket lays each list's patterns out from a
    /// lane of its own (`blocks`), and the kernel weighs its counts lane by lane.
    pub fn load_lists(&mut self, lists: &[(&[u64], u64)], items: &[&[u64]]) {
        self.load_lists_within(lists, items, !0);
    }

    /// Whether the loaded patterns are weighed lane by lane (several lists, or one of a
    /// weight other than 1).
    fn weighted(&self) -> bool {
        self.lists > 1 || self.weights[0] != 1
    }

    /// [`PairCounter::load_lists`] once the squeeze is chosen (see `squeeze`): the keys
    /// are squeezed as they are sorted by their cut bits, or apart where there is no cut.
    fn load_keys(&mut self, lists: &[(&[u64], u64)], items: &[&[u64]]) {
        assert!((1..=LISTS).contains(&lists.len()), "1 to {LISTS} lists");
        self.lists = lists.len();
        self.weights = std::array::from_fn(|i| lists.get(i).map_or(1, |&(_, w)| w));
        let items_len = items.iter().map(|s| s.len()).sum();
        let patterns: [&[u64]; LISTS] =
            std::array::from_fn(|i| lists.get(i).map_or(&[][..], |&(list, _)| list));
        let patterns = &patterns[..lists.len()];
        let len = patterns.iter().map(|list| list.len()).sum();
        self.plan_cuts(len, items_len);
        if self.cuts > 0 {
            self.choose_cuts(patterns, items);
            // The bits in use, lowest first (value bit `i` is the `i`-th).
            self.cut_bits[..self.cuts].sort_unstable();
        }
        self.layout = Layout::for_bits(self.bits - self.cuts as u32);
        self.built = None;
        if self.cuts == 0 && self.squeeze == 0 && !self.weighted() && len >= MIN_SLICED {
            // One bucket, whose patterns are counted as they are: its blocks built now,
            // from them, without a copy (most loads of N <= 18).
            self.starts[0].clear();
            self.starts[0].extend([0, len]);
            self.patterns[0].clear();
            self.sliced.clear();
            self.reserve_blocks(len.div_ceil(BLOCK));
            self.built_layout = self.part_layout(items_len);
            let lacking = &mut self.lacking[..self.bits as usize];
            blocks::build(
                self.kernel,
                patterns[0],
                self.built_layout,
                lacking,
                &mut self.sliced,
            );
            self.built = Some(0);
            return;
        }
        let (mut sorted, mut starts) = (
            std::mem::take(&mut self.patterns),
            std::mem::take(&mut self.starts),
        );
        let mut scratch = std::mem::take(&mut self.sort_scratch);
        for (list, out) in patterns.iter().zip(sorted.iter_mut().zip(&mut starts)) {
            self.arrange(list, out, &mut scratch);
        }
        (self.patterns, self.starts, self.sort_scratch) = (sorted, starts, scratch);
        self.reserve_load_blocks();
    }

    /// Room for the largest bucket's blocks of the patterns loaded (weighted, each list
    /// from a lane of its own).
    fn reserve_load_blocks(&mut self) {
        let blocks = (0..1usize << self.cuts)
            .map(|cut| {
                let lens = (0..self.lists).map(|l| self.starts[l][cut + 1] - self.starts[l][cut]);
                let len: usize = lens.clone().sum();
                let blocks = if self.weighted() {
                    blocks::weighted_blocks(self.kernel, lens)
                } else {
                    len.div_ceil(BLOCK)
                };
                (len, blocks)
            })
            .filter(|&(len, _)| len >= MIN_SLICED)
            .map(|(_, blocks)| blocks)
            .max()
            .unwrap_or(0);
        self.reserve_blocks(blocks);
    }

    /// How many cut bits a load of `patterns` patterns of `bits` bits uses, to be counted
    /// against `items` items: the first cut needs buckets of the bucket size, the later
    /// ones half that (halved again when the items are many).
    fn cuts_for(&self, patterns: usize, items: usize, bits: u32) -> usize {
        let bucket_min = if items >= MANY_ITEMS {
            self.bucket_min / 2
        } else {
            self.bucket_min
        };
        let mut cuts = 0;
        while cuts < MAX_CUTS.min(bits as usize)
            && patterns >> cuts >= bucket_min << usize::from(cuts == 0)
        {
            cuts += 1;
        }
        cuts
    }

    /// How many (pattern, item) pairs share no bit.
    pub fn count(&mut self, items: &[u64]) -> u64 {
        self.count_until(items, &|| false).expect("never halted")
    }

    /// [`PairCounter::count`], abandoned (`None`) once `halted` says so: it is asked every
    /// 4,096 items, a few milliseconds of work even at N = 26, where one row set counts
    /// for tens of seconds.
    pub fn count_until(&mut self, items: &[u64], halted: &dyn Fn() -> bool) -> Option<u64> {
        self.count_weighted_until(&[(items, 1)], halted)
    }

    /// How many pairs of `a` and `b` share no bit, `None` if halted (see
    /// [`PairCounter::count_weighted_disjoint`]).
    #[inline(always)]
    pub fn count_disjoint(
        &mut self,
        a: &[u64],
        b: &[u64],
        per_load: usize,
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        self.count_weighted_disjoint(a, &[(b, 1)], per_load, halted)
    }

    /// The sum over `lists` of its weight times the pairs of its keys and `keys` that
    /// share no bit, `None` if halted. One side is loaded, `per_load` patterns at a
    /// time, and the other counted against each load, whichever side `load_side`'s
    /// model says is faster. The smaller side is not always it: a
    /// larger load takes more cut bits, so each item visits a smaller share of it. A pin
    /// of N = 27 (`--shard 3000017/135207800`: East 3 to 6 million half-boards, West half
    /// a million) took 4.0 s with West loaded, 2.1 s with East.
    ///
    /// Inlined (with the function below) into the join's `meet`, compiled for the
    /// kernel's level, as the loads and counts it calls were before it existed: called
    /// apart, they were compiled for plain x86-64, and `count 21 --shard 3/100 --threads
    /// 1` took 3.82 s against 3.66 s (medians of 5).
    #[inline(always)]
    pub fn count_weighted_disjoint(
        &mut self,
        keys: &[u64],
        lists: &[(&[u64], u64)],
        per_load: usize,
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let side = self.side_to_load(keys, lists, per_load);
        self.count_weighted_disjoint_loading(side, keys, lists, per_load, halted)
    }

    /// [`PairCounter::count_weighted_disjoint`] with `side` loaded.
    #[inline(always)]
    fn count_weighted_disjoint_loading(
        &mut self,
        side: Side,
        keys: &[u64],
        lists: &[(&[u64], u64)],
        per_load: usize,
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let mut total = 0;
        match side {
            Side::Keys => {
                let all: [&[u64]; LISTS] =
                    std::array::from_fn(|i| lists.get(i).map_or(&[][..], |&(list, _)| list));
                let items_hold = held_bits(all);
                for patterns in keys.chunks(per_load) {
                    self.load_lists_within(&[(patterns, 1)], &all[..lists.len()], items_hold);
                    total += self.count_weighted_until(lists, halted)?;
                }
            }
            Side::Lists if merges_lists(lists, per_load) => {
                let (kept, len) = counted(lists);
                self.load_lists_within(&kept[..len], &[keys], held_bits([keys]));
                total += self.count_until(keys, halted)?;
            }
            Side::Lists => {
                let items_hold = held_bits([keys]);
                for &(list, weight) in lists {
                    for patterns in list.chunks(per_load) {
                        self.load_lists_within(&[(patterns, 1)], &[keys], items_hold);
                        total += weight * self.count_until(keys, halted)?;
                    }
                }
            }
        }
        Some(total)
    }

    /// Which side of [`PairCounter::count_weighted_disjoint`] to load: the keys, counted
    /// against all lists at once, or the lists, all in one load where they merge, else
    /// each in turn, counted against the keys.
    fn side_to_load(&self, keys: &[u64], lists: &[(&[u64], u64)], per_load: usize) -> Side {
        let lens: [usize; LISTS] = std::array::from_fn(|i| lists.get(i).map_or(0, |l| l.0.len()));
        let mut lens = &lens[..lists.len()];
        let merged = [lens.iter().sum()];
        if merges_lists(lists, per_load) {
            lens = &merged;
        }
        let cuts_for = |patterns, items| self.cuts_for(patterns, items, self.key_bits);
        load_side::side_to_load(keys.len(), lens, per_load, cuts_for)
    }

    /// The sum over `lists` of its weight times the pairs of its items and the patterns
    /// that share no bit, `None` if halted (asked before each bucket, and every 4,096
    /// items). Each bucket's blocks are built once for all lists, when first needed.
    pub fn count_weighted_until(
        &mut self,
        lists: &[(&[u64], u64)],
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        assert!(lists.len() <= LISTS, "at most {LISTS} lists of items");
        self.assert_squeeze_holds(lists);
        let (mut sorted, mut starts) = (
            std::mem::take(&mut self.items),
            std::mem::take(&mut self.item_starts),
        );
        // Items are counted as they come where the patterns are neither cut nor squeezed.
        let as_they_come = self.cuts == 0 && self.squeeze == 0;
        let mut scratch = std::mem::take(&mut self.sort_scratch);
        for (i, &(items, _)) in lists.iter().enumerate() {
            if as_they_come {
                starts[i].clear();
                starts[i].extend([0, items.len()]);
            } else {
                self.arrange(items, (&mut sorted[i], &mut starts[i]), &mut scratch);
            }
        }
        self.sort_scratch = scratch;
        let mut total = Some(0);
        'cuts: for cut in 0..1 << self.cuts {
            if halted() {
                total = None;
                break;
            }
            // The item groups whose cut bits miss this bucket's: the subsets of the
            // others (3^cuts pairs of groups in all, where every pair was 4^cuts).
            let free = !cut & ((1 << self.cuts) - 1);
            let split = self.splits && self.cuts > 0;
            if split && self.bucket(cut).iter().map(Range::len).sum::<usize>() >= self.split_from {
                let groups = (free, &sorted, &starts);
                let Some(found) = self.count_split(cut, lists, groups, halted) else {
                    total = None;
                    break 'cuts;
                };
                total = total.map(|t| t + found);
                continue;
            }
            // The bucket's blocks, built once for all the items that meet it (unless
            // built at the load, or too few to build).
            let parts = self.bucket(cut);
            let sliced = parts.iter().map(Range::len).sum::<usize>() >= MIN_SLICED;
            if sliced && self.built != Some(cut) {
                let meeting: usize = starts[..lists.len()]
                    .iter()
                    .map(|starts| {
                        subsets(free)
                            .map(|c| starts[c + 1] - starts[c])
                            .sum::<usize>()
                    })
                    .sum();
                if meeting == 0 {
                    continue;
                }
                self.build_part(&parts, meeting);
                self.built = Some(cut);
            }
            for (i, &(items, weight)) in lists.iter().enumerate() {
                let keys = if as_they_come { items } else { &sorted[i] };
                let starts = &starts[i];
                for item_cut in subsets(free) {
                    let group = &keys[starts[item_cut]..starts[item_cut + 1]];
                    if !group.is_empty() {
                        let Some(found) = self.count_bucket_until(cut, group, halted) else {
                            total = None;
                            break 'cuts;
                        };
                        total = total.map(|t| t + weight * found);
                    }
                }
            }
        }
        (self.items, self.item_starts) = (sorted, starts);
        total
    }

    /// [`PairCounter::count_bucket`], in slices of [`ITEMS_PER_LOOK`] items with a look
    /// at `halted` between them when there are more (most calls have fewer items, and
    /// their caller looks before each cut value's buckets).
    fn count_bucket_until(
        &self,
        cut: usize,
        items: &[u64],
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let mut total = 0;
        for (i, slice) in items.chunks(ITEMS_PER_LOOK).enumerate() {
            if i > 0 && halted() {
                return None;
            }
            total += self.count_bucket(cut, slice);
        }
        Some(total)
    }

    /// How many pairs of bucket `cut`'s patterns and `items` share no bit (each counted
    /// by its pattern's list's weight): by its blocks where they are built, else one by
    /// one. (A bucket built at the load, from the patterns as given, is not in
    /// `patterns`.)
    fn count_bucket(&self, cut: usize, items: &[u64]) -> u64 {
        if self.built == Some(cut) {
            self.count_built(items)
        } else {
            self.count_plain_part(&self.bucket(cut), items)
        }
    }

    /// Where bucket `cut` lies in each list of `patterns`.
    fn bucket(&self, cut: usize) -> Parts {
        std::array::from_fn(|l| {
            let starts = &self.starts[l];
            if l < self.lists {
                starts[cut]..starts[cut + 1]
            } else {
                0..0
            }
        })
    }
}

/// Key bit `b`'s place among the bits `used` (its rank there): where a load is squeezed
/// to `used`, bit `b` becomes that bit of the squeezed key.
fn squeezed(used: u64, b: u32) -> u32 {
    (used & ((1 << b) - 1)).count_ones()
}

/// The subsets of `set`'s bits, `set` first and 0 last.
fn subsets(set: usize) -> impl Iterator<Item = usize> {
    let mut next = Some(set);
    std::iter::from_fn(move || {
        let this = next?;
        next = (this != 0).then(|| (this - 1) & set);
        Some(this)
    })
}

/// Where a bucket (or a part of one) lies in each list of loaded patterns.
type Parts = [Range<usize>; LISTS];

/// Whether `lists` loaded as patterns are loaded at once ([`PairCounter::load_lists`])
/// rather than in turn: where more than one counts and they fit in a load. West's three
/// classes against a part of East at N = 28 (`count 28 --shard 100000007/280840224
/// --threads 1`): 7.7 s in turn, 6.1 s at once.
fn merges_lists(lists: &[(&[u64], u64)], per_load: usize) -> bool {
    let len: usize = lists.iter().map(|(list, _)| list.len()).sum();
    counted(lists).1 > 1 && len <= per_load
}

/// The lists that count (a weight and keys), in order, and how many.
fn counted<'a>(lists: &[(&'a [u64], u64)]) -> ([(&'a [u64], u64); LISTS], usize) {
    let mut kept = [(&[][..], 0); LISTS];
    let mut len = 0;
    for &(list, weight) in lists {
        if weight > 0 && !list.is_empty() {
            (kept[len], len) = ((list, weight), len + 1);
        }
    }
    (kept, len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::halves::sliced;

    /// `len` random keys of `bits` bits, each bit set with probability `1 / one_in`
    /// (about 1/3 near the middle of half-boards' bands; 1/4 for sparser ones).
    pub(super) fn random_keys(
        rng: &mut fastrand::Rng,
        len: usize,
        bits: u32,
        one_in: u8,
    ) -> Vec<u64> {
        (0..len)
            .map(|_| (0..bits).fold(0u64, |k, b| k | u64::from(rng.u8(..one_in) == 0) << b))
            .collect()
    }

    /// `lists` weighted 1, 2 and 4.
    fn weighted(lists: &[Vec<u64>; 3]) -> [(&[u64], u64); 3] {
        [0, 1, 2].map(|i| (lists[i].as_slice(), 1 << i))
    }

    pub(super) fn naive(patterns: &[u64], items: &[u64]) -> u64 {
        items
            .iter()
            .map(|&i| patterns.iter().filter(|&&p| p & i == 0).count() as u64)
            .sum()
    }

    #[test]
    fn every_number_of_cuts_counts_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(11);
        let key_bits = 40;
        // Keys as dense as half-boards' near the middle of their bands.
        let patterns = random_keys(&mut rng, 70_000, key_bits, 3);
        let items = random_keys(&mut rng, MANY_ITEMS, key_bits, 3);
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            counter.bucket_min = 8;
            // Cut bits ranked one by one, and chosen jointly (from 600 x 8,192 pairs).
            let cases = [600, 5_000, 70_000].map(|len| [(len, joint::SAMPLE_SHIFT), (len, 0)]);
            for (len, joint_shift) in cases.into_iter().flatten() {
                counter.joint_shift = joint_shift;
                counter.load(&patterns[..len], &[&items]);
                if len == patterns.len() {
                    assert_eq!(counter.cuts, MAX_CUTS);
                }
                assert_eq!(
                    counter.count(&items[..300]),
                    naive(&patterns[..len], &items[..300]),
                    "{kernel:?}, {len} patterns, {} cuts, shift {joint_shift}",
                    counter.cuts
                );
            }
        }
    }

    #[test]
    fn patterns_that_leave_bits_unused_count_the_same_squeezed() {
        let mut rng = fastrand::Rng::with_seed(17);
        let key_bits = 40;
        // The patterns never hold ten of the bits (as West never holds its pin's bars);
        // the items may.
        let unused = 0b1011_0110_0100_1000_1010_0001_0000_0100_1001_0010u64;
        let mut patterns = random_keys(&mut rng, 20_000, key_bits, 3);
        patterns.iter_mut().for_each(|key| *key &= !unused);
        let items = random_keys(&mut rng, 600, key_bits, 3);
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            counter.bucket_min = 16;
            // Cut bits chosen jointly where the load is large enough (from 3,000 x 600).
            let cases = [20, 3_000, 20_000].map(|len| [(len, joint::SAMPLE_SHIFT), (len, 0)]);
            for (len, joint_shift) in cases.into_iter().flatten() {
                counter.joint_shift = joint_shift;
                counter.load(&patterns[..len], &[&items]);
                if counter.fast_extract {
                    // Squeezed (by the sort, where there are cuts).
                    assert_eq!(counter.squeeze, ((1 << key_bits) - 1) & !unused);
                    assert_eq!(counter.cuts > 0, len > 20, "{kernel:?}, {len} patterns");
                }
                assert_eq!(
                    counter.count(&items),
                    naive(&patterns[..len], &items),
                    "{kernel:?}, {len} patterns, {} cuts, squeezed to {:#x}, shift {joint_shift}",
                    counter.cuts,
                    counter.squeeze
                );
            }
        }
    }

    #[test]
    fn lists_of_items_count_weighted_as_each_alone() {
        let mut rng = fastrand::Rng::with_seed(23);
        let key_bits = 38;
        let patterns = random_keys(&mut rng, 20_000, key_bits, 3);
        let lists = [700, 0, 1300].map(|len| random_keys(&mut rng, len, key_bits, 3));
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            // No cut; a few; many (small buckets).
            for (len, bucket_min) in [(100, BUCKET_MIN), (20_000, BUCKET_MIN), (20_000, 16)] {
                counter.bucket_min = bucket_min;
                let patterns = &patterns[..len];
                let hint: Vec<&[u64]> = lists.iter().map(Vec::as_slice).collect();
                counter.load(patterns, &hint);
                let weighted = weighted(&lists);
                let want: u64 = weighted.iter().map(|&(l, w)| w * naive(patterns, l)).sum();
                let got = counter.count_weighted_until(&weighted, &|| false);
                assert_eq!(
                    got,
                    Some(want),
                    "{kernel:?}, {len} patterns, {} cuts",
                    counter.cuts
                );
                // Each list alone, after the others (the buckets built for them reused).
                for &(list, _) in &weighted {
                    assert_eq!(counter.count(list), naive(patterns, list), "{kernel:?}");
                }
                assert_eq!(counter.count_weighted_until(&weighted, &|| true), None);
            }
        }
    }

    #[test]
    fn lists_loaded_at_once_count_each_pair_by_its_list() {
        let mut rng = fastrand::Rng::with_seed(31);
        let key_bits = 44;
        let items = random_keys(&mut rng, 900, key_bits, 3);
        // Lists that fill no lane, one, several; one empty; weights not powers of two.
        let lists = [70, 0, 20_000, 1_300].map(|len| random_keys(&mut rng, len, key_bits, 3));
        let weights = [3, 2, 5, 1];
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            // No cut; a few; many, most buckets too small to slice.
            for bucket_min in [1 << 20, BUCKET_MIN, 16] {
                counter.bucket_min = bucket_min;
                for chosen in [&[0, 1, 2][..], &[2, 3], &[3, 0, 2], &[2]] {
                    let lists: Vec<(&[u64], u64)> = chosen
                        .iter()
                        .map(|&i| (&lists[i][..], weights[i]))
                        .collect();
                    counter.load_lists(&lists, &[&items]);
                    let want: u64 = lists.iter().map(|&(l, w)| w * naive(l, &items)).sum();
                    assert_eq!(
                        counter.count(&items),
                        want,
                        "{kernel:?}, lists {chosen:?}, {} cuts",
                        counter.cuts
                    );
                }
            }
        }
    }

    #[test]
    fn either_side_loaded_counts_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(29);
        let key_bits = 36;
        let many = random_keys(&mut rng, 30_000, key_bits, 3);
        let few = random_keys(&mut rng, 900, key_bits, 3);
        let lists = [400, 0, 1100].map(|len| random_keys(&mut rng, len, key_bits, 3));
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            counter.bucket_min = 64;
            for keys in [&many[..], &few[..], &[]] {
                let weighted = weighted(&lists);
                let want: u64 = weighted.iter().map(|&(l, w)| w * naive(keys, l)).sum();
                // Whole loads, and loads of a few hundred patterns (several each side).
                for per_load in [1 << 22, 300] {
                    for side in [Side::Keys, Side::Lists] {
                        let got = counter.count_weighted_disjoint_loading(
                            side,
                            keys,
                            &weighted,
                            per_load,
                            &|| false,
                        );
                        assert_eq!(
                            got,
                            Some(want),
                            "{kernel:?}, {} keys, {side:?} loaded, {per_load} a load",
                            keys.len()
                        );
                    }
                    let got = counter.count_weighted_disjoint(keys, &weighted, per_load, &|| false);
                    assert_eq!(got, Some(want), "{kernel:?}, {} keys", keys.len());
                }
                if !keys.is_empty() {
                    assert_eq!(
                        counter.count_weighted_disjoint(keys, &weighted, 300, &|| true),
                        None
                    );
                }
            }
        }
    }

    #[test]
    fn the_model_loads_the_side_that_is_cut_finer() {
        let counter = PairCounter::new(40, Kernel::available()[0]);
        let (large, small) = (vec![0u64; 3_000_000], vec![0u64; 500_000]);
        // Millions of patterns take every cut: loading them is cheaper than visiting
        // the small side's few buckets with millions of items.
        let side = counter.side_to_load(&large, &[(&small, 1)], 1 << 22);
        assert_eq!(side, Side::Keys);
        let side = counter.side_to_load(&small, &[(&large, 1)], 1 << 22);
        assert_eq!(side, Side::Lists);
        // A handful on either side: the smaller is loaded (loading costs by the pattern).
        let (ten, thousand) = (vec![0u64; 10], vec![0u64; 1000]);
        assert_eq!(
            counter.side_to_load(&ten, &[(&thousand, 1)], 1 << 22),
            Side::Keys
        );
        assert_eq!(
            counter.side_to_load(&thousand, &[(&ten, 1)], 1 << 22),
            Side::Lists
        );
    }

    /// Asserts that `kernel` counts `patterns` against `items` in `layout` as a double
    /// loop does: plainly, and weighted as two lists (the first `split` patterns weighing
    /// 3, the rest 2), each from a lane of its own.
    fn assert_counts_in_layout(
        kernel: Kernel,
        layout: Layout,
        patterns: &[u64],
        split: usize,
        items: &[u64],
    ) {
        let (mut lacking, mut sliced) = (vec![Bits512([0; 8]); 64], vec![]);
        blocks::build(kernel, patterns, layout, &mut lacking, &mut sliced);
        let got = sliced::count(kernel, &sliced, layout, items);
        let len = patterns.len();
        assert_eq!(got, naive(patterns, items), "{kernel:?}, {layout:?}, {len}");
        let (a, b) = patterns.split_at(split);
        let (lists, mut lanes) = ([(a, 3), (b, 2)], Lanes::default());
        sliced.clear();
        let out = &mut sliced;
        blocks::build_weighted(kernel, &lists, layout, &mut lacking, out, &mut lanes);
        let got = sliced::count_weighted(kernel, &sliced, layout, items, &lanes.weights);
        let want = 3 * naive(a, items) + 2 * naive(b, items);
        assert_eq!(got, want, "{kernel:?}, {layout:?}, {len} weighted");
    }

    #[test]
    fn wide_chunks_count_what_a_double_loop_counts() {
        // Every layout of fewer, wider chunks than a load's own, by every kernel, plainly
        // and weighted (a last block part full; lists that start lanes of their own).
        let mut rng = fastrand::Rng::with_seed(37);
        for kernel in Kernel::available() {
            for bits in 1..=MAX_KEY_BITS {
                let patterns = random_keys(&mut rng, 1100, bits, 4);
                let items = random_keys(&mut rng, 100, bits, 4);
                for chunks in
                    bits.div_ceil(sliced::MAX_WIDTH) as usize..Layout::for_bits(bits).chunks
                {
                    let width = bits.div_ceil(chunks as u32);
                    let layout = Layout { chunks, width };
                    assert_counts_in_layout(kernel, layout, &patterns, 100, &items);
                }
            }
        }
    }

    /// Loads of 1 to 9 blocks (tiles of every number of blocks, one to three tiles), each
    /// with a full last block and with one whose patterns fill less than half of it
    /// (visited by halves), in chunks of 10 bits and of 6, by every kernel.
    #[test]
    fn every_shape_of_tile_counts_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(41);
        let patterns = random_keys(&mut rng, 9 * BLOCK, 30, 4);
        let items = random_keys(&mut rng, 40, 30, 4);
        let layouts = [(3, 10), (5, 6)].map(|(chunks, width)| Layout { chunks, width });
        for kernel in Kernel::available() {
            for layout in layouts {
                for blocks in 1..=9 {
                    for len in [blocks * BLOCK, blocks * BLOCK - 300] {
                        let patterns = &patterns[..len];
                        assert_counts_in_layout(kernel, layout, patterns, len / 3, &items);
                    }
                }
            }
        }
    }

    /// Every number of items around the AVX2 kernel's groups (eight items, or sixteen
    /// where a last block's patterns all lie in its low half) and past the widenings of
    /// its byte counters, against loads whose last block is full, more than half full
    /// and less than half full, plainly and weighted (a load of 40 patterns in one list
    /// leaves the high half of AVX2's weighted block empty too), by every kernel.
    #[test]
    fn every_number_of_items_counts_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(47);
        let patterns = random_keys(&mut rng, 2 * BLOCK, 30, 4);
        let items = random_keys(&mut rng, 1100, 30, 4);
        let layout = Layout::for_bits(30);
        for kernel in Kernel::available() {
            for len in [40, 200, 300, BLOCK, BLOCK + 100, 2 * BLOCK] {
                for count in [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 250, 520, 1100] {
                    let (patterns, items) = (&patterns[..len], &items[..count]);
                    assert_counts_in_layout(kernel, layout, patterns, len, items);
                    assert_counts_in_layout(kernel, layout, patterns, len / 3, items);
                }
            }
            // Lists of less than a block each: blocks of their own weights one after
            // another (the AVX2 kernel visits two such at once).
            let lists = [
                (&patterns[..300], 3),
                (&patterns[300..700], 2),
                (&patterns[700..], 5),
            ];
            let (mut lacking, mut sliced) = (vec![Bits512([0; 8]); 64], vec![]);
            let mut lanes = Lanes::default();
            let out = &mut sliced;
            blocks::build_weighted(kernel, &lists, layout, &mut lacking, out, &mut lanes);
            for count in [0, 7, 8, 9, 600] {
                let items = &items[..count];
                let got = sliced::count_weighted(kernel, &sliced, layout, items, &lanes.weights);
                let want: u64 = lists.iter().map(|&(l, w)| w * naive(l, items)).sum();
                assert_eq!(got, want, "{kernel:?}, three lists, {count} items");
            }
        }
    }

    #[test]
    fn loads_for_their_items_leave_out_the_bits_no_item_holds() {
        let mut rng = fastrand::Rng::with_seed(43);
        let key_bits = 50;
        // The patterns hold all 50 bits, the items only the low 38: the high 12 never
        // clash, and 38 bits (less the cuts) take fewer chunks.
        let patterns = random_keys(&mut rng, 30_000, key_bits, 3);
        let low = (1u64 << 38) - 1;
        let items: Vec<u64> = random_keys(&mut rng, 3_000, key_bits, 3)
            .into_iter()
            .map(|key| key & low)
            .collect();
        let want = naive(&patterns, &items);
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            counter.load_lists_within(&[(&patterns, 1)], &[&items], held_bits([&items[..]]));
            if counter.fast_extract {
                assert!(counter.bits <= 38, "{kernel:?}: {} bits", counter.bits);
                assert_eq!(counter.dropped_held, !low & ((1 << key_bits) - 1));
            }
            assert_eq!(counter.count(&items), want, "{kernel:?}");
            // Both sides loaded in turn by the side chooser, each for the other.
            let never = || false;
            assert_eq!(
                counter.count_disjoint(&patterns, &items, 10_000, &never),
                Some(want),
                "{kernel:?}"
            );
            assert_eq!(
                counter.count_disjoint(&items, &patterns, 10_000, &never),
                Some(want),
                "{kernel:?}"
            );
            // An item holding a bit the squeeze left out is refused, not miscounted.
            counter.load_lists_within(&[(&patterns, 1)], &[&items], held_bits([&items[..]]));
            if counter.dropped_held != 0 {
                let stray = [1u64 << 45];
                let counted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    counter.count(&stray)
                }));
                assert!(counted.is_err(), "{kernel:?}");
            }
        }
    }

    #[test]
    fn parts_met_by_many_items_take_wider_chunks() {
        let mut rng = fastrand::Rng::with_seed(41);
        let key_bits = 36;
        let patterns = random_keys(&mut rng, 1_500, key_bits, 3);
        let items = random_keys(&mut rng, 20_000, key_bits, 3);
        for kernel in Kernel::available() {
            let mut counter = PairCounter::new(key_bits, kernel);
            // No cut: the one bucket is built at the load, for the items to come.
            counter.load(&patterns, &[&items[..100]]);
            assert_eq!(counter.cuts, 0);
            assert_eq!(counter.built_layout, counter.layout, "{kernel:?}");
            counter.load(&patterns, &[&items]);
            assert!(
                counter.built_layout.chunks < counter.layout.chunks,
                "{kernel:?}"
            );
            assert_eq!(
                counter.count(&items),
                naive(&patterns, &items),
                "{kernel:?}"
            );
            // Cut into buckets, each met by thousands of items.
            counter.bucket_min = 64;
            counter.load(&patterns, &[&items]);
            assert!(counter.cuts > 0);
            assert_eq!(
                counter.count(&items),
                naive(&patterns, &items),
                "{kernel:?}"
            );
            assert!(
                counter.built_layout.chunks < counter.layout.chunks,
                "{kernel:?}"
            );
        }
    }

    #[test]
    fn every_kernel_counts_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(7);
        for kernel in Kernel::available() {
            for key_bits in [1u32, 5, 13, 30, 38, 58] {
                let mut counter = PairCounter::new(key_bits, kernel);
                for len in [
                    0usize, 1, 47, 48, 511, 512, 513, 1500, 2048, 4100, 9000, 40_000,
                ] {
                    // Sparse keys, as half-boards have: each bit set with probability ~1/4.
                    let patterns = random_keys(&mut rng, len, key_bits, 4);
                    let mut items = random_keys(&mut rng, 200, key_bits, 4);
                    items.push(0);
                    // Cut bits chosen by some of the items hold for all of them.
                    counter.load(&patterns, &[&items[..30], &items[30..50]]);
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
