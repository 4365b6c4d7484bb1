//! Sorting keys into buckets by a few of their bits (the pair counter's *cuts*): a
//! counting sort by the value of the cut bits, each key stored without them. The bits
//! come out by shifts, or by one PEXT where BMI2 has it fast ([`crate::cpu::fast_pext`]).
//! Also the other passes over a load's keys: squeezing them, keeping those clear of bars.

use crate::cpu::{Kernel, prefetch};

/// Sorts `keys` into `sorted` by the value of their cut bits `bits` (lowest first; value
/// bit `i` is `bits[i]`), each without its cut bits, taken out by shifts; value `v`'s
/// keys are then `sorted[starts[v]..starts[v + 1]]`. `scratch` is room the sort may use
/// (see [`sort_by`]).
pub(super) fn sort_by_shifts(
    bits: &[u32],
    keys: &[u64],
    (sorted, starts): (&mut Vec<u64>, &mut Vec<usize>),
    scratch: &mut Vec<u64>,
) {
    sort_by(&Cuts { bits }, bits.len(), keys, (sorted, starts), scratch);
}

/// [`sort_by_shifts`] by PEXT, where BMI2 has it fast: `value` holds the cut bits (value
/// bit `i` the `i`-th lowest of them), `rest` the bits each key keeps. Where the load
/// squeezes its keys, `rest` is the squeeze without the cut bits, so that one PEXT
/// squeezes a key and takes its cut bits out (they were two passes over every key).
/// `None` (nothing done) without a kernel of the AVX2 level, whose BMI2 PEXT this needs.
pub(super) fn sort_by_pext(
    value: u64,
    rest: u64,
    kernel: Kernel,
    keys: &[u64],
    out: (&mut Vec<u64>, &mut Vec<usize>),
    scratch: &mut Vec<u64>,
) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    if let Some(pext) = Pext::new(value, rest, kernel) {
        let cuts = value.count_ones() as usize;
        // SAFETY: a `Pext` is made only with a kernel token of the AVX2 level, which has
        // BMI2.
        unsafe { sort_by_cut_bmi2(&pext, cuts, keys, out, scratch) };
        return Some(());
    }
    let _ = (value, rest, kernel, keys, out, scratch);
    None
}

/// The bits of `within` (lowest first) that `picks` selects by their rank: bit `i` of
/// `picks` stands for the `i`-th lowest bit of `within` (PDEP, bit by bit).
pub(super) fn deposit(picks: u64, within: u64) -> u64 {
    let (mut rest, mut out, mut rank) = (within, 0, 0);
    while rest != 0 {
        let lowest = rest & rest.wrapping_neg();
        if picks >> rank & 1 != 0 {
            out |= lowest;
        }
        (rest, rank) = (rest ^ lowest, rank + 1);
    }
    out
}

/// The cut bits of a load (lowest first), taken out of a key by shifts.
#[derive(Clone, Copy)]
struct Cuts<'a> {
    bits: &'a [u32],
}

/// Gathers a key's cut bits (its bucket) and the rest (what the bucket stores).
trait Extract {
    fn value(&self, key: u64) -> usize;
    fn rest(&self, key: u64) -> u64;
}

impl Extract for Cuts<'_> {
    #[inline(always)]
    fn value(&self, key: u64) -> usize {
        self.bits
            .iter()
            .enumerate()
            .fold(0, |v, (i, &bit)| v | ((key >> bit) as usize & 1) << i)
    }

    /// The key without its cut bits (the bits above each move down).
    #[inline(always)]
    fn rest(&self, key: u64) -> u64 {
        // Highest first, so each removal leaves the positions of the next ones as they were.
        self.bits.iter().rev().fold(key, |k, &bit| {
            k & ((1 << bit) - 1) | (k >> (bit + 1)) << bit
        })
    }
}

/// The same by BMI2's PEXT: one instruction each where it is fast. Made only with a
/// kernel token of the AVX2 level or above, so its PEXTs run only where BMI2 is.
#[cfg(target_arch = "x86_64")]
struct Pext {
    /// The cut bits.
    value: u64,
    /// The bits a bucket stores.
    rest: u64,
    _bmi2: Kernel,
}

