//! Building a row set's half-boards from quadrant pieces: an east (or west) half-board is a
//! north piece and a south piece on complementary columns that share no diagonal; what is
//! kept of it is its contact key.

use super::geometry::{CENTRAL, Geometry, Half, for_each_subset};
use super::piece_pairs::{Classes, FILLER, North, RUN, South, pair_all};
use super::quadrants::{Keep, QuadrantTable};
use crate::cpu::KernelLevel;

impl Geometry {
    /// Appends the key of every half-board of `half` on these rows. East (`out` of one):
    /// those with no queen on a long diagonal, or with one on the centre square (odd `n`;
    /// its key marked [`CENTRAL`]). West (`out` of three): by class, the number of long
    /// diagonals they hold (the main one's queen stands in the north quadrant, the
    /// anti-diagonal's in the south, so each piece tells its part), class 0 only when
    /// `keep_plain`.
    #[inline(always)]
    pub(super) fn collect_half_boards(
        &self,
        table: &QuadrantTable,
        half: Half,
        rows: u32,
        keep_plain: bool,
        scratch: &mut HalfScratch,
        out: &mut [Vec<u64>],
    ) {
        let north_rows = rows & ((1 << self.west) - 1);
        let south_rows = rows >> self.west;
        let k = north_rows.count_ones();
        // East drops its north pieces on a long diagonal; West sorts them by class.
        let (unwanted, classes) = if half.east {
            (self.long_diagonals(), Classes::One)
        } else {
            let (main, anti) = (self.main_diagonal(), self.anti_diagonal());
            let classes = Classes::Three {
                main,
                anti,
                keep_plain,
            };
            (0, classes)
        };
        let kernel = scratch.kernel;
        let south_cache = &mut scratch.south[usize::from(half.east)];
        if south_cache.holds != Some(south_rows) {
            south_cache.fill(self, table, half, south_rows);
        }
        let north_shape = self.key_shape(0, half.column);
        let north_slab = table.slab(north_rows);
        let mut split = 0;
        for_each_subset(half.width, k, |columns| {
            let (from, to) = south_cache.ranges[split];
            split += 1;
            let (from, to) = (from as usize, to as usize);
            let north = North {
                pieces: north_slab.pieces(columns),
                shape: north_shape,
                south_row: self.west,
                unwanted,
            };
            let south = South {
                diagonals: &south_cache.diagonals[from..to],
                keys: &south_cache.keys[from..to],
            };
            pair_all(kernel, north, south, classes, out);
        });
    }
}

/// One thread's buffers for building half-boards: per half, the south pieces of every
/// column split, ready to pair; and the kernel that pairs them.
pub(super) struct HalfScratch {
    kernel: KernelLevel,
    south: [SouthPieces; 2],
}

impl HalfScratch {
    pub(super) fn new(kernel: KernelLevel) -> HalfScratch {
        HalfScratch {
            kernel,
            south: Default::default(),
        }
    }
}

/// The south quadrant's pieces of every column split of a half, prepared once for a set
/// of south rows: consecutive row sets share their south rows (the high bits), so this
/// is reused across them.
#[derive(Default)]
struct SouthPieces {
    /// The south rows these pieces are for (East's without those on a long diagonal).
    holds: Option<u32>,
    /// Their slab of the table, kept alive while this worker may share it with others.
    slab: Option<Keep>,
    /// For each column split, in the order `for_each_subset` gives them, its range.
    ranges: Vec<(u32, u32)>,
    /// Each piece's diagonals and key, apart (the pairing kernels load several at once).
    diagonals: Vec<u64>,
    keys: Vec<u64>,
}

impl SouthPieces {
    fn fill(&mut self, g: &Geometry, table: &QuadrantTable, half: Half, rows: u32) {
        self.ranges.clear();
        self.diagonals.clear();
        self.keys.clear();
        let long = if half.east { g.long_diagonals() } else { 0 };
        let central = half.east && g.n % 2 == 1;
        let shape = g.key_shape(g.west, half.column);
        let all_columns = (1u32 << half.width) - 1;
        let north_queens = half.width - rows.count_ones();
        let slab = table.slab(rows);
        for_each_subset(half.width, north_queens, |north_columns| {
            let start = self.keys.len() as u32;
            for &p in slab.pieces(all_columns ^ north_columns) {
                let key = shape.key(p);
                if central && p & 1 != 0 {
                    // The centre queen: its long diagonals are its own.
                    self.diagonals.push(p);
                    self.keys.push(key | CENTRAL);
                } else if key & long == 0 {
                    self.diagonals.push(p);
                    self.keys.push(key);
                }
            }
            while !(self.keys.len() - start as usize).is_multiple_of(RUN) {
                self.diagonals.push(FILLER);
                self.keys.push(0);
            }
            self.ranges.push((start, self.keys.len() as u32));
        });
        self.holds = Some(rows);
        self.slab = slab.keep();
    }
}
