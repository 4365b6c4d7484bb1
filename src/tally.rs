//! What a search or a sub-problem finds: solutions and nodes, the currency every method,
//! the scheduler and the long-run files share.

/// Solutions and search nodes found by one search or sub-problem.
///
/// `nodes` is each method's own unit of work: queens accepted by backtracking, half-boards
/// built by the join, queens placed by the rotation-fixed searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Completions found.
    pub solutions: u64,
    /// The search's units of work (see above).
    pub nodes: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.solutions += other.solutions;
        self.nodes += other.nodes;
    }
}

impl std::iter::Sum for Tally {
    fn sum<I: Iterator<Item = Tally>>(tallies: I) -> Tally {
        tallies.fold(Tally::default(), |mut sum, t| {
            sum += t;
            sum
        })
    }
}
