//! The eight symmetries of the square (the dihedral group D4) acting on board squares.
//!
//! Every symmetry maps solutions to solutions, which is what lets the engine count one
//! member of each orbit and weight it. Rows and columns are 0-based; `n` is the board side.

/// One of the eight symmetries of an `n` x `n` board.
///
/// Stored as "transpose first (optional), then rotate clockwise `turns` times"; the
/// `ALL` order is the identity, the three rotations, then the four reflections.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    transpose: bool,
    turns: u8,
}

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry::new(false, 0);
    /// Rotation by 90 degrees clockwise: (r, c) -> (c, n-1-r).
    pub const ROT90: Symmetry = Symmetry::new(false, 1);
    /// Rotation by 180 degrees: (r, c) -> (n-1-r, n-1-c).
    pub const ROT180: Symmetry = Symmetry::new(false, 2);
    /// Rotation by 270 degrees clockwise: (r, c) -> (n-1-c, r).
    pub const ROT270: Symmetry = Symmetry::new(false, 3);
    /// Reflection in the main diagonal: (r, c) -> (c, r).
    pub const TRANSPOSE: Symmetry = Symmetry::new(true, 0);
    /// Reflection in the vertical axis: (r, c) -> (r, n-1-c).
    pub const MIRROR_COLUMNS: Symmetry = Symmetry::new(true, 1);
    /// Reflection in the anti-diagonal: (r, c) -> (n-1-c, n-1-r).
    pub const ANTI_TRANSPOSE: Symmetry = Symmetry::new(true, 2);
    /// Reflection in the horizontal axis: (r, c) -> (n-1-r, c).
    pub const MIRROR_ROWS: Symmetry = Symmetry::new(true, 3);

    /// All eight, identity first, then rotations, then reflections.
    pub const ALL: [Symmetry; 8] = [
        Self::IDENTITY,
        Self::ROT90,
        Self::ROT180,
        Self::ROT270,
        Self::TRANSPOSE,
        Self::MIRROR_COLUMNS,
        Self::ANTI_TRANSPOSE,
        Self::MIRROR_ROWS,
    ];

    const fn new(transpose: bool, turns: u8) -> Symmetry {
        Symmetry { transpose, turns }
    }

    /// True for the four reflections.
    pub fn is_reflection(self) -> bool {
        self.transpose
    }

    /// Where this symmetry sends square `(row, col)` on an `n` x `n` board.
    pub fn apply(self, n: usize, (row, col): (usize, usize)) -> (usize, usize) {
        let (mut r, mut c) = if self.transpose {
            (col, row)
        } else {
            (row, col)
        };
        for _ in 0..self.turns {
            (r, c) = (c, n - 1 - r);
        }
        (r, c)
    }

    /// `self.then(other)` applies `self` first, then `other`.
    pub fn then(self, other: Symmetry) -> Symmetry {
        // Transposing after k clockwise turns equals k counter-clockwise turns after
        // transposing: T R^k = R^-k T.
        if other.transpose {
            Symmetry::new(!self.transpose, (other.turns + 4 - self.turns) % 4)
        } else {
            Symmetry::new(self.transpose, (self.turns + other.turns) % 4)
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        if self.transpose {
            self
        } else {
            Symmetry::new(false, (4 - self.turns) % 4)
        }
    }

    /// Applies the symmetry to a solution given as `cols[row]` (the column of each row's
    /// queen), returning the transformed solution in the same form.
    pub fn apply_to_solution(self, cols: &[usize]) -> Vec<usize> {
        let n = cols.len();
        let mut out = vec![0; n];
        for (row, &col) in cols.iter().enumerate() {
            let (r, c) = self.apply(n, (row, col));
            out[r] = c;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_documented_formulas() {
        let n = 7;
        let (r, c) = (1, 5);
        let expected = [
            (r, c),
            (c, n - 1 - r),
            (n - 1 - r, n - 1 - c),
            (n - 1 - c, r),
            (c, r),
            (r, n - 1 - c),
            (n - 1 - c, n - 1 - r),
            (n - 1 - r, c),
        ];
        for (g, want) in Symmetry::ALL.iter().zip(expected) {
            assert_eq!(g.apply(n, (r, c)), want, "{g:?}");
        }
    }

    #[test]
    fn composition_and_inverse_agree_with_application() {
        let n = 6;
        for a in Symmetry::ALL {
            assert_eq!(a.then(a.inverse()), Symmetry::IDENTITY);
            for b in Symmetry::ALL {
                for sq in [(0, 0), (1, 4), (5, 2), (3, 3)] {
                    assert_eq!(a.then(b).apply(n, sq), b.apply(n, a.apply(n, sq)));
                }
            }
        }
    }
}
