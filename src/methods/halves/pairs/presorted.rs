//! Patterns sorted once for many loads. A pin of N = 28 is counted against each of
//! East's parts in turn (`inner`), each time loading the pin's West clear of the part's
//! queen, and each load sorted West again by the cut bits it chose: the loads of one pin
//! choose their 9 to 12 cut bits from 14 to 16 in all. So West is sorted once by the
//! bits the loads would choose ([`sort_bits_for`], [`Presorted`]), and each load gathers
//! its buckets from the runs of that sort, leaving out the keys that hold its part's
//! queen's diagonals ([`PairCounter::count_presorted`]). Each load still chooses its own
//! squeeze and its own cut bits (among the sort's), and its buckets hold the keys a sort
//! of its own would give them, in another order.

use super::held::held_bits;
use super::joint;
use super::{LISTS, MAX_CUTS, PairCounter, counted, squeezed};
use crate::cpu::Kernel;
use crate::methods::halves::cuts;
use crate::methods::halves::sliced::Layout;

/// The most bits [`Presorted`] sorts by: 2^16 runs a list.
pub const MOST_SORT_BITS: u32 = 16;

/// Where the runs of lists sorted by the value of some of their keys' bits lie (a
/// counting sort, each key kept whole): run `u` of list `l` holds its keys whose value
/// is `u`. Made for a kernel by [`Presorted::new`] (its `Default` never sorts).
#[derive(Default)]
pub struct Presorted {
    /// Whether a load can be gathered from a sort here (PEXT at hand and fast, as the
    /// pair counter's own sorts need): where it cannot, nothing is sorted.
    gathers: bool,
    /// The bits sorted by.
    by: u64,
    /// How many lists were sorted (those that count, in order).
    lists: usize,
    /// Each list's run starts, 2^(bits sorted by) + 1 of them.
    runs: [Vec<usize>; LISTS],
    /// The sort's room for a group of its second pass (a BMI2 sort's only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    scratch: Vec<u64>,
}

impl Presorted {
    /// No sort yet, for loads counted with `kernel`.
    pub fn new(kernel: Kernel) -> Presorted {
        Presorted {
            gathers: kernel.has_avx2() && crate::cpu::fast_pext(),
            ..Presorted::default()
        }
    }

    /// Whether a load could be gathered from a sort here (see [`Presorted::sort`]).
    pub fn gathers(&self) -> bool {
        self.gathers
    }

    /// Sorts each list of `lists` whose weight is not 0 (and which is not empty) by the
    /// value of its bits `by`, in place; `false` (the lists as they were) where no load
    /// could be gathered from the sort: PEXT not at hand, or slow (AMD's cores before
    /// Zen 3 run it as microcode, and a sort by it would cost many times the loads' own,
    /// all for nothing: the pair counter gathers only where PEXT is fast).
    pub fn sort(
        &mut self,
        kernel: Kernel,
        lists: &mut [Vec<u64>],
        weights: &[u64],
        by: u64,
    ) -> bool {
        assert!(by.count_ones() <= MOST_SORT_BITS);
        self.by = by;
        self.lists = 0;
        if !self.gathers || !kernel.has_avx2() {
            return false;
        }
        for (list, &weight) in lists.iter_mut().zip(weights) {
            if weight == 0 || list.is_empty() {
                continue;
            }
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the kernel token proves the CPU has the AVX2 level, BMI2 among it.
            unsafe {
                sort_in_place_bmi2(list, by, &mut self.runs[self.lists], &mut self.scratch)
            };
            self.lists += 1;
        }
        true
    }
}

