//! Why a method could not split a count, in the methods' shared words.

/// Why a method could not split a count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// A board outside the method's [`CountingMethod::boards`](crate::methods::CountingMethod::boards).
    BoardSize,
    /// Its tables would need `needed` bytes, more than `budget` (`None`: more than this
    /// build tabulates, past the method's largest board).
    Memory {
        /// Bytes the tables need (for the largest boards, a lower bound).
        needed: u64,
        /// The budget, in bytes.
        budget: Option<u64>,
    },
    /// Another decomposition was asked of a method or board that has one only.
    NoOtherWay,
}
