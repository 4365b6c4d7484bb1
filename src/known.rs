//! Published counts, for tests, benchmarks and verification.
//!
//! Sources: OEIS A000170 (all solutions; the OEIS lists it from n = 0, this table from
//! N = 1) and A002562 (solutions up to the eight symmetries of the square); the orbit split
//! from the published table of irregular / semi-regular / regular solutions, checked
//! against both sequences on every row. N = 27 is the largest N ever computed (Q27 project,
//! TU Dresden, 2016).
//!
//! ```
//! let row = nqueens::known::known(12).unwrap();
//! assert_eq!((row.total, row.unique), (14_200, 1_787));
//! assert_eq!(row.total, 8 * row.c8 + 4 * row.c4 + 2 * row.c2);
//! assert!(nqueens::known::known(28).is_none()); // not yet computed by anyone
//! ```

/// One published row: N, total, unique, and the orbits of size 8, 4 and 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnownCount {
    /// Board side.
    pub n: usize,
    /// A000170(N).
    pub total: u128,
    /// A002562(N).
    pub unique: u128,
    /// Orbits of 8 solutions.
    pub c8: u128,
    /// Orbits of 4 solutions.
    pub c4: u128,
    /// Orbits of 2 solutions.
    pub c2: u128,
}

const fn row(n: usize, total: u128, unique: u128, c8: u128, c4: u128, c2: u128) -> KnownCount {
    KnownCount {
        n,
        total,
        unique,
        c8,
        c4,
        c2,
    }
}

/// The published values for N = 1 to 27, in order.
pub const KNOWN: [KnownCount; 27] = [
    row(1, 1, 1, 0, 0, 0),
    row(2, 0, 0, 0, 0, 0),
    row(3, 0, 0, 0, 0, 0),
    row(4, 2, 1, 0, 0, 1),
    row(5, 10, 2, 1, 0, 1),
    row(6, 4, 1, 0, 1, 0),
    row(7, 40, 6, 4, 2, 0),
    row(8, 92, 12, 11, 1, 0),
    row(9, 352, 46, 42, 4, 0),
    row(10, 724, 92, 89, 3, 0),
    row(11, 2680, 341, 329, 12, 0),
    row(12, 14200, 1787, 1765, 18, 4),
    row(13, 73712, 9233, 9197, 32, 4),
    row(14, 365596, 45752, 45647, 105, 0),
    row(15, 2279184, 285053, 284743, 310, 0),
    row(16, 14772512, 1846955, 1846189, 734, 32),
    row(17, 95815104, 11977939, 11975869, 2006, 64),
    row(18, 666090624, 83263591, 83259065, 4526, 0),
    row(19, 4968057848, 621012754, 621001708, 11046, 0),
    row(20, 39029188884, 4878666808, 4878630533, 36035, 240),
    row(21, 314666222712, 39333324973, 39333230881, 93740, 352),
    row(22, 2691008701644, 336376244042, 336375931369, 312673, 0),
    row(23, 24233937684440, 3029242658210, 3029241762900, 895310, 0),
    row(
        24,
        227514171973736,
        28439272956934,
        28439270037332,
        2917938,
        1664,
    ),
    row(
        25,
        2207893435808352,
        275986683743434,
        275986675209470,
        8532332,
        1632,
    ),
    row(
        26,
        22317699616364044,
        2789712466510289,
        2789712437580722,
        28929567,
        0,
    ),
    row(
        27,
        234907967154122528,
        29363495934315694,
        29363495854214938,
        80100756,
        0,
    ),
];

/// The published row for board side `n`, if there is one.
pub fn known(n: usize) -> Option<&'static KnownCount> {
    KNOWN.iter().find(|k| k.n == n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_satisfies_the_orbit_identities() {
        for (i, k) in KNOWN.iter().enumerate() {
            assert_eq!(k.n, i + 1);
            if k.n > 1 {
                assert_eq!(k.unique, k.c8 + k.c4 + k.c2, "N = {}", k.n);
                assert_eq!(k.total, 8 * k.c8 + 4 * k.c4 + 2 * k.c2, "N = {}", k.n);
            }
        }
    }
}