/// Sorts `keys` by the value of their bits `by` (PEXT), in place, and sets `runs` to
/// where each value's keys start (and the end). First by the value's high 8 bits, keys
/// swapped into their groups' places (an American flag sort: no second buffer of the
/// keys' size, which a pin of N = 28 would hold beside its West), then each group by the
/// low bits through `scratch`, a group's size.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn sort_in_place_bmi2(keys: &mut [u64], by: u64, runs: &mut Vec<usize>, scratch: &mut Vec<u64>) {
    use std::arch::x86_64::_pext_u64;
    let bits = by.count_ones() as usize;
    let high = bits.min(8);
    let low = bits - high;
    let group_of = |key: u64| (_pext_u64(key, by) >> low) as usize;
    let groups = 1usize << high;
    let mut starts = vec![0usize; groups + 1];
    for &key in keys.iter() {
        starts[group_of(key) + 1] += 1;
    }
    for g in 0..groups {
        starts[g + 1] += starts[g];
    }
    // Each group's unplaced keys swept in turn, each key swapped into its own group's
    // next free slot and the key it displaces left where it was, for the next sweep (as
    // ska_sort does). Following each displaced key at once instead made every swap wait
    // for the last one's load: 24 ns a key on a West of N = 28, against 6 so.
    let mut next = starts[..groups].to_vec();
    let mut open: Vec<usize> = (0..groups).filter(|&g| next[g] < starts[g + 1]).collect();
    while !open.is_empty() {
        open.retain(|&g| {
            let end = starts[g + 1];
            for at in next[g]..end {
                let to = group_of(keys[at]);
                // `to`'s next free slot: at most `at` where `to` is this group.
                keys.swap(at, next[to]);
                next[to] += 1;
            }
            next[g] < end
        });
    }
    let values = 1usize << low;
    let low_of = |key: u64| _pext_u64(key, by) as usize & (values - 1);
    runs.clear();
    let mut at = vec![0usize; values + 1];
    for g in 0..groups {
        let group = &mut keys[starts[g]..starts[g + 1]];
        at.iter_mut().for_each(|a| *a = 0);
        for &key in group.iter() {
            at[low_of(key) + 1] += 1;
        }
        for v in 0..values {
            at[v + 1] += at[v];
        }
        runs.extend(at[..values].iter().map(|a| starts[g] + a));
        scratch.clear();
        scratch.resize(group.len(), 0);
        for &key in group.iter() {
            let slot = &mut at[low_of(key)];
            scratch[*slot] = key;
            *slot += 1;
        }
        group.copy_from_slice(scratch);
    }
    runs.push(keys.len());
}

/// The bits to sort a pin's West by for its loads against each part: the cut bits each
/// load would choose on samples (`west` against each of `parts`, the West sample clear of
/// the part's bars), most often chosen first where they are more than
/// [`MOST_SORT_BITS`]; `candidates` are the bits a load may cut by.
pub fn sort_bits_for(west: &[u64], parts: &[(Vec<u64>, u64)], candidates: u64) -> u64 {
    let mut chosen = [0u32; 64];
    for (part, bars) in parts {
        let clear: Vec<u64> = west
            .iter()
            .copied()
            .filter(|&key| key & bars == 0)
            .collect();
        let size = clear.len().min(part.len()).min(joint::SAMPLE_MOST);
        if size == 0 {
            continue;
        }
        let bits = joint::joint_cuts(&[&clear], &[part], candidates & !bars, MAX_CUTS, size);
        for bit in bits {
            chosen[bit as usize] += 1;
        }
    }
    let mut ranked: Vec<u32> = (0..64).filter(|&b| chosen[b as usize] > 0).collect();
    ranked.sort_by_key(|&b| std::cmp::Reverse(chosen[b as usize]));
    ranked.truncate(MOST_SORT_BITS as usize);
    ranked.iter().fold(0, |mask, &b| mask | 1 << b)
}

