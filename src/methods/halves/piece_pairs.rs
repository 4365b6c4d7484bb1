//! Pairing a column split's north pieces with its south pieces: the inner loop of building
//! half-boards. Each pair that shares no diagonal gives a half-board, kept as its key.
//!
//! Most pairs clash, so the loop is a filter: the scalar kernel writes every pair and
//! moves on only past those kept (no branch to mispredict); the vector kernels test four
//! (AVX2) or eight (AVX-512) north pieces at once against each south piece and store the
//! kept keys packed together. All give the same keys (the vector kernels south piece by
//! south piece, in another order, which no count depends on).

use super::geometry::KeyShape;
use crate::cpu::Kernel;
#[cfg(target_arch = "x86_64")]
use crate::cpu::KernelLevel;

/// Slots past the kept keys a kernel may write (and leave unkept): `out` needs this many
/// spare slots beyond one per pair.
pub(super) const SPARE: usize = 8;

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
/// piece's `anti`. Class 0 goes as `plain` says.
#[derive(Clone, Copy)]
pub(super) enum Classes {
    One,
    Three { main: u64, anti: u64, plain: Plain },
}

/// What becomes of West's class-0 half-boards (on no long diagonal).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Plain {
    /// Left out: they weigh nothing on this row set.
    Dropped,
    /// In a list of their own, `out[0]`.
    Apart,
    /// In class 1's list, `out[1]` (`out[0]` left as it was): where the two classes
    /// weigh the same, they count as one list. A load lays each list of a bucket out
    /// from a lane of its own, so each list leaves its last lane part empty.
    WithOne,
}

/// [`Plain`]'s ways as the constants the vector kernels are compiled for.
#[cfg(target_arch = "x86_64")]
const DROPPED: u8 = 0;
#[cfg(target_arch = "x86_64")]
const APART: u8 = 1;
#[cfg(target_arch = "x86_64")]
const WITH_ONE: u8 = 2;

#[cfg(target_arch = "x86_64")]
impl Plain {
    /// The way a kernel was compiled for (one of the constants above).
    #[inline(always)]
    const fn compiled(plain: u8) -> Plain {
        match plain {
            DROPPED => Plain::Dropped,
            APART => Plain::Apart,
            _ => Plain::WithOne,
        }
    }
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
    // The vector kernels are compiled for each way class 0 goes, a constant in their
    // inner loop: given as a value, it cost a tenth more of their instructions (`count
    // 18 --kernel avx2`, callgrind: 8.18 G against 7.43 G).
    #[cfg(target_arch = "x86_64")]
    macro_rules! by_plain {
        ($kernel:ident) => {
            match classes {
                Classes::One => $kernel::<false, APART>(north, south, classes, out),
                Classes::Three { plain, .. } => match plain {
                    Plain::Dropped => $kernel::<true, DROPPED>(north, south, classes, out),
                    Plain::Apart => $kernel::<true, APART>(north, south, classes, out),
                    Plain::WithOne => $kernel::<true, WITH_ONE>(north, south, classes, out),
                },
            }
        };
    }
    match (kernel.level(), split) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the level's features; the spare
        // slots were reserved above.
        (KernelLevel::Avx512, _) => unsafe { by_plain!(all_avx512) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        (KernelLevel::Avx2, _) => unsafe { by_plain!(all_avx2) },
        // SAFETY: the spare slots were reserved above.
        (_, false) => unsafe { all_scalar::<false>(north, south, classes, out) },
        // SAFETY: as above.
        (_, true) => unsafe { all_scalar::<true>(north, south, classes, out) },
    }
}

/// The scalar kernel over a column split: each wanted north piece against every south
/// piece ([`pair_scalar`]).
///
/// # Safety
/// `out`'s lists have a spare slot per pair and [`SPARE`] more.
unsafe fn all_scalar<const SPLIT: bool>(
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
        // SAFETY: the caller's.
        unsafe { pair_scalar::<SPLIT>(moved, key, south, split, &mut sink) };
    }
}

