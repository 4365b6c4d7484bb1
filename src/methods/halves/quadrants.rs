//! Every partial placement of a small square, indexed by the rows and columns it uses.
//!
//! A quadrant of the board holds some queens, at most one per row and column, none on a
//! shared diagonal. Which placements exist depends only on the quadrant's shape, so one
//! table of the `side` x `side` square serves all four quadrants (a narrower quadrant
//! simply uses fewer of its columns or rows). A placement is stored as its two diagonal
//! sets in the square's own coordinates: for a queen on local row `r` and column `c`,
//! bit `r + c` of the first and bit `r - c + side - 1` of the second.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The placements of one square, grouped by (rows, columns), built by need: one slab per
/// set of rows, made the first time a count asks for it (by whichever worker asks), and
/// kept, read-only, for the rest of the run. A shard builds only the slabs its row sets
/// touch, so its start-up and memory follow its own work, not the whole board's.
pub struct QuadrantTable {
    side: u32,
    /// Slab `rows` at `slabs[rows]`, once built.
    slabs: Vec<OnceLock<Slab>>,
    /// Bytes of every slab built so far.
    built: AtomicU64,
}

/// The placements on one set of rows, grouped by their columns.
pub struct Slab {
    /// `offsets[columns] .. offsets[columns + 1]` are the placements on these columns.
    offsets: Vec<u32>,
    /// Each placement's diagonal sets: `d1 | d2 << 32`.
    pieces: Vec<u64>,
}

/// Placements of any number of non-attacking queens on the `s` x `s` square (the empty
/// placement included), for `s = 0 ..= 13`: counted once, checked by a test (up to side
/// 10 in the suite, 11 to 13 by an ignored one), and used to size a table before building
/// it.
const PLACEMENTS: [u64; 14] = [
    1,
    2,
    5,
    18,
    87,
    462,
    2_635,
    16_870,
    118_969,
    915_442,
    7_535_369,
    66_807_234,
    633_443_407,
    6_354_135_838,
];

/// The placements of the largest slab of each side, counted once and checked by a test.
const LARGEST_SLAB: [u64; 14] = [
    1, 1, 2, 4, 10, 26, 92, 296, 1_174, 5_366, 26_548, 143_140, 788_698, 4_684_690,
];

/// Each side beyond the table multiplies the placements by at least this much (the ratio
/// is 7.0 to 10.0 from side 8 to side 13, and rising).
const GROWTH_LOWER_BOUND: u64 = 9;

impl QuadrantTable {
    /// The largest side this build tabulates (its placement count is known, and a slab's
    /// offsets fit `u32`).
    pub const MAX_SIDE: u32 = PLACEMENTS.len() as u32 - 1;

    /// The table of the `side` x `side` square (`side <= MAX_SIDE`), with no slab built.
    pub fn new(side: u32) -> QuadrantTable {
        assert!(side <= Self::MAX_SIDE, "side {side} is too large");
        QuadrantTable {
            side,
            slabs: (0..1usize << side).map(|_| OnceLock::new()).collect(),
            built: AtomicU64::new(0),
        }
    }

    /// The slab of `rows`, built now if no one has yet.
    #[inline]
    pub fn slab(&self, rows: u32) -> &Slab {
        self.slabs[rows as usize].get_or_init(|| {
            let slab = Slab::build(self.side, rows);
            self.built.fetch_add(slab.bytes(), Ordering::Relaxed);
            slab
        })
    }

    /// Bytes a table of this side takes with every slab built; for sides beyond the
    /// counted ones, a lower bound.
    pub fn bytes(side: u32) -> u64 {
        let slabs = 1u64 << side.min(31);
        counted(&PLACEMENTS, side)
            .saturating_mul(8)
            .saturating_add(slabs.saturating_mul(4 << side.min(31)))
    }

    /// Bytes the largest slab of this side takes (a lower bound past the counted sides).
    pub fn slab_bytes(side: u32) -> u64 {
        counted(&LARGEST_SLAB, side)
            .saturating_mul(8)
            .saturating_add(4 << side.min(31))
    }

    /// Bytes the table holds now.
    pub fn heap_bytes(&self) -> u64 {
        let cells = self.slabs.len() * size_of::<OnceLock<Slab>>();
        self.built_bytes() + cells as u64
    }

    /// Bytes of every slab built so far.
    pub fn built_bytes(&self) -> u64 {
        self.built.load(Ordering::Relaxed)
    }
}