#[cfg(target_arch = "x86_64")]
impl Pext {
    fn new(value: u64, rest: u64, kernel: Kernel) -> Option<Pext> {
        kernel.has_avx2().then_some(Pext {
            value,
            rest,
            _bmi2: kernel,
        })
    }
}

#[cfg(target_arch = "x86_64")]
impl Extract for Pext {
    #[inline(always)]
    fn value(&self, key: u64) -> usize {
        // SAFETY: a `Pext` exists only where the CPU has BMI2 (see `Pext::new`).
        unsafe { std::arch::x86_64::_pext_u64(key, self.value) as usize }
    }

    #[inline(always)]
    fn rest(&self, key: u64) -> u64 {
        // SAFETY: as above.
        unsafe { std::arch::x86_64::_pext_u64(key, self.rest) }
    }
}

/// [`sort_by`] with PEXT, compiled with BMI2 so that the PEXTs inline.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn sort_by_cut_bmi2(
    pext: &Pext,
    cuts: usize,
    keys: &[u64],
    out: (&mut Vec<u64>, &mut Vec<usize>),
    scratch: &mut Vec<u64>,
) {
    sort_by(pext, cuts, keys, out, scratch);
}

/// Sets `out` to `keys` holding only the bits of `mask`, packed down: PEXT with a kernel of
/// the AVX2 level or above (which has BMI2), else bit by bit.
pub(super) fn squeeze(kernel: Kernel, mask: u64, keys: &[u64], out: &mut Vec<u64>) {
    out.clear();
    #[cfg(target_arch = "x86_64")]
    if kernel.has_avx2() {
        // SAFETY: the kernel token proves the CPU has the AVX2 level, BMI2 among it.
        unsafe { squeeze_bmi2(mask, keys, out) };
        return;
    }
    let _ = kernel;
    out.extend(keys.iter().map(|&key| Pack(mask).pack(key)));
}

/// [`squeeze`] by PEXT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn squeeze_bmi2(mask: u64, keys: &[u64], out: &mut Vec<u64>) {
    out.extend(
        keys.iter()
            .map(|&key| std::arch::x86_64::_pext_u64(key, mask)),
    );
}

/// Sets `out` to the keys that hold none of `bars`, in order. Without a branch (about half
/// are kept, and a mispredicted branch a key cost a fifth of N = 21's time): by a
/// permutation of four keys at a time with AVX2, else by writing every key and moving on
/// past the kept ones.
pub(super) fn keep_clear(kernel: Kernel, keys: &[u64], bars: u64, out: &mut Vec<u64>) {
    out.clear();
    append_clear(kernel, keys, bars, out);
}

/// [`keep_clear`], appending to `out`.
pub(super) fn append_clear(kernel: Kernel, keys: &[u64], bars: u64, out: &mut Vec<u64>) {
    #[cfg(target_arch = "x86_64")]
    if kernel.level() == crate::cpu::KernelLevel::Avx512 {
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        unsafe { keep_clear_avx512(keys, bars, out) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if kernel.has_avx2() {
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        unsafe { keep_clear_avx2(keys, bars, out) };
        return;
    }
    let _ = kernel;
    let mut kept = out.len();
    out.resize(kept + keys.len(), 0);
    for &key in keys {
        out[kept] = key;
        kept += usize::from(key & bars == 0);
    }
    out.truncate(kept);
}

/// The keys that hold none of `bars`: `keys` themselves when there are no bars, else
/// those [`keep_clear`] keeps in `out`.
pub(super) fn clear_of<'a>(
    kernel: Kernel,
    keys: &'a [u64],
    bars: u64,
    out: &'a mut Vec<u64>,
) -> &'a [u64] {
    if bars == 0 {
        return keys;
    }
    keep_clear(kernel, keys, bars, out);
    out
}

