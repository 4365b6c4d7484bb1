//! The naive oracle every count is held to: plain backtracking over whole rows with no
//! masks, no symmetry and no splitting, written to be obviously right rather than fast.
//! The unit tests and the integration tests (`tests/common`) share it.

/// Every solution of the `n` x `n` board as `cols[row]`, in lexicographic order.
pub fn all_solutions(n: usize) -> Vec<Vec<usize>> {
    fn extend(n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        let row = cols.len();
        if row == n {
            out.push(cols.clone());
            return;
        }
        for col in 0..n {
            let safe = cols
                .iter()
                .enumerate()
                .all(|(r, &c)| c != col && c.abs_diff(col) != row - r);
            if safe {
                cols.push(col);
                extend(n, cols, out);
                cols.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(n, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_boards_have_their_published_totals() {
        let totals: Vec<usize> = (1..=8).map(|n| all_solutions(n).len()).collect();
        assert_eq!(totals, [1, 0, 0, 2, 10, 4, 40, 92]);
        assert_eq!(all_solutions(4), [vec![1, 3, 0, 2], vec![2, 0, 3, 1]]);
    }
}
