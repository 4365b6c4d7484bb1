//! The scalar search: one queen at a time, iterative with an explicit stack. Built twice,
//! portable and for AVX2/BMI2/POPCNT; it also takes the plans the vector kernels cannot.

use crate::board::MAX_N;
use crate::cpu::Kernel;
use crate::methods::backtrack::row_plan::{Frame, RowPlan, first_row, small_count};
use crate::tally::Tally;

/// How many times the search backs up a row between two looks at `halted`: a few
/// microseconds of work, so a stop is seen at once and the look costs nothing.
const POLL_EVERY: u32 = 1 << 14;

/// Counts every completion of `start` on `plan` with the scalar search compiled for
/// `kernel`'s level (the vector kernels need streams: one job runs the AVX2 scalar build).
pub fn count_with(kernel: Kernel, plan: &RowPlan, start: &Frame) -> Tally {
    count_until(kernel, plan, start, &|| false).expect("never halted")
}

/// [`count_with`], abandoned (`None`) as soon as `halted` says so: it is asked every
/// 16,384 rows backed up, so even a search of hours stops within microseconds.
pub fn count_until(
    kernel: Kernel,
    plan: &RowPlan,
    start: &Frame,
    halted: &dyn Fn() -> bool,
) -> Option<Tally> {
    #[cfg(not(target_arch = "x86_64"))]
    let _ = kernel;
    match first_row(plan, start) {
        #[cfg(target_arch = "x86_64")]
        Some(first) if kernel.has_avx2() => {
            // SAFETY: the kernel token proves the CPU has the AVX2 level's features.
            unsafe { search_scalar_avx2(plan, start, first, halted) }
        }
        Some(first) => search_scalar(plan, start, first, halted),
        None => Some(small_count(plan, start)),
    }
}
/// Counts every completion of `start` on `plan` with the portable kernel alone.
pub fn count_scalar(plan: &RowPlan, start: &Frame) -> Tally {
    count_with(Kernel::portable(), plan, start)
}

/// The portable search, iterative with an explicit stack, from a start with at least three
/// free rows left whose accepted squares are `first`.
///
/// Each row's accepted squares are found at once (see `dead_squares`), so every square the
/// loop tries is a node. The last two rows are not entered: once one free row is left,
/// exactly one column is free, so each accepted queen on the second-to-last row completes
/// exactly one solution, and they are counted with a popcount.
#[inline(never)]
fn search_scalar(
    plan: &RowPlan,
    start: &Frame,
    first: u32,
    halted: &dyn Fn() -> bool,
) -> Option<Tally> {
    search_body(plan, start, first, halted)
}

/// [`search_scalar`] compiled for AVX2, BMI1/2, POPCNT and LZCNT.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn search_scalar_avx2(
    plan: &RowPlan,
    start: &Frame,
    first: u32,
    halted: &dyn Fn() -> bool,
) -> Option<Tally> {
    search_body(plan, start, first, halted)
}

/// The body of the scalar search, inlined into each build of it.
#[inline(always)]
fn search_body(
    plan: &RowPlan,
    start: &Frame,
    first: u32,
    halted: &dyn Fn() -> bool,
) -> Option<Tally> {
    const M: usize = MAX_N - 1;
    let last = plan.len - 1;
    let base = start.depth;

    // The current row's state lives in locals; the stack holds the rows above it. The
    // `& M` keeps indices provably in range, so no bounds checks are emitted.
    let mut stack = [(0u32, 0u32, 0u32, 0u32); MAX_N];
    let mut d = base;
    let (mut todo, mut cols, mut ld, mut rd) = (first, start.cols, start.ld, start.rd);
    let mut solutions = 0u64;
    let mut nodes = 0u64;
    let mut until_poll = POLL_EVERY;

    loop {
        while todo != 0 {
            let bit = todo & todo.wrapping_neg();
            todo ^= bit;
            nodes += 1;
            let level = &plan.levels[(d + 1) & M];
            let c = cols | bit;
            let l = (ld | bit) << level.shift;
            let r = (rd | bit) >> level.shift;
            if d + 2 == last {
                let found = u64::from(level.accepted_second_to_last(c, l, r).count_ones());
                solutions += found;
                nodes += 2 * found;
                continue;
            }
            let next = level.accepted_early(c, l, r);
            if next == 0 {
                continue;
            }
            stack[d & M] = (todo, cols, ld, rd);
            d += 1;
            (todo, cols, ld, rd) = (next, c, l, r);
        }
        if d == base {
            break;
        }
        d -= 1;
        (todo, cols, ld, rd) = stack[d & M];
        until_poll -= 1;
        if until_poll == 0 {
            if halted() {
                return None;
            }
            until_poll = POLL_EVERY;
        }
    }
    Some(Tally { solutions, nodes })
}
