//! Min-conflicts local search (Minton, Johnston, Philips and Laird 1992) in time about
//! linear in N: a repair looks at a few squares of its row, not all N of them, and names
//! the queens it newly attacks without a scan of the board.

use super::answer::{Board, FindError, checked, solvable};
use super::lines::Lines;
use crate::engine::{NoProgress, Progress};

/// The search's memory a row of the board: three lines of 8 bytes (a column and two
/// diagonals, of which there are 2N - 1 each), the row's column and, during the greedy
/// start, its place in the pool of unused columns.
pub const BYTES_PER_ROW: u64 = 5 * 8 + 4 + 4;

/// Draws of random columns a repair makes before it looks at its whole row.
const DRAWS: usize = 64;

/// The least-attacked square of `row` (its queen lifted), ties broken uniformly at
/// random, and the queens attacking it. An unattacked square lies in an empty column,
/// so those are looked at first; where none is free, a square attacked once is what
/// the whole row's minimum almost always is at large N, and random columns are drawn
/// until one is (the first found is uniform among them); only if none turns up is every
/// column of the row looked at.
fn least_attacked(lines: &Lines, row: usize, rng: &mut fastrand::Rng) -> (usize, u32) {
    let mut ties = 0u32;
    let mut target = 0;
    for &col in &lines.empty_cols {
        if lines.hits(row, col as usize) == 0 {
            ties += 1;
            if rng.u32(..ties) == 0 {
                target = col as usize;
            }
        }
    }
    if ties > 0 {
        return (target, 0);
    }
    for _ in 0..DRAWS {
        let col = rng.usize(..lines.n);
        if lines.hits(row, col) == 1 {
            return (col, 1);
        }
    }
    let mut best = u32::MAX;
    for col in 0..lines.n {
        let hits = lines.hits(row, col);
        if hits < best {
            (best, ties, target) = (hits, 1, col);
        } else if hits == best {
            ties += 1;
            if rng.u32(..ties) == 0 {
                target = col;
            }
        }
    }
    (target, best)
}

/// Min-conflicts local search, reproducible from `seed`: a greedy start (each row's
/// queen on a square attacked by as few earlier queens as a sample of the unused
/// columns offers), then repeatedly a conflicted queen moves to the least-attacked
/// square of its row (ties broken at random). A step is one repair; `max_steps` bounds
/// them over all tries. Memory: [`BYTES_PER_ROW`].
///
/// A try that has not succeeded within 1,000 + 10 N repairs starts again from a new
/// greedy start. On small boards the search can circle among a few boards for good
/// (without restarts N = 8 failed from 2 seeds in 20 within a million steps); a large
/// board's try needs about N / 500 repairs, far fewer than its patience.
pub fn min_conflicts(n: usize, seed: u64, max_steps: u64) -> Result<Board, FindError> {
    min_conflicts_showing(n, seed, max_steps, &NoProgress)
}

/// [`min_conflicts`], telling `progress` of each try's start (N rows to place) and of
/// its rows as they are placed, the most of its time on large boards (91% at N = 10^7).
pub fn min_conflicts_showing(
    n: usize,
    seed: u64,
    max_steps: u64,
    progress: &dyn Progress,
) -> Result<Board, FindError> {
    solvable(n)?;
    assert!(u32::try_from(n).is_ok(), "boards up to 2^32 - 1");
    let mut rng = fastrand::Rng::with_seed(seed);
    let patience = 1_000 + 10 * n as u64;
    let mut steps = 0u64;
    loop {
        let budget = patience.min(max_steps - steps);
        match one_try(n, &mut rng, budget, progress) {
            Ok(cols) => return checked(cols),
            Err(taken) => steps += taken,
        }
        if steps >= max_steps {
            return Err(FindError::GaveUp { steps });
        }
    }
}

