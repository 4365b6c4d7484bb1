//! Rung 4: recursive backtracking over an array of queen positions; each new queen is
//! checked against every earlier one.

use super::rung_count::RungCount;

pub fn count(n: usize) -> RungCount {
    let mut cols = Vec::with_capacity(n);
    let mut tally = RungCount {
        solutions: 0,
        steps: 0,
    };
    place(n, &mut cols, &mut tally);
    tally
}

fn place(n: usize, cols: &mut Vec<usize>, tally: &mut RungCount) {
    let row = cols.len();
    if row == n {
        tally.solutions += 1;
        return;
    }
    for col in 0..n {
        let safe = cols
            .iter()
            .enumerate()
            .all(|(r, &c)| c != col && c.abs_diff(col) != row - r);
        if safe {
            tally.steps += 1;
            cols.push(col);
            place(n, cols, tally);
            cols.pop();
        }
    }
}
