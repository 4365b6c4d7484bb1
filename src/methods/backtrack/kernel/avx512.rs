//! The vector search ([`super::lanes`]) on AVX-512: one register of 16 lanes, with mask
//! registers and three-input logic in one instruction.

// Each method is an `unsafe fn` made of intrinsics alone, under the `Lanes` contract
// (called only where the CPU has these features): blocks around each call add nothing.
#![allow(unsafe_op_in_unsafe_fn)]

use std::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_loadu_si512, _mm512_mask_mov_epi32,
    _mm512_mask_test_epi32_mask, _mm512_maskz_mov_epi32, _mm512_or_si512, _mm512_set1_epi32,
    _mm512_sllv_epi32, _mm512_srlv_epi32, _mm512_ternarylogic_epi32, _mm512_test_epi32_mask,
    _mm512_testn_epi32_mask,
};

use super::lanes::{self, Lanes};
use crate::board::MAX_N;
use crate::methods::backtrack::row_plan::{Frame, RowPlan};
use crate::tally::Tally;

/// Lanes of whole 32-bit masks: lane `j` stands for the `j`-th open column of the plan,
/// however spread out the open columns are.
impl Lanes for __m512i {
    const LANES: u32 = 16;

    fn fit(open: u32) -> Option<u32> {
        (open.count_ones() <= Self::LANES).then_some(0)
    }

    #[inline(always)]
    unsafe fn lane_bits(mut open: u32) -> Self {
        let mut bits = [0u32; 16];
        for bit in &mut bits {
            *bit = open & open.wrapping_neg();
            open &= open.wrapping_sub(1);
        }
        _mm512_loadu_si512(bits.as_ptr().cast())
    }

    #[inline(always)]
    unsafe fn lanes_of(lane_bits: Self, squares: u32) -> u32 {
        u32::from(_mm512_test_epi32_mask(
            lane_bits,
            _mm512_set1_epi32(squares as i32),
        ))
    }

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        _mm512_set1_epi32(x as i32)
    }

    #[inline(always)]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        // SAFETY: a register is 16 consecutive `u32` lanes and `j < 16`.
        *(v as *const Self).cast::<u32>().add((j & 15) as usize)
    }

    #[inline(always)]
    unsafe fn or(a: Self, b: Self) -> Self {
        _mm512_or_si512(a, b)
    }

    #[inline(always)]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        _mm512_ternarylogic_epi32::<0x30>(a, b, b)
    }

    #[inline(always)]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        _mm512_sllv_epi32(a, Self::splat(shift))
    }

    #[inline(always)]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        _mm512_srlv_epi32(a, Self::splat(shift))
    }

    #[inline(always)]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        _mm512_ternarylogic_epi32::<0x01>(a, b, c)
    }

    #[inline(always)]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        // a & !b & !c (truth table 0xF0 & !0xCC & !0xAA)
        _mm512_ternarylogic_epi32::<0x10>(a, b, c)
    }

    #[inline(always)]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        let near = _mm512_ternarylogic_epi32::<0xFE>(x, Self::shl(x, shift), Self::shr(x, shift));
        let minus_one = _mm512_set1_epi32(-1);
        let single = _mm512_testn_epi32_mask(x, _mm512_add_epi32(x, minus_one));
        let empty = _mm512_testn_epi32_mask(x, x);
        _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(single, near), empty, minus_one)
    }

    #[inline(always)]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        let (up, down) = (Self::shl(x, shift), Self::shr(x, shift));
        // Majority of the three: a queen between two squares or on either of a close pair.
        let two = _mm512_ternarylogic_epi32::<0xE8>(x, up, down);
        let minus_one = _mm512_set1_epi32(-1);
        let rest = _mm512_and_si512(x, _mm512_add_epi32(x, minus_one));
        let exactly_two = _mm512_test_epi32_mask(rest, rest)
            & _mm512_testn_epi32_mask(rest, _mm512_add_epi32(rest, minus_one));
        _mm512_mask_mov_epi32(Self::dead_squares(x, shift), exactly_two, two)
    }

    #[inline(always)]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        u32::from(_mm512_mask_test_epi32_mask(lanes as u16, a, a))
    }

    #[inline(always)]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        let any = _mm512_mask_test_epi32_mask(lanes as u16, a, a);
        let rest = _mm512_and_si512(a, _mm512_add_epi32(a, _mm512_set1_epi32(-1)));
        let two = _mm512_mask_test_epi32_mask(any, rest, rest);
        u64::from(any.count_ones() + two.count_ones())
    }
}

