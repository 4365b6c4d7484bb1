//! One solution for a large board, fast: an explicit construction, min-conflicts local
//! search, and random placement with restarts. Every answer is checked before it is
//! returned; a method that gives up says so instead of answering wrongly.
//!
//! ```
//! use nqueens::construct::{FindError, explicit, min_conflicts};
//! let board = explicit(1_000_000).unwrap(); // row r's queen stands in column board[r]
//! assert!(nqueens::placement::check(&board).is_ok());
//! let searched = min_conflicts(1_000, 7, 1_000_000).unwrap();
//! assert!(nqueens::placement::check(&searched).is_ok());
//! assert_eq!(explicit(3), Err(FindError::NoSolution(3)));
//! ```

mod answer;
mod explicit;
mod lines;
mod min_conflicts;
mod random_restart;

pub use answer::{Board, FindError};
pub use explicit::explicit;
pub use min_conflicts::{
    BYTES_PER_ROW as MIN_CONFLICTS_BYTES_PER_ROW, min_conflicts, min_conflicts_showing,
};
pub use random_restart::random_restart;
