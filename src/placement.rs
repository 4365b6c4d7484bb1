//! Checking a placement: is it a solution, and if not, what is wrong with it first.
//!
//! Runs in O(N) time and memory (one pass with column and diagonal tables), so it checks
//! boards of ten million squares a side.
//!
//! ```
//! use nqueens::placement::{Fault, check};
//! assert_eq!(check(&[1usize, 3, 0, 2]), Ok(())); // row r's queen in column cols[r]
//! assert!(matches!(check(&[0usize, 1, 2, 3]), Err(Fault::Attack { .. })));
//! ```

use std::fmt;

/// Why a placement is not a solution. As JSON (`check --json`), an object whose "fault"
/// names the kind (`empty`, `column_out_of_range`, `wrong_length`, `attack`) beside the
/// fields below, a queen as `[row, col]`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "fault", rename_all = "snake_case")]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
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
                write!(
                    f,
                    "{} for a board of side {expected}",
                    crate::words::plural(*found as u64, "queen")
                )
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

/// A queen's column as stored in a placement: `usize`, or `u32` for compact boards (a
/// board of 10 million queens in 40 MB).
pub trait Column: Copy {
    /// The column as an index.
    fn index(self) -> usize;
}

impl Column for usize {
    fn index(self) -> usize {
        self
    }
}

impl Column for u32 {
    fn index(self) -> usize {
        self as usize
    }
}

/// One bit per line of a kind (columns, diagonals or anti-diagonals).
struct Lines(Vec<u64>);

impl Lines {
    fn new(len: usize) -> Lines {
        Lines(vec![0; len.div_ceil(64)])
    }

    /// Marks line `i`; false if it was marked already.
    fn mark(&mut self, i: usize) -> bool {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }
}

/// The index of `(row, col)`'s line of each kind on an `n` board.
fn line_index(line: Line, n: usize, row: usize, col: usize) -> usize {
    match line {
        Line::Column => col,
        Line::Diagonal => row + n - 1 - col,
        Line::AntiDiagonal => row + col,
    }
}

const LINES: [Line; 3] = [Line::Column, Line::Diagonal, Line::AntiDiagonal];

/// Checks `cols[row]` (one queen per row by construction). Reports the first fault in
/// row order: for an attack, the earliest row whose queen is attacked by an earlier one.
/// One bit per line (0.6 bytes a queen): the placement is checked where it lies.
pub fn check<C: Column>(cols: &[C]) -> Result<(), Fault> {
    let n = cols.len();
    if n == 0 {
        return Err(Fault::Empty);
    }
    let mut taken = [Lines::new(n), Lines::new(2 * n - 1), Lines::new(2 * n - 1)];
    for (row, col) in cols.iter().map(|c| c.index()).enumerate() {
        if col >= n {
            return Err(Fault::ColumnOutOfRange { row, col, n });
        }
        for (lines, line) in taken.iter_mut().zip(LINES) {
            let index = line_index(line, n, row, col);
            if !lines.mark(index) {
                // The one earlier queen on this line (there is exactly one: the first
                // clash ends the check).
                let earlier = (0..row)
                    .find(|&r| line_index(line, n, r, cols[r].index()) == index)
                    .expect("a queen marked the line");
                return Err(Fault::Attack {
                    first: (earlier, cols[earlier].index()),
                    second: (row, col),
                    line,
                });
            }
        }
    }
    Ok(())
}

/// Every pair of queens that attack each other, by line and then by rows: the faults of
/// [`check`] without stopping at the first. Needs columns in `0..n`: else the fault
/// `check` finds (an empty board, a column off it). Sorts the queens by line, O(N log N);
/// the pairs are counted and listed from the queens that share a line, never held (N
/// queens on one line make N(N - 1)/2 of them: 5 x 10^9 for N = 100,000).
pub fn attacks<C: Column>(cols: &[C]) -> Result<Attacks, Fault> {
    if let Err(fault @ (Fault::Empty | Fault::ColumnOutOfRange { .. })) = check(cols) {
        return Err(fault);
    }
    let n = cols.len();
    let mut shared: Vec<(Line, Vec<(usize, usize)>)> = Vec::new();
    for line in LINES {
        let mut rows: Vec<(usize, usize)> = (0..n)
            .map(|row| (line_index(line, n, row, cols[row].index()), row))
            .collect();
        rows.sort_unstable();
        for group in rows.chunk_by(|a, b| a.0 == b.0).filter(|g| g.len() > 1) {
            let queens = group.iter().map(|&(_, row)| (row, cols[row].index()));
            shared.push((line, queens.collect()));
        }
    }
    let pairs = shared
        .iter()
        .map(|(_, queens)| pairs_among(queens.len()))
        .sum();
    Ok(Attacks { shared, pairs })
}

