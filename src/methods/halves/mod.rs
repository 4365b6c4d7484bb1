//! The half-board join: a second counting method, for the larger boards.
//!
//! # The identity
//! Split the columns into West `[0, w)` and East `[w, n)`, `w = n / 2` (East is the wider
//! half when `n` is odd, by one column). A solution is exactly a set `R` of `n - w` rows
//! (those whose queen stands in East), an *east half-board* (a queen on each row of `R`
//! and each column of East, no two on a diagonal), a *west half-board* on the other rows,
//! and no diagonal shared between the halves. Rows and columns take care of themselves:
//!
//! ```text
//! total = sum over R of #{ (e, w) : e and w share no diagonal }
//! ```
//!
//! Only a band of `n - 1` diagonals of each direction can hold queens of both halves, so a
//! half-board's *contact key* (its diagonals inside the two bands) has `2n - 2` bits, and
//! for one `R` the count is the number of (east key, west key) pairs whose AND is zero:
//! [`pairs`] counts those in bulk.
//!
//! # Half-boards from quadrants
//! Rows split into North `[0, w)` and South `[w, n)`. An east half-board is a north-east
//! quadrant placement on the rows of `R` in North and some `k` columns of East, and a
//! south-east placement on the rest of `R` and the other columns, sharing no diagonal.
//! Every quadrant fits in the `s` x `s` square, `s = n - w`, so one table of that square's
//! placements ([`quadrants`]) serves all four quadrants and every `R`.
//!
//! # Symmetry
//! Let `m` say where the queen on the main diagonal (`r = c`) stands, `a` where the queen
//! on the anti-diagonal (`r + c = n - 1`) stands: West, East, or none. For odd `n` the
//! centre square lies on both and in East; call a solution with a queen there *central*.
//! - The transpose fixes the main diagonal square by square and maps the anti-diagonal
//!   square `(i, n-1-i)` to `(n-1-i, i)`, which is in the other half unless it is the
//!   centre. So among non-central solutions, `#(m, a = W) = #(m, a = E)`. Likewise the
//!   anti-transpose gives `#(m = W, a) = #(m = E, a)`. Hence
//!   `total = #central + #(-,-) + 2 #(-,W) + 2 #(W,-) + 4 #(W,W)`: east half-boards with a
//!   queen on either long diagonal are dropped (unless central), and a west half-board
//!   counts 2 for each long diagonal it occupies.
//! - The north-south reflection maps the solutions on `R` one to one onto those on its
//!   reverse, keeping East east and swapping `m` and `a` (sides kept): the weights above
//!   are symmetric in `m` and `a`, so only row sets `R <= reverse(R)` are counted, with
//!   weight 2 when `R < reverse(R)` (the sub-problem weight).
//! - For even `n`, the east-west reflection maps the solutions on `R` onto those on its
//!   complement, and the class `(-,-)` onto itself. Among counted row sets the partner of
//!   `R` is `R' = reverse(complement(R))`, also counted and with the same weight; so the
//!   west half-boards of class `(-,-)` count 2 on the smaller of `R` and `R'`, 0 on the
//!   larger (their matching is skipped), 1 when `R = R'`. Over each orbit of row sets the
//!   weights add up to the orbit's size; the tests check the total against brute force.
//!
//! The unique count and the orbit split come, as for backtracking, from the
//! rotation-fixed searches and Burnside: this method delivers the total.
//!
//! # Sub-problems
//! Sub-problem `i` is the `i`-th counted row set in increasing order: a pure function of
//! `n`. The quadrant table is shared read-only; each thread keeps its own buffers for
//! the keys of the row set it is counting.

pub mod pairs;
pub mod quadrants;

use crate::kernel::Tally;
use pairs::{Kernel, PairCounter};
use quadrants::QuadrantTable;

/// The smallest board the join counts (smaller ones go to backtracking).
pub const MIN_N: usize = 4;
/// The largest board it could count, memory allowing (keys must fit in 64 bits).
pub const MAX_N: usize = 32;

