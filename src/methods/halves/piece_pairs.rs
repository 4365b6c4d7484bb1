//! Pairing a column split's north pieces with its south pieces: the inner loop of building
//! half-boards. Each pair that shares no diagonal gives a half-board, kept as its key.
//!
//! Most pairs clash, so the loop is a filter: the scalar kernel writes every pair and
//! moves on only past those kept (no branch to mispredict); the vector kernels test four
//! (AVX2) or eight (AVX-512) south pieces at once and store the kept keys packed
//! together. All give the same keys in the same order.

use super::geometry::KeyShape;
use crate::cpu::KernelLevel;

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
}

/// Appends to `out` the key of every (north, south) pair that shares no diagonal.
pub(super) fn pair_all(kernel: KernelLevel, north: North, south: South, out: &mut Vec<u64>) {
    assert_eq!(south.diagonals.len(), south.keys.len());
    if north.pieces.is_empty() || south.keys.is_empty() {
        return;
    }
    out.reserve(north.pieces.len() * south.keys.len() + SPARE);
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a kernel level is only used where the CPU has it (see `crate::cpu`);
        // the spare slots were reserved above.
        KernelLevel::Avx512 => unsafe { pair_avx512(north, south, out) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        KernelLevel::Avx2 => unsafe { pair_avx2(north, south, out) },
        _ => {
            for &piece in north.pieces {
                if let Some((moved, key)) = north.wanted(piece) {
                    pair_scalar(moved, key, south, out, 0);
                }
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
        let moved = ((piece & 0xffff_ffff) >> shift) | ((piece >> 32) >> shift) << 32 | FILLER;
        (key & self.unwanted == 0).then_some((moved, key))
    }
}

/// The scalar kernel, from south piece `from` on.
#[inline(always)]
fn pair_scalar(north: u64, north_key: u64, south: South, out: &mut Vec<u64>, from: usize) {
    let slots = out.spare_capacity_mut();
    let mut filled = 0;
    for (&diagonals, &key) in south.diagonals[from..].iter().zip(&south.keys[from..]) {
        // Branch-free: every pair is written, and kept when it shares no diagonal.
        slots[filled].write(north_key | key);
        filled += usize::from(north & diagonals == 0);
    }
    // SAFETY: the first `filled` spare slots were written just above.
    unsafe { out.set_len(out.len() + filled) };
}

/// The AVX2 kernel: four south pieces a step, the kept keys moved to the front of the
/// register by a permutation looked up by the mask of kept lanes.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn pair_avx2(north: North, south: South, out: &mut Vec<u64>) {
    use std::arch::x86_64::{
        __m256i, _mm256_and_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi64, _mm256_loadu_si256,
        _mm256_movemask_pd, _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x,
        _mm256_setzero_si256, _mm256_storeu_si256,
    };
    /// For each mask of kept 64-bit lanes, the 32-bit lanes that bring them to the front.
    const PACK: [[i32; 8]; 16] = {
        let mut table = [[0; 8]; 16];
        let mut mask = 0;
        while mask < 16 {
            let (mut lane, mut at) = (0, 0);
            while lane < 4 {
                if mask >> lane & 1 != 0 {
                    table[mask][2 * at] = 2 * lane;
                    table[mask][2 * at + 1] = 2 * lane + 1;
                    at += 1;
                }
                lane += 1;
            }
            mask += 1;
        }
        table
    };
    let steps = south.keys.len() / 4;
    for &piece in north.pieces {
        let Some((moved, north_key)) = north.wanted(piece) else {
            continue;
        };
        // SAFETY: loads stay inside the south slices (`steps * 4 <= len`); stores write 4
        // slots at `out.len() + filled`, inside the spare slots `pair_all` reserved.
        unsafe {
            let (north_v, north_key_v, zero) = (
                _mm256_set1_epi64x(moved as i64),
                _mm256_set1_epi64x(north_key as i64),
                _mm256_setzero_si256(),
            );
            let base = out.as_mut_ptr().add(out.len());
            let mut filled = 0;
            for step in 0..steps {
                let at = step * 4;
                let diagonals = _mm256_loadu_si256(south.diagonals.as_ptr().add(at).cast());
                let clear = _mm256_cmpeq_epi64(_mm256_and_si256(diagonals, north_v), zero);
                let kept = _mm256_movemask_pd(_mm256_castsi256_pd(clear)) as usize;
                let keys = _mm256_or_si256(
                    _mm256_loadu_si256(south.keys.as_ptr().add(at).cast()),
                    north_key_v,
                );
                let order = _mm256_loadu_si256(PACK[kept].as_ptr().cast::<__m256i>());
                _mm256_storeu_si256(
                    base.add(filled).cast(),
                    _mm256_permutevar8x32_epi32(keys, order),
                );
                filled += kept.count_ones() as usize;
            }
            out.set_len(out.len() + filled);
        }
        pair_scalar(moved, north_key, south, out, steps * 4);
    }
}

/// The AVX-512 kernel: eight south pieces a step, the kept keys packed by VPCOMPRESSQ
/// (into a register: compressing into memory is slow on AMD's Zen 4).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn pair_avx512(north: North, south: South, out: &mut Vec<u64>) {
    use std::arch::x86_64::{
        _mm512_loadu_si512, _mm512_maskz_compress_epi64, _mm512_or_si512, _mm512_set1_epi64,
        _mm512_storeu_si512, _mm512_testn_epi64_mask,
    };
    let steps = south.keys.len() / 8;
    for &piece in north.pieces {
        let Some((moved, north_key)) = north.wanted(piece) else {
            continue;
        };
        // SAFETY: as in `pair_avx2`, eight lanes a step.
        unsafe {
            let (north_v, north_key_v) = (
                _mm512_set1_epi64(moved as i64),
                _mm512_set1_epi64(north_key as i64),
            );
            let base = out.as_mut_ptr().add(out.len());
            let mut filled = 0;
            for step in 0..steps {
                let at = step * 8;
                let diagonals = _mm512_loadu_si512(south.diagonals.as_ptr().add(at).cast());
                let kept = _mm512_testn_epi64_mask(diagonals, north_v);
                let keys = _mm512_or_si512(
                    _mm512_loadu_si512(south.keys.as_ptr().add(at).cast()),
                    north_key_v,
                );
                _mm512_storeu_si512(
                    base.add(filled).cast(),
                    _mm512_maskz_compress_epi64(kept, keys),
                );
                filled += kept.count_ones() as usize;
            }
            out.set_len(out.len() + filled);
        }
        pair_scalar(moved, north_key, south, out, steps * 8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_keeps_the_pairs_a_double_loop_keeps() {
        use super::super::geometry::Geometry;
        let mut rng = fastrand::Rng::with_seed(11);
        let g = Geometry::new(15);
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
            let north = North {
                pieces: &north,
                shape: g.key_shape(0, g.west),
                south_row: g.west,
                unwanted: g.main_diagonal(),
            };
            let south = South {
                diagonals: &diagonals,
                keys: &keys,
            };
            let mut expected = vec![42];
            for &p in north.pieces {
                let key = north.shape.key(p);
                let moved = (p & 0xffff_ffff) >> g.west | (p >> 32 >> g.west) << 32;
                if key & north.unwanted == 0 {
                    for (&d, &k) in diagonals.iter().zip(&keys) {
                        if d & moved == 0 {
                            expected.push(key | k);
                        }
                    }
                }
            }
            for kernel in KernelLevel::available() {
                let mut out = vec![42];
                pair_all(kernel, north, south, &mut out);
                assert_eq!(
                    out, expected,
                    "{kernel:?}, {north_len} x {south_len} pieces"
                );
            }
        }
    }
}