/// How many pairs `queens` queens make.
fn pairs_among(queens: usize) -> u64 {
    (queens as u64) * (queens as u64).saturating_sub(1) / 2
}

/// The attacking pairs of a placement (see [`attacks`]).
#[derive(Debug)]
pub struct Attacks {
    /// Each line that two or more queens share, with its queens as (row, col) by row.
    shared: Vec<(Line, Vec<(usize, usize)>)>,
    /// How many pairs they make between them.
    pairs: u64,
}

impl Attacks {
    /// How many pairs of queens attack each other.
    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// Each attacking pair in turn, by line and then by rows.
    pub fn iter(&self) -> impl Iterator<Item = Fault> + '_ {
        self.shared.iter().flat_map(|(line, queens)| {
            queens.iter().enumerate().flat_map(move |(i, &first)| {
                queens[i + 1..].iter().map(move |&second| Fault::Attack {
                    first,
                    second,
                    line: *line,
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Integer literals as columns of `usize`.
    fn check(cols: &[usize]) -> Result<(), Fault> {
        super::check(cols)
    }

    fn attacks(cols: &[usize]) -> Vec<Fault> {
        match super::attacks(cols) {
            Ok(attacks) => {
                let listed: Vec<Fault> = attacks.iter().collect();
                assert_eq!(listed.len() as u64, attacks.pairs());
                listed
            }
            Err(fault) => vec![fault],
        }
    }

    #[test]
    fn compact_and_wide_boards_check_alike() {
        for cols in [vec![1usize, 3, 0, 2], vec![0, 1, 3, 2], vec![2, 0, 0, 1]] {
            let compact: Vec<u32> = cols.iter().map(|&c| c as u32).collect();
            assert_eq!(check(&cols), super::check(&compact));
        }
    }

    #[test]
    fn attacks_lists_every_attacking_pair() {
        assert!(attacks(&[1, 3, 0, 2]).is_empty());
        // Four queens on one column: six pairs; four on one diagonal: six more.
        assert_eq!(attacks(&[0, 0, 0, 0]).len(), 6);
        let pairs = attacks(&[0, 1, 2, 3]);
        assert_eq!(pairs.len(), 6, "{pairs:?}");
        assert!(pairs.iter().all(|f| matches!(
            f,
            Fault::Attack {
                line: Line::Diagonal,
                ..
            }
        )));
        // Every attack `check` reports first is among them.
        for cols in [[1, 3, 1, 2], [0, 1, 3, 2], [1, 0, 3, 2]] {
            let first = check(&cols).unwrap_err();
            assert!(attacks(&cols).contains(&first), "{cols:?}");
        }
        assert_eq!(attacks(&[0, 4, 1]).len(), 1);
    }

    #[test]
    fn a_large_board_counts_its_pairs_without_holding_them() {
        // 100,000 queens on column 0: every pair attacks along it, and none diagonally.
        let column = vec![0u32; 100_000];
        let all = super::attacks(&column).unwrap();
        assert_eq!(all.pairs(), 100_000 * 99_999 / 2);
        let first: Vec<Fault> = all.iter().take(2).collect();
        let pair = |second| Fault::Attack {
            first: (0, 0),
            second: (second, 0),
            line: Line::Column,
        };
        assert_eq!(first, [pair(1), pair(2)]);
        assert_eq!(super::attacks::<u32>(&[]).unwrap_err(), Fault::Empty);
    }

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