impl Classes {
    /// The long diagonals that split the classes (none for one class).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn diagonals(self) -> (u64, u64) {
        match self {
            Classes::One => (0, 0),
            Classes::Three { main, anti, .. } => (main, anti),
        }
    }

    /// Where a north piece with this key sends its pairs, and the split bit.
    #[inline(always)]
    fn sink<'a>(self, key: u64, out: &'a mut [Vec<u64>]) -> (Sink<'a>, u64) {
        match self {
            Classes::One => (Sink::new(&mut out[0], None, false), 0),
            Classes::Three { main, anti, plain } => {
                let base = usize::from(key & main != 0);
                if base == 0 && plain == Plain::WithOne {
                    // Both of its classes go to list 1: no split bit (list 2 only takes
                    // the unkept writes).
                    let [_, one, two] = out else {
                        unreachable!("three lists (asserted by `pair_all`)")
                    };
                    return (Sink::new(one, Some(two), true), 0);
                }
                let (low, high) = out.split_at_mut(base + 1);
                let keep_low = base > 0 || plain != Plain::Dropped;
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
        let moved =
            ((piece & 0xffff_ffff) >> shift) | ((piece >> 32) >> shift) << 32 | self.south_blocked;
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

/// The scalar kernel: every pair is written at each end, and the end it belongs to
/// moves on when it is kept (no branch to mispredict).
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
    let (low_end, high_end) = sink.ends();
    let keep_low = usize::from(sink.keep_low);
    let (mut low, mut high) = (0, 0);
    for (&diagonals, &key) in south.diagonals.iter().zip(south.keys) {
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

/// The AVX2 kernel, turned around as the AVX-512 one is: four north pieces at once
/// against each south piece, the kept keys moved to the front of a register by a
/// permutation looked up by the mask of their lanes.
///
/// # Safety
/// Only called where the CPU has AVX2 and POPCNT; `out`'s lists have a spare slot per
/// pair and [`SPARE`] more.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn all_avx2<const SPLIT: bool, const PLAIN: u8>(
    north: North,
    south: South,
    classes: Classes,
    out: &mut [Vec<u64>],
) {
    use super::cuts::PACK_LANES as PACK;
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi64_si128, _mm256_and_si256, _mm256_castsi256_pd, _mm256_cmpeq_epi64,
        _mm256_cmpgt_epi64, _mm256_loadu_si256, _mm256_maskload_epi64, _mm256_movemask_pd,
        _mm256_or_si256, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x, _mm256_setr_epi64x,
        _mm256_setzero_si256, _mm256_sll_epi64, _mm256_slli_epi64, _mm256_srl_epi64,
        _mm256_srli_epi64, _mm256_storeu_si256,
    };
    let (main, anti) = classes.diagonals();
    let plain = Plain::compiled(PLAIN);
    let ends = list_ends(out);
    let mut written = [0usize; 3];
    let shape = north.shape;
    let shift = |count: u32| _mm_cvtsi64_si128(i64::from(count));
    let splat = |word: u64| _mm256_set1_epi64x(word as i64);
    // The lanes of `a` that share no bit with `b`.
    let clear = |a: __m256i, b: __m256i| {
        let none = _mm256_cmpeq_epi64(_mm256_and_si256(a, b), _mm256_setzero_si256());
        _mm256_movemask_pd(_mm256_castsi256_pd(none)) as usize
    };
    let key_of = |d: __m256i, left: u32, right: u32| {
        let placed = _mm256_srl_epi64(_mm256_sll_epi64(d, shift(left)), shift(right));
        _mm256_and_si256(placed, splat(shape.band))
    };
    let lane_numbers = _mm256_setr_epi64x(0, 1, 2, 3);
    let low_words = splat(0xffff_ffff);
    for chunk in north.pieces.chunks(4) {
        let present = _mm256_cmpgt_epi64(splat(chunk.len() as u64), lane_numbers);
        // SAFETY: the load is masked to the north pieces present in `chunk`.
        let pieces = unsafe { _mm256_maskload_epi64(chunk.as_ptr().cast(), present) };
        let (d1, d2) = (
            _mm256_and_si256(pieces, low_words),
            _mm256_srli_epi64::<32>(pieces),
        );
        let keys = _mm256_or_si256(
            key_of(d1, shape.d1_left, shape.d1_right),
            _mm256_sll_epi64(
                key_of(d2, shape.d2_left, shape.d2_right),
                shift(shape.d2_at),
            ),
        );
        let wanted = (0xf >> (4 - chunk.len()))
            & clear(keys, splat(north.unwanted))
            & clear(pieces, splat(north.blocked));
        if wanted == 0 {
            continue;
        }
        let moved = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_srl_epi64(d1, shift(north.south_row)),
                _mm256_slli_epi64::<32>(_mm256_srl_epi64(d2, shift(north.south_row))),
            ),
            splat(north.south_blocked),
        );
        let holds_main = if SPLIT {
            !clear(keys, splat(main)) & 0xf
        } else {
            0
        };
        for (&diagonals, &key) in south.diagonals.iter().zip(south.keys) {
            let kept = wanted & clear(moved, splat(diagonals));
            let pairs = _mm256_or_si256(keys, splat(key));
            let (up, low, high) = lanes_to::<SPLIT, _>(kept, holds_main, key, anti, plain);
            // SAFETY: the load reads one row of `PACK` (eight `i32`s); the store writes 4
            // slots at list `up`'s end, which has a spare slot per pair and `SPARE` more
            // (`pair_all` reserved them), and only the lanes kept are counted as written.
            unsafe {
                let order = _mm256_loadu_si256(PACK[low].as_ptr().cast::<__m256i>());
                let packed = _mm256_permutevar8x32_epi32(pairs, order);
                _mm256_storeu_si256(ends[up].add(written[up]).cast(), packed);
            }
            written[up] += low.count_ones() as usize;
            if SPLIT {
                // SAFETY: as above, for list `up + 1`.
                unsafe {
                    let order = _mm256_loadu_si256(PACK[high].as_ptr().cast::<__m256i>());
                    let packed = _mm256_permutevar8x32_epi32(pairs, order);
                    _mm256_storeu_si256(ends[up + 1].add(written[up + 1]).cast(), packed);
                }
                written[up + 1] += high.count_ones() as usize;
            }
        }
    }
    // SAFETY: `written` counts the keys stored at each list's end, inside its capacity.
    unsafe { grow(out, written) };
}

