//! An odd board split around its centre row and column: the join's sub-problems there.
//!
//! # The split
//! On an odd board, `n = 2m + 1`, every solution has a queen on the centre row (row `m`)
//! and one on the centre column (column `m`). Either one queen stands on the centre square
//! (a *central* solution), or the centre column's queen stands on a row `a != m` and the
//! centre row's on a column `b != m`, with `|a - m| != |b - m|` (else they would share a
//! diagonal). Take those queens away with their rows and columns: the others stand in four
//! `m` x `m` quadrants, West being columns `[0, m)` and East `[m + 1, n)`, less column
//! `b`. The join counts them as on an even board, every half-board barred from the taken
//! queens' diagonals. Barring those diagonals thins both halves, so a row set has far
//! fewer pairs to test than with one half a column wider (N = 17: a sixth, counted
//! without cuts).
//!
//! # Symmetry
//! The eight symmetries of the square map the centre row and column onto themselves.
//! With `α = a - m` and `β = b - m`, they act on `(α, β)` by changing either sign and by
//! swapping the two (a transpose makes the column's queen the row's): an orbit of eight
//! pairs, none fixed (`α, β != 0`, `|α| != |β|`), with one member where `a < b < m`. So
//! the solutions that are not central are 8 times those with `a < b < m`: one *class*
//! per such pair, `m(m - 1)/2` of them. There the centre row's queen stands in West,
//! which keeps `m - 1` columns and rows, and East keeps all `m`.
//!
//! A central solution's queen bars both long diagonals, and the north-south and
//! east-west reflections keep it: the first maps East's row set `R` to its reverse, the
//! second to its complement (the halves swapped). A row set stands for its orbit under
//! those (1, 2 or 4 row sets): the smallest is counted, weighted by the orbit's size.
//!
//! # Sub-problems
//! Sub-problem `i` is the `i`-th of East's row sets (any `m` rows but the centre one), in
//! increasing order: C(2m, m) of them, 184,756 at N = 21. It builds East's half-boards on
//! those rows once for each centre column's queen, and counts them (less those on a
//! barred diagonal) against West's for every *pin* the rows allow: the central queen, if
//! the row set is the smallest of its orbit, and each class `(a, b)` whose row `a` is
//! West's. The classes of one `a` share East and are counted together, East's bars
//! carried by West's keys ([`count_together`]). Its tally is weighted already
//! (the orbit's size, or 8), so its weight as a sub-problem is 1. It touches at most
//! `m + 3` slabs of the table: East's north and south, West's south, and West's north
//! without each `a`.
//!
//! From N = 27, where a row set takes tens of seconds to minutes, each row set is `m`
//! sub-problems ([`Cross::apart`]): sub-problem `i * m` its central pin, `i * m + 1 + a`
//! its classes whose centre column's queen stands on row `a` (empty where row `a` is
//! East's, or `a = m - 1`, which has no class). A row set builds East's half-boards
//! once for each `a` anyway, so the split costs nothing but the ids.

use super::cuts;
use super::geometry::{Bars, Geometry, Half, for_each_subset_of, reverse_rows};
use super::meet::Meet;
use super::piece_pairs::Plain;
use super::quadrants::QuadrantTable;
use super::scratch::Scratch;

/// The sub-problems of an odd board.
pub(super) struct Cross {
    /// East's row sets (bit `r` for row `r`), in increasing order.
    row_sets: Vec<u32>,
    /// Sub-problems per row set: 1, or `m` with its pins apart.
    per_row_set: usize,
}

/// One way the centre row and column hold their queens, on one row set: East's half (its
/// barred diagonals: the centre column's queen's), the key bits East's half-boards must
/// also lack (the centre row's queen's, all inside the bands), West's half and rows, and
/// what each solution found stands for. Consecutive pins share East's half while the
/// centre column's queen stays.
pub(super) struct Pin {
    pub(super) east: Half,
    pub(super) east_bars: u64,
    pub(super) west: Half,
    pub(super) west_rows: u32,
    pub(super) weight: u64,
}

impl Cross {
    pub(super) fn new(g: &Geometry) -> Cross {
        assert!(g.is_cross());
        let mut row_sets = Vec::new();
        for_each_subset_of(Self::open(g), g.side, |rows| row_sets.push(rows));
        Cross {
            row_sets,
            per_row_set: 1,
        }
    }

    /// The same row sets, each one's pins apart by the centre column's queen (see the
    /// module docs).
    pub(super) fn apart(self, g: &Geometry) -> Cross {
        Cross {
            per_row_set: g.side as usize,
            ..self
        }
    }

