//! The vector search ([`super::lanes`]) on AVX-512: one register of 16 lanes, with mask
//! registers and three-input logic in one instruction.

use std::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_or_si512, _mm512_set1_epi32};

use super::lanes::{self, Lanes};
use crate::board::MAX_N;
use crate::methods::backtrack::row_plan::{Frame, RowPlan};
use crate::tally::Tally;

// The lane operations are `#[target_feature]` functions with the kernel's features (those
// of `count_stream` below, into which they all inline): safe among themselves, and the
// `Lanes` methods of both lane types, `unsafe` by the trait's contract, call them without
// a block. Only the loads and a lane read through a pointer stay `unsafe`.

/// Lane-wise operations on 16 lanes of 32 bits, shared by `__m512i`'s [`Lanes`] and
/// [`Window`]'s.
mod lanes32 {
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi32, _mm512_and_si512, _mm512_mask_mov_epi32,
        _mm512_mask_test_epi32_mask, _mm512_maskz_mov_epi32, _mm512_set1_epi32, _mm512_sllv_epi32,
        _mm512_srlv_epi32, _mm512_ternarylogic_epi32, _mm512_test_epi32_mask,
        _mm512_testn_epi32_mask,
    };

    /// Bit `j` set for each lane `j` of `lane_bits` that holds one of `squares`.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn lanes_of(lane_bits: __m512i, squares: u32) -> u32 {
        u32::from(_mm512_test_epi32_mask(
            lane_bits,
            _mm512_set1_epi32(squares as i32),
        ))
    }

    /// Lane `j` of `v` (`j < 16`).
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn lane(v: &__m512i, j: u32) -> u32 {
        // SAFETY: a register is 16 consecutive `u32` lanes and `j & 15 < 16`, so the read
        // lies inside `*v`.
        unsafe { *(v as *const __m512i).cast::<u32>().add((j & 15) as usize) }
    }

    /// Lane-wise `a & !b`.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn and_not(a: __m512i, b: __m512i) -> __m512i {
        _mm512_ternarylogic_epi32::<0x30>(a, b, b)
    }

    /// Lane-wise `a << shift`, and 0 for shifts past 31.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn shl(a: __m512i, shift: u32) -> __m512i {
        _mm512_sllv_epi32(a, _mm512_set1_epi32(shift as i32))
    }

    /// Lane-wise `a >> shift`, and 0 for shifts past 31.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn shr(a: __m512i, shift: u32) -> __m512i {
        _mm512_srlv_epi32(a, _mm512_set1_epi32(shift as i32))
    }

    /// Lane-wise `!(a | b | c)`.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn nor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        _mm512_ternarylogic_epi32::<0x01>(a, b, c)
    }

    /// Lane-wise `a & !b & !c`.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn and_not2(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        // a & !b & !c (truth table 0xF0 & !0xCC & !0xAA)
        _mm512_ternarylogic_epi32::<0x10>(a, b, c)
    }

    /// Lane-wise `dead_squares`.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn dead_squares(x: __m512i, shift: u32) -> __m512i {
        let near = _mm512_ternarylogic_epi32::<0xFE>(x, shl(x, shift), shr(x, shift));
        let minus_one = _mm512_set1_epi32(-1);
        let single = _mm512_testn_epi32_mask(x, _mm512_add_epi32(x, minus_one));
        let empty = _mm512_testn_epi32_mask(x, x);
        _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(single, near), empty, minus_one)
    }

    /// Lane-wise `dead_squares_upto_two`.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn dead_squares_upto_two(x: __m512i, shift: u32) -> __m512i {
        let (up, down) = (shl(x, shift), shr(x, shift));
        // Majority of the three: a queen between two squares or on either of a close pair.
        let two = _mm512_ternarylogic_epi32::<0xE8>(x, up, down);
        let minus_one = _mm512_set1_epi32(-1);
        let rest = _mm512_and_si512(x, _mm512_add_epi32(x, minus_one));
        let exactly_two = _mm512_test_epi32_mask(rest, rest)
            & _mm512_testn_epi32_mask(rest, _mm512_add_epi32(rest, minus_one));
        _mm512_mask_mov_epi32(dead_squares(x, shift), exactly_two, two)
    }

    /// Bit `j` set for each lane `j` in `lanes` that is not zero.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn nonzero(a: __m512i, lanes: u32) -> u32 {
        u32::from(_mm512_mask_test_epi32_mask(lanes as u16, a, a))
    }

    /// Over the lanes in `lanes`: those with one bit or more, plus those with two or more.
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    pub fn ones_and_twos(a: __m512i, lanes: u32) -> u64 {
        let any = _mm512_mask_test_epi32_mask(lanes as u16, a, a);
        let rest = _mm512_and_si512(a, _mm512_add_epi32(a, _mm512_set1_epi32(-1)));
        let two = _mm512_mask_test_epi32_mask(any, rest, rest);
        u64::from(any.count_ones() + two.count_ones())
    }
}

