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

// Each method is an `unsafe fn` made of intrinsics alone, under the `Lanes` contract
// (called only where the CPU has these features): blocks around each call add nothing.
#![allow(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_add_epi16, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_cmpeq_epi16, _mm256_movemask_epi8, _mm256_or_si256, _mm256_packs_epi16,
    _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi16, _mm256_setr_epi32,
    _mm256_setzero_si256, _mm256_sll_epi16, _mm256_sllv_epi32, _mm256_srl_epi16, _mm256_xor_si256,
};

use super::lanes::{self, Lanes};
use crate::board::MAX_N;
use crate::methods::backtrack::row_plan::{Frame, RowPlan};
use crate::tally::Tally;

/// All-ones lanes where `a` is zero.
#[inline(always)]
unsafe fn is_zero(a: __m256i) -> __m256i {
    _mm256_cmpeq_epi16(a, _mm256_setzero_si256())
}

/// `a & (a - 1)` lane-wise: each lane without its lowest bit.
#[inline(always)]
unsafe fn without_lowest(a: __m256i) -> __m256i {
    _mm256_and_si256(a, _mm256_add_epi16(a, _mm256_set1_epi16(-1)))
}

/// One bit per lane of a vector of all-ones or zero lanes.
#[inline(always)]
unsafe fn bits(condition: __m256i) -> u32 {
    // Packing to bytes keeps the lanes in order within each 128-bit half, twice over:
    // bytes 0-7 and 16-23 of the mask are lanes 0-7 and 8-15.
    let mask = _mm256_movemask_epi8(_mm256_packs_epi16(condition, condition)) as u32;
    (mask & 0xFF) | (mask >> 8 & 0xFF00)
}

impl Lanes for __m256i {
    const LANES: u32 = 16;

    fn fit(open: u32) -> Option<u32> {
        let offset = open.trailing_zeros() % 32;
        (open >> offset < 1 << 16).then_some(offset)
    }

    #[inline(always)]
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

    #[inline(always)]
    unsafe fn lanes_of(_lane_bits: Self, squares: u32) -> u32 {
        squares & 0xFFFF
    }

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        _mm256_set1_epi16(x as u16 as i16)
    }

    #[inline(always)]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        // SAFETY: a register is 16 consecutive `u16` lanes and `j < 16`.
        u32::from(*(v as *const Self).cast::<u16>().add((j & 15) as usize))
    }

    #[inline(always)]
    unsafe fn or(a: Self, b: Self) -> Self {
        _mm256_or_si256(a, b)
    }

    #[inline(always)]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        _mm256_andnot_si256(b, a)
    }

    #[inline(always)]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        _mm256_sll_epi16(a, _mm_cvtsi32_si128(shift as i32))
    }

    #[inline(always)]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        _mm256_srl_epi16(a, _mm_cvtsi32_si128(shift as i32))
    }

    #[inline(always)]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        let any = _mm256_or_si256(_mm256_or_si256(a, b), c);
        _mm256_xor_si256(any, _mm256_set1_epi16(-1))
    }

    #[inline(always)]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        _mm256_andnot_si256(_mm256_or_si256(b, c), a)
    }

    #[inline(always)]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        let near = _mm256_or_si256(_mm256_or_si256(x, Self::shl(x, shift)), Self::shr(x, shift));
        let (single, empty) = (is_zero(without_lowest(x)), is_zero(x));
        _mm256_or_si256(_mm256_and_si256(near, single), empty)
    }

    #[inline(always)]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        let (up, down) = (Self::shl(x, shift), Self::shr(x, shift));
        // A queen between two squares or on either of a close pair takes both.
        let two = _mm256_or_si256(
            _mm256_and_si256(x, _mm256_or_si256(up, down)),
            _mm256_and_si256(up, down),
        );
        let rest = without_lowest(x);
        let exactly_two = _mm256_andnot_si256(is_zero(rest), is_zero(without_lowest(rest)));
        _mm256_or_si256(
            Self::dead_squares(x, shift),
            _mm256_and_si256(two, exactly_two),
        )
    }

    #[inline(always)]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        !bits(is_zero(a)) & lanes & 0xFFFF
    }

    #[inline(always)]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        let any = Self::nonzero(a, lanes);
        let two = Self::nonzero(without_lowest(a), any);
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
    #![allow(unsafe_op_in_unsafe_fn)]
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi32_si128, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256,
        _mm256_castsi256_ps, _mm256_cmpeq_epi32, _mm256_movemask_ps, _mm256_or_si256,
        _mm256_set1_epi32, _mm256_setzero_si256, _mm256_sll_epi32, _mm256_srl_epi32,
    };

    #[inline(always)]
    pub unsafe fn is_zero(a: __m256i) -> __m256i {
        _mm256_cmpeq_epi32(a, _mm256_setzero_si256())
    }

    #[inline(always)]
    pub unsafe fn without_lowest(a: __m256i) -> __m256i {
        _mm256_and_si256(a, _mm256_add_epi32(a, _mm256_set1_epi32(-1)))
    }

    /// One bit per lane of a vector of all-ones or zero lanes.
    #[inline(always)]
    pub unsafe fn bits(condition: __m256i) -> u32 {
        _mm256_movemask_ps(_mm256_castsi256_ps(condition)) as u32
    }

    #[inline(always)]
    pub unsafe fn shl(a: __m256i, shift: u32) -> __m256i {
        _mm256_sll_epi32(a, _mm_cvtsi32_si128(shift as i32))
    }

    #[inline(always)]
    pub unsafe fn shr(a: __m256i, shift: u32) -> __m256i {
        _mm256_srl_epi32(a, _mm_cvtsi32_si128(shift as i32))
    }

    #[inline(always)]
    pub unsafe fn dead_squares(x: __m256i, shift: u32) -> __m256i {
        let near = _mm256_or_si256(_mm256_or_si256(x, shl(x, shift)), shr(x, shift));
        let (single, empty) = (is_zero(without_lowest(x)), is_zero(x));
        _mm256_or_si256(_mm256_and_si256(near, single), empty)
    }

    #[inline(always)]
    pub unsafe fn dead_squares_upto_two(x: __m256i, shift: u32) -> __m256i {
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
}