impl PairCounter {
    /// How many pairs of the keys of `lists` (sorted as `presorted` says, each of its
    /// weight) that hold none of `skip` and of `items` share no bit, the lists loaded
    /// at once; `None` if halted, `Some(None)` (nothing counted) where the load takes no
    /// cut bit or no sample to choose them by, or PEXT is not fast: the caller then
    /// counts it the usual way.
    pub fn count_presorted(
        &mut self,
        presorted: &Presorted,
        lists: &[(&[u64], u64)],
        skip: u64,
        items: &[u64],
        halted: &dyn Fn() -> bool,
    ) -> Option<Option<u64>> {
        let (lists, len) = counted(lists);
        let lists = &lists[..len];
        assert_eq!(len, presorted.lists, "the lists sorted");
        if !self.fast_extract || len == 0 {
            return Some(None);
        }
        // Each run's keys clear of `skip`, and the bits they hold.
        let runs = 1usize << presorted.by.count_ones();
        let mut counts = vec![vec![0u32; runs]; len];
        let mut held = 0;
        let mut lens = [0usize; LISTS];
        for (l, &(list, _)) in lists.iter().enumerate() {
            let runs = &presorted.runs[l];
            held |= cuts::count_clear_runs(self.kernel, list, runs, skip, &mut counts[l]);
            lens[l] = counts[l].iter().map(|&count| count as usize).sum();
        }
        let total: usize = lens.iter().sum();
        if total == 0 {
            return Some(Some(0));
        }
        // The squeeze and the number of cuts, as a load of the same keys takes them.
        (self.squeeze, self.dropped_held) = (0, 0);
        self.bits = self.key_bits;
        self.squeeze_to(held, held_bits([items]));
        self.plan_cuts(total, items.len());
        let sample = joint::joint_sample(total, items.len(), self.joint_shift);
        let (true, Some(size)) = (self.cuts > 0, sample) else {
            return Some(None);
        };
        let within = if self.squeeze != 0 { self.squeeze } else { !0 };
        let key_bits = u64::MAX >> (64 - self.key_bits);
        let candidates = within & presorted.by & !skip & key_bits;
        // About twice the sample, of which those clear of `skip` are sampled.
        let unskipped: usize = lists.iter().map(|(list, _)| list.len()).sum();
        let step = unskipped / (2 * size) + 1;
        let sample: Vec<u64> = lists
            .iter()
            .flat_map(|(list, _)| list.iter().step_by(step))
            .copied()
            .filter(|&key| key & skip == 0)
            .collect();
        let chosen = joint::joint_cuts(&[&sample], &[items], candidates, self.cuts, size);
        self.cuts = chosen.len();
        if self.cuts == 0 {
            return Some(None);
        }
        self.cut_bits = chosen.iter().map(|&b| squeezed(within, b)).collect();
        self.cut_bits.sort_unstable();
        self.layout = Layout::for_bits(self.bits - self.cuts as u32);
        self.built = None;
        self.lists = len;
        self.weights = std::array::from_fn(|i| lists.get(i).map_or(1, |&(_, w)| w));
        let value = chosen.iter().fold(0u64, |mask, &b| mask | 1 << b);
        let bucket = run_buckets(presorted.by, value, runs);
        let values = 1usize << self.cuts;
        let order = runs_by_bucket(&bucket, values);
        let rest = within & !value;
        for (l, &(list, _)) in lists.iter().enumerate() {
            let starts = &mut self.starts[l];
            starts.clear();
            starts.resize(values + 1, 0);
            for (u, &count) in counts[l].iter().enumerate() {
                starts[bucket[u] as usize + 1] += count as usize;
            }
            for v in 0..values {
                starts[v + 1] += starts[v];
            }
            let sorted = &mut self.patterns[l];
            sorted.clear();
            let runs = &presorted.runs[l];
            cuts::gather_runs(self.kernel, list, runs, &order, (skip, rest), sorted)
                .expect("a fast PEXT is a kernel of the AVX2 level");
            debug_assert_eq!(sorted.len(), lens[l]);
        }
        self.reserve_load_blocks();
        self.count_until(items, halted).map(Some)
    }
}

