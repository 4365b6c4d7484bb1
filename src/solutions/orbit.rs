//! A solution's orbit under the eight symmetries of the square.

use crate::symmetry::group::Symmetry;

/// The size of the solution's orbit under the eight symmetries (1, 2, 4 or 8) if the
/// solution is its orbit's representative, the lexicographically smallest of its
/// images; `None` if an image is smaller.
pub fn orbit_if_smallest(solution: &[usize]) -> Option<usize> {
    let n = solution.len();
    // One image at a time, in one buffer, and most solutions are done at the first image
    // smaller than them: `solve --unique` asks this of every solution.
    let mut image = vec![0; n];
    let mut fixed_by = 0;
    for g in Symmetry::ALL {
        for (row, &col) in solution.iter().enumerate() {
            let (r, c) = g.apply(n, (row, col));
            image[r] = c;
        }
        match image.as_slice().cmp(solution) {
            std::cmp::Ordering::Equal => fixed_by += 1,
            std::cmp::Ordering::Less => return None,
            std::cmp::Ordering::Greater => {}
        }
    }
    // The orbit has as many members as the group has elements per element fixing one.
    Some(Symmetry::ALL.len() / fixed_by)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solutions::Solutions;

    #[test]
    fn the_orbit_is_its_distinct_images_and_the_smallest_stands_for_it() {
        for n in 1..=10 {
            for solution in Solutions::new(n).unwrap() {
                let mut images: Vec<Vec<usize>> = Symmetry::ALL
                    .iter()
                    .map(|g| g.apply_to_solution(&solution))
                    .collect();
                images.sort_unstable();
                images.dedup();
                let expected = (images[0] == solution).then_some(images.len());
                assert_eq!(orbit_if_smallest(&solution), expected, "{solution:?}");
            }
        }
    }
}
