//! Listing solutions one by one, in a fixed order, without holding them in memory.
//!
//! Order: lexicographic by the queen's column in each row (row 0 first), which is the
//! order a plain row-by-row search that tries columns from left to right finds them in.

use crate::board::MAX_N;
use crate::error::Error;
use crate::symmetry::group::Symmetry;

/// One solution: `cols[row]` is the column of the queen in `row` (both 0-based).
pub type Placement = Vec<usize>;

/// Streams every solution of the `n` x `n` board in lexicographic order.
///
/// Also reports the search step at which each was found: the number of queens the
/// search had placed so far (every queen placed on a square no earlier queen attacks).
pub struct Solutions {
    n: usize,
    all: u32,
    /// Per row: squares still to try, and the masks on entering that row.
    todo: Vec<u32>,
    cols: Vec<u32>,
    ld: Vec<u32>,
    rd: Vec<u32>,
    /// Columns of the queens placed in rows `0..row`.
    placed: Vec<usize>,
    row: usize,
    placed_count: u128,
    done: bool,
}

impl Solutions {
    /// The solutions of the `n` x `n` board; a board outside 1 to [`MAX_N`] is an error.
    pub fn new(n: usize) -> Result<Solutions, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::BoardSize(n));
        }
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut todo = vec![0; n];
        todo[0] = all;
        Ok(Solutions {
            n,
            all,
            todo,
            cols: vec![0; n],
            ld: vec![0; n],
            rd: vec![0; n],
            placed: Vec::with_capacity(n),
            row: 0,
            placed_count: 0,
            done: false,
        })
    }

    /// Queens placed by the search so far.
    pub fn placed(&self) -> u128 {
        self.placed_count
    }
}

impl Iterator for Solutions {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        while !self.done {
            let r = self.row;
            let free = self.todo[r];
            if free == 0 {
                // Row exhausted: back up one row.
                if r == 0 {
                    self.done = true;
                    return None;
                }
                self.row -= 1;
                self.placed.pop();
                continue;
            }
            let bit = free & free.wrapping_neg();
            self.todo[r] = free ^ bit;
            self.placed_count += 1;
            self.placed.push(bit.trailing_zeros() as usize);
            if r + 1 == self.n {
                let solution = self.placed.clone();
                self.placed.pop();
                return Some(solution);
            }
            let (c, l, rr) = (
                self.cols[r] | bit,
                (self.ld[r] | bit) << 1,
                (self.rd[r] | bit) >> 1,
            );
            self.row = r + 1;
            self.cols[r + 1] = c;
            self.ld[r + 1] = l;
            self.rd[r + 1] = rr;
            self.todo[r + 1] = self.all & !(c | l | rr);
        }
        None
    }
}

/// The size of the solution's orbit under the eight symmetries (1, 2, 4 or 8), and
/// whether the solution is its orbit's representative: the lexicographically smallest
/// of its images.
pub fn orbit_of(solution: &[usize]) -> (usize, bool) {
    let mut images: Vec<Placement> = Symmetry::ALL
        .iter()
        .map(|g| g.apply_to_solution(solution))
        .collect();
    images.sort_unstable();
    images.dedup();
    let canonical = images[0] == solution;
    (images.len(), canonical)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known::known;

    #[test]
    fn lists_every_solution_once_in_order() {
        for n in 1..=10 {
            let all: Vec<Placement> = Solutions::new(n).unwrap().collect();
            assert_eq!(all.len() as u128, known(n).unwrap().total, "N = {n}");
            assert!(
                all.windows(2).all(|w| w[0] < w[1]),
                "sorted and distinct, N = {n}"
            );
        }
        let eight: Vec<Placement> = Solutions::new(8).unwrap().collect();
        assert_eq!(eight[0], [0, 4, 7, 5, 2, 6, 1, 3]);
    }

    #[test]
    fn representatives_cover_the_orbits() {
        for n in 1..=10 {
            let reps: Vec<usize> = Solutions::new(n)
                .unwrap()
                .map(|s| orbit_of(&s))
                .filter(|&(_, canonical)| canonical)
                .map(|(size, _)| size)
                .collect();
            let k = known(n).unwrap();
            assert_eq!(reps.len() as u128, k.unique, "N = {n}");
            assert_eq!(reps.iter().sum::<usize>() as u128, k.total, "N = {n}");
        }
    }
}