/// Each run's bucket: its value on the cut bits `value`, all among the sort's bits `by`
/// (cut bit `i` the `i`-th lowest of them), for the `runs` runs of the sort.
fn run_buckets(by: u64, value: u64, runs: usize) -> Vec<u32> {
    let mut adds = [0u32; 64];
    let (mut rank, mut cut) = (0, 0);
    for b in (0..64).filter(|b| by >> b & 1 != 0) {
        if value >> b & 1 != 0 {
            adds[rank] = 1 << cut;
            cut += 1;
        }
        rank += 1;
    }
    let mut bucket = vec![0u32; runs];
    for u in 1..runs {
        bucket[u] = bucket[u & (u - 1)] | adds[u.trailing_zeros() as usize];
    }
    bucket
}

/// The runs bucket by bucket, of `values` buckets (a counting sort of the runs), so that a
/// bucket's keys are written in one stretch.
fn runs_by_bucket(bucket: &[u32], values: usize) -> Vec<u32> {
    let mut next = vec![0usize; values + 1];
    for &b in bucket {
        next[b as usize + 1] += 1;
    }
    for v in 0..values {
        next[v + 1] += next[v];
    }
    let mut order = vec![0u32; bucket.len()];
    for (u, &b) in bucket.iter().enumerate() {
        order[next[b as usize]] = u as u32;
        next[b as usize] += 1;
    }
    order
}

#[cfg(test)]
mod tests {
    use super::super::tests::{naive, random_keys};
    use super::*;

    /// Where no load could be gathered from a sort (PEXT slow or not at hand), nothing
    /// is sorted, whatever the kernel: the lists stay as they were.
    #[test]
    fn nothing_is_sorted_where_no_load_could_gather_from_it() {
        let mut rng = fastrand::Rng::with_seed(46);
        let lists = [3000, 500].map(|len| random_keys(&mut rng, len, 36, 3));
        for kernel in Kernel::available() {
            let mut presorted = Presorted {
                gathers: false,
                ..Presorted::new(kernel)
            };
            let mut kept = lists.clone();
            assert!(!presorted.sort(kernel, &mut kept, &[1, 2], 0x0f0f_00f0));
            assert_eq!(kept, lists, "{kernel:?}");
            assert_eq!(presorted.lists, 0);
        }
        let portable = Kernel::portable();
        let mut kept = lists.clone();
        assert!(!Presorted::new(portable).sort(portable, &mut kept, &[1, 2], 0x0f0f_00f0));
        assert_eq!(kept, lists);
    }

