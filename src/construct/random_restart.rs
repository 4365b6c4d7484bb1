//! Random placement with restarts: the naive randomized search, for small boards.

use super::answer::{Board, FindError, checked, solvable};

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
