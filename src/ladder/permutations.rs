//! Rung 2: every permutation of the columns (Heap's algorithm), diagonals checked.

use super::rung_count::{RungCount, diagonals_free};

pub fn count(n: usize) -> RungCount {
    let mut cols: Vec<usize> = (0..n).collect();
    let mut counters = vec![0usize; n];
    let (mut solutions, mut steps) = (0u128, 1u128);
    if diagonals_free(&cols) {
        solutions += 1;
    }
    // Heap's algorithm: each swap yields the next permutation.
    let mut i = 1;
    while i < n {
        if counters[i] < i {
            let j = if i % 2 == 0 { 0 } else { counters[i] };
            cols.swap(j, i);
            steps += 1;
            if diagonals_free(&cols) {
                solutions += 1;
            }
            counters[i] += 1;
            i = 1;
        } else {
            counters[i] = 0;
            i += 1;
        }
    }
    RungCount { solutions, steps }
}
