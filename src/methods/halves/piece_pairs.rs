//! Pairing a column split's north pieces with its south pieces: the inner loop of building
//! half-boards. Each pair that shares no diagonal gives a half-board, kept as its key.
//!
//! Most pairs clash, so the loop is a filter: the scalar kernel writes every pair and
//! moves on only past those kept (no branch to mispredict); the vector kernels test four
//! (AVX2) or eight (AVX-512) south pieces at once and store the kept keys packed
//! together. All give the same keys in the same order.

use super::geometry::KeyShape;
use crate::cpu::{Kernel, KernelLevel};

/// Slots past the kept keys a kernel may write (and leave unkept): `out` needs this many
/// spare slots beyond one per pair.
pub(super) const SPARE: usize = 8;

/// South pieces come in runs of this many (padded with [`FILLER`]s), so that the vector
/// kernels have no remainder to finish one by one: runs are short, 8 to 63 pieces
/// mostly at N = 18 to 21, so a scalar tail was a large part of the work.
pub(super) const RUN: usize = 8;

/// Diagonals of a south piece that pairs with none: a bit no quadrant diagonal uses
/// (they have at most 25 bits), and every north piece is given it.
pub(super) const FILLER: u64 = 1 << 31;

/// A column split's south pieces, ready to pair: each one's diagonals (in the south
/// quadrant's frame) and its key, at the same index.
#[derive(Clone, Copy)]
pub(super) struct South<'a> {
    pub(super) diagonals: &'a [u64],
    pub(super) keys: &'a [u64],
}

/// A column split's north pieces (quadrant diagonals `d1 | d2 << 32`), where their keys
/// lie, how far down the south quadrant starts, and which keys are left out.
#[derive(Clone, Copy)]
pub(super) struct North<'a> {
    pub(super) pieces: &'a [u64],
    pub(super) shape: KeyShape,
    pub(super) south_row: u32,
    /// A north piece whose key holds any of these bits is left out.
    pub(super) unwanted: u64,
    /// A north piece holding any of these diagonals (its own frame) is left out.
    pub(super) blocked: u64,
    /// No south piece holding any of these (the south quadrant's frame) pairs.
    pub(super) south_blocked: u64,
}

/// Where the kept keys go: one list, or (West's) three by class, the number of long
/// diagonals a half-board holds: its north piece's key may hold `main`, its south
/// piece's `anti`. Class 0 may be left out.
#[derive(Clone, Copy)]
pub(super) enum Classes {
    One,
    Three {
        main: u64,
        anti: u64,
        keep_plain: bool,
    },
}

