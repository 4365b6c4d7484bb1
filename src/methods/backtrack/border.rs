//! Border keys: the queens of a solution that stand on the board's border.
//!
//! Every solution has exactly one queen on each border line (row 0, row n-1, column 0,
//! column n-1; a corner queen stands on two). Those queens form the solution's *key*. The
//! border is mapped onto itself by every symmetry of the square, so the key of a
//! transformed solution is the transformed key, and
//!
//! ```text
//! total = sum over canonical keys K of |orbit(K)| * completions(K)
//! ```
//!
//! where `completions(K)` counts the solutions whose border queens are exactly `K`. Any
//! member of a key's orbit has the same number of completions, so each canonical key is
//! searched once, in whichever orientation is cheapest to search (see
//! [`BorderKey::search_orientation`]). This is about an eighth of the plain search, against
//! a half for the classic mirror trick.

use crate::board::MAX_N;
use crate::methods::backtrack::row_plan::{Frame, RowPlan};
use crate::symmetry::group::Symmetry;

/// The border queens of a solution on an `n` x `n` board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BorderKey {
    /// Column of the queen in row 0.
    pub top: u8,
    /// Column of the queen in row n-1.
    pub bottom: u8,
    /// Row of the queen in column 0.
    pub left: u8,
    /// Row of the queen in column n-1.
    pub right: u8,
}

impl BorderKey {
    /// The distinct squares `(row, col)` of the key's queens (1 to 4 of them).
    pub fn squares(&self, n: usize) -> Vec<(usize, usize)> {
        let last = n - 1;
        let mut squares = vec![
            (0, self.top as usize),
            (last, self.bottom as usize),
            (self.left as usize, 0),
            (self.right as usize, last),
        ];
        squares.sort_unstable();
        squares.dedup();
        squares
    }

    /// The key of a set of squares that holds exactly one queen on each border line, or
    /// `None` when a border line holds no queen or several.
    fn from_squares(n: usize, squares: &[(usize, usize)]) -> Option<BorderKey> {
        let last = n - 1;
        let only = |on_line: &dyn Fn(&(usize, usize)) -> bool,
                    coord: fn(&(usize, usize)) -> usize| {
            let mut hits = squares.iter().filter(|sq| on_line(sq));
            let first = hits.next()?;
            hits.next().is_none().then(|| coord(first) as u8)
        };
        Some(BorderKey {
            top: only(&|sq| sq.0 == 0, |sq| sq.1)?,
            bottom: only(&|sq| sq.0 == last, |sq| sq.1)?,
            left: only(&|sq| sq.1 == 0, |sq| sq.0)?,
            right: only(&|sq| sq.1 == last, |sq| sq.0)?,
        })
    }

    /// True when the key is a possible border of a solution: each border line holds one of
    /// its queens and no two of them attack each other.
    pub fn is_consistent(&self, n: usize) -> bool {
        let squares = self.squares(n);
        let apart = squares.iter().enumerate().all(|(i, a)| {
            squares[..i]
                .iter()
                .all(|b| a.0 != b.0 && a.1 != b.1 && a.0.abs_diff(b.0) != a.1.abs_diff(b.1))
        });
        apart && BorderKey::from_squares(n, &squares) == Some(*self)
    }

    /// The key of the transformed solution.
    pub fn transform(&self, n: usize, g: Symmetry) -> BorderKey {
        let moved: Vec<_> = self
            .squares(n)
            .into_iter()
            .map(|sq| g.apply(n, sq))
            .collect();
        BorderKey::from_squares(n, &moved).expect("symmetries map the border onto itself")
    }

    /// The eight images of the key, in the order of [`Symmetry::ALL`].
    pub fn images(&self, n: usize) -> [BorderKey; 8] {
        Symmetry::ALL.map(|g| self.transform(n, g))
    }

    /// The smallest of the key's images: the one name the whole orbit goes by.
    pub fn canonical(&self, n: usize) -> BorderKey {
        self.images(n).into_iter().min().expect("eight images")
    }

    /// Number of distinct images: the size of the key's orbit (1, 2, 4 or 8).
    pub fn orbit_size(&self, n: usize) -> u32 {
        let mut images = self.images(n);
        images.sort_unstable();
        let mut distinct = images.to_vec();
        distinct.dedup();
        distinct.len() as u32
    }