/// Marks a key whose east half-board has a queen on the centre square (odd `n`).
const CENTRAL: u64 = 1 << 63;

/// Where the halves and quadrants lie on an `n` x `n` board.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    n: u32,
    /// Columns of West, and rows of North.
    west: u32,
    /// Columns of East, and the side of the quadrant table.
    side: u32,
    /// `n - 1` low bits: one band of diagonals.
    band: u64,
}

/// One of the two halves, as the quadrant placements see it.
#[derive(Clone, Copy)]
struct Half {
    /// First column.
    column: u32,
    /// Columns.
    width: u32,
    east: bool,
}

impl Geometry {
    fn new(n: usize) -> Geometry {
        let n = n as u32;
        Geometry {
            n,
            west: n / 2,
            side: n - n / 2,
            band: (1u64 << (n - 1)) - 1,
        }
    }

    fn east(&self) -> Half {
        Half {
            column: self.west,
            width: self.side,
            east: true,
        }
    }

    fn west(&self) -> Half {
        Half {
            column: 0,
            width: self.west,
            east: false,
        }
    }

    /// Bits of the key: the d1 band, then the d2 band.
    fn key_bits(&self) -> u32 {
        2 * (self.n - 1)
    }

    /// The key bits the pair counter may sort patterns by, best first: diagonals beside
    /// the long ones, which many half-boards of both sides hold (east patterns never hold
    /// the long ones themselves).
    fn cut_bits(&self) -> Vec<u32> {
        let (d1, d2) = (self.side - 1, self.n - 1 + self.west - 1);
        [d1 - 1, d2 + 1, d1 + 1, d2 - 1]
            .into_iter()
            .filter(|&bit| bit < self.key_bits())
            .collect()
    }

    /// The key bit of the main diagonal (`r = c`, d2 = n - 1).
    fn main_diagonal(&self) -> u64 {
        1 << (self.n - 1 + self.west - 1)
    }

    /// The key bit of the anti-diagonal (`r + c = n - 1`, d1 = n - 1).
    fn anti_diagonal(&self) -> u64 {
        1 << (self.side - 1)
    }

    /// The contact key of a quadrant placement whose local square (0, 0) is the board's
    /// (`row`, `column`). Board diagonals: d1 = r + c, d2 = r - c + n - 1; the bands are
    /// d1 in `[w, n + w - 2]` and d2 in `[n - w, 2n - 2 - w]`.
    fn key_shape(&self, row: u32, column: u32) -> KeyShape {
        let (row, column, west, side) = (
            i64::from(row),
            i64::from(column),
            i64::from(self.west),
            i64::from(self.side),
        );
        let (d1, d2) = (row + column - west, row - column + west - side);
        KeyShape {
            d1_left: d1.max(0) as u32,
            d1_right: (-d1).max(0) as u32,
            d2_left: d2.max(0) as u32,
            d2_right: (-d2).max(0) as u32,
            band: self.band,
            d2_at: self.n - 1,
        }
    }

    /// Appends to `out` the key of every half-board of `half` on these rows (the key of a
    /// central one marked [`CENTRAL`]), leaving out those with a queen on a long diagonal
    /// unless central when `drop_long` is set.
    #[inline(always)]
    fn collect_half_boards(
        &self,
        table: &QuadrantTable,
        half: Half,
        rows: u32,
        drop_long: bool,
        scratch: &mut HalfScratch,
        out: &mut Vec<u64>,
    ) {
        let north_rows = rows & ((1 << self.west) - 1);
        let south_rows = rows >> self.west;
        let k = north_rows.count_ones();
        let long = if drop_long {
            self.main_diagonal() | self.anti_diagonal()
        } else {
            0
        };
        let south_cache = &mut scratch.south[usize::from(half.east)];
        if south_cache.holds != Some((south_rows, drop_long)) {
            south_cache.fill(self, table, half, south_rows, drop_long);
        }
        let north_shape = self.key_shape(0, half.column);
        let mut split = 0;
        for_each_subset(half.width, k, |columns| {
            let (from, to) = south_cache.ranges[split];
            split += 1;
            let south = &south_cache.pieces[from as usize..to as usize];
            let north = table.pieces(north_rows, columns);
            if north.is_empty() || south.is_empty() {
                return;
            }
            // North pieces with their diagonals moved to the south quadrant's frame (it
            // starts `west` rows lower), so that a pair is tested with one AND.
            scratch.north.clear();
            scratch.north.extend(north.iter().filter_map(|&p| {
                let key = north_shape.key(p);
                let moved = ((p & 0xffff_ffff) >> self.west) | ((p >> 32) >> self.west) << 32;
                (key & long == 0).then_some((moved, key))
            }));
            let north = &scratch.north;
            let start = out.len();
            out.resize(start + north.len() * south.len(), 0);
            let slots = &mut out[start..];
            let mut filled = 0;
            // Branch-free: every pair is written, and kept when it shares no diagonal.
            for &(p, south_key) in south {
                for &(moved, north_key) in north {
                    slots[filled] = north_key | south_key;
                    filled += usize::from(moved & p == 0);
                }
            }
            out.truncate(start + filled);
        });
    }
}