/// Appends the key of every (north, south) pair that shares no diagonal to `out[0]`
/// (`Classes::One`) or to `out[class]`.
pub(super) fn pair_all(
    kernel: Kernel,
    north: North,
    south: South,
    classes: Classes,
    out: &mut [Vec<u64>],
) {
    assert_eq!(south.diagonals.len(), south.keys.len());
    assert_eq!(out.len(), if let Classes::One = classes { 1 } else { 3 });
    if north.pieces.is_empty() || south.keys.is_empty() {
        return;
    }
    for list in out.iter_mut() {
        list.reserve(north.pieces.len() * south.keys.len() + SPARE);
    }
    let split = matches!(classes, Classes::Three { .. });
    match (kernel.level(), split) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY (each): the kernel token proves the CPU has the level's features; the
        // spare slots were reserved above.
        (KernelLevel::Avx512, false) => unsafe { all_avx512::<false>(north, south, classes, out) },
        #[cfg(target_arch = "x86_64")]
        (KernelLevel::Avx512, true) => unsafe { all_avx512::<true>(north, south, classes, out) },
        #[cfg(target_arch = "x86_64")]
        (KernelLevel::Avx2, false) => unsafe { all_avx2::<false>(north, south, classes, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        (KernelLevel::Avx2, true) => unsafe { all_avx2::<true>(north, south, classes, out) },
        // SAFETY: the spare slots were reserved above.
        (_, false) => unsafe { all_scalar::<false>(north, south, classes, out) },
        // SAFETY: as above.
        (_, true) => unsafe { all_scalar::<true>(north, south, classes, out) },
    }
}

/// Defines a function that pairs every wanted north piece by a kernel (inlined into it,
/// so that it runs with the function's target features).
macro_rules! each_north {
    ($(#[$attr:meta])* $name:ident, $kernel:ident) => {
        $(#[$attr])*
        unsafe fn $name<const SPLIT: bool>(
            north: North,
            south: South,
            classes: Classes,
            out: &mut [Vec<u64>],
        ) {
            for &piece in north.pieces {
                let Some((moved, key)) = north.wanted(piece) else {
                    continue;
                };
                let (mut sink, split) = classes.sink(key, out);
                // SAFETY: the caller's (`pair_all` reserved the spare slots).
                unsafe { $kernel::<SPLIT>(moved, key, south, split, &mut sink) };
            }
        }
    };
}

each_north!(
    /// The scalar kernel over a column split.
    all_scalar,
    pair_scalar
);
each_north!(
    /// The AVX2 kernel over a column split.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt")]
    all_avx2,
    pair_avx2
);
each_north!(
    /// The AVX-512 kernel over a column split.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,popcnt")]
    all_avx512,
    pair_avx512
);

impl Classes {
    /// Where a north piece with this key sends its pairs, and the split bit.
    #[inline(always)]
    fn sink<'a>(self, key: u64, out: &'a mut [Vec<u64>]) -> (Sink<'a>, u64) {
        match self {
            Classes::One => (Sink::new(&mut out[0], None, false), 0),
            Classes::Three {
                main,
                anti,
                keep_plain,
            } => {
                let base = usize::from(key & main != 0);
                let (low, high) = out.split_at_mut(base + 1);
                let keep_low = base > 0 || keep_plain;
                (
                    Sink::new(&mut low[base], Some(&mut high[0]), keep_low),
                    anti,
                )
            }
        }
    }
}

impl North<'_> {
    /// A wanted north piece's diagonals, moved to the south quadrant's frame (so that a
    /// pair is tested with one AND), and its key; `None` for an unwanted one.
    #[inline(always)]
    fn wanted(&self, piece: u64) -> Option<(u64, u64)> {
        let key = self.shape.key(piece);
        let shift = self.south_row;
        let moved = ((piece & 0xffff_ffff) >> shift)
            | ((piece >> 32) >> shift) << 32
            | FILLER
            | self.south_blocked;
        (key & self.unwanted == 0 && piece & self.blocked == 0).then_some((moved, key))
    }
}

/// One north piece's outputs: pairs whose south key lacks the split bit go `low`
/// (unless `keep_low` is off), the others `high` (with no split bit, all go `low`). Each
/// is written at its end, in its spare capacity.
struct Sink<'a> {
    low: &'a mut Vec<u64>,
    high: Option<&'a mut Vec<u64>>,
    keep_low: bool,
}

impl<'a> Sink<'a> {
    fn new(low: &'a mut Vec<u64>, high: Option<&'a mut Vec<u64>>, keep_low: bool) -> Sink<'a> {
        Sink {
            keep_low: keep_low || high.is_none(),
            low,
            high,
        }
    }

    /// The two ends to write at (`high`'s null when there is none).
    #[inline(always)]
    fn ends(&mut self) -> (*mut u64, *mut u64) {
        let end = |list: &mut Vec<u64>| list.as_mut_ptr().wrapping_add(list.len());
        let high = self.high.as_deref_mut().map_or(std::ptr::null_mut(), end);
        (end(self.low), high)
    }

    /// Takes `low` and `high` more keys as written.
    ///
    /// # Safety
    /// That many were written at [`Sink::ends`], inside the spare capacity.
    #[inline(always)]
    unsafe fn grow(&mut self, low: usize, high: usize) {
        // SAFETY: the caller's promise.
        unsafe {
            self.low.set_len(self.low.len() + low);
            if let Some(h) = self.high.as_deref_mut() {
                h.set_len(h.len() + high);
            }
        }
    }
}

/// The scalar kernel, from south piece `from` on: every pair is written at each end, and
/// the end it belongs to moves on when it is kept (no branch to mispredict).
///
/// # Safety
/// `sink` has a spare slot per south piece at each end.
#[inline(always)]
unsafe fn pair_scalar<const SPLIT: bool>(
    north: u64,
    north_key: u64,
    south: South,
    split: u64,
    sink: &mut Sink,
) {
    // SAFETY: the caller's.
    unsafe { pair_scalar_from::<SPLIT>(north, north_key, south, split, sink, 0) };
}