/// A greedy start and at most `budget` repairs: the board, or the repairs made in vain.
fn one_try(
    n: usize,
    rng: &mut fastrand::Rng,
    budget: u64,
    progress: &dyn Progress,
) -> Result<Vec<u32>, u64> {
    const ROWS_TOLD: usize = 1 << 16;
    progress.begin(n as u64, n as f64);
    let mut lines = Lines::new(n);
    let mut cols = vec![0u32; n];
    // Greedy start over a shuffled pool of unused columns, so columns rarely clash.
    let mut unused: Vec<u32> = (0..n as u32).collect();
    rng.shuffle(&mut unused);
    const SAMPLES: usize = 32;
    for (row, slot) in cols.iter_mut().enumerate() {
        let mut best = (u32::MAX, 0);
        for _ in 0..SAMPLES.min(unused.len()) {
            let i = rng.usize(..unused.len());
            // An unused column holds no queen yet.
            let hits = lines.diagonal_hits(row, unused[i] as usize);
            if hits < best.0 {
                best = (hits, i);
                if hits == 0 {
                    break;
                }
            }
        }
        *slot = unused.swap_remove(best.1);
        // Who is attacked is read off the whole board below.
        lines.place(row, *slot as usize);
        if (row + 1) % ROWS_TOLD == 0 || row + 1 == n {
            let rows = (row % ROWS_TOLD + 1) as u64;
            progress.advance(rows, rows as f64);
        }
    }
    drop(unused);
    // Repair: the rows whose queen is attacked. Every such row is listed: it was when
    // a line of its reached a second queen. Entries are checked again when picked, so
    // one listed twice, or no longer attacked, does no harm.
    let mut conflicted: Vec<usize> = (0..n)
        .filter(|&r| lines.hits(r, cols[r] as usize) > 3)
        .collect();
    let mut steps = 0u64;
    while !conflicted.is_empty() {
        if steps == budget {
            return Err(steps);
        }
        steps += 1;
        let i = rng.usize(..conflicted.len());
        let row = conflicted[i];
        if lines.hits(row, cols[row] as usize) == 3 {
            // Fixed by an earlier move: its own three lines only.
            conflicted.swap_remove(i);
            continue;
        }
        lines.lift(row, cols[row] as usize);
        let (target, attackers) = least_attacked(&lines, row, rng);
        cols[row] = target as u32;
        conflicted.extend(lines.place(row, target).into_iter().flatten());
        if attackers == 0 {
            conflicted.swap_remove(i);
        }
    }
    Ok(cols)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines holding `cols` (a queen per row; columns may clash), with the empty columns
    /// listed as the search lists them.
    fn lines_of(cols: &[usize]) -> Lines {
        let mut lines = Lines::new(cols.len());
        for (row, &col) in cols.iter().enumerate() {
            lines.place(row, col);
        }
        lines.empty_cols = (0..cols.len() as u32)
            .filter(|&c| lines.cols[c as usize].queens == 0)
            .collect();
        lines
    }

    #[test]
    fn a_repair_takes_a_least_attacked_square_of_its_row() {
        let mut rng = fastrand::Rng::with_seed(5);
        for n in [4, 5, 8, 13, 40, 200] {
            for _ in 0..300 {
                // Some boards a permutation (no empty column), some with clashes.
                let mut cols: Vec<usize> = (0..n).collect();
                rng.shuffle(&mut cols);
                for _ in 0..rng.usize(..4) {
                    cols[rng.usize(..n)] = rng.usize(..n);
                }
                let mut lines = lines_of(&cols);
                let row = rng.usize(..n);
                lines.lift(row, cols[row]);
                let least = (0..n).map(|c| lines.hits(row, c)).min().unwrap();
                let (target, attackers) = least_attacked(&lines, row, &mut rng);
                assert_eq!(attackers, least, "N = {n}, {cols:?}, row {row}");
                assert_eq!(
                    lines.hits(row, target),
                    least,
                    "N = {n}, {cols:?}, row {row}"
                );
            }
        }
    }

    #[test]
    fn a_placed_queen_names_the_queens_it_is_the_first_to_attack() {
        // N = 10, four queens: rows 0 and 1 share column 2; rows 2 and 3 stand alone.
        let mut lines = Lines::new(10);
        for (row, col) in [(0, 2), (1, 2), (2, 5), (3, 9)] {
            lines.place(row, col);
        }
        lines.lift(3, 9);
        // (3, 5) shares column 5 with row 2's queen and the diagonal row - col = -2
        // with row 0's, each alone on that line before.
        let newly: Vec<usize> = lines.place(3, 5).into_iter().flatten().collect();
        assert_eq!(newly, [2, 0]);
        // A third queen on column 2 names no one: rows 0 and 1 were attacked already.
        let newly: Vec<usize> = lines.place(4, 2).into_iter().flatten().collect();
        assert_eq!(newly, Vec::<usize>::new());
    }

    #[test]
    fn every_small_board_is_solved_from_many_seeds() {
        for n in (4..=40).chain([1, 97, 1000]) {
            for seed in 0..20 {
                let cols = min_conflicts(n, seed, 1_000_000)
                    .unwrap_or_else(|e| panic!("N = {n}, seed {seed}: {e}"));
                assert_eq!(cols.len(), n);
            }
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
    fn progress_is_told_of_every_row_of_the_start() {
        use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
        #[derive(Default)]
        struct Tally {
            begun: AtomicU64,
            rows: AtomicU64,
        }
        impl Progress for Tally {
            fn begin(&self, rows: u64, _: f64) {
                self.begun.store(rows, Relaxed);
                self.rows.store(0, Relaxed);
            }
            fn advance(&self, rows: u64, _: f64) {
                self.rows.fetch_add(rows, Relaxed);
            }
        }
        for n in [4, 1000, (1 << 16) - 1, 1 << 16, 200_001] {
            let tally = Tally::default();
            let cols = min_conflicts_showing(n, 3, 10_000_000, &tally).unwrap();
            assert_eq!(cols, min_conflicts(n, 3, 10_000_000).unwrap());
            assert_eq!(tally.begun.load(Relaxed), n as u64);
            assert_eq!(tally.rows.load(Relaxed), n as u64, "N = {n}");
        }
    }
}