/// Calls `f` with every `k`-element subset of `0..width`, in increasing order.
#[inline(always)]
fn for_each_subset(width: u32, k: u32, mut f: impl FnMut(u32)) {
    if k > width {
        return;
    }
    if k == 0 {
        f(0);
        return;
    }
    let end = 1u64 << width;
    let mut set = (1u64 << k) - 1;
    while set < end {
        f(set as u32);
        // Gosper's hack: the next larger set with as many bits.
        let low = set & set.wrapping_neg();
        let ripple = set + low;
        set = ripple | (((set ^ ripple) >> 2) / low);
    }
}

/// Reverses the low `n` bits: row `r` becomes row `n - 1 - r`.
fn reverse_rows(rows: u32, n: u32) -> u32 {
    rows.reverse_bits() >> (32 - n)
}

/// Why the join cannot count a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Outside `MIN_N ..= MAX_N`.
    BoardSize,
    /// The quadrant table would need this many bytes, more than are available.
    Memory {
        /// Bytes the table needs (for the largest boards, a lower bound).
        needed: u64,
        /// Bytes available.
        available: u64,
    },
}

/// All the work of one count by halves, split into row sets.
pub struct Plan {
    /// Board side.
    pub n: usize,
    geometry: Geometry,
    table: QuadrantTable,
    /// The counted row sets (East's rows), in increasing order: sub-problem `i` is the
    /// `i`-th.
    row_sets: Vec<u32>,
}

impl Plan {
    /// Bytes the quadrant table for `n` needs.
    pub fn table_bytes(n: usize) -> u64 {
        QuadrantTable::bytes(Geometry::new(n).side)
    }

    /// Builds the table and lists the row sets, if `n` is in range and the table fits in
    /// `available` bytes.
    pub fn new(n: usize, available: u64) -> Result<Plan, Refusal> {
        if !(MIN_N..=MAX_N).contains(&n) {
            return Err(Refusal::BoardSize);
        }
        let needed = Plan::table_bytes(n);
        if needed > available {
            return Err(Refusal::Memory { needed, available });
        }
        let geometry = Geometry::new(n);
        let all = (1u64 << n) - 1;
        let mut row_sets = Vec::new();
        for_each_subset(n as u32, geometry.side, |rows| {
            if rows <= reverse_rows(rows, n as u32) {
                row_sets.push(rows);
            }
        });
        debug_assert!(row_sets.iter().all(|&r| u64::from(r) <= all));
        Ok(Plan {
            n,
            geometry,
            table: QuadrantTable::new(geometry.side),
            row_sets,
        })
    }

    /// Sub-problems: counted row sets.
    pub fn len(&self) -> usize {
        self.row_sets.len()
    }

    /// Whether there are none (never, for a board in range).
    pub fn is_empty(&self) -> bool {
        self.row_sets.is_empty()
    }

    /// The row set of sub-problem `id` (East's rows, bit `r` for row `r`).
    pub fn row_set(&self, id: usize) -> u32 {
        self.row_sets[id]
    }

