//! Rung 3: generate and filter, one column at a time (SICP exercise 2.42): the list of all
//! safe placements of k queens is built in full before any is extended to k + 1.

use super::rung_count::RungCount;

pub fn count(n: usize) -> RungCount {
    let mut boards: Vec<Vec<usize>> = vec![Vec::new()];
    let mut steps = 0u128;
    for _ in 0..n {
        let mut extended = Vec::new();
        for board in &boards {
            for row in 0..n {
                let mut candidate = board.clone();
                candidate.push(row);
                steps += 1;
                if safe(&candidate) {
                    extended.push(candidate);
                }
            }
        }
        boards = extended;
    }
    RungCount {
        solutions: boards.len() as u128,
        steps,
    }
}

/// The newest queen (last column) attacks none of the earlier ones.
fn safe(board: &[usize]) -> bool {
    let k = board.len() - 1;
    let row = board[k];
    board[..k]
        .iter()
        .enumerate()
        .all(|(col, &r)| r != row && r.abs_diff(row) != k - col)
}
