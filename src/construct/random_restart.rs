//! Random placement with restarts: the naive randomized search, for small boards.

use super::answer::{Board, FindError, checked, solvable};
use super::lines::Lines;

/// Random placement with restarts: each row's queen on a random free square; a row with
/// no free square starts the board again. Fine for small N; `max_steps` bounds the
/// queens placed in all.
pub fn random_restart(n: usize, seed: u64, max_steps: u64) -> Result<Board, FindError> {
    solvable(n)?;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut steps = 0u64;
    'restart: loop {
        let mut lines = Lines::new(n);
        let mut cols = Vec::with_capacity(n);
        for row in 0..n {
            let free: Vec<usize> = (0..n).filter(|&c| lines.hits(row, c) == 0).collect();
            if free.is_empty() {
                continue 'restart;
            }
            if steps >= max_steps {
                return Err(FindError::GaveUp { steps });
            }
            steps += 1;
            let col = free[rng.usize(..free.len())];
            lines.place(row, col);
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