    /// The weight of sub-problem `id`: 2 when its reverse is counted with it, else 1.
    pub fn weight(&self, id: usize) -> u32 {
        let rows = self.row_sets[id];
        if rows < reverse_rows(rows, self.n as u32) {
            2
        } else {
            1
        }
    }

    /// How the west half-boards of class (-,-) count on this row set (see the module
    /// docs): 0, 1 or 2 by the east-west reflection for even `n`, 1 for odd `n`.
    fn plain_weight(&self, rows: u32) -> u64 {
        let n = self.n as u32;
        if n % 2 == 1 {
            return 1;
        }
        let partner = reverse_rows(rows ^ (((1u64 << n) - 1) as u32), n);
        match rows.cmp(&partner) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 0,
        }
    }

    /// A rough relative cost of sub-problem `id`: the quadrant pairs its two halves test.
    pub fn estimated_cost(&self, id: usize) -> f64 {
        let g = &self.geometry;
        let east_rows = self.row_sets[id];
        let west_rows = east_rows ^ (((1u64 << g.n) - 1) as u32);
        [(g.east(), east_rows), (g.west(), west_rows)]
            .iter()
            .map(|&(half, rows)| {
                let (north_rows, south_rows) = (rows & ((1 << g.west) - 1), rows >> g.west);
                let all_columns = (1u32 << half.width) - 1;
                let mut pairs = 0f64;
                for_each_subset(half.width, north_rows.count_ones(), |columns| {
                    pairs += self.table.pieces(north_rows, columns).len() as f64
                        * self.table.pieces(south_rows, all_columns ^ columns).len() as f64;
                });
                pairs
            })
            .sum()
    }

    /// Bytes held by the shared table.
    pub fn heap_bytes(&self) -> u64 {
        self.table.heap_bytes() + self.row_sets.len() as u64 * 4
    }

    /// Counts sub-problem `id` (not yet weighted); `nodes` are the half-boards built. The
    /// kernel level of `scratch` decides what the half-boards are built with and which
    /// pair counter runs.
    pub fn solve(&self, id: usize, scratch: &mut Scratch) -> Tally {
        match scratch.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: a `Scratch` only holds an available kernel, and every level from
            // AVX2 up has these features (see `crate::cpu`).
            Kernel::Avx2 => unsafe { self.solve_avx2(id, scratch) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for the AVX-512 level.
            Kernel::Avx512 => unsafe { self.solve_avx512(id, scratch) },
            _ => self.solve_body(id, scratch),
        }
    }

    /// [`Plan::solve_body`] compiled for the AVX-512 level.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn solve_avx512(&self, id: usize, scratch: &mut Scratch) -> Tally {
        self.solve_body(id, scratch)
    }

    /// [`Plan::solve_body`] compiled for AVX2, BMI1/2, POPCNT and LZCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn solve_avx2(&self, id: usize, scratch: &mut Scratch) -> Tally {
        self.solve_body(id, scratch)
    }

    #[inline(always)]
    fn solve_body(&self, id: usize, scratch: &mut Scratch) -> Tally {
        let g = &self.geometry;
        let east_rows = self.row_sets[id];
        let west_rows = east_rows ^ (((1u64 << g.n) - 1) as u32);
        let (main, anti) = (g.main_diagonal(), g.anti_diagonal());

        let patterns = &mut scratch.patterns;
        patterns.clear();
        g.collect_half_boards(
            &self.table,
            g.east(),
            east_rows,
            true,
            &mut scratch.half,
            patterns,
        );
        let mut nodes = patterns.len() as u64;
        if patterns.is_empty() {
            return Tally {
                solutions: 0,
                nodes,
            };
        }
        for key in patterns.iter_mut() {
            *key &= !CENTRAL;
        }
        scratch.counter.load(patterns);

        let west = &mut scratch.west;
        west.clear();
        g.collect_half_boards(
            &self.table,
            g.west(),
            west_rows,
            false,
            &mut scratch.half,
            west,
        );
        nodes += west.len() as u64;
        let plain_weight = self.plain_weight(east_rows);
        // Sort the west keys by class (how many long diagonals they hold: 0, 1 or 2):
        // count, then place, without a branch per key.
        let class = |key: u64| usize::from(key & main != 0) + usize::from(key & anti != 0);
        let mut sizes = [0usize; 3];
        for &key in west.iter() {
            sizes[class(key)] += 1;
        }
        let mut next = [0, sizes[0], sizes[0] + sizes[1]];
        let sorted = &mut scratch.items;
        sorted.clear();
        sorted.resize(west.len(), 0);
        for &key in west.iter() {
            let c = class(key);
            sorted[next[c]] = key;
            next[c] += 1;
        }
        let (plain, rest) = sorted.split_at(sizes[0]);
        let (one, both) = rest.split_at(sizes[1]);
        let counter = &mut scratch.counter;
        let mut count = |items: &[u64]| {
            if items.is_empty() {
                0
            } else {
                counter.count(items)
            }
        };
        let plain_count = if plain_weight > 0 { count(plain) } else { 0 };
        Tally {
            solutions: plain_weight * plain_count + 2 * count(one) + 4 * count(both),
            nodes,
        }
    }

    /// Buffers for one thread's counts.
    pub fn scratch(&self, kernel: Kernel) -> Scratch {
        Scratch {
            kernel,
            counter: PairCounter::new(self.geometry.key_bits(), &self.geometry.cut_bits(), kernel),
            patterns: Vec::new(),
            west: Vec::new(),
            items: Vec::new(),
            half: HalfScratch::default(),
        }
    }
}

