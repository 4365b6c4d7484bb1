//! What the rungs share: the result of one, and the diagonal check two of them use.

/// The result of one rung: solutions and the work done to find them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RungCount {
    /// Solutions found.
    pub solutions: u128,
    /// Steps taken, in the rung's unit.
    pub steps: u128,
}

/// True when no two of the queens `cols[row]` share a diagonal (rows are distinct by
/// construction and columns are checked by the callers that need it).
pub(super) fn diagonals_free(cols: &[usize]) -> bool {
    (0..cols.len()).all(|a| (0..a).all(|b| cols[a].abs_diff(cols[b]) != a - b))
}
