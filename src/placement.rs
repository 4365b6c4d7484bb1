//! Checking a placement: is it a solution, and if not, what is wrong with it first.
//!
//! Runs in O(N) time and memory (one pass with column and diagonal tables), so it checks
//! boards of ten million squares a side.

use std::fmt;

/// Why a placement is not a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No queens at all.
    Empty,
    /// A column outside `0..n`.
    ColumnOutOfRange {
        /// The row (0-based).
        row: usize,
        /// Its queen's column.
        col: usize,
        /// The board side.
        n: usize,
    },
    /// The placement has another length than the board side it was said to have.
    WrongLength {
        /// The board side given.
        expected: usize,
        /// Queens found.
        found: usize,
    },
    /// Two queens attack each other.
    Attack {
        /// The earlier queen, as (row, col).
        first: (usize, usize),
        /// The later queen, as (row, col).
        second: (usize, usize),
        /// The line they share.
        line: Line,
    },
}

/// The line along which two queens attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// The same column.
    Column,
    /// The same diagonal running down to the right (row - col constant).
    Diagonal,
    /// The same diagonal running down to the left (row + col constant).
    AntiDiagonal,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Empty => write!(f, "no queens"),
            Fault::ColumnOutOfRange { row, col, n } => {
                write!(
                    f,
                    "row {row}: column {col} is off the board (columns are 0 to {})",
                    n - 1
                )
            }
            Fault::WrongLength { expected, found } => {
                write!(f, "{found} queens for a board of side {expected}")
            }
            Fault::Attack {
                first,
                second,
                line,
            } => {
                let how = match line {
                    Line::Column => "the same column",
                    Line::Diagonal => "a diagonal",
                    Line::AntiDiagonal => "an anti-diagonal",
                };
                write!(
                    f,
                    "queens at (row {}, col {}) and (row {}, col {}) attack along {how}",
                    first.0, first.1, second.0, second.1
                )
            }
        }
    }
}

/// Checks `cols[row]` (one queen per row by construction). Reports the first fault in
/// row order: for an attack, the earliest row whose queen is attacked by an earlier one.
pub fn check(cols: &[usize]) -> Result<(), Fault> {
    let n = cols.len();
    if n == 0 {
        return Err(Fault::Empty);
    }
    // For each line, the row of the first queen on it.
    let mut by_col = vec![usize::MAX; n];
    let mut by_diag = vec![usize::MAX; 2 * n - 1];
    let mut by_anti = vec![usize::MAX; 2 * n - 1];
    for (row, &col) in cols.iter().enumerate() {
        if col >= n {
            return Err(Fault::ColumnOutOfRange { row, col, n });
        }
        let diag = row + n - 1 - col;
        let anti = row + col;
        for (table, index, line) in [
            (&mut by_col, col, Line::Column),
            (&mut by_diag, diag, Line::Diagonal),
            (&mut by_anti, anti, Line::AntiDiagonal),
        ] {
            let earlier = table[index];
            if earlier != usize::MAX {
                return Err(Fault::Attack {
                    first: (earlier, cols[earlier]),
                    second: (row, col),
                    line,
                });
            }
            table[index] = row;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_each_kind_of_fault() {
        assert_eq!(check(&[1, 3, 0, 2]), Ok(()));
        assert_eq!(check(&[]), Err(Fault::Empty));
        assert_eq!(
            check(&[0, 4, 1]),
            Err(Fault::ColumnOutOfRange {
                row: 1,
                col: 4,
                n: 3
            })
        );
        assert!(matches!(
            check(&[1, 3, 1, 2]),
            Err(Fault::Attack {
                line: Line::Column,
                ..
            })
        ));
        assert_eq!(
            check(&[0, 1, 3, 2]),
            Err(Fault::Attack {
                first: (0, 0),
                second: (1, 1),
                line: Line::Diagonal
            })
        );
        assert_eq!(
            check(&[1, 0, 3, 2]),
            Err(Fault::Attack {
                first: (0, 1),
                second: (1, 0),
                line: Line::AntiDiagonal
            })
        );
    }
}