/// The AVX-512 kernel over a column split, turned around: eight north pieces at once
/// (their keys and diagonals computed together), each south piece tested against all
/// eight, the kept keys packed by VPCOMPRESSQ (into a register: compressing into memory
/// is slow on AMD's Zen 4). A split has few pieces a side (at N = 16, eight north and
/// eleven south on average), so a loop per north piece spent more on its own set-up
/// than on its pairs.
///
/// # Safety
/// Only called where the CPU has AVX-512 F and POPCNT; `out`'s lists have a spare slot
/// per pair and [`SPARE`] more.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn all_avx512<const SPLIT: bool, const PLAIN: u8>(
    north: North,
    south: South,
    classes: Classes,
    out: &mut [Vec<u64>],
) {
    use std::arch::x86_64::{
        __m512i, _mm_cvtsi64_si128, _mm512_and_si512, _mm512_maskz_compress_epi64,
        _mm512_maskz_loadu_epi64, _mm512_or_si512, _mm512_set1_epi64, _mm512_sll_epi64,
        _mm512_slli_epi64, _mm512_srl_epi64, _mm512_srli_epi64, _mm512_storeu_si512,
        _mm512_test_epi64_mask, _mm512_testn_epi64_mask,
    };
    let (main, anti) = classes.diagonals();
    let plain = Plain::compiled(PLAIN);
    let ends = list_ends(out);
    let mut written = [0usize; 3];
    let shape = north.shape;
    let shift = |count: u32| _mm_cvtsi64_si128(i64::from(count));
    let splat = |word: u64| _mm512_set1_epi64(word as i64);
    let key_of = |d: __m512i, left: u32, right: u32| {
        let placed = _mm512_srl_epi64(_mm512_sll_epi64(d, shift(left)), shift(right));
        _mm512_and_si512(placed, splat(shape.band))
    };
    let low_words = splat(0xffff_ffff);
    for chunk in north.pieces.chunks(8) {
        let present = (0xffu32 >> (8 - chunk.len())) as u8;
        // SAFETY: the load is masked to the north pieces present in `chunk`.
        let pieces = unsafe { _mm512_maskz_loadu_epi64(present, chunk.as_ptr().cast()) };
        let (d1, d2) = (
            _mm512_and_si512(pieces, low_words),
            _mm512_srli_epi64::<32>(pieces),
        );
        let keys = _mm512_or_si512(
            key_of(d1, shape.d1_left, shape.d1_right),
            _mm512_sll_epi64(
                key_of(d2, shape.d2_left, shape.d2_right),
                shift(shape.d2_at),
            ),
        );
        let wanted = present
            & _mm512_testn_epi64_mask(keys, splat(north.unwanted))
            & _mm512_testn_epi64_mask(pieces, splat(north.blocked));
        if wanted == 0 {
            continue;
        }
        // North's diagonals in the south quadrant's frame, as in `North::wanted`.
        let moved = _mm512_or_si512(
            _mm512_or_si512(
                _mm512_srl_epi64(d1, shift(north.south_row)),
                _mm512_slli_epi64::<32>(_mm512_srl_epi64(d2, shift(north.south_row))),
            ),
            splat(north.south_blocked),
        );
        let holds_main = if SPLIT {
            _mm512_test_epi64_mask(keys, splat(main))
        } else {
            0
        };
        for (&diagonals, &key) in south.diagonals.iter().zip(south.keys) {
            let kept = wanted & _mm512_testn_epi64_mask(moved, splat(diagonals));
            let pairs = _mm512_or_si512(keys, splat(key));
            let (up, low, high) = lanes_to::<SPLIT, _>(kept, holds_main, key, anti, plain);
            let packed = _mm512_maskz_compress_epi64(low, pairs);
            // SAFETY: the store writes 8 slots at list `up`'s end, which has a spare slot
            // per pair and `SPARE` more (`pair_all` reserved them), and only the lanes
            // kept are counted as written.
            unsafe { _mm512_storeu_si512(ends[up].add(written[up]).cast(), packed) };
            written[up] += low.count_ones() as usize;
            if SPLIT {
                let packed = _mm512_maskz_compress_epi64(high, pairs);
                // SAFETY: as above, for list `up + 1`.
                unsafe { _mm512_storeu_si512(ends[up + 1].add(written[up + 1]).cast(), packed) };
                written[up + 1] += high.count_ones() as usize;
            }
        }
    }
    // SAFETY: `written` counts the keys stored at each list's end, inside its capacity.
    unsafe { grow(out, written) };
}

