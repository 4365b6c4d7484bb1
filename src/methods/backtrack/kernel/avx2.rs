//! The vector search ([`super::lanes`]) on AVX2, for CPUs without AVX-512: 16 lanes of 16
//! bits in one register.
//!
//! A 16-bit lane holds a row's mask in lane space: shifted right by the lowest column open
//! in the plan, which must span at most 16 columns (every plan up to N = 18 does). That is
//! exact: the search's own queens stand in open columns, and their diagonal attacks only
//! move away from the span once they leave it (left-moving bits only go up, right-moving
//! ones only down), while the pre-placed queens are in the `blocked` masks. Without mask
//! registers, lane conditions are vectors of all-ones or zero lanes, turned into bits
//! with a move-mask.

use std::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_or_si256, _mm256_set1_epi16,
    _mm256_set1_epi32, _mm256_setr_epi16, _mm256_setr_epi32, _mm256_setzero_si256,
    _mm256_sllv_epi32, _mm256_xor_si256,
};

use super::lanes::{self, Lanes};
use crate::board::MAX_N;
use crate::methods::backtrack::row_plan::{Frame, RowPlan};
use crate::tally::Tally;

// The lane operations are `#[target_feature]` functions with the kernel's features (those
// of `count_stream` below, into which they all inline): safe among themselves, and the
// `Lanes` methods, `unsafe` by the trait's contract, call them without a block. Only a
// lane read through a pointer stays `unsafe`.

/// 16-bit lane-wise operations on one register, for `__m256i`'s [`Lanes`].
mod lanes16 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi32_si128, _mm256_add_epi16, _mm256_and_si256, _mm256_andnot_si256,
        _mm256_cmpeq_epi16, _mm256_movemask_epi8, _mm256_or_si256, _mm256_packs_epi16,
        _mm256_set1_epi16, _mm256_setzero_si256, _mm256_sll_epi16, _mm256_srl_epi16,
    };

    /// All-ones lanes where `a` is zero.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn is_zero(a: __m256i) -> __m256i {
        _mm256_cmpeq_epi16(a, _mm256_setzero_si256())
    }

    /// `a & (a - 1)` lane-wise: each lane without its lowest bit.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn without_lowest(a: __m256i) -> __m256i {
        _mm256_and_si256(a, _mm256_add_epi16(a, _mm256_set1_epi16(-1)))
    }

    /// One bit per lane of a vector of all-ones or zero lanes.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn bits(condition: __m256i) -> u32 {
        // Packing to bytes keeps the lanes in order within each 128-bit half, twice over:
        // bytes 0-7 and 16-23 of the mask are lanes 0-7 and 8-15.
        let mask = _mm256_movemask_epi8(_mm256_packs_epi16(condition, condition)) as u32;
        (mask & 0xFF) | (mask >> 8 & 0xFF00)
    }

    /// Lane-wise `a << shift`, and 0 for shifts past 15.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn shl(a: __m256i, shift: u32) -> __m256i {
        _mm256_sll_epi16(a, _mm_cvtsi32_si128(shift as i32))
    }

    /// Lane-wise `a >> shift`, and 0 for shifts past 15.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn shr(a: __m256i, shift: u32) -> __m256i {
        _mm256_srl_epi16(a, _mm_cvtsi32_si128(shift as i32))
    }

    /// Lane-wise `dead_squares`.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn dead_squares(x: __m256i, shift: u32) -> __m256i {
        let near = _mm256_or_si256(_mm256_or_si256(x, shl(x, shift)), shr(x, shift));
        let (single, empty) = (is_zero(without_lowest(x)), is_zero(x));
        _mm256_or_si256(_mm256_and_si256(near, single), empty)
    }

    /// Lane-wise `dead_squares_upto_two`.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn dead_squares_upto_two(x: __m256i, shift: u32) -> __m256i {
        let (up, down) = (shl(x, shift), shr(x, shift));
        // A queen between two squares or on either of a close pair takes both.
        let two = _mm256_or_si256(
            _mm256_and_si256(x, _mm256_or_si256(up, down)),
            _mm256_and_si256(up, down),
        );
        let rest = without_lowest(x);
        let exactly_two = _mm256_andnot_si256(is_zero(rest), is_zero(without_lowest(rest)));
        _mm256_or_si256(dead_squares(x, shift), _mm256_and_si256(two, exactly_two))
    }

    /// Bit `j` set for each lane `j` in `lanes` that is not zero.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn nonzero(a: __m256i, lanes: u32) -> u32 {
        !bits(is_zero(a)) & lanes & 0xFFFF
    }
}

