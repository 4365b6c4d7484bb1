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
    _mm256_set1_epi16, _mm256_setr_epi16, _mm256_setzero_si256, _mm256_sll_epi16, _mm256_srl_epi16,
    _mm256_xor_si256,
};

use super::lanes::{self, Lanes};
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

/// [`lanes::count_stream`] on 16 lanes of 16 bits (AVX2).
#[inline(never)]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_stream<'a>(
    next_job: impl FnMut() -> Option<(usize, &'a RowPlan, Frame)>,
    done: impl FnMut(usize, Tally),
    halted: &dyn Fn() -> bool,
) {
    // SAFETY: compiled with the features `__m256i`'s lanes use; the caller checked the CPU.
    // No wider layout pays on AVX2 (two registers of 32-bit lanes ran no faster than the
    // scalar search): plans spanning more than 16 columns go to the scalar search.
    unsafe { lanes::count_stream::<__m256i, __m256i>(next_job, done, halted) }
}