/// For each set of kept lanes of four 64-bit keys, the 32-bit lanes that bring them
/// together at the low end (for AVX2's VPERMD: here and in `piece_pairs`).
#[cfg(target_arch = "x86_64")]
pub(super) const PACK_LANES: [[i32; 8]; 16] = {
    let mut table = [[0; 8]; 16];
    let mut kept = 0;
    while kept < 16 {
        let (mut lane, mut to) = (0, 0);
        while lane < 4 {
            if kept >> lane & 1 != 0 {
                table[kept][2 * to] = 2 * lane;
                table[kept][2 * to + 1] = 2 * lane + 1;
                to += 1;
            }
            lane += 1;
        }
        kept += 1;
    }
    table
};

/// [`append_clear`] with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn keep_clear_avx2(keys: &[u64], bars: u64, out: &mut Vec<u64>) {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_movemask_pd, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setzero_si256,
        _mm256_storeu_si256,
    };
    out.reserve(keys.len());
    let before = out.len();
    // SAFETY: `before` is within the vector.
    let to = unsafe { out.as_mut_ptr().add(before) };
    let bars_lanes = _mm256_set1_epi64x(bars as i64);
    let mut quads = keys.chunks_exact(4);
    let mut kept = 0;
    for quad in quads.by_ref() {
        // SAFETY: the load reads the four keys of `quad`; the store writes four slots
        // from `kept`, which is at most the keys read before this quad, so inside the
        // capacity reserved for `keys.len()`.
        unsafe {
            let lanes = _mm256_loadu_si256(quad.as_ptr().cast::<__m256i>());
            let clear =
                _mm256_cmpeq_epi64(_mm256_and_si256(lanes, bars_lanes), _mm256_setzero_si256());
            let mask = _mm256_movemask_pd(_mm256_castsi256_pd(clear)) as usize;
            let order = _mm256_loadu_si256(PACK_LANES[mask].as_ptr().cast::<__m256i>());
            let packed = _mm256_permutevar8x32_epi32(lanes, order);
            _mm256_storeu_si256(to.add(kept).cast::<__m256i>(), packed);
            kept += mask.count_ones() as usize;
        }
    }
    for &key in quads.remainder() {
        if key & bars == 0 {
            // SAFETY: as above, one slot.
            unsafe { to.add(kept).write(key) };
            kept += 1;
        }
    }
    // SAFETY: the `kept` slots after the first `before` were written.
    unsafe { out.set_len(before + kept) };
}

/// [`append_clear`] with AVX-512: eight keys at a time, the kept ones compressed to the
/// low lanes in a register and all eight stored (a compressing store to memory is slow
/// on AMD's Zen 4).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
fn keep_clear_avx512(keys: &[u64], bars: u64, out: &mut Vec<u64>) {
    use std::arch::x86_64::{
        _mm512_loadu_si512, _mm512_maskz_compress_epi64, _mm512_set1_epi64, _mm512_storeu_si512,
        _mm512_testn_epi64_mask,
    };
    out.reserve(keys.len());
    let before = out.len();
    // SAFETY: `before` is within the vector.
    let to = unsafe { out.as_mut_ptr().add(before) };
    let bars_lanes = _mm512_set1_epi64(bars as i64);
    let mut eights = keys.chunks_exact(8);
    let mut kept = 0;
    for eight in eights.by_ref() {
        // SAFETY: the load reads the eight keys of `eight`; the store writes eight slots
        // from `kept`, which is at most the keys read before these, so inside the
        // capacity reserved for `keys.len()`.
        unsafe {
            let lanes = _mm512_loadu_si512(eight.as_ptr().cast());
            let clear = _mm512_testn_epi64_mask(lanes, bars_lanes);
            _mm512_storeu_si512(
                to.add(kept).cast(),
                _mm512_maskz_compress_epi64(clear, lanes),
            );
            kept += clear.count_ones() as usize;
        }
    }
    for &key in eights.remainder() {
        if key & bars == 0 {
            // SAFETY: as above, one slot.
            unsafe { to.add(kept).write(key) };
            kept += 1;
        }
    }
    // SAFETY: the `kept` slots after the first `before` were written.
    unsafe { out.set_len(before + kept) };
}