impl Lanes for Window {
    const LANES: u32 = 8;

    fn fit(_open: u32) -> Option<u32> {
        Some(0)
    }

    #[inline(always)]
    unsafe fn lane_bits(_open: u32) -> Self {
        // Unused: each window gives its lanes' columns.
        Window(_mm256_setzero_si256())
    }

    #[inline(always)]
    unsafe fn lanes_of(lane_bits: Self, squares: u32) -> u32 {
        let hit = _mm256_and_si256(lane_bits.0, _mm256_set1_epi32(squares as i32));
        !lanes32::bits(lanes32::is_zero(hit)) & 0xFF
    }

    #[inline(always)]
    unsafe fn window(_lane_bits: Self, todo: u32) -> (Self, u32, u32) {
        let base = todo.trailing_zeros();
        let lanes = (u64::from(todo) >> base) as u32 & 0xFF;
        let rest = (u64::from(todo) & !(0xFF << base)) as u32;
        let first_eight = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let lane_bits = _mm256_sllv_epi32(first_eight, _mm256_set1_epi32(base as i32));
        (Window(lane_bits), lanes, rest)
    }

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        Window(_mm256_set1_epi32(x as i32))
    }

    #[inline(always)]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        // SAFETY: a register is 8 consecutive `u32` lanes and `j < 8`.
        *(v as *const Self).cast::<u32>().add((j & 7) as usize)
    }

    #[inline(always)]
    unsafe fn or(a: Self, b: Self) -> Self {
        Window(_mm256_or_si256(a.0, b.0))
    }

    #[inline(always)]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        Window(_mm256_andnot_si256(b.0, a.0))
    }

    #[inline(always)]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        Window(lanes32::shl(a.0, shift))
    }

    #[inline(always)]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        Window(lanes32::shr(a.0, shift))
    }

    #[inline(always)]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        let any = _mm256_or_si256(_mm256_or_si256(a.0, b.0), c.0);
        Window(_mm256_xor_si256(any, _mm256_set1_epi32(-1)))
    }

    #[inline(always)]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        Window(_mm256_andnot_si256(_mm256_or_si256(b.0, c.0), a.0))
    }

    #[inline(always)]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        Window(lanes32::dead_squares(x.0, shift))
    }

    #[inline(always)]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        Window(lanes32::dead_squares_upto_two(x.0, shift))
    }

    #[inline(always)]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        !lanes32::bits(lanes32::is_zero(a.0)) & lanes & 0xFF
    }

    #[inline(always)]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        let any = Self::nonzero(a, lanes);
        let two = Self::nonzero(Window(lanes32::without_lowest(a.0)), any);
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
    // SAFETY: compiled with the features both lane types use; the caller checked the CPU.
    unsafe { lanes::count_stream::<__m256i, Window, MAX_N, WINDOW_STACK>(next_job, done, halted) }
}