/// One thread's buffers: the east keys of the row set in hand, the west keys by weight.
pub struct Scratch {
    kernel: Kernel,
    counter: PairCounter,
    patterns: Vec<u64>,
    west: Vec<u64>,
    /// The west keys sorted by class.
    items: Vec<u64>,
    half: HalfScratch,
}

/// Where a quadrant's diagonals fall in the contact key: shifts for each band.
#[derive(Clone, Copy)]
struct KeyShape {
    d1_left: u32,
    d1_right: u32,
    d2_left: u32,
    d2_right: u32,
    band: u64,
    d2_at: u32,
}

impl KeyShape {
    /// The contact key of a piece (`d1 | d2 << 32`) placed in this quadrant.
    #[inline(always)]
    fn key(&self, piece: u64) -> u64 {
        let (d1, d2) = (piece & 0xffff_ffff, piece >> 32);
        let k1 = ((d1 << self.d1_left) >> self.d1_right) & self.band;
        let k2 = ((d2 << self.d2_left) >> self.d2_right) & self.band;
        k1 | k2 << self.d2_at
    }
}

/// One thread's buffers for building half-boards: the north pieces of one column split,
/// and per half the south pieces of every split, ready to pair as (diagonals, key).
#[derive(Default)]
struct HalfScratch {
    north: Vec<(u64, u64)>,
    south: [SouthPieces; 2],
}

/// The south quadrant's pieces of every column split of a half, prepared once for a set
/// of south rows: consecutive row sets share their south rows (the high bits), so this
/// is reused across them.
#[derive(Default)]
struct SouthPieces {
    /// The south rows and the long-diagonal filter these pieces are for.
    holds: Option<(u32, bool)>,
    /// For each column split, in the order `for_each_subset` gives them, its range.
    ranges: Vec<(u32, u32)>,
    pieces: Vec<(u64, u64)>,
}

