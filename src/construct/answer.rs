//! What every way of finding a solution returns: the board, or why there is none.

use crate::placement::check;

/// A board found: `cols[row]`, compact (4 bytes a queen; boards go up to 100 million).
pub type Board = Vec<u32>;

/// Why no solution was returned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FindError {
    /// N = 2 and N = 3 have no solution (N = 0 is no board).
    NoSolution(usize),
    /// The search used up its step budget.
    GaveUp {
        /// Steps taken before giving up.
        steps: u64,
    },
    /// A constructed answer failed the check: a bug, reported rather than returned.
    Invalid(String),
}

impl std::fmt::Display for FindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FindError::NoSolution(n) => write!(f, "the {n} x {n} board has no solution"),
            FindError::GaveUp { steps } => {
                write!(
                    f,
                    "no solution found within {}",
                    crate::words::plural(*steps, "step")
                )
            }
            FindError::Invalid(why) => write!(f, "internal error, answer failed its check: {why}"),
        }
    }
}

impl std::error::Error for FindError {}

pub(super) fn checked(cols: Board) -> Result<Board, FindError> {
    check(&cols).map_err(|fault| FindError::Invalid(fault.to_string()))?;
    Ok(cols)
}

pub(super) fn solvable(n: usize) -> Result<(), FindError> {
    if n == 0 || n == 2 || n == 3 {
        Err(FindError::NoSolution(n))
    } else {
        Ok(())
    }
}