/// Appends the keys of `runs` of `keys` (run `u` is `keys[runs[u]..runs[u + 1]]`), run
/// by run in `order`, that hold none of `skip` to `out`, each as PEXT by `rest` makes it.
/// Only with a kernel of the AVX2 level (BMI2); `None` (nothing done) without.
pub(super) fn gather_runs(
    kernel: Kernel,
    keys: &[u64],
    runs: &[usize],
    order: &[u32],
    (skip, rest): (u64, u64),
    out: &mut Vec<u64>,
) -> Option<()> {
    #[cfg(target_arch = "x86_64")]
    if kernel.has_avx2() {
        // SAFETY: the kernel token proves the CPU has the AVX2 level, BMI2 among it.
        unsafe { gather_runs_bmi2(keys, runs, order, skip, rest, out) };
        return Some(());
    }
    let _ = (kernel, keys, runs, order, skip, rest, out);
    None
}

/// [`gather_runs`] by PEXT: every key is written at the end and kept by moving the end
/// past it (no branch to mispredict), into one slot of room more than it keeps.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn gather_runs_bmi2(
    keys: &[u64],
    runs: &[usize],
    order: &[u32],
    skip: u64,
    rest: u64,
    out: &mut Vec<u64>,
) {
    use std::arch::x86_64::_pext_u64;
    let before = out.len();
    out.reserve(keys.len() + 1);
    let room = &mut out.spare_capacity_mut()[..keys.len() + 1];
    let mut to = 0;
    for &u in order {
        let u = u as usize;
        for &key in &keys[runs[u]..runs[u + 1]] {
            room[to].write(_pext_u64(key, rest));
            to += usize::from(key & skip == 0);
        }
    }
    // SAFETY: the first `to` slots of the spare room were written.
    unsafe { out.set_len(before + to) };
}

/// For each run of `keys` (run `u` is `keys[runs[u]..runs[u + 1]]`), how many of its keys
/// hold none of `skip`, into `counts[u]`; returns the bits those keys hold between them.
/// A pass over a pin's whole West for each load of N = 28: compiled for the kernel's
/// vectors (with SSE2 alone, 2 ns a key, 3.6% of a row set).
pub(super) fn count_clear_runs(
    kernel: Kernel,
    keys: &[u64],
    runs: &[usize],
    skip: u64,
    counts: &mut [u32],
) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if kernel.level() == crate::cpu::KernelLevel::Avx512 {
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        return unsafe { count_clear_runs_avx512(keys, runs, skip, counts) };
    }
    #[cfg(target_arch = "x86_64")]
    if kernel.has_avx2() {
        // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
        return unsafe { count_clear_runs_avx2(keys, runs, skip, counts) };
    }
    let _ = kernel;
    count_clear_runs_any(keys, runs, skip, counts)
}

/// [`count_clear_runs`] as plain Rust, left to the compiler to vectorize for the
/// features it is compiled with.
#[inline(always)]
fn count_clear_runs_any(keys: &[u64], runs: &[usize], skip: u64, counts: &mut [u32]) -> u64 {
    let mut held = 0;
    for (run, count) in runs.windows(2).zip(counts) {
        let (mut clear_keys, mut run_held) = (0u32, 0u64);
        for &key in &keys[run[0]..run[1]] {
            let clear = key & skip == 0;
            clear_keys += u32::from(clear);
            run_held |= if clear { key } else { 0 };
        }
        (*count, held) = (clear_keys, held | run_held);
    }
    held
}

/// [`count_clear_runs`] with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn count_clear_runs_avx2(keys: &[u64], runs: &[usize], skip: u64, counts: &mut [u32]) -> u64 {
    count_clear_runs_any(keys, runs, skip, counts)
}

/// [`count_clear_runs`] with AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq")]
fn count_clear_runs_avx512(keys: &[u64], runs: &[usize], skip: u64, counts: &mut [u32]) -> u64 {
    count_clear_runs_any(keys, runs, skip, counts)
}

/// Packing the bits of a mask down, bit by bit.
struct Pack(u64);

