//! The explicit construction: a solution for any N >= 4 in O(N), with no search.

use super::answer::{Board, FindError, checked, solvable};

/// The explicit construction (Hoffman, Loessi and Moore 1969; in the form given by
/// Bernhardsson 1991): for each N >= 4, queens in column order at the even rows then the
/// odd rows (1-based), with a fixed rearrangement when N mod 6 is 2 or 3. O(N).
pub fn explicit(n: usize) -> Result<Board, FindError> {
    solvable(n)?;
    assert!(u32::try_from(n).is_ok(), "boards up to 2^32 - 1");
    let evens = (2..=n).step_by(2);
    let odds = (1..=n).step_by(2);
    // 1-based rows, one per column from left to right, as a stream (no list is kept).
    let rows: Box<dyn Iterator<Item = usize>> = match n % 6 {
        // Odd list: swap 1 and 3, move 5 to the end (n >= 8 here).
        2 => Box::new(evens.chain([3, 1]).chain(odds.skip(3)).chain([5])),
        // Even list: move 2 to the end. Odd list: move 1 and 3 to the end.
        3 => Box::new(evens.skip(1).chain([2]).chain(odds.skip(2)).chain([1, 3])),
        _ => Box::new(evens.chain(odds)),
    };
    // Column c holds the queen of row rows[c]; as `cols[row]` that is the inverse.
    let mut cols = vec![0u32; n];
    for (col, row) in rows.enumerate() {
        cols[row - 1] = col as u32;
    }
    checked(cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_construction_holds_from_4_to_2000() {
        for n in (4..=2000).chain([1]) {
            let cols = explicit(n).unwrap_or_else(|e| panic!("N = {n}: {e}"));
            assert_eq!(cols.len(), n);
            // A permutation, checked again here by the naive rule.
            if n <= 60 {
                for (r1, &c1) in cols.iter().enumerate() {
                    for (r2, &c2) in cols.iter().enumerate().skip(r1 + 1) {
                        assert!(c1 != c2 && c1.abs_diff(c2) as usize != r2 - r1, "N = {n}");
                    }
                }
            }
        }
        for n in [0, 2, 3] {
            assert_eq!(explicit(n), Err(FindError::NoSolution(n)));
        }
    }
}
