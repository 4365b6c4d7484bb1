//! One solution for a large board, fast: an explicit construction, min-conflicts local
//! search, and random placement with restarts. Every answer is checked before it is
//! returned; a method that gives up says so instead of answering wrongly.

use crate::placement::check;

/// A board found: `cols[row]`, compact (4 bytes a queen; boards go up to 100 million).
pub type Board = Vec<u32>;

/// Why no solution was returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindError {
    /// N = 2 and N = 3 have no solution (N = 0 is no board).
    NoSolution(usize),
    /// The search used up its step budget.
    GaveUp {
        /// Steps taken before giving up.
        steps: u64,
    },
    /// A constructed answer failed the check: a bug, reported rather than returned.
    Invalid(String),
}

impl std::fmt::Display for FindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FindError::NoSolution(n) => write!(f, "the {n} x {n} board has no solution"),
            FindError::GaveUp { steps } => {
                write!(
                    f,
                    "no solution found within {}",
                    crate::words::plural(*steps, "step")
                )
            }
            FindError::Invalid(why) => write!(f, "internal error, answer failed its check: {why}"),
        }
    }
}

impl std::error::Error for FindError {}

fn checked(cols: Board) -> Result<Board, FindError> {
    check(&cols).map_err(|fault| FindError::Invalid(fault.to_string()))?;
    Ok(cols)
}

fn solvable(n: usize) -> Result<(), FindError> {
    if n == 0 || n == 2 || n == 3 {
        Err(FindError::NoSolution(n))
    } else {
        Ok(())
    }
}

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

/// Counts of queens per column and per diagonal, kept up to date as queens move.
struct Attacks {
    n: usize,
    cols: Vec<u32>,
    diag: Vec<u32>,
    anti: Vec<u32>,
}

impl Attacks {
    fn new(n: usize) -> Attacks {
        Attacks {
            n,
            cols: vec![0; n],
            diag: vec![0; 2 * n - 1],
            anti: vec![0; 2 * n - 1],
        }
    }

    /// Queens attacking square (row, col), not counting one standing on it.
    fn on(&self, row: usize, col: usize) -> u32 {
        self.cols[col] + self.diag[row + self.n - 1 - col] + self.anti[row + col]
    }

    fn add(&mut self, row: usize, col: usize, delta: i32) {
        let n = self.n;
        for slot in [
            &mut self.cols[col],
            &mut self.diag[row + n - 1 - col],
            &mut self.anti[row + col],
        ] {
            *slot = slot.wrapping_add_signed(delta);
        }
    }
}

/// Min-conflicts local search (Minton, Johnston, Philips and Laird 1992), reproducible
/// from `seed`: a greedy start (each row's queen on a square attacked by as few earlier
/// queens as a sample of the unused columns offers), then repeatedly a conflicted queen
/// moves to the least-attacked square of its row (ties broken at random). Memory O(N).
pub fn min_conflicts(n: usize, seed: u64, max_steps: u64) -> Result<Board, FindError> {
    solvable(n)?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut attacks = Attacks::new(n);
    let mut cols = vec![0usize; n];
    // Greedy start over a shuffled pool of unused columns, so columns rarely clash.
    let mut unused: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut unused);
    const SAMPLES: usize = 32;
    for (row, slot) in cols.iter_mut().enumerate() {
        let mut best = (u32::MAX, 0);
        for _ in 0..SAMPLES.min(unused.len()) {
            let i = rng.usize(..unused.len());
            let hits = attacks.on(row, unused[i]);
            if hits < best.0 {
                best = (hits, i);
                if hits == 0 {
                    break;
                }
            }
        }
        let col = unused.swap_remove(best.1);
        *slot = col;
        attacks.add(row, col, 1);
    }
    // Repair: the rows whose queen is attacked.
    let mut conflicted: Vec<usize> = (0..n).filter(|&r| attacks.on(r, cols[r]) > 3).collect();
    let mut steps = 0u64;
    while !conflicted.is_empty() {
        if steps >= max_steps {
            return Err(FindError::GaveUp { steps });
        }
        steps += 1;
        let i = rng.usize(..conflicted.len());
        let row = conflicted[i];
        if attacks.on(row, cols[row]) == 3 {
            // Fixed by an earlier move: its own three lines only.
            conflicted.swap_remove(i);
            continue;
        }
        attacks.add(row, cols[row], -1);
        let (mut best, mut ties) = (u32::MAX, 0u32);
        let mut target = cols[row];
        for col in 0..n {
            let hits = attacks.on(row, col);
            if hits < best {
                (best, ties, target) = (hits, 1, col);
            } else if hits == best {
                // Reservoir sampling: each tied square equally likely.
                ties += 1;
                if rng.u32(..ties) == 0 {
                    target = col;
                }
            }
        }
        cols[row] = target;
        attacks.add(row, target, 1);
        if best == 0 {
            conflicted.swap_remove(i);
        } else {
            // The moved queen attacks others: they join the list (entries are checked
            // again when picked, so duplicates and stale ones do no harm).
            for (r, &c) in cols.iter().enumerate() {
                let shares_line = c == target || r + c == row + target || r + target == row + c;
                if r != row && shares_line {
                    conflicted.push(r);
                }
            }
        }
    }
    checked(cols.into_iter().map(|c| c as u32).collect())
}

/// Random placement with restarts: each row's queen on a random free square; a row with
/// no free square starts the board again. Fine for small N; `max_steps` bounds the
/// queens placed in all.
pub fn random_restart(n: usize, seed: u64, max_steps: u64) -> Result<Board, FindError> {
    solvable(n)?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut steps = 0u64;
    'restart: loop {
        let mut attacks = Attacks::new(n);
        let mut cols = Vec::with_capacity(n);
        for row in 0..n {
            let free: Vec<usize> = (0..n).filter(|&c| attacks.on(row, c) == 0).collect();
            if free.is_empty() {
                continue 'restart;
            }
            if steps >= max_steps {
                return Err(FindError::GaveUp { steps });
            }
            steps += 1;
            let col = free[rng.usize(..free.len())];
            attacks.add(row, col, 1);
            cols.push(col as u32);
        }
        return checked(cols);
    }
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

    #[test]
    fn min_conflicts_is_reproducible() {
        let a = min_conflicts(200, 7, 1_000_000).unwrap();
        assert_eq!(a, min_conflicts(200, 7, 1_000_000).unwrap());
        assert_ne!(a, min_conflicts(200, 8, 1_000_000).unwrap());
        assert!(min_conflicts(8, 1, 100_000).is_ok());
    }

    #[test]
    fn random_restart_finds_small_boards_and_gives_up_honestly() {
        for n in [1, 4, 5, 8, 12] {
            assert!(random_restart(n, 3, 1_000_000).is_ok(), "N = {n}");
        }
        assert!(matches!(
            random_restart(30, 3, 10),
            Err(FindError::GaveUp { .. })
        ));
    }
}
