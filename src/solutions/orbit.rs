//! A solution's orbit under the eight symmetries of the square.

use crate::symmetry::group::Symmetry;

/// The size of the solution's orbit under the eight symmetries (1, 2, 4 or 8), and
/// whether the solution is its orbit's representative: the lexicographically smallest
/// of its images.
pub fn orbit_of(solution: &[usize]) -> (usize, bool) {
    let mut images: Vec<Vec<usize>> = Symmetry::ALL
        .iter()
        .map(|g| g.apply_to_solution(solution))
        .collect();
    images.sort_unstable();
    images.dedup();
    let canonical = images[0] == solution;
    (images.len(), canonical)
}
