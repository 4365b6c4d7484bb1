//! What a pass over a sub-problem's half-boards does: count, or size (see
//! [`super::join::Join::size`]). Both the even boards' passes (`join`) and the odd
//! boards' (`cross`) take it.

/// What a pass over a sub-problem's half-boards adds up, in its tally's solutions: the
/// solutions (the count), or the pairs of half-boards the count compares at most (its
/// size, with the pair counter left out).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Meet {
    Count,
    Size,
}
