//! The crate's board limit, in one place: every count, listing and check of a whole board
//! is of a side from 1 to [`MAX_N`]. (A single solution of a larger board is
//! [`crate::construct`]'s work, with its own bound.)

/// The largest board side counted: the bitmask searches hold a row in a `u32`.
pub const MAX_N: usize = 32;

/// Whether `n` is a board side the crate counts.
pub fn counts(n: usize) -> bool {
    (1..=MAX_N).contains(&n)
}