/// Sixteen lanes standing for sixteen consecutive columns, from a row's lowest candidate
/// up: for plans with more than 16 open columns (most plans from N = 21). The columns are
/// chosen per row, as for AVX2's eight-lane windows: a row whose candidates span more than
/// 16 columns is expanded in two windows, each an entry of its own on the stack, and the
/// others (at N = 19, 99.4% of expanded rows span at most 16 columns) in one register,
/// where two registers of 32 lanes in all took every row before (count 21 by backtracking, shard 9/2000: 9.3 s ->
/// 7.0 s).
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(super) struct Window(__m512i);

/// A walk's stack on [`Window`]s: a row's candidates make at most two windows of 16 of
/// its 32 columns.
const WINDOW_STACK: usize = 2 * MAX_N;

/// Lane `j` holds bit `j`: the columns of a window starting at column 0.
static FIRST_SIXTEEN: [u32; 16] = {
    let mut bits = [0; 16];
    let mut j = 0;
    while j < 16 {
        bits[j] = 1 << j;
        j += 1;
    }
    bits
};

impl Lanes for Window {
    const LANES: u32 = 16;

    fn fit(_open: u32) -> Option<u32> {
        Some(0)
    }

    #[inline(always)]
    unsafe fn lane_bits(_open: u32) -> Self {
        // Unused: each window gives its lanes' columns.
        Window(__m512i::splat(0))
    }

    #[inline(always)]
    unsafe fn lanes_of(lane_bits: Self, squares: u32) -> u32 {
        __m512i::lanes_of(lane_bits.0, squares)
    }

    #[inline(always)]
    unsafe fn window(_lane_bits: Self, todo: u32) -> (Self, u32, u32) {
        let base = todo.trailing_zeros();
        let lanes = (u64::from(todo) >> base) as u32 & 0xFFFF;
        let rest = (u64::from(todo) & !(0xFFFF << base)) as u32;
        let first = _mm512_loadu_si512(FIRST_SIXTEEN.as_ptr().cast());
        (Window(__m512i::shl(first, base)), lanes, rest)
    }

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        Window(__m512i::splat(x))
    }

    #[inline(always)]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        __m512i::lane(&v.0, j)
    }

    #[inline(always)]
    unsafe fn or(a: Self, b: Self) -> Self {
        Window(__m512i::or(a.0, b.0))
    }

    #[inline(always)]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        Window(__m512i::and_not(a.0, b.0))
    }

    #[inline(always)]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        Window(__m512i::shl(a.0, shift))
    }

    #[inline(always)]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        Window(__m512i::shr(a.0, shift))
    }

    #[inline(always)]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        Window(__m512i::nor3(a.0, b.0, c.0))
    }

    #[inline(always)]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        Window(__m512i::and_not2(a.0, b.0, c.0))
    }

    #[inline(always)]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        Window(__m512i::dead_squares(x.0, shift))
    }

    #[inline(always)]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        Window(__m512i::dead_squares_upto_two(x.0, shift))
    }

    #[inline(always)]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        __m512i::nonzero(a.0, lanes)
    }

    #[inline(always)]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        __m512i::ones_and_twos(a.0, lanes)
    }
}

/// [`lanes::count_stream`] on 16 lanes of AVX-512 (F and BW), and 32 for wider plans.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_stream<'a>(
    next_job: impl FnMut() -> Option<(usize, &'a RowPlan, Frame)>,
    done: impl FnMut(usize, Tally),
    halted: &dyn Fn() -> bool,
) {
    // SAFETY: compiled with the features `__m512i`'s lanes use; the caller checked the CPU.
    unsafe { lanes::count_stream::<__m512i, Window, MAX_N, WINDOW_STACK>(next_job, done, halted) }
}