    /// Every row but the centre one.
    fn open(g: &Geometry) -> u32 {
        ((1u32 << g.n) - 1) ^ 1 << g.side
    }

    pub(super) fn len(&self) -> usize {
        self.row_sets.len() * self.per_row_set
    }

    /// The sub-problems as blocks of consecutive ids: (row sets, ids per row set).
    pub(super) fn blocks(&self) -> (usize, usize) {
        (self.row_sets.len(), self.per_row_set)
    }

    /// Bytes of its list.
    pub(super) fn heap_bytes(&self) -> u64 {
        self.row_sets.len() as u64 * 4
    }

    /// East's rows in sub-problem `id`.
    pub(super) fn row_set(&self, id: usize) -> u32 {
        self.row_sets[id / self.per_row_set]
    }

    /// Which of its row set's pins sub-problem `id` counts: all (`None`), or those of
    /// one slot (0: the central pin; `1 + a`: the classes of row `a`).
    pub(super) fn slot(&self, id: usize) -> Option<usize> {
        (self.per_row_set > 1).then_some(id % self.per_row_set)
    }

    /// How many row sets the central solutions on East's `rows` stand for: the size of
    /// its orbit under the two reflections when it is the smallest there, else 0.
    pub(super) fn central_weight(g: &Geometry, rows: u32) -> u64 {
        let open = Self::open(g);
        let mut orbit = [
            rows,
            reverse_rows(rows, g.n),
            open ^ rows,
            reverse_rows(open ^ rows, g.n),
        ];
        if orbit.iter().any(|&other| other < rows) {
            return 0;
        }
        orbit.sort_unstable();
        1 + orbit.windows(2).filter(|w| w[0] != w[1]).count() as u64
    }

    /// Calls `f` with each pin East's `rows` allow (the central one first, then by the
    /// row of the centre column's queen), or those of one `slot` (see [`Cross::slot`]),
    /// until it returns `false`.
    pub(super) fn for_each_pin(
        g: &Geometry,
        rows: u32,
        slot: Option<usize>,
        mut f: impl FnMut(Pin) -> bool,
    ) {
        // `n = 2m + 1`: the centre row and column are `m`.
        let m = g.side;
        let west_rows = Self::open(g) ^ rows;
        let central = Self::central_weight(g, rows);
        let takes = |s: usize| slot.is_none_or(|slot| slot == s);
        if central > 0 && takes(0) {
            let bars = Bars::of_queen(g, m, m);
            let pin = Pin {
                east: bars.half(g, true, None),
                east_bars: 0,
                west: bars.half(g, false, None),
                west_rows,
                weight: central,
            };
            if !f(pin) {
                return;
            }
        }
        for a in (0..m).filter(|&a| west_rows >> a & 1 != 0 && takes(1 + a as usize)) {
            let column_queen = Bars::of_queen(g, a, m);
            let east = column_queen.half(g, true, None);
            for b in a + 1..m {
                let row_queen = Bars::of_queen(g, m, b);
                let pin = Pin {
                    east,
                    east_bars: row_queen.key(g),
                    west: column_queen.and(row_queen).half(g, false, Some(b)),
                    west_rows: west_rows ^ 1 << a,
                    weight: 8,
                };
                if !f(pin) {
                    return;
                }
            }
        }
    }
}

/// Counts `pins`, which share East's half-boards (in `scratch.patterns`) and weight,
/// in one go (not weighted); `None` if halted. Their West half-boards are put
/// together, each key with its pin's East bars added, and counted against all of
/// East: a pair whose East key holds a bar of the West key's pin shares that bit, so
/// it is not counted, as if East had been cleared of those bars pin by pin. East is
/// sorted by cut once for all the pins, not once a pin, and the cut bits may fall on
/// the bars: `count 25 --shard 29/200000` (2 threads) took 2.37 s against 3.26 s pin by
/// pin, `count 23 --shard 7/2000` 3.74 s against 4.67 s. Adds the half-boards built to
/// `nodes`: a pin's West is built where some East key is clear of its bars.
#[inline(always)]
pub(super) fn count_together(
    g: &Geometry,
    table: &QuadrantTable,
    pins: &[Pin],
    scratch: &mut Scratch,
    per_load: usize,
    nodes: &mut u64,
    halted: &dyn Fn() -> bool,
) -> Option<u64> {
    let Scratch {
        counter,
        patterns: east,
        half,
        west_of_pins: west,
        ..
    } = scratch;
    west.clear();
    for pin in pins {
        if !east.iter().any(|&key| key & pin.east_bars == 0) {
            continue;
        }
        let from = west.len();
        let out = std::slice::from_mut(&mut *west);
        half.collect(g, table, pin.west, pin.west_rows, Plain::Apart, out, halted)?;
        *nodes += (west.len() - from) as u64;
        west[from..]
            .iter_mut()
            .for_each(|key| *key |= pin.east_bars);
    }
    if west.is_empty() {
        return Some(0);
    }
    counter.count_disjoint(east, west, per_load, halted)
}