impl SouthPieces {
    fn fill(
        &mut self,
        g: &Geometry,
        table: &QuadrantTable,
        half: Half,
        rows: u32,
        drop_long: bool,
    ) {
        self.ranges.clear();
        self.pieces.clear();
        let long = if drop_long {
            g.main_diagonal() | g.anti_diagonal()
        } else {
            0
        };
        let central = half.east && g.n % 2 == 1;
        let shape = g.key_shape(g.west, half.column);
        let all_columns = (1u32 << half.width) - 1;
        let north_queens = half.width - rows.count_ones();
        for_each_subset(half.width, north_queens, |north_columns| {
            let start = self.pieces.len() as u32;
            let south = table.pieces(rows, all_columns ^ north_columns);
            self.pieces.extend(south.iter().filter_map(|&p| {
                let key = shape.key(p);
                if central && p & 1 != 0 {
                    // The centre queen: its long diagonals are its own.
                    Some((p, key | CENTRAL))
                } else {
                    (key & long == 0).then_some((p, key))
                }
            }));
            self.ranges.push((start, self.pieces.len() as u32));
        });
        self.holds = Some((rows, drop_long));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::known::known;

    fn total(n: usize, kernel: Kernel) -> u128 {
        let plan = Plan::new(n, u64::MAX).unwrap();
        let mut scratch = plan.scratch(kernel);
        (0..plan.len())
            .map(|id| {
                u128::from(plan.weight(id)) * u128::from(plan.solve(id, &mut scratch).solutions)
            })
            .sum()
    }

    #[test]
    fn totals_match_the_table_with_every_kernel() {
        for kernel in Kernel::available() {
            for n in MIN_N..=12 {
                assert_eq!(
                    Some(total(n, kernel)),
                    known(n).map(|k| k.total),
                    "n = {n}, {kernel:?}"
                );
            }
        }
    }

    /// Every solution of the `n` board as `column[row]`, by plain backtracking.
    fn all_solutions(n: usize) -> Vec<Vec<usize>> {
        fn extend(n: usize, placed: &mut Vec<usize>, found: &mut Vec<Vec<usize>>) {
            if placed.len() == n {
                found.push(placed.clone());
                return;
            }
            let row = placed.len();
            for column in 0..n {
                let free = placed
                    .iter()
                    .enumerate()
                    .all(|(r, &c)| c != column && row - r != column.abs_diff(c));
                if free {
                    placed.push(column);
                    extend(n, placed, found);
                    placed.pop();
                }
            }
        }
        let mut found = Vec::new();
        extend(n, &mut Vec::new(), &mut found);
        found
    }

    /// What the module docs say each row set's count must be, from the solutions
    /// themselves: central ones count 1; a queen on a long diagonal in East counts 0; else
    /// 2 per long diagonal occupied in West, and the row set's plain weight when none is.
    #[test]
    fn each_row_set_counts_what_the_symmetry_argument_says() {
        for n in MIN_N..=10 {
            let plan = Plan::new(n, u64::MAX).unwrap();
            let mut scratch = plan.scratch(Kernel::detect());
            let west = n / 2;
            let mut want = std::collections::HashMap::<u32, u64>::new();
            for solution in all_solutions(n) {
                let rows = (0..n)
                    .filter(|&r| solution[r] >= west)
                    .fold(0u32, |set, r| set | 1 << r);
                let main = (0..n).find(|&r| solution[r] == r);
                let anti = (0..n).find(|&r| solution[r] == n - 1 - r);
                let east = |r: Option<usize>| r.is_some_and(|r| solution[r] >= west);
                let central = n % 2 == 1 && solution[n / 2] == n / 2;
                let weight = if central {
                    1
                } else if east(main) || east(anti) {
                    0
                } else if main.is_none() && anti.is_none() {
                    plan.plain_weight(rows)
                } else {
                    1 << (u32::from(main.is_some()) + u32::from(anti.is_some()))
                };
                *want.entry(rows).or_default() += weight;
            }
            for id in 0..plan.len() {
                let rows = plan.row_set(id);
                let got = plan.solve(id, &mut scratch).solutions;
                assert_eq!(
                    got,
                    want.get(&rows).copied().unwrap_or(0),
                    "n = {n}, rows {rows:b}"
                );
            }
        }
    }

    #[test]
    fn subsets_come_in_increasing_order() {
        let mut seen = Vec::new();
        for_each_subset(6, 3, |s| seen.push(s));
        assert_eq!(seen.len(), 20);
        assert!(seen.windows(2).all(|w| w[0] < w[1]));
        assert!(seen.iter().all(|s| s.count_ones() == 3 && *s < 64));
    }
}
