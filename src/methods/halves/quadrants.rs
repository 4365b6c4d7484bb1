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
/// set of rows, made the first time a count asks for it (by whichever worker asks) and
/// kept, read-only, for the rest of the run. A shard builds only the slabs its row sets
/// touch, so its start-up and memory follow its own work, not the whole board's.
pub struct QuadrantTable {
    side: u32,
    /// Slab `rows` holds the placements on exactly those (local) rows.
    slabs: Vec<OnceLock<Slab>>,
    /// Bytes of the slabs built so far.
    built: AtomicU64,
}

/// The placements on one set of rows, grouped by their columns.
struct Slab {
    /// `offsets[columns] .. offsets[columns + 1]` are the placements on these columns.
    offsets: Vec<u32>,
    /// Each placement's diagonal sets: `d1 | d2 << 32`.
    pieces: Vec<u64>,
}

/// Placements of any number of non-attacking queens on the `s` x `s` square (the empty
/// placement included), for `s = 0 ..= 12`: counted once here, checked by a test for the
/// small sides and by [`QuadrantTable::new`] itself, and used to size a table before
/// building it.
const PLACEMENTS: [u64; 13] = [
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
];

/// Each side beyond the table multiplies the placements by at least this much (the ratio
/// is 7.0 to 9.5 from side 8 to side 12, and rising).
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

    /// The placements that use exactly these rows and columns (local bit sets).
    #[inline]
    pub fn pieces(&self, rows: u32, columns: u32) -> &[u64] {
        let slab = self.slab(rows);
        let columns = columns as usize;
        &slab.pieces[slab.offsets[columns] as usize..slab.offsets[columns + 1] as usize]
    }

    /// The slab of `rows`, built now if no one has yet.
    #[inline]
    fn slab(&self, rows: u32) -> &Slab {
        self.slabs[rows as usize].get_or_init(|| {
            let slab = Slab::build(self.side, rows);
            let bytes = slab.pieces.len() * 8 + slab.offsets.len() * 4;
            self.built.fetch_add(bytes as u64, Ordering::Relaxed);
            slab
        })
    }

    /// Bytes the table of this side takes; for sides beyond the counted ones, a lower
    /// bound.
    pub fn bytes(side: u32) -> u64 {
        let placements = match PLACEMENTS.get(side as usize) {
            Some(&p) => p,
            None => PLACEMENTS[12].saturating_mul(
                GROWTH_LOWER_BOUND.saturating_pow(side - PLACEMENTS.len() as u32 + 1),
            ),
        };
        placements
            .saturating_mul(8)
            .saturating_add(4u64 << (2 * side.min(31)))
    }

    /// Bytes the slabs built so far take.
    pub fn heap_bytes(&self) -> u64 {
        self.built.load(Ordering::Relaxed) + (self.slabs.len() * size_of::<OnceLock<Slab>>()) as u64
    }
}

impl Slab {
    /// Every placement on exactly `rows`: counted per column set, then filled in place.
    fn build(side: u32, rows: u32) -> Slab {
        let mut offsets = vec![0u32; (1 << side) + 1];
        place(side, rows, 0, Piece::default(), &mut |p| {
            offsets[p.columns as usize] += 1
        });
        let mut end = 0u32;
        for slot in offsets.iter_mut() {
            end += *slot;
            *slot = end;
        }
        // Fill each column set from its end; the offsets end up at the starts.
        let mut pieces = vec![0u64; end as usize];
        place(side, rows, 0, Piece::default(), &mut |p| {
            let slot = &mut offsets[p.columns as usize];
            *slot -= 1;
            pieces[*slot as usize] = u64::from(p.d1) | u64::from(p.d2) << 32;
        });
        Slab { offsets, pieces }
    }
}

/// A placement under construction.
#[derive(Clone, Copy, Default)]
struct Piece {
    columns: u32,
    d1: u32,
    d2: u32,
}

/// Calls `emit` with every placement that extends `piece` with one queen on each row of
/// `rows` from `row` on, and none on the others.
fn place(side: u32, rows: u32, row: u32, piece: Piece, emit: &mut dyn FnMut(Piece)) {
    if row == side {
        emit(piece);
        return;
    }
    if rows & 1 << row == 0 {
        place(side, rows, row + 1, piece, emit);
        return;
    }
    for column in 0..side {
        let (d1, d2) = (1 << (row + column), 1 << (row + side - 1 - column));
        if piece.columns & 1 << column == 0 && piece.d1 & d1 == 0 && piece.d2 & d2 == 0 {
            let next = Piece {
                columns: piece.columns | 1 << column,
                d1: piece.d1 | d1,
                d2: piece.d2 | d2,
            };
            place(side, rows, row + 1, next, emit);
        }
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
                    for &p in table.pieces(rows, columns) {
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
                for columns in 0..1u32 << side {
                    let cell = table.pieces(rows, columns);
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
        table.pieces(0b1011, 0b110100);
        let one = table.heap_bytes() - empty;
        table.pieces(0b1011, 0b111);
        assert_eq!(table.heap_bytes() - empty, one, "the same slab");
        assert!(table.slabs.iter().filter(|s| s.get().is_some()).count() == 1);
    }

    #[test]
    fn sizes_grow_at_least_as_the_bound_says() {
        for side in 8..PLACEMENTS.len() {
            assert!(PLACEMENTS[side] >= PLACEMENTS[side - 1] * 7);
        }
        assert!(QuadrantTable::bytes(13) >= PLACEMENTS[12] * 9 * 8);
        assert_eq!(QuadrantTable::bytes(4), 87 * 8 + 4 * 256);
    }
}