/// [`pair_scalar`] from south piece `from` on.
///
/// # Safety
/// As for [`pair_scalar`].
#[inline(always)]
unsafe fn pair_scalar_from<const SPLIT: bool>(
    north: u64,
    north_key: u64,
    south: South,
    split: u64,
    sink: &mut Sink,
    from: usize,
) {
    let (low_end, high_end) = sink.ends();
    let keep_low = usize::from(sink.keep_low);
    let (mut low, mut high) = (0, 0);
    for (&diagonals, &key) in south.diagonals[from..].iter().zip(&south.keys[from..]) {
        let kept = usize::from(north & diagonals == 0);
        let up = usize::from(SPLIT && key & split != 0);
        // SAFETY: each end has a spare slot per pair (`pair_all` reserved them), and a
        // slot is taken only after it was written.
        unsafe {
            low_end.add(low).write(north_key | key);
            if SPLIT {
                high_end.add(high).write(north_key | key);
            }
        }
        low += kept & (1 - up) & keep_low;
        high += kept & up;
    }
    // SAFETY: written just above.
    unsafe { sink.grow(low, high) };
}

/// The AVX2 kernel: four south pieces a step, the kept keys of each end moved to the
/// front of a register by a permutation looked up by the mask of its lanes.
///
/// # Safety
/// Only inlined into a function with AVX2 and POPCNT; `sink` has the spare slots.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn pair_avx2<const SPLIT: bool>(
    north: u64,
    north_key: u64,
    south: South,
    split: u64,
    sink: &mut Sink,
) {
    use super::cuts::PACK_LANES as PACK;
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_movemask_pd, _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x,
        _mm256_setzero_si256, _mm256_storeu_si256,
    };
    let steps = south.keys.len() / 4;
    let (low_end, high_end) = sink.ends();
    let (mut low, mut high) = (0, 0);
    let low_lanes = if sink.keep_low { 0xf } else { 0 };
    // SAFETY: loads stay inside the south slices (`steps * 4 <= len`); stores write 4
    // slots at each end, inside the spare slots `pair_all` reserved.
    unsafe {
        let (north_v, north_key_v, split_v, zero) = (
            _mm256_set1_epi64x(north as i64),
            _mm256_set1_epi64x(north_key as i64),
            _mm256_set1_epi64x(split as i64),
            _mm256_setzero_si256(),
        );
        for step in 0..steps {
            let at = step * 4;
            let diagonals = _mm256_loadu_si256(south.diagonals.as_ptr().add(at).cast());
            let south_keys = _mm256_loadu_si256(south.keys.as_ptr().add(at).cast());
            let clear = _mm256_cmpeq_epi64(_mm256_and_si256(diagonals, north_v), zero);
            let kept = _mm256_movemask_pd(_mm256_castsi256_pd(clear)) as usize;
            let keys = _mm256_or_si256(south_keys, north_key_v);
            let down = if SPLIT {
                let lacks = _mm256_cmpeq_epi64(_mm256_and_si256(south_keys, split_v), zero);
                _mm256_movemask_pd(_mm256_castsi256_pd(lacks)) as usize
            } else {
                0xf
            };
            let to_low = kept & down & low_lanes;
            let order = _mm256_loadu_si256(PACK[to_low].as_ptr().cast::<__m256i>());
            _mm256_storeu_si256(
                low_end.add(low).cast(),
                _mm256_permutevar8x32_epi32(keys, order),
            );
            low += to_low.count_ones() as usize;
            if SPLIT {
                let to_high = kept & !down;
                let order = _mm256_loadu_si256(PACK[to_high].as_ptr().cast::<__m256i>());
                _mm256_storeu_si256(
                    high_end.add(high).cast(),
                    _mm256_permutevar8x32_epi32(keys, order),
                );
                high += to_high.count_ones() as usize;
            }
        }
        sink.grow(low, high);
    }
    // SAFETY: the caller's.
    unsafe { pair_scalar_from::<SPLIT>(north, north_key, south, split, sink, steps * 4) };
}