/// A count from `list` for this side; past its end, a lower bound.
fn counted(list: &[u64; 14], side: u32) -> u64 {
    let last = list.len() - 1;
    match list.get(side as usize) {
        Some(&p) => p,
        None => list[last].saturating_mul(GROWTH_LOWER_BOUND.saturating_pow(side - last as u32)),
    }
}

impl Slab {
    /// Every placement on exactly `rows`: counted per column set, then filled in place.
    fn build(side: u32, rows: u32) -> Slab {
        let mut offsets = vec![0u32; (1 << side) + 1];
        place(side, rows, &mut |p| offsets[p.columns as usize] += 1);
        let mut end = 0u32;
        for slot in offsets.iter_mut() {
            end += *slot;
            *slot = end;
        }
        // Fill each column set from its end; the offsets end up at the starts.
        let mut pieces = vec![0u64; end as usize];
        place(side, rows, &mut |p| {
            let slot = &mut offsets[p.columns as usize];
            *slot -= 1;
            pieces[*slot as usize] = u64::from(p.d1) | u64::from(p.d2) << 32;
        });
        Slab { offsets, pieces }
    }

    /// The placements on exactly these columns.
    #[inline]
    pub fn pieces(&self, columns: u32) -> &[u64] {
        let columns = columns as usize;
        &self.pieces[self.offsets[columns] as usize..self.offsets[columns + 1] as usize]
    }

    fn bytes(&self) -> u64 {
        (self.pieces.len() * 8 + self.offsets.len() * 4) as u64
    }
}

/// A placement under construction.
#[derive(Clone, Copy, Default)]
struct Piece {
    columns: u32,
    d1: u32,
    d2: u32,
}

/// Calls `emit` with every placement of one queen on each of `rows` and none on the other
/// rows of the `side` square (a bitmask search, row by row).
fn place(side: u32, rows: u32, emit: &mut impl FnMut(Piece)) {
    extend(side, rows, 0, Piece::default(), 0, 0, emit);
}

