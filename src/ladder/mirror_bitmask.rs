//! Rung 5: bitmask backtracking with mirror halving, the classic fast counter (and the
//! team's baseline): the first queen in the left half only, doubled, plus the middle
//! column for odd N with the second queen in the left half.

use super::rung_count::RungCount;

pub fn count(n: usize) -> RungCount {
    let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    let mut steps = 0u128;
    let mut search = |first: u32, second_mask: u32| -> u128 {
        let mut solutions = 0u128;
        place(
            all,
            first,
            first << 1,
            first >> 1,
            1,
            n,
            second_mask,
            &mut solutions,
            &mut steps,
        );
        solutions
    };
    if n == 1 {
        return RungCount {
            solutions: 1,
            steps: 1,
        };
    }
    let half = n / 2;
    let mut total = 0u128;
    for c in 0..half {
        total += 2 * search(1 << c, all);
    }
    if n % 2 == 1 {
        // Middle column first: mirror the second row's queen instead.
        let left_half = (1u32 << half) - 1;
        total += 2 * search(1 << half, left_half);
    }
    steps += if n % 2 == 1 {
        half as u128 + 1
    } else {
        half as u128
    };
    RungCount {
        solutions: total,
        steps,
    }
}

#[allow(clippy::too_many_arguments)]
fn place(
    all: u32,
    cols: u32,
    ld: u32,
    rd: u32,
    row: usize,
    n: usize,
    row_mask: u32,
    solutions: &mut u128,
    steps: &mut u128,
) {
    if row == n {
        *solutions += 1;
        return;
    }
    let mut free = all & row_mask & !(cols | ld | rd);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        *steps += 1;
        place(
            all,
            cols | bit,
            (ld | bit) << 1,
            (rd | bit) >> 1,
            row + 1,
            n,
            all,
            solutions,
            steps,
        );
    }
}