/// Counts (or sizes) `pins`, which share East's half-boards (in `scratch.patterns`)
/// and weight, one by one (not weighted): East's keys clear of each pin's bars
/// against its West's; `None` if halted. Adds the half-boards built to `nodes`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn count_one_by_one(
    g: &Geometry,
    table: &QuadrantTable,
    pins: &[Pin],
    meet: Meet,
    scratch: &mut Scratch,
    per_load: usize,
    nodes: &mut u64,
    halted: &dyn Fn() -> bool,
) -> Option<u64> {
    let Scratch {
        kernel,
        counter,
        patterns: east,
        classes,
        half,
        cleared,
        ..
    } = scratch;
    let west = &mut classes[0];
    let mut found = 0;
    for pin in pins {
        let east = cuts::clear_of(*kernel, east, pin.east_bars, cleared);
        if east.is_empty() {
            continue;
        }
        west.clear();
        let out = std::slice::from_mut(&mut *west);
        half.collect(g, table, pin.west, pin.west_rows, Plain::Apart, out, halted)?;
        *nodes += west.len() as u64;
        found += match meet {
            Meet::Count => counter.count_disjoint(east, west, per_load, halted)?,
            Meet::Size => east.len() as u64 * west.len() as u64,
        };
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::super::join::Join;
    use super::super::join::tests::check_counts;
    use super::*;
    use crate::cpu::Kernel;

    /// Each sub-problem counts what the module docs say, from the solutions themselves:
    /// on East's rows, the central ones times the row set's central weight, and 8 times
    /// those with the queens of a class.
    #[test]
    fn each_sub_problem_counts_the_solutions_it_stands_for() {
        for n in (5..=11).step_by(2) {
            let g = Geometry::new(n);
            let cross = Cross::new(&g);
            let plan = Join::new(n, None, 1).unwrap();
            assert_eq!(plan.len(), cross.len());
            let mut scratch = plan.scratch(Kernel::detect());
            let m = n / 2;
            let mut want = std::collections::HashMap::<u32, u64>::new();
            for s in crate::oracle::all_solutions(n) {
                let rows = (0..n)
                    .filter(|&r| s[r] > m)
                    .fold(0u32, |set, r| set | 1 << r);
                let a = (0..n).find(|&r| s[r] == m).unwrap();
                let weight = if a == m {
                    Cross::central_weight(&g, rows)
                } else if a < s[m] && s[m] < m {
                    8
                } else {
                    0
                };
                *want.entry(rows).or_default() += weight;
            }
            let ids = (0..cross.len()).map(|id| (id, cross.row_set(id)));
            check_counts(&plan, &mut scratch, ids, &want);
        }
    }

    /// Each central row set stands for its orbit, each class for eight.
    #[test]
    fn the_weights_cover_every_row_set_and_class_once() {
        for n in (5..=15).step_by(2) {
            let g = Geometry::new(n);
            let cross = Cross::new(&g);
            let m = n as u32 / 2;
            let central: u64 = (0..cross.len())
                .map(|id| Cross::central_weight(&g, cross.row_set(id)))
                .sum();
            assert_eq!(central, binomial(2 * m, m), "n = {n}");
            let mut classes = 0;
            for id in 0..cross.len() {
                Cross::for_each_pin(&g, cross.row_set(id), None, |pin| {
                    classes += u32::from(pin.weight == 8);
                    true
                });
            }
            // Each class (a, b) is pinned on every row set without row a.
            let per_class = binomial(2 * m - 1, m) as u32;
            assert_eq!(
                8 * classes,
                ((2 * m) * (2 * m) - 2 * (2 * m)) * per_class,
                "n = {n}"
            );
        }
    }

    fn binomial(n: u32, k: u32) -> u64 {
        (0..u64::from(k)).fold(1, |c, i| c * (u64::from(n) - i) / (i + 1))
    }
}