impl Lanes for __m256i {
    const LANES: u32 = 16;

    fn fit(open: u32) -> Option<u32> {
        let offset = open.trailing_zeros() % 32;
        (open >> offset < 1 << 16).then_some(offset)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane_bits(_open: u32) -> Self {
        _mm256_setr_epi16(
            1,
            2,
            4,
            8,
            16,
            32,
            64,
            128,
            256,
            512,
            1024,
            2048,
            4096,
            8192,
            16384,
            i16::MIN,
        )
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lanes_of(_lane_bits: Self, squares: u32) -> u32 {
        squares & 0xFFFF
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn splat(x: u32) -> Self {
        _mm256_set1_epi16(x as u16 as i16)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        // SAFETY: a register is 16 consecutive `u16` lanes and `j & 15 < 16`, so the read
        // lies inside `*v`.
        u32::from(unsafe { *(v as *const Self).cast::<u16>().add((j & 15) as usize) })
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        _mm256_or_si256(a, b)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        _mm256_andnot_si256(b, a)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        lanes16::shl(a, shift)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        lanes16::shr(a, shift)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        let any = _mm256_or_si256(_mm256_or_si256(a, b), c);
        _mm256_xor_si256(any, _mm256_set1_epi16(-1))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        _mm256_andnot_si256(_mm256_or_si256(b, c), a)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        lanes16::dead_squares(x, shift)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        lanes16::dead_squares_upto_two(x, shift)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        lanes16::nonzero(a, lanes)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        let any = lanes16::nonzero(a, lanes);
        let two = lanes16::nonzero(lanes16::without_lowest(a), any);
        u64::from(any.count_ones() + two.count_ones())
    }
}

/// Eight lanes of 32 bits standing for eight consecutive columns, from a row's lowest
/// candidate up: for plans whose open columns span more than 16 (most plans from N = 19).
/// The lanes hold whole masks (no offset), and the columns they stand for are chosen per
/// row: a row whose candidates span more than eight columns is expanded in several
/// windows, each an entry of its own on the stack. Most rows' candidates lie close
/// together (at N = 19, 80% of expanded rows span at most 8 columns, 57% hold one), so
/// one register usually does what two (16 lanes of 32 bits) did at twice the cost.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(super) struct Window(__m256i);

/// A walk's stack on [`Window`]s: a row's candidates make at most four windows of eight of
/// its 32 columns.
const WINDOW_STACK: usize = 4 * MAX_N;

/// 32-bit lane-wise operations on one register, for [`Window`].
mod lanes32 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi32_si128, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256,
        _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_movemask_ps, _mm256_or_si256,
        _mm256_set1_epi32, _mm256_setzero_si256, _mm256_sll_epi32, _mm256_srl_epi32,
    };

    /// All-ones lanes where `a` is zero.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn is_zero(a: __m256i) -> __m256i {
        _mm256_cmpeq_epi32(a, _mm256_setzero_si256())
    }

