//! The algorithm ladder: five classic ways to count N-Queens solutions, kept as honest,
//! tested implementations so that a user can see, measured, why the engine is fast.
//!
//! None of them is on the engine's path. Each returns the count and the work it did, in
//! its own unit (see [`Rung::step_unit`]).

mod backtracking;
mod brute_force;
mod generate_filter;
mod mirror_bitmask;
mod permutations;
pub mod rung_count;

pub use rung_count::RungCount;

/// One way of counting, from the slowest to the engine's predecessor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rung {
    /// Every one of the N^N boards with one queen per column, as an odometer, each checked
    /// when complete.
    BruteForce,
    /// Every permutation of the columns (one queen per row and column), rejecting those
    /// with a diagonal attack.
    Permutations,
    /// Generate and filter column by column: all safe placements of k queens, then all of
    /// k + 1 (SICP exercise 2.42).
    GenerateFilter,
    /// Recursive backtracking with an array of queen positions, each new queen checked
    /// against every earlier one.
    Backtracking,
    /// Bitmask backtracking with mirror halving (the team's baseline counter).
    MirrorBitmask,
}

impl Rung {
    /// All rungs, slowest first.
    pub const ALL: [Rung; 5] = [
        Rung::BruteForce,
        Rung::Permutations,
        Rung::GenerateFilter,
        Rung::Backtracking,
        Rung::MirrorBitmask,
    ];

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Rung::BruteForce => "brute force",
            Rung::Permutations => "permutations",
            Rung::GenerateFilter => "generate & filter",
            Rung::Backtracking => "backtracking",
            Rung::MirrorBitmask => "mirror bitmask",
        }
    }

    /// What one step is.
    pub fn step_unit(self) -> &'static str {
        match self {
            Rung::BruteForce => "boards checked",
            Rung::Permutations => "permutations checked",
            Rung::GenerateFilter => "partial boards built",
            Rung::Backtracking | Rung::MirrorBitmask => "queens placed",
        }
    }

    /// Counts the solutions of the `n` x `n` board this rung's way (single-threaded).
    pub fn count(self, n: usize) -> RungCount {
        assert!((1..=crate::board::MAX_N).contains(&n));
        match self {
            Rung::BruteForce => brute_force::count(n),
            Rung::Permutations => permutations::count(n),
            Rung::GenerateFilter => generate_filter::count(n),
            Rung::Backtracking => backtracking::count(n),
            Rung::MirrorBitmask => mirror_bitmask::count(n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known::known;

    #[test]
    fn every_rung_agrees_with_the_published_totals() {
        for rung in Rung::ALL {
            let top = if rung == Rung::BruteForce { 8 } else { 10 };
            for n in 1..=top {
                let got = rung.count(n);
                assert_eq!(got.solutions, known(n).unwrap().total, "{rung:?}, N = {n}");
                assert!(got.steps > 0, "{rung:?} did no work at N = {n}");
            }
        }
    }

    #[test]
    fn brute_force_checks_every_board() {
        assert_eq!(Rung::BruteForce.count(8).steps, 16_777_216);
        assert_eq!(Rung::Permutations.count(8).steps, 40_320);
    }
}