/// Where a south piece's pairs with a vector of north pieces go, by their class (the
/// north piece's main diagonal and the south piece's anti-diagonal): a list `up`, the
/// `kept` lanes going there, and those going to `up + 1`. With class 0 apart, `up` is
/// the south piece's class, and the lanes whose north piece `holds_main` go one higher.
/// Without (class 0 dropped, or with class 1's), `up` is list 1 whatever the south
/// piece: two fixed lists cost fewer instructions than a pair of them chosen pair by
/// pair (`count 18 --kernel avx2`, callgrind: this kernel's 8.87 G -> 7.43 G; 8.32 G
/// before class 0 went with class 1).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn lanes_to<const SPLIT: bool, Lanes>(
    kept: Lanes,
    holds_main: Lanes,
    key: u64,
    anti: u64,
    plain: Plain,
) -> (usize, Lanes, Lanes)
where
    Lanes: Copy + Default + std::ops::BitAnd<Output = Lanes> + std::ops::Not<Output = Lanes>,
{
    let on_anti = SPLIT && key & anti != 0;
    let none = Lanes::default();
    match plain {
        Plain::Apart => {
            let up = usize::from(on_anti);
            (up, kept & !holds_main, kept & holds_main)
        }
        // Class 1: the north piece's main diagonal or the south piece's anti-diagonal.
        Plain::Dropped => {
            let (one, two) = if on_anti {
                (!holds_main, holds_main)
            } else {
                (holds_main, none)
            };
            (1, kept & one, kept & two)
        }
        // Class 2: both.
        Plain::WithOne => {
            let two = if on_anti { holds_main } else { none };
            (1, kept & !two, kept & two)
        }
    }
}

/// Where each list of `out` ends (null past the last): the kernels write there.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn list_ends(out: &mut [Vec<u64>]) -> [*mut u64; 3] {
    std::array::from_fn(|i| {
        out.get_mut(i).map_or(std::ptr::null_mut(), |list| {
            list.as_mut_ptr().wrapping_add(list.len())
        })
    })
}

/// Takes `written` more keys of each list of `out` as written.
///
/// # Safety
/// That many were written at each list's end ([`list_ends`]), inside its capacity.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn grow(out: &mut [Vec<u64>], written: [usize; 3]) {
    for (list, written) in out.iter_mut().zip(written) {
        // SAFETY: the caller's promise.
        unsafe { list.set_len(list.len() + written) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(keys: &[u64]) -> Vec<u64> {
        let mut keys = keys.to_vec();
        keys.sort_unstable();
        keys
    }

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
            (8, 5),
            (16, 3),
            (17, 9),
            (30, 12),
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
                let mut all: Vec<u64> = pairs.iter().map(|&(k, _)| k).collect();
                all.sort_unstable();
                assert_eq!(one[0][0], 42);
                assert_eq!(
                    sorted(&one[0][1..]),
                    all,
                    "{kernel:?}, {north_len} x {south_len} pieces"
                );
                for plain in [Plain::Dropped, Plain::Apart, Plain::WithOne] {
                    // The list each class goes to.
                    let list_of = |class: usize| match (plain, class) {
                        (Plain::Dropped, 0) => None,
                        (Plain::WithOne, 0) => Some(1),
                        _ => Some(class),
                    };
                    let mut three = [vec![1], vec![2], vec![3]];
                    let classes = Classes::Three { main, anti, plain };
                    pair_all(kernel, north, south, classes, &mut three);
                    for (at, list) in three.iter().enumerate() {
                        let expected: Vec<u64> = pairs
                            .iter()
                            .filter(|&&(_, c)| list_of(c) == Some(at))
                            .map(|&(k, _)| k)
                            .collect();
                        assert_eq!(list[0], at as u64 + 1);
                        assert_eq!(
                            sorted(&list[1..]),
                            sorted(&expected),
                            "{kernel:?}, {plain:?}, list {at}, {north_len} x {south_len}"
                        );
                    }
                }
            }
        }
    }
}