    /// The sort in place keeps the keys it was given and puts each run's in its place,
    /// whether the values are spread or crowded into one or two groups of the first
    /// pass (where keys are displaced again and again before they settle), with and
    /// without a second pass.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_sort_in_place_keeps_every_key_and_puts_each_in_its_run() {
        if !Kernel::available().iter().any(|k| k.has_avx2()) {
            return;
        }
        let mut rng = fastrand::Rng::with_seed(49);
        for (by, crowd) in [
            (0xff_u64 << 8, 0),
            (0xfff0, 0),
            (0xfff0, 0xff00),
            (0xffff, 0xfe00),
        ] {
            for len in [0, 1, 2, 7, 300, 5000] {
                // `crowd`'s bits set in most keys: their values fall in few groups.
                let keys: Vec<u64> = (0..len)
                    .map(|_| rng.u64(..1 << 40) | if rng.u8(..10) < 9 { crowd } else { 0 })
                    .collect();
                let (mut sorted, mut runs) = (keys.clone(), Vec::new());
                // SAFETY: a kernel of the AVX2 level is available, so BMI2 is.
                unsafe { sort_in_place_bmi2(&mut sorted, by, &mut runs, &mut Vec::new()) };
                let (mut a, mut b) = (keys.clone(), sorted.clone());
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "by {by:#x}, {len} keys");
                assert_eq!(runs.len(), (1 << by.count_ones()) + 1);
                assert_eq!(*runs.last().unwrap(), len);
                for (u, run) in runs.windows(2).enumerate() {
                    let value = cuts::deposit(u as u64, by);
                    let name = format!("by {by:#x}, {len} keys, run {u}");
                    assert!(
                        sorted[run[0]..run[1]].iter().all(|&k| k & by == value),
                        "{name}"
                    );
                }
            }
        }
    }

    /// Lists sorted in place hold the keys they held, each run those of its value; a
    /// load gathered from the runs, its keys holding `skip` left out, counts what a
    /// double loop counts, with and without splits, whether or not the sort's bits hold
    /// the ones the load would choose; where the load cannot be gathered (no fast PEXT)
    /// nothing is counted; a halt is a halt.
    #[test]
    fn loads_gathered_from_runs_count_what_a_double_loop_counts() {
        let mut rng = fastrand::Rng::with_seed(45);
        let key_bits = 36;
        let lists = [3000, 0, 9000].map(|len| random_keys(&mut rng, len, key_bits, 3));
        let weights = [1, 2, 4];
        let items = random_keys(&mut rng, 2000, key_bits, 3);
        let samples: Vec<(Vec<u64>, u64)> = vec![(items.clone(), 1 << 3), (items.clone(), 1 << 7)];
        let chosen = sort_bits_for(&lists[2], &samples, (1 << key_bits) - 1);
        assert!((8..=MOST_SORT_BITS).contains(&chosen.count_ones()));
        for kernel in Kernel::available() {
            for (by, splits_from) in [(chosen, usize::MAX), (chosen, 0), (0x0f0f_00f0, 0)] {
                let mut counter = PairCounter::new(key_bits, kernel);
                (counter.bucket_min, counter.joint_shift) = (64, 0);
                counter.splits_from_cuts = splits_from;
                let mut sorted = lists.clone();
                let mut presorted = Presorted::new(kernel);
                if !presorted.sort(kernel, &mut sorted, &weights, by) {
                    assert!(!kernel.has_avx2() || !crate::cpu::fast_pext(), "{kernel:?}");
                    assert_eq!(sorted, lists, "{kernel:?}: the lists as they were");
                    continue;
                }
                for (l, (list, sorted)) in lists.iter().zip(&sorted).enumerate() {
                    let (mut a, mut b) = (list.clone(), sorted.clone());
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "list {l}");
                }
                for (l, list) in sorted.iter().filter(|list| !list.is_empty()).enumerate() {
                    for (u, run) in presorted.runs[l].windows(2).enumerate() {
                        let value = |key: u64| cuts::deposit(u as u64, by) == key & by;
                        assert!(list[run[0]..run[1]].iter().all(|&key| value(key)));
                    }
                    assert_eq!(*presorted.runs[l].last().unwrap(), list.len());
                }
                let weighted: Vec<(&[u64], u64)> =
                    sorted.iter().map(Vec::as_slice).zip(weights).collect();
                for skip in [0, 1 << 3, 1 << 3 | 1 << 20, (1 << key_bits) - 1] {
                    let want: u64 = weighted
                        .iter()
                        .map(|&(list, weight)| {
                            let clear: Vec<u64> =
                                list.iter().copied().filter(|&k| k & skip == 0).collect();
                            weight * naive(&clear, &items)
                        })
                        .sum();
                    let got =
                        counter.count_presorted(&presorted, &weighted, skip, &items, &|| false);
                    let name = format!("{kernel:?}, by {by:#x}, skip {skip:#x}");
                    match got {
                        Some(Some(found)) => assert_eq!(found, want, "{name}"),
                        Some(None) => assert!(!counter.fast_extract, "{name}"),
                        None => panic!("{name}: halted"),
                    }
                }
                if counter.fast_extract {
                    let halted =
                        counter.count_presorted(&presorted, &weighted, 0, &items, &|| true);
                    assert_eq!(halted, None);
                }
            }
        }
    }
}
