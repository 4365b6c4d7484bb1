//! Listing solutions one by one, in a fixed order, without holding them in memory.
//!
//! Order: lexicographic by the queen's column in each row (row 0 first), which is the
//! order a plain row-by-row search that tries columns from left to right finds them in.
//!
//! ```
//! use nqueens::solutions::Solutions;
//! let all: Vec<Vec<usize>> = Solutions::new(6).unwrap().collect();
//! assert_eq!(all.len(), 4);
//! assert_eq!(all[0], [1, 3, 5, 0, 2, 4]);
//! assert!(all.iter().all(|s| nqueens::placement::check(s).is_ok()));
//! ```

use crate::board::MAX_N;
use crate::error::Error;

mod orbit;
mod ordered;
mod search;

pub use orbit::orbit_if_smallest;
pub use ordered::{InOrder, Listed, Which};
pub use search::Search;

/// One solution: `cols[row]` is the column of the queen in `row` (both 0-based).
pub type Placement = Vec<usize>;

/// Streams every solution of the `n` x `n` board in lexicographic order.
///
/// Also reports the search step at which each was found: the number of queens the
/// search had placed so far (every queen placed on a square no earlier queen attacks).
/// [`Solutions::advance`] lends each solution; the iterator copies it.
pub struct Solutions {
    search: Search,
}

impl Solutions {
    /// The solutions of the `n` x `n` board; a board outside 1 to [`MAX_N`] is an error.
    pub fn new(n: usize) -> Result<Solutions, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::BoardSize(n));
        }
        Ok(Solutions {
            search: Search::new(n, &[], n),
        })
    }

    /// Queens placed by the search so far.
    pub fn placed(&self) -> u128 {
        self.search.placed()
    }

    /// The next solution, lent until the next call.
    pub fn advance(&mut self) -> Option<&[usize]> {
        self.search.advance()
    }
}

impl Iterator for Solutions {
    type Item = Placement;

    fn next(&mut self) -> Option<Placement> {
        self.advance().map(<[usize]>::to_vec)
    }
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
                .filter_map(|s| orbit_if_smallest(&s))
                .collect();
            let k = known(n).unwrap();
            assert_eq!(reps.len() as u128, k.unique, "N = {n}");
            assert_eq!(reps.iter().sum::<usize>() as u128, k.total, "N = {n}");
        }
    }
}