impl Pack {
    fn pack(&self, key: u64) -> u64 {
        let (mut rest, mut packed, mut at) = (self.0, 0, 0);
        while rest != 0 {
            let bit = rest.trailing_zeros();
            packed |= (key >> bit & 1) << at;
            at += 1;
            rest &= rest - 1;
        }
        packed
    }
}

/// Parts of the keys [`sort_by`] places side by side, each with its own counters.
const PARTS: usize = 4;

/// The most value bits [`sort_by`] sorts by in one pass. Each value's keys are written
/// to a place of their own, and past a few hundred such places the writes miss the
/// caches and the TLB: on 5 M random keys (this CPU, a Zen 4), 2.4 ns a key with 8 bits,
/// 6.4 ns with 12 (a pin of N = 28 sorts by 12, at about 6 ns a key).
const ONE_PASS_BITS: usize = 8;

/// Sorts `keys` into `sorted` by `how.value` (a counting sort over `2^bits` values),
/// each as `how.rest`, keeping their order within a value; value `v`'s keys are then
/// `sorted[starts[v]..starts[v + 1]]`.
///
/// Up to [`ONE_PASS_BITS`] value bits, one pass; with more, two: the keys are placed as
/// they are by their value's high [`ONE_PASS_BITS`] bits, then each such group (small
/// enough to stay in the cache) by the low bits through `scratch`, which grows to the
/// largest group (4.3 to 5.0 ns a key with 10 to 12 bits on the keys above).
#[inline(always)]
fn sort_by(
    how: &impl Extract,
    bits: usize,
    keys: &[u64],
    (sorted, starts): (&mut Vec<u64>, &mut Vec<usize>),
    scratch: &mut Vec<u64>,
) {
    if bits <= ONE_PASS_BITS {
        place_by_value(how, bits, 0, keys, sorted, starts, |key| how.rest(key));
        return;
    }
    let low = bits - ONE_PASS_BITS;
    let mut groups = Vec::new();
    let whole = std::convert::identity;
    place_by_value(how, ONE_PASS_BITS, low, keys, sorted, &mut groups, whole);
    starts.clear();
    let mut group_starts = Vec::new();
    for range in groups.windows(2) {
        // Each group in turn, placed by its low bits while it is in the cache.
        let group = &sorted[range[0]..range[1]];
        let rest = |key| how.rest(key);
        place_by_value(how, low, 0, group, scratch, &mut group_starts, rest);
        starts.extend(group_starts[..1 << low].iter().map(|at| range[0] + at));
        sorted[range[0]..range[1]].copy_from_slice(scratch);
    }
    starts.push(keys.len());
}

/// Slots past the one just written whose line [`place_by_value`] asks the CPU to fetch:
/// the next line of that value's keys. A pass writes to up to 1,024 places at once (256
/// values, four parts), too many for the CPU to follow, and each new line was a miss that
/// held up the stores behind it. On an Emerald Rapids Xeon, run at once with the build
/// before (one thread each, totals equal): `count 24 --shard 7/20000` 0.83 and 0.89 of
/// its time, `count 26 --shard 7/1000000` 0.90 and 0.96, 14 pins of N = 28 (`--shard
/// 1000003/20058300`) 0.97, `count 18` level; 16 slots ahead did about as well, 32 worse
/// than 8. The fetch is PREFETCHT0, not PREFETCHW (the hint to write): Rust names the
/// latter's feature (`prfchw`) only on nightly, and a PREFETCHW written in `asm!` was no
/// faster on a Granite Rapids Xeon (run at once, one thread: `count 24 --shard 7/20000`
/// 1.016 and 1.018 of its time, `count 22 --shard 7/200` 0.995 and 0.991).
const WRITE_AHEAD: usize = 8;

