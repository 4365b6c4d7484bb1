//! Building a row set's half-boards from quadrant pieces: an east (or west) half-board is a
//! north piece and a south piece on complementary columns that share no diagonal; what is
//! kept of it is its contact key.

use super::geometry::{Geometry, Half, for_each_subset_of};
use super::piece_pairs::{Classes, North, Plain, South, pair_all};
use super::quadrants::{QuadrantTable, Slab};
use crate::cpu::{Kernel, prefetch};

/// One thread's buffers for building half-boards: per half, the south pieces of every
/// column set, ready to pair; and the kernel that pairs them.
pub(super) struct HalfScratch {
    kernel: Kernel,
    south: [SouthPieces; 2],
    /// A row set's column splits (north's columns), in order.
    splits: Vec<u32>,
}

/// Column splits ahead whose north pieces are fetched into the cache while a split is
/// paired: each split's few pieces lie apart in the slab, and loading them waited on
/// memory (a third of the pairing's time at N = 20, half that fetched ahead).
const FETCH_AHEAD: usize = 6;

impl HalfScratch {
    pub(super) fn new(kernel: Kernel) -> HalfScratch {
        HalfScratch {
            kernel,
            south: Default::default(),
            splits: Vec::new(),
        }
    }

    /// Appends the key of every half-board of `half` on these rows (bit `r` for board
    /// row `r`) that takes none of its blocked diagonals. On an even board, East (`out`
    /// of one) keeps those with no queen on a long diagonal, and West (`out` of three)
    /// sorts them by class, the number of long diagonals they hold (the main one's queen
    /// stands in the north quadrant, the anti-diagonal's in the south, so each piece tells
    /// its part), class 0 as `plain` says. On an odd board both keep all (`out` of
    /// one). `None` if `halted` says so before it starts or while a slab it needs is
    /// built (a half of N = 28, 30 million half-boards, takes a quarter of a second:
    /// asking within it cost 0.5% of a count of N = 16).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn collect(
        &mut self,
        g: &Geometry,
        table: &QuadrantTable,
        half: Half,
        rows: u32,
        plain: Plain,
        out: &mut [Vec<u64>],
        halted: &dyn Fn() -> bool,
    ) -> Option<()> {
        if halted() {
            return None;
        }
        let north_rows = rows & ((1 << g.side) - 1);
        let south_rows = rows >> g.south_row;
        let k = north_rows.count_ones();
        let (unwanted, classes) = if g.is_cross() {
            (0, Classes::One)
        } else if half.east {
            // East drops its north pieces on a long diagonal; West sorts them by class.
            (g.long_diagonals(), Classes::One)
        } else {
            let (main, anti) = (g.main_diagonal(), g.anti_diagonal());
            (0, Classes::Three { main, anti, plain })
        };
        let kernel = self.kernel;
        let south_cache = &mut self.south[usize::from(half.east)];
        south_cache.hold(g, table, half.east, south_rows, halted)?;
        let north_shape = g.key_shape(0, half.column);
        let north_slab = table.slab_until(north_rows, halted)?;
        let north_slab: &Slab = &north_slab;
        let splits = &mut self.splits;
        splits.clear();
        for_each_subset_of(half.columns, k, |columns| splits.push(columns));
        for (i, &columns) in splits.iter().enumerate() {
            if let Some(&ahead) = splits.get(i + FETCH_AHEAD) {
                // Its first line (eight pieces): a split has eight north pieces on
                // average at N = 16, where fetching four lines made a one-thread count
                // 5% slower.
                prefetch(north_slab.pieces(ahead).as_ptr());
            }
            let (from, to) = south_cache.ranges[(half.columns ^ columns) as usize];
            let (from, to) = (from as usize, to as usize);
            let north = North {
                pieces: north_slab.pieces(columns),
                shape: north_shape,
                south_row: g.south_row,
                unwanted,
                blocked: half.blocked[0],
                south_blocked: half.blocked[1],
            };
            let south = South {
                diagonals: &south_cache.diagonals[from..to],
                keys: &south_cache.keys[from..to],
            };
            pair_all(kernel, north, south, classes, out);
        }
        Some(())
    }

    /// Lets go of the south pieces held for West's half (filled again when next needed).
    pub(super) fn let_go_of_west_south(&mut self) {
        self.south[usize::from(false)] = SouthPieces::default();
    }

    /// How many pairs of a north and a south piece on complementary columns `half` has on
    /// these rows: its half-boards, diagonals not yet checked (a fifth to a quarter of
    /// them are half-boards, on a median row set of N = 22 to 26). Cheap beside building
    /// them: a product per column split, from the slabs and south pieces that building
    /// uses (fetched here for it). `None` if halted while a slab is built.
    pub(super) fn candidates(
        &mut self,
        g: &Geometry,
        table: &QuadrantTable,
        half: Half,
        rows: u32,
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let north_rows = rows & ((1 << g.side) - 1);
        let south_rows = rows >> g.south_row;
        let south_cache = &mut self.south[usize::from(half.east)];
        south_cache.hold(g, table, half.east, south_rows, halted)?;
        let north_slab = table.slab_until(north_rows, halted)?;
        let mut pairs = 0u64;
        for_each_subset_of(half.columns, north_rows.count_ones(), |columns| {
            let (from, to) = south_cache.ranges[(half.columns ^ columns) as usize];
            pairs += north_slab.pieces(columns).len() as u64 * u64::from(to - from);
        });
        Some(pairs)
    }
}