/// The AVX-512 kernel: eight south pieces a step, the kept keys of each end packed by
/// VPCOMPRESSQ (into a register: compressing into memory is slow on AMD's Zen 4).
///
/// # Safety
/// Only inlined into a function with AVX-512 F and POPCNT; `sink` has the spare slots.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn pair_avx512<const SPLIT: bool>(
    north: u64,
    north_key: u64,
    south: South,
    split: u64,
    sink: &mut Sink,
) {
    use std::arch::x86_64::{
        _mm512_loadu_si512, _mm512_maskz_compress_epi64, _mm512_or_si512, _mm512_set1_epi64,
        _mm512_storeu_si512, _mm512_test_epi64_mask, _mm512_testn_epi64_mask,
    };
    let steps = south.keys.len() / 8;
    let (low_end, high_end) = sink.ends();
    let (mut low, mut high) = (0, 0);
    let low_lanes: u8 = if sink.keep_low { 0xff } else { 0 };
    // SAFETY: as in `pair_avx2`, eight lanes a step.
    unsafe {
        let (north_v, north_key_v, split_v) = (
            _mm512_set1_epi64(north as i64),
            _mm512_set1_epi64(north_key as i64),
            _mm512_set1_epi64(split as i64),
        );
        for step in 0..steps {
            let at = step * 8;
            let diagonals = _mm512_loadu_si512(south.diagonals.as_ptr().add(at).cast());
            let south_keys = _mm512_loadu_si512(south.keys.as_ptr().add(at).cast());
            let kept = _mm512_testn_epi64_mask(diagonals, north_v);
            let keys = _mm512_or_si512(south_keys, north_key_v);
            let up = if SPLIT {
                _mm512_test_epi64_mask(south_keys, split_v)
            } else {
                0
            };
            let to_low = kept & !up & low_lanes;
            _mm512_storeu_si512(
                low_end.add(low).cast(),
                _mm512_maskz_compress_epi64(to_low, keys),
            );
            low += to_low.count_ones() as usize;
            if SPLIT {
                let to_high = kept & up;
                _mm512_storeu_si512(
                    high_end.add(high).cast(),
                    _mm512_maskz_compress_epi64(to_high, keys),
                );
                high += to_high.count_ones() as usize;
            }
        }
        sink.grow(low, high);
    }
    // SAFETY: the caller's.
    unsafe { pair_scalar_from::<SPLIT>(north, north_key, south, split, sink, steps * 8) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_keeps_the_pairs_a_double_loop_keeps() {
        use super::super::geometry::Geometry;
        let mut rng = fastrand::Rng::with_seed(11);
        let g = Geometry::new(16);
        // Sparse diagonals in each word, so that some pairs clash and some do not.
        let piece = |rng: &mut fastrand::Rng| {
            let word = |rng: &mut fastrand::Rng| rng.u64(..1 << 15) & rng.u64(..) & rng.u64(..);
            word(rng) | word(rng) << 32
        };
        for (north_len, south_len) in [
            (0, 5),
            (3, 0),
            (1, 1),
            (2, 3),
            (3, 4),
            (5, 7),
            (4, 8),
            (6, 9),
            (9, 31),
            (7, 64),
            (3, 100),
        ] {
            let north: Vec<u64> = (0..north_len).map(|_| piece(&mut rng)).collect();
            let diagonals: Vec<u64> = (0..south_len).map(|_| piece(&mut rng)).collect();
            let keys: Vec<u64> = (0..south_len).map(|_| rng.u64(..)).collect();
            let (main, anti) = (g.main_diagonal(), g.anti_diagonal());
            let north = North {
                pieces: &north,
                shape: g.key_shape(0, g.side),
                south_row: g.south_row,
                unwanted: 1 << 3,
                blocked: 1 << 5 | 1 << 40,
                south_blocked: 1 << 2 | 1 << 33,
            };
            let south = South {
                diagonals: &diagonals,
                keys: &keys,
            };
            // By a double loop: the keys kept, with their class.
            let mut pairs = Vec::new();
            for &p in north.pieces {
                let key = north.shape.key(p);
                let moved = (p & 0xffff_ffff) >> g.south_row
                    | (p >> 32 >> g.south_row) << 32
                    | north.south_blocked;
                if key & north.unwanted == 0 && p & north.blocked == 0 {
                    for (&d, &k) in diagonals.iter().zip(&keys) {
                        if d & moved == 0 {
                            let class = usize::from(key & main != 0) + usize::from(k & anti != 0);
                            pairs.push((key | k, class));
                        }
                    }
                }
            }
            for kernel in Kernel::available() {
                let mut one = [vec![42]];
                pair_all(kernel, north, south, Classes::One, &mut one);
                let all: Vec<u64> = pairs.iter().map(|&(k, _)| k).collect();
                assert_eq!(
                    one[0][1..],
                    all,
                    "{kernel:?}, {north_len} x {south_len} pieces"
                );
                for keep_plain in [false, true] {
                    let mut three = [vec![1], vec![2], vec![3]];
                    let classes = Classes::Three {
                        main,
                        anti,
                        keep_plain,
                    };
                    pair_all(kernel, north, south, classes, &mut three);
                    for (class, list) in three.iter().enumerate() {
                        let expected: Vec<u64> = pairs
                            .iter()
                            .filter(|&&(_, c)| c == class && (c > 0 || keep_plain))
                            .map(|&(k, _)| k)
                            .collect();
                        assert_eq!(list[0], class as u64 + 1);
                        assert_eq!(
                            list[1..],
                            expected,
                            "{kernel:?}, class {class}, {north_len} x {south_len}"
                        );
                    }
                }
            }
        }
    }
}