/// Lanes of whole 32-bit masks: lane `j` stands for the `j`-th open column of the plan,
/// however spread out the open columns are.
impl Lanes for __m512i {
    const LANES: u32 = 16;

    fn fit(open: u32) -> Option<u32> {
        (open.count_ones() <= Self::LANES).then_some(0)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane_bits(mut open: u32) -> Self {
        let mut bits = [0u32; 16];
        for bit in &mut bits {
            *bit = open & open.wrapping_neg();
            open &= open.wrapping_sub(1);
        }
        // SAFETY: the load reads the 64 bytes of `bits`.
        unsafe { _mm512_loadu_si512(bits.as_ptr().cast()) }
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lanes_of(lane_bits: Self, squares: u32) -> u32 {
        lanes32::lanes_of(lane_bits, squares)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn splat(x: u32) -> Self {
        _mm512_set1_epi32(x as i32)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        lanes32::lane(v, j)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        _mm512_or_si512(a, b)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        lanes32::and_not(a, b)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        lanes32::shl(a, shift)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        lanes32::shr(a, shift)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        lanes32::nor3(a, b, c)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        lanes32::and_not2(a, b, c)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        lanes32::dead_squares(x, shift)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        lanes32::dead_squares_upto_two(x, shift)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        lanes32::nonzero(a, lanes)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        lanes32::ones_and_twos(a, lanes)
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

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane_bits(_open: u32) -> Self {
        // Unused: each window gives its lanes' columns.
        Window(_mm512_set1_epi32(0))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lanes_of(lane_bits: Self, squares: u32) -> u32 {
        lanes32::lanes_of(lane_bits.0, squares)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn window(_lane_bits: Self, todo: u32) -> (Self, u32, u32) {
        let base = todo.trailing_zeros();
        let lanes = (u64::from(todo) >> base) as u32 & 0xFFFF;
        let rest = (u64::from(todo) & !(0xFFFF << base)) as u32;
        // SAFETY: the load reads the 64 bytes of `FIRST_SIXTEEN`.
        let first = unsafe { _mm512_loadu_si512(FIRST_SIXTEEN.as_ptr().cast()) };
        (Window(lanes32::shl(first, base)), lanes, rest)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn splat(x: u32) -> Self {
        Window(_mm512_set1_epi32(x as i32))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn lane(v: &Self, j: u32) -> u32 {
        lanes32::lane(&v.0, j)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        Window(_mm512_or_si512(a.0, b.0))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not(a: Self, b: Self) -> Self {
        Window(lanes32::and_not(a.0, b.0))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shl(a: Self, shift: u32) -> Self {
        Window(lanes32::shl(a.0, shift))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn shr(a: Self, shift: u32) -> Self {
        Window(lanes32::shr(a.0, shift))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self {
        Window(lanes32::nor3(a.0, b.0, c.0))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self {
        Window(lanes32::and_not2(a.0, b.0, c.0))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares(x: Self, shift: u32) -> Self {
        Window(lanes32::dead_squares(x.0, shift))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self {
        Window(lanes32::dead_squares_upto_two(x.0, shift))
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn nonzero(a: Self, lanes: u32) -> u32 {
        lanes32::nonzero(a.0, lanes)
    }

    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    #[inline]
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64 {
        lanes32::ones_and_twos(a.0, lanes)
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
    // SAFETY: this function has the features both lane types' methods are compiled for,
    // so it runs only where the CPU has them (its callers' duty).
    unsafe { lanes::count_stream::<__m512i, Window, MAX_N, WINDOW_STACK>(next_job, done, halted) }
}