/// One counting pass of [`sort_by`]: `keys` into `sorted` by the `bits` bits of their
/// value from `shift` up, each as `store` makes it; value `v`'s from `starts[v]`.
///
/// The keys are taken as [`PARTS`] consecutive parts, a key of each in turn, each part
/// counting and placing with counters of its own (its keys go after the earlier parts'
/// of the same value, so the order holds). Neighbouring keys often share their value,
/// and one set of counters made each placement wait for the last one's increment: four
/// took a sort from about 2.5 to 1.5 ns a key.
#[inline(always)]
fn place_by_value(
    how: &impl Extract,
    bits: usize,
    shift: usize,
    keys: &[u64],
    sorted: &mut Vec<u64>,
    starts: &mut Vec<usize>,
    store: impl Fn(u64) -> u64,
) {
    let values = 1 << bits;
    let value = |key: u64| how.value(key) >> shift & (values - 1);
    let part = keys.len() / PARTS;
    // The keys past the last whole part are the last part's.
    let (body, tail) = keys.split_at(PARTS * part);
    let parts: [&[u64]; PARTS] = std::array::from_fn(|p| &body[p * part..(p + 1) * part]);
    // Per value, first how many keys each part has, then where its next one goes.
    let mut next = vec![[0usize; PARTS]; values];
    for i in 0..part {
        for (p, keys) in parts.iter().enumerate() {
            next[value(keys[i])][p] += 1;
        }
    }
    for &key in tail {
        next[value(key)][PARTS - 1] += 1;
    }
    starts.clear();
    let mut at = 0;
    for counts in &mut next {
        starts.push(at);
        for count in counts {
            (at, *count) = (at + *count, at);
        }
    }
    starts.push(at);
    // Every slot is written once: value `v`'s part `p` fills from its start on, up to
    // the next part's (the counts above); so not cleared first (a pass of its own).
    sorted.clear();
    sorted.reserve(keys.len());
    let out = &mut sorted.spare_capacity_mut()[..keys.len()];
    for i in 0..part {
        for (p, keys) in parts.iter().enumerate() {
            let slot = &mut next[value(keys[i])][p];
            out[*slot].write(store(keys[i]));
            // Past the end of `out` the address is never read: a hint only.
            prefetch(out.as_ptr().wrapping_add(*slot + WRITE_AHEAD));
            *slot += 1;
        }
    }
    for &key in tail {
        let slot = &mut next[value(key)][PARTS - 1];
        out[*slot].write(store(key));
        *slot += 1;
    }
    // SAFETY: the counts place each of the keys in a slot of its own below their number,
    // so all of them were written.
    unsafe { sorted.set_len(keys.len()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_keeps_the_keys_clear_of_the_bars_in_order() {
        let mut rng = fastrand::Rng::with_seed(13);
        for len in [0, 1, 3, 4, 5, 8, 63, 1000] {
            let keys: Vec<u64> = (0..len).map(|_| rng.u64(..) & rng.u64(..)).collect();
            for bars in [
                0,
                1,
                1 << 5 | 1 << 40,
                rng.u64(..) & rng.u64(..) & rng.u64(..),
            ] {
                let want: Vec<u64> = keys.iter().copied().filter(|k| k & bars == 0).collect();
                for kernel in Kernel::available() {
                    let mut out = vec![7; 3];
                    keep_clear(kernel, &keys, bars, &mut out);
                    assert_eq!(out, want, "{kernel:?}, {len} keys");
                }
            }
        }
    }

    #[test]
    fn every_kernel_counts_each_runs_keys_clear_of_the_bars() {
        let mut rng = fastrand::Rng::with_seed(49);
        let keys: Vec<u64> = (0..3000).map(|_| rng.u64(..) & rng.u64(..)).collect();
        // Runs of every length from none up, the last reaching the end.
        let mut runs = vec![0];
        while *runs.last().unwrap() < keys.len() {
            let next = runs.last().unwrap() + rng.usize(..40);
            runs.push(next.min(keys.len()));
        }
        for skip in [0, 1 << 7, rng.u64(..) & rng.u64(..), u64::MAX] {
            let clear = |run: &[usize]| keys[run[0]..run[1]].iter().filter(|&&k| k & skip == 0);
            let want: Vec<u32> = runs.windows(2).map(|r| clear(r).count() as u32).collect();
            let held = runs.windows(2).flat_map(clear).fold(0, |held, &k| held | k);
            for kernel in Kernel::available() {
                let mut counts = vec![7; want.len()];
                let got = count_clear_runs(kernel, &keys, &runs, skip, &mut counts);
                assert_eq!(
                    (counts, got),
                    (want.clone(), held),
                    "{kernel:?}, skip {skip:#x}"
                );
            }
        }
    }

    #[test]
    fn squeezing_keeps_the_bits_of_the_mask_in_order() {
        let mut rng = fastrand::Rng::with_seed(9);
        let keys: Vec<u64> = (0..1000).map(|_| rng.u64(..)).collect();
        for _ in 0..20 {
            let mask = rng.u64(..) & rng.u64(..);
            for kernel in Kernel::available() {
                let mut out = Vec::new();
                squeeze(kernel, mask, &keys, &mut out);
                for (&key, &packed) in keys.iter().zip(&out) {
                    assert_eq!(packed, Pack(mask).pack(key), "{kernel}");
                    assert_eq!(packed.count_ones(), (key & mask).count_ones());
                    if mask.count_ones() < 64 {
                        assert!(packed < 1 << mask.count_ones());
                    }
                }
            }
        }
        for kernel in Kernel::available() {
            let mut out = Vec::new();
            squeeze(kernel, 0b1010, &[0b1000, 0b0010, 0b1111, 0b0101], &mut out);
            assert_eq!(out, [0b10, 0b01, 0b11, 0b00]);
        }
    }

    #[test]
    fn pext_sorts_by_cut_as_shifts_do_in_one_pass_or_two() {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = Kernel::new(crate::cpu::KernelLevel::Avx2) {
            let mut rng = fastrand::Rng::with_seed(5);
            let all: Vec<u64> = (0..9000).map(|_| rng.u64(..1 << 50)).collect();
            // One pass up to 8 cut bits, two from 9 (each group of the first through
            // the scratch, which holds stale keys).
            let lens = [0, 1, 5, 3000, 3001, 3002, 3003, 2, 9000, 7, 8999, 4000];
            let mut scratch = vec![u64::MAX; 5];
            for (cuts, len) in (1..=12).zip(lens) {
                let keys = &all[..len];
                let mut bits: Vec<u32> = (0..50).collect();
                rng.shuffle(&mut bits);
                bits.truncate(cuts);
                bits.sort_unstable();
                let (mut sorted, mut starts) = (Vec::new(), Vec::new());
                sort_by_shifts(&bits, keys, (&mut sorted, &mut starts), &mut scratch);
                let (mut by_pext, mut pext_starts) = (vec![3; 9], vec![1; 2]);
                let mask = bits.iter().fold(0, |m, &b| m | 1 << b);
                let out = (&mut by_pext, &mut pext_starts);
                sort_by_pext(mask, !mask, avx2, keys, out, &mut scratch)
                    .expect("a kernel of the AVX2 level");
                assert_eq!(
                    (&sorted, &starts),
                    (&by_pext, &pext_starts),
                    "cut bits {bits:?}"
                );
                // Each key, its cut bits out, in the bucket of their value, in the order
                // the keys came.
                let value = |key: u64| {
                    bits.iter()
                        .enumerate()
                        .fold(0, |v, (i, &b)| v | (key >> b & 1) << i) as usize
                };
                let rest = |key: u64| {
                    (0..64u32)
                        .filter(|b| !bits.contains(b))
                        .enumerate()
                        .fold(0u64, |r, (i, b)| r | (key >> b & 1) << i)
                };
                let mut stable = keys.to_vec();
                stable.sort_by_key(|&key| value(key));
                let expected: Vec<u64> = stable.iter().map(|&key| rest(key)).collect();
                assert_eq!(sorted, expected, "cut bits {bits:?}, {len} keys");
                assert_eq!(starts.len(), (1 << cuts) + 1);
                for (v, range) in starts.windows(2).enumerate() {
                    assert!(stable[range[0]..range[1]].iter().all(|&k| value(k) == v));
                }
            }
        }
    }
}
