//! The unique count and the orbit split, by Burnside's lemma.
//!
//! For every `n > 1` no solution is fixed by a reflection, so orbits have 8, 4 or 2
//! members, and from the total and the rotation-fixed counts ([`super::fixed`]):
//!
//! ```text
//! c2 = fix90 / 2,  c4 = (fix180 - fix90) / 4,  c8 = (total - 4*c4 - 2*c2) / 8
//! ```
//!
//! The 1x1 board's one solution is fixed by all eight symmetries: an orbit of one, counted
//! as `c1` (computed, like the rest, by searching for it).

/// Orbits of solutions under the eight symmetries, by size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orbits {
    /// Orbits of 8: solutions no symmetry fixes.
    pub c8: u128,
    /// Orbits of 4: solutions fixed by the 180-degree turn only.
    pub c4: u128,
    /// Orbits of 2: solutions fixed by the 90-degree turn.
    pub c2: u128,
    /// Orbits of 1: solutions every symmetry fixes (only the 1x1 board has one).
    pub c1: u128,
}

impl Orbits {
    /// The orbit split of `total` solutions, of which `fix90` are fixed by the 90-degree
    /// turn, `fix180` by the 180-degree turn and `fix_all` by every symmetry; `None` when
    /// the counts cannot be right (a negative or fractional number of orbits): a wrong
    /// count, from a bug or an edited file.
    pub fn split(total: u128, fix90: u128, fix180: u128, fix_all: u128) -> Option<Orbits> {
        let exact = |num: Option<u128>, den: u128| {
            num.filter(|num| num.is_multiple_of(den))
                .map(|num| num / den)
        };
        let c1 = fix_all;
        let c2 = exact(fix90.checked_sub(c1), 2)?;
        let c4 = exact(fix180.checked_sub(fix90), 4)?;
        let rest = total
            .checked_sub(c1)?
            .checked_sub(2 * c2)?
            .checked_sub(4 * c4);
        let c8 = exact(rest, 8)?;
        Some(Orbits { c8, c4, c2, c1 })
    }

    /// Solutions up to symmetry (OEIS A002562): the number of orbits.
    pub fn unique(&self) -> u128 {
        self.c8 + self.c4 + self.c2 + self.c1
    }

    /// All solutions (OEIS A000170): each orbit times its size.
    pub fn total(&self) -> u128 {
        8 * self.c8 + 4 * self.c4 + 2 * self.c2 + self.c1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_adds_back_up() {
        // N = 8: 92 solutions, 12 unique, one orbit of 4 (fix180 = 4), none of 2.
        let orbits = Orbits::split(92, 0, 4, 0).unwrap();
        assert_eq!(
            orbits,
            Orbits {
                c8: 11,
                c4: 1,
                c2: 0,
                c1: 0
            }
        );
        assert_eq!((orbits.total(), orbits.unique()), (92, 12));
        // N = 1: the one solution is fixed by everything.
        let one = Orbits::split(1, 1, 1, 1).unwrap();
        assert_eq!((one.c1, one.total(), one.unique()), (1, 1, 1));
        // A total off by one, or fewer solutions than fixed ones, has no split.
        assert_eq!(Orbits::split(93, 0, 4, 0), None);
        assert_eq!(Orbits::split(2, 0, 4, 0), None);
    }
}