    /// `a & (a - 1)` lane-wise: each lane without its lowest bit.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn without_lowest(a: __m256i) -> __m256i {
        _mm256_and_si256(a, _mm256_add_epi32(a, _mm256_set1_epi32(-1)))
    }

    /// One bit per lane of a vector of all-ones or zero lanes.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn bits(condition: __m256i) -> u32 {
        _mm256_movemask_ps(_mm256_castsi256_ps(condition)) as u32
    }

    /// Lane-wise `a << shift`, and 0 for shifts past 31.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn shl(a: __m256i, shift: u32) -> __m256i {
        _mm256_sll_epi32(a, _mm_cvtsi32_si128(shift as i32))
    }

    /// Lane-wise `a >> shift`, and 0 for shifts past 31.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn shr(a: __m256i, shift: u32) -> __m256i {
        _mm256_srl_epi32(a, _mm_cvtsi32_si128(shift as i32))
    }

    /// Lane-wise `dead_squares`.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn dead_squares(x: __m256i, shift: u32) -> __m256i {
        let near = _mm256_or_si256(_mm256_or_si256(x, shl(x, shift)), shr(x, shift));
        let (single, empty) = (is_zero(without_lowest(x)), is_zero(x));
        _mm256_or_si256(_mm256_and_si256(near, single), empty)
    }

    /// Lane-wise `dead_squares_upto_two`.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn dead_squares_upto_two(x: __m256i, shift: u32) -> __m256i {
        let (up, down) = (shl(x, shift), shr(x, shift));
        // A queen between two squares or on either of a close pair takes both.
        let two = _mm256_or_si256(
            _mm256_and_si256(x, _mm256_or_si256(up, down)),
            _mm256_and_si256(up, down),
        );
        let rest = without_lowest(x);
        let exactly_two = _mm256_andnot_si256(is_zero(rest), is_zero(without_lowest(rest)));
        _mm256_or_si256(dead_squares(x, shift), _mm256_and_si256(two, exactly_two))
    }

    /// Bit `j` set for each lane `j` in `lanes` that is not zero.
    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn nonzero(a: __m256i, lanes: u32) -> u32 {
        !bits(is_zero(a)) & lanes & 0xFF
    }
}

impl Lanes for Window {
    const LANES: u32 = 8;

    fn fit(_open: u32) -> Option<u32> {
        Some(0)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane_bits(_open: u32) -> Self {
        // Unused: each window gives its lanes' columns.
        Window(_mm256_setzero_si256())
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lanes_of(lane_bits: Self, squares: u32) -> u32 {
        let hit = _mm256_and_si256(lane_bits.0, _mm256_set1_epi32(squares as i32));
        !lanes32::bits(lanes32::is_zero(hit)) & 0xFF
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn window(_lane_bits: Self, todo: u32) -> (Self, u32, u32) {
        let base = todo.trailing_zeros();
        let lanes = (u64::from(todo) >> base) as u32 & 0xFF;
        let rest = (u64::from(todo) & !(0xFF << base)) as u32;
        let first_eight = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let lane_bits = _mm256_sllv_epi32(first_eight, _mm256_set1_epi32(base as i32));
        (Window(lane_bits), lanes, rest)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn splat(x: u32) -> Self {
        Window(_mm256_set1_epi32(x as i32))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        // SAFETY: a register is 8 consecutive `u32` lanes and `j & 7 < 8`, so the read
        // lies inside `*v`.
        unsafe { *(v as *const Self).cast::<u32>().add((j & 7) as usize) }
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        Window(_mm256_or_si256(a.0, b.0))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        Window(_mm256_andnot_si256(b.0, a.0))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        Window(lanes32::shl(a.0, shift))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        Window(lanes32::shr(a.0, shift))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        let any = _mm256_or_si256(_mm256_or_si256(a.0, b.0), c.0);
        Window(_mm256_xor_si256(any, _mm256_set1_epi32(-1)))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        Window(_mm256_andnot_si256(_mm256_or_si256(b.0, c.0), a.0))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        Window(lanes32::dead_squares(x.0, shift))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        Window(lanes32::dead_squares_upto_two(x.0, shift))
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        lanes32::nonzero(a.0, lanes)
    }

    #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        let any = lanes32::nonzero(a.0, lanes);
        let two = lanes32::nonzero(lanes32::without_lowest(a.0), any);
        u64::from(any.count_ones() + two.count_ones())
    }
}

/// [`lanes::count_stream`] on 16 lanes of 16 bits (AVX2).
#[inline(never)]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_stream<'a>(
    next_job: impl FnMut() -> Option<(usize, &'a RowPlan, Frame)>,
    done: impl FnMut(usize, Tally),
    halted: &dyn Fn() -> bool,
) {
    // SAFETY: this function has the features both lane types' methods are compiled for,
    // so it runs only where the CPU has them (its callers' duty).
    unsafe { lanes::count_stream::<__m256i, Window, MAX_N, WINDOW_STACK>(next_job, done, halted) }
}