/// [`place`] from `row` on, given `piece` above it; `left` and `right` are the columns of
/// `row` its queens attack along the two diagonals.
fn extend(
    side: u32,
    rows: u32,
    row: u32,
    piece: Piece,
    left: u32,
    right: u32,
    emit: &mut impl FnMut(Piece),
) {
    let all = (1u32 << side) - 1;
    let rest = rows >> row;
    if rest == 0 {
        emit(piece);
        return;
    }
    // Rows without a queen only carry the diagonals down.
    let skip = rest.trailing_zeros();
    let (row, left, right) = (row + skip, left >> skip, (right << skip) & all);
    let mut free = all & !(piece.columns | left | right);
    while free != 0 {
        let column = free.trailing_zeros();
        let bit = free & free.wrapping_neg();
        free ^= bit;
        let next = Piece {
            columns: piece.columns | bit,
            d1: piece.d1 | 1 << (row + column),
            d2: piece.d2 | 1 << (row + side - 1 - column),
        };
        extend(
            side,
            rows,
            row + 1,
            next,
            (left | bit) >> 1,
            ((right | bit) << 1) & all,
            emit,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Placements of the `side` square by brute force: every partial permutation, checked.
    fn brute_force(side: u32) -> Vec<(u32, u32, u32, u32)> {
        let mut found = Vec::new();
        // Each row: no queen (side) or a column; enumerate all (side + 1)^side choices.
        let total = (side + 1).pow(side);
        for code in 0..total {
            let (mut rest, mut queens) = (code, Vec::new());
            for row in 0..side {
                let choice = rest % (side + 1);
                rest /= side + 1;
                if choice < side {
                    queens.push((row as i32, choice as i32));
                }
            }
            let attacks = queens.iter().enumerate().any(|(i, &(r1, c1))| {
                queens[i + 1..]
                    .iter()
                    .any(|&(r2, c2)| c1 == c2 || (r1 - r2).abs() == (c1 - c2).abs())
            });
            if !attacks {
                let mut p = (0, 0, 0, 0);
                for &(r, c) in &queens {
                    p.0 |= 1 << r;
                    p.1 |= 1 << c;
                    p.2 |= 1 << (r + c);
                    p.3 |= 1 << (r + side as i32 - 1 - c);
                }
                found.push(p);
            }
        }
        found
    }

    #[test]
    fn the_table_holds_every_placement_once_in_its_cell() {
        for side in 1..=6 {
            let table = QuadrantTable::new(side);
            let mut want = brute_force(side);
            assert_eq!(want.len() as u64, PLACEMENTS[side as usize]);
            let mut got = Vec::new();
            for rows in 0..1u32 << side {
                for columns in 0..1u32 << side {
                    for &p in table.slab(rows).pieces(columns) {
                        got.push((rows, columns, p as u32, (p >> 32) as u32));
                    }
                }
            }
            want.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, want, "side {side}");
        }
    }

    #[test]
    fn slabs_built_by_need_hold_the_whole_table_up_to_side_8() {
        for side in 1..=8 {
            let table = QuadrantTable::new(side);
            let mut pieces = 0u64;
            for rows in 0..1u32 << side {
                let before = table.heap_bytes();
                let slab = table.slab(rows);
                for columns in 0..1u32 << side {
                    let cell = slab.pieces(columns);
                    pieces += cell.len() as u64;
                    // Every piece of the cell uses exactly these columns: the diagonals
                    // of a queen on (r, c) are r + c and r - c + side - 1.
                    for &p in cell {
                        let (d1, d2) = (p as u32, (p >> 32) as u32);
                        assert_eq!(d1.count_ones(), columns.count_ones());
                        assert_eq!(d2.count_ones(), rows.count_ones());
                    }
                }
                assert!(table.heap_bytes() > before, "slab {rows:b} built once");
            }
            assert_eq!(pieces, PLACEMENTS[side as usize], "side {side}");
        }
    }

    #[test]
    fn a_slab_is_built_only_when_asked_for() {
        let table = QuadrantTable::new(10);
        let empty = table.heap_bytes();
        table.slab(0b1011).pieces(0b110100);
        let one = table.heap_bytes() - empty;
        table.slab(0b1011).pieces(0b111);
        assert_eq!(table.heap_bytes() - empty, one, "the same slab");
        assert!(table.slabs.iter().filter(|s| s.get().is_some()).count() == 1);
    }

    #[test]
    fn sizes_grow_at_least_as_the_bound_says() {
        for side in 8..PLACEMENTS.len() {
            assert!(PLACEMENTS[side] >= PLACEMENTS[side - 1] * 7);
        }
        assert!(QuadrantTable::bytes(14) >= PLACEMENTS[13] * 9 * 8);
        assert_eq!(QuadrantTable::bytes(4), 87 * 8 + 16 * 4 * 16);
        assert_eq!(QuadrantTable::slab_bytes(4), 10 * 8 + 4 * 16);
    }

    #[test]
    fn the_counted_sizes_are_those_of_the_slabs() {
        for side in 1..=8u32 {
            let table = QuadrantTable::new(side);
            let sizes: Vec<u64> = (0..1u32 << side)
                .map(|rows| table.slab(rows).pieces.len() as u64)
                .collect();
            assert_eq!(sizes.iter().max(), Some(&LARGEST_SLAB[side as usize]));
        }
    }

    /// Placements per set of rows, by a search of its own (row by row, the last row's
    /// queens counted rather than placed): an independent count of the constants.
    fn placements_by_rows(side: u32) -> Vec<u64> {
        fn walk(side: u32, row: u32, rows: u32, taken: [u32; 3], counts: &mut [u64]) {
            let [columns, d1, d2] = taken;
            let free = (0..side).filter(|&c| {
                columns & 1 << c == 0
                    && d1 & 1 << (row + c) == 0
                    && d2 & 1 << (row + side - 1 - c) == 0
            });
            if row + 1 == side {
                counts[rows as usize] += 1;
                counts[(rows | 1 << row) as usize] += free.count() as u64;
                return;
            }
            walk(side, row + 1, rows, taken, counts);
            for c in free {
                let placed = [
                    columns | 1 << c,
                    d1 | 1 << (row + c),
                    d2 | 1 << (row + side - 1 - c),
                ];
                walk(side, row + 1, rows | 1 << row, placed, counts);
            }
        }
        let mut counts = vec![0; 1 << side];
        walk(side, 0, 0, [0; 3], &mut counts);
        counts
    }

    fn check_the_constants(sides: std::ops::RangeInclusive<u32>) {
        for side in sides {
            let counts = placements_by_rows(side);
            assert_eq!(counts.iter().sum::<u64>(), PLACEMENTS[side as usize]);
            assert_eq!(counts.iter().max(), Some(&LARGEST_SLAB[side as usize]));
        }
    }

    #[test]
    fn the_constants_are_counted_again_up_to_side_10() {
        check_the_constants(1..=10);
    }

    #[test]
    #[ignore = "sides 11 to 13: about two minutes in release mode"]
    fn the_constants_are_counted_again_up_to_side_13() {
        check_the_constants(11..=13);
    }
}