    /// The image of this key to search: all images have the same number of completions,
    /// but not the same search cost (they differ by up to a factor of two).
    ///
    /// The search runs from row 0 down, so it is cheapest when the early rows are the most
    /// constrained. The estimate: the product, over the first `(n - 1) / 2` free rows, of
    /// the squares the border queens leave free in that row. It costs nothing to compute
    /// and, measured over every key for N = 14 and 15, comes within 7% of picking the
    /// truly cheapest image (which needs each image searched). Ties go to the smallest
    /// image, so the choice is deterministic.
    pub fn search_orientation(&self, n: usize) -> BorderKey {
        let estimate = |key: &BorderKey| {
            let plan = key.row_plan(n);
            let rows = ((n - 1) / 2).min(plan.len());
            let product = (0..rows).fold(1u128, |p, depth| {
                p * u128::from(
                    plan.free_squares(&Frame {
                        depth,
                        ..Frame::default()
                    })
                    .count_ones(),
                )
            });
            (product, *key)
        };
        self.images(n)
            .into_iter()
            .min_by_key(estimate)
            .expect("eight images")
    }

    /// The search that counts this key's completions: every row without a border queen is
    /// free, and the border queens' columns and diagonals are blocked in each of them.
    pub fn row_plan(&self, n: usize) -> RowPlan {
        assert!(n <= MAX_N);
        let squares = self.squares(n);
        let taken_cols = squares.iter().fold(0u32, |m, sq| m | 1 << sq.1);
        let rows: Vec<usize> = (0..n)
            .filter(|&r| squares.iter().all(|sq| sq.0 != r))
            .collect();
        let blocked: Vec<u32> = rows
            .iter()
            .map(|&r| {
                squares.iter().fold(taken_cols, |mask, &(qr, qc)| {
                    let dist = r.abs_diff(qr);
                    let mut mask = mask;
                    if qc >= dist {
                        mask |= 1 << (qc - dist);
                    }
                    if qc + dist < n {
                        mask |= 1 << (qc + dist);
                    }
                    mask
                })
            })
            .collect();
        RowPlan::new(n, &rows, &blocked)
    }
}

/// Every canonical, consistent key of an `n` x `n` board, in increasing order.
///
/// Keys with no completion are kept: they cost a quick search and keep the list a pure
/// function of `n`.
pub fn canonical_keys(n: usize) -> Vec<BorderKey> {
    assert!((1..=MAX_N).contains(&n));
    let mut keys = Vec::new();
    let coords = 0..n as u8;
    for top in coords.clone() {
        for bottom in coords.clone() {
            for left in coords.clone() {
                for right in coords.clone() {
                    let key = BorderKey {
                        top,
                        bottom,
                        left,
                        right,
                    };
                    if key.is_consistent(n) && key.canonical(n) == key {
                        keys.push(key);
                    }
                }
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corner_queen_is_on_two_lines() {
        let key = BorderKey {
            top: 0,
            bottom: 3,
            left: 0,
            right: 2,
        };
        assert!(key.is_consistent(5));
        assert_eq!(key.squares(5).len(), 3);
        // Top queen in the corner but the left queen elsewhere: two queens in column 0.
        let bad = BorderKey { left: 3, ..key };
        assert!(!bad.is_consistent(5));
    }

    #[test]
    fn orbit_sizes_add_up_to_all_consistent_keys() {
        for n in 1..=9usize {
            let all = (0..n.pow(4))
                .filter(|&code| {
                    let d = |k: usize| (code / n.pow(k as u32) % n) as u8;
                    BorderKey {
                        top: d(3),
                        bottom: d(2),
                        left: d(1),
                        right: d(0),
                    }
                    .is_consistent(n)
                })
                .count() as u32;
            let covered: u32 = canonical_keys(n).iter().map(|k| k.orbit_size(n)).sum();
            assert_eq!(covered, all, "n = {n}");
        }
    }

    #[test]
    fn the_search_orientation_is_in_the_orbit() {
        for key in canonical_keys(8) {
            assert_eq!(key.search_orientation(8).canonical(8), key);
        }
    }
}