/// The south quadrant's pieces on one set of south rows, every column set apart, ready to
/// pair: consecutive row sets share their south rows (the high bits), and every class of
/// an odd board's row set its columns, so this is reused across them. Barred diagonals
/// are left to the pairing (a north piece carries them), so that one fill serves all.
#[derive(Default)]
struct SouthPieces {
    /// The south rows these pieces are for.
    holds: Option<u32>,
    /// For each column set, its range (empty for sets of another size).
    ranges: Vec<(u32, u32)>,
    /// Each piece's diagonals and key, apart (the pairing kernels load several at once).
    diagonals: Vec<u64>,
    keys: Vec<u64>,
}

impl SouthPieces {
    /// Holds the pieces on `rows` of East's or West's south quadrant (an even board's
    /// East leaves out those on a long diagonal), filled unless it holds them already.
    /// `None` (holding nothing) if halted while its slab is built.
    fn hold(
        &mut self,
        g: &Geometry,
        table: &QuadrantTable,
        east: bool,
        rows: u32,
        halted: &dyn Fn() -> bool,
    ) -> Option<()> {
        if self.holds == Some(rows) {
            return Some(());
        }
        self.holds = None;
        let half = g.half(east);
        self.ranges.clear();
        self.ranges.resize(1 << g.side, (0, 0));
        self.diagonals.clear();
        self.keys.clear();
        let long = if east && !g.is_cross() {
            g.long_diagonals()
        } else {
            0
        };
        let shape = g.key_shape(g.south_row, half.column);
        let slab = table.slab_until(rows, halted)?;
        let slab: &Slab = &slab;
        for_each_subset_of(half.columns, rows.count_ones(), |columns| {
            let start = self.keys.len() as u32;
            for &p in slab.pieces(columns) {
                let key = shape.key(p);
                if key & long == 0 {
                    self.diagonals.push(p);
                    self.keys.push(key);
                }
            }
            self.ranges[columns as usize] = (start, self.keys.len() as u32);
        });
        self.holds = Some(rows);
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::halves::geometry::for_each_subset;

    /// West's candidates bound its half-boards from above on every row set of the even
    /// boards N = 4 to 12, and each board has row sets where the bound is loose (pieces
    /// that clash on a diagonal) and row sets where it is met.
    #[test]
    fn candidates_bound_the_half_boards() {
        let never = || false;
        for n in (4..=12).step_by(2) {
            let g = Geometry::new(n);
            let table = QuadrantTable::new(g.side, u64::MAX);
            let mut scratch = HalfScratch::new(Kernel::detect());
            let mut out = [Vec::new(), Vec::new(), Vec::new()];
            let (mut looser, mut met) = (0, 0);
            for_each_subset(n as u32, g.side, |rows| {
                let west = g.half(false);
                let candidates = scratch.candidates(&g, &table, west, rows, &never).unwrap();
                out.iter_mut().for_each(Vec::clear);
                scratch
                    .collect(&g, &table, west, rows, Plain::Apart, &mut out, &never)
                    .unwrap();
                let built = out.iter().map(|keys| keys.len() as u64).sum::<u64>();
                assert!(built <= candidates, "n = {n}, rows {rows:b}");
                looser += usize::from(built < candidates);
                met += usize::from(built == candidates && built > 0);
            });
            assert!(looser > 0 && met > 0, "n = {n}: {looser} loose, {met} met");
        }
    }
}
