//! Rung 1: all N^N boards with one queen per column, stepped through like an odometer.

use super::rung_count::{RungCount, diagonals_free};

pub fn count(n: usize) -> RungCount {
    // `cols[row]`: each row's queen column; the odometer turns the last row fastest.
    let mut cols = vec![0usize; n];
    let (mut solutions, mut steps) = (0u128, 0u128);
    loop {
        steps += 1;
        if columns_distinct(&cols) && diagonals_free(&cols) {
            solutions += 1;
        }
        // Advance the odometer; stop after it wraps all the way round.
        let mut digit = n;
        loop {
            if digit == 0 {
                return RungCount { solutions, steps };
            }
            digit -= 1;
            cols[digit] += 1;
            if cols[digit] < n {
                break;
            }
            cols[digit] = 0;
        }
    }
}

fn columns_distinct(cols: &[usize]) -> bool {
    let mut seen = 0u64;
    cols.iter().all(|&c| {
        let fresh = seen & 1 << c == 0;
        seen |= 1 << c;
        fresh
    })
}
