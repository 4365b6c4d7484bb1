//! The join as a counting method: its sub-problems (the counted row sets), their weights,
//! and the worker loop that counts one row set at a time.

use super::cross::{self, Cross};
use super::cuts;
use super::geometry::{Geometry, for_each_subset, reverse_rows};
use super::inner::{self, EAST_QUEENS_FROM, InnerPin, PIN_FROM, inner_pins};
use super::meet::Meet;
use super::memory;
use super::piece_pairs::Plain;
use super::quadrants::QuadrantTable;
use super::scratch::Scratch;
use crate::cpu::Kernel;
#[cfg(target_arch = "x86_64")]
use crate::cpu::KernelLevel;
use crate::methods::refusal::Refusal;
use crate::schedule::Solver;
use crate::tally::Tally;

/// The smallest board the join counts (smaller ones go to backtracking).
pub const SMALLEST_N: usize = 4;
/// The largest board it counts, memory allowing: its quadrants are the largest the table
/// holds.
pub const LARGEST_N: usize = 2 * QuadrantTable::MAX_SIDE as usize;

/// Patterns the pair counter loads at once: a larger East is counted a piece of this
/// many at a time, each against every item (the pairs add up). A load holds its patterns
/// sorted (8 bytes each) and one bucket's blocks at a time, so the bound is on those.
/// A larger load takes more cut bits, and each item visits a smaller share of it: pins
/// of N = 28 took 18 to 34% less time with loads of 2^24 than of 2^22 (`count 28
/// --shard k/280840224 --threads 1`, k = 20000003: 15.0 -> 9.9 s; 100000007: 12.3 ->
/// 9.0 s; 140000001: 11.9 -> 9.6 s; 200000011: 24.6 -> 20.1 s; peak 0.72 to 1.04 GB ->
/// 0.78 to 1.14 GB), a pin of N = 27 7% less.
const PATTERNS_PER_LOAD: usize = 1 << 24;

/// From this board up, each pin of an even board's row set (West's inner-column queen on
/// one of West's rows, see `inner`) is a sub-problem of its own: one row set of N = 28
/// took 20 to 1,069 s on one thread, too long a unit to requeue or to sample in a
/// minute. Below it a row set is one sub-problem (N = 26's take seconds).
pub(super) const PINS_APART_FROM: usize = 28;

/// From this odd board up, each row set's pins are sub-problems by the centre column's
/// queen (see `cross`): a row set of N = 27 took 7 to 66 s on one thread, too coarse
/// a unit to sample in a minute (four of them were timed).
pub(super) const CROSS_APART_FROM: usize = 27;

/// All the work of one count by halves, split into row sets.
pub struct Join {
    /// Board side.
    pub n: usize,
    geometry: Geometry,
    table: QuadrantTable,
    pieces: Pieces,
    /// West's candidate half-boards from which an even row set is counted pin by pin
    /// (`inner`).
    pin_from: u64,
    /// Patterns the pair counter loads at once ([`PATTERNS_PER_LOAD`]).
    patterns_per_load: usize,
    /// Count each row set the other way (a second decomposition, to check a count by):
    /// an even one pin by pin where it would be counted whole, and whole where pin by
    /// pin; an odd one's pins one by one, not together.
    other_way: bool,
    /// Build East queen by queen of its inner column, and count each pin against each
    /// ([`EAST_QUEENS_FROM`], see `inner`).
    east_by_queen: bool,
}

/// The sub-problems, by the board's parity.
enum Pieces {
    /// An even board's counted row sets (East's rows), in increasing order: sub-problem
    /// `i` is the `i`-th.
    RowSets(Vec<u32>),
    /// The same, each row set's pins apart ([`PINS_APART_FROM`]): sub-problem
    /// `i * side + j` is the `i`-th row set with its inner-column queen on the `j`-th of
    /// West's rows.
    Pins(Vec<u32>),
    /// An odd board's, split around its centre row and column.
    Cross(Cross),
}

impl Join {
    /// Whether this build can count board `n` by halves, memory allowing.
    pub fn takes(n: usize) -> bool {
        (SMALLEST_N..=LARGEST_N).contains(&n)
    }

    /// Lists the row sets and makes the (unbuilt) table, if `n` is in range and the table
    /// fits in `budget` bytes (`None`: no limit). A run that counts one of `parts` shares
    /// of the row sets needs at most the slabs those touch (see `memory`), so a small
    /// shard of a large board fits where the whole table would not.
    pub fn new(n: usize, budget: Option<u64>, parts: usize) -> Result<Join, Refusal> {
        if n > LARGEST_N {
            return Err(Refusal::Memory {
                needed: memory::table_bytes(n),
                budget: None,
            });
        }
        if !Join::takes(n) {
            return Err(Refusal::BoardSize);
        }
        let geometry = Geometry::new(n);
        let room = memory::table_room(n, budget);
        let pieces = if geometry.is_cross() {
            let cross = Cross::new(&geometry);
            Pieces::Cross(if n >= CROSS_APART_FROM {
                cross.apart(&geometry)
            } else {
                cross
            })
        } else {
            let mut row_sets = Vec::new();
            for_each_subset(n as u32, geometry.side, |rows| {
                if rows <= reverse_rows(rows, n as u32) {
                    row_sets.push(rows);
                }
            });
            if n >= PINS_APART_FROM {
                Pieces::Pins(row_sets)
            } else {
                Pieces::RowSets(row_sets)
            }
        };
        let join = Join {
            n,
            geometry,
            table: QuadrantTable::new(geometry.side, room),
            pieces,
            pin_from: PIN_FROM,
            patterns_per_load: PATTERNS_PER_LOAD,
            other_way: false,
            east_by_queen: n >= EAST_QUEENS_FROM,
        };
        let needed = memory::table_bytes_for(n, join.len(), parts, room);
        if budget.is_some_and(|budget| needed > budget) {
            return Err(Refusal::Memory { needed, budget });
        }
        Ok(join)
    }

    /// The same plan, each row set counted the other way: an even one pin by pin where
    /// it would be counted whole, and whole where pin by pin (where each pin is a
    /// sub-problem of its own, with East whole where it is built queen by queen, and the
    /// reverse); an odd one's pins one by one, each against East's keys clear of its
    /// bars, where they are counted together.
    pub fn the_other_way(mut self) -> Join {
        match self.pieces {
            Pieces::RowSets(_) | Pieces::Cross(_) => self.other_way = true,
            Pieces::Pins(_) => self.east_by_queen = !self.east_by_queen,
        }
        self
    }

    /// Sub-problems: counted row sets (an odd board's: see `cross`).
    pub fn len(&self) -> usize {
        match &self.pieces {
            Pieces::RowSets(row_sets) => row_sets.len(),
            Pieces::Pins(row_sets) => row_sets.len() * self.geometry.side as usize,
            Pieces::Cross(cross) => cross.len(),
        }
    }

    /// The sub-problems as blocks of consecutive ids, the unit a shard keeps together
    /// where it can: (blocks, ids per block), a row set's pins when apart, else one.
    pub fn blocks(&self) -> (usize, usize) {
        match &self.pieces {
            Pieces::Pins(row_sets) => (row_sets.len(), self.geometry.side as usize),
            Pieces::Cross(cross) => cross.blocks(),
            Pieces::RowSets(_) => (self.len(), 1),
        }
    }

    /// Whether there are none (never, for a board in range).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The weight of sub-problem `id`: on an even board, 2 when its row set's reverse is
    /// counted with it, else 1; an odd board's, see `cross`.
    pub fn weight(&self, id: usize) -> u32 {
        if self.geometry.is_cross() {
            return 1;
        }
        let rows = self.east_rows(id);
        if rows < reverse_rows(rows, self.n as u32) {
            2
        } else {
            1
        }
    }

    /// How many sub-problems share a row set, its East half-boards and its slabs, where
    /// they are a row set's pins (N = 28: each of West's rows, in consecutive ids).
    pub fn pins_per_row_set(&self) -> Option<usize> {
        match &self.pieces {
            Pieces::Pins(_) => Some(self.geometry.side as usize),
            Pieces::RowSets(_) | Pieces::Cross(_) => None,
        }
    }

    /// Builds what sub-problem `id` shares with the other pins of its row set (East's
    /// half-boards, and their slabs), unless the scratch holds it already; `None` if
    /// halted. Nothing where sub-problems share nothing.
    pub fn build_shared(
        &self,
        id: usize,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<()> {
        match &self.pieces {
            Pieces::Pins(_) => self.load_east(self.east_rows(id), scratch, halted),
            Pieces::RowSets(_) | Pieces::Cross(_) => Some(()),
        }
    }

    /// East's rows of sub-problem `id`.
    fn east_rows(&self, id: usize) -> u32 {
        match &self.pieces {
            Pieces::RowSets(row_sets) => row_sets[id],
            Pieces::Pins(row_sets) => row_sets[id / self.geometry.side as usize],
            Pieces::Cross(cross) => cross.row_set(id),
        }
    }

    /// East's rows of sub-problem `id` in North, a class of its size known before it is
    /// counted (see `sample`): it sets how its queens share the quadrants, and so how
    /// many half-boards each side has.
    pub(super) fn north_rows(&self, id: usize) -> u32 {
        self.east_rows(id) & ((1u32 << self.geometry.side) - 1)
    }

    /// How the west half-boards of class (-,-) count on this row set of an even board
    /// (see the module docs): 0, 1 or 2 by the east-west reflection.
    fn plain_weight(&self, rows: u32) -> u64 {
        let n = self.n as u32;
        let partner = reverse_rows(rows ^ (((1u64 << n) - 1) as u32), n);
        match rows.cmp(&partner) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 0,
        }
    }

    /// Bytes of slabs the table keeps (see `memory::table_room`).
    pub fn table_room(&self) -> u64 {
        self.table.room()
    }

    /// Bytes held by the shared table now.
    pub fn heap_bytes(&self) -> u64 {
        let listed = match &self.pieces {
            Pieces::RowSets(row_sets) | Pieces::Pins(row_sets) => row_sets.len() as u64 * 4,
            Pieces::Cross(cross) => cross.heap_bytes(),
        };
        self.table.heap_bytes() + listed
    }

    /// Bytes of every slab of the table built so far, those dropped since included, and
    /// the seconds building them took (one at a time).
    pub fn built(&self) -> (u64, f64) {
        (self.table.built_bytes(), self.table.building_seconds())
    }

    /// Counts sub-problem `id` (not yet weighted); `nodes` are the half-boards built. The
    /// kernel level of `scratch` decides what the half-boards are built with and which
    /// pair counter runs.
    pub fn solve(&self, id: usize, scratch: &mut Scratch) -> Tally {
        self.solve_until(id, scratch, &|| false)
            .expect("never halted")
    }

    /// [`Join::solve`], abandoned (`None`) once `halted` says so: the pair counter asks
    /// it every few milliseconds, so a stop never waits for a row set (tens of seconds
    /// at N = 26).
    pub fn solve_until(
        &self,
        id: usize,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        self.meet(id, Meet::Count, scratch, halted)
    }

    /// The size of sub-problem `id`, `None` if halted: found by building its half-boards
    /// without counting (a few percent of the count's time at N = 27). A projection
    /// times a few sub-problems and sizes many (see `sample`).
    pub fn size(
        &self,
        id: usize,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Size> {
        let tally = self.meet(id, Meet::Size, scratch, halted)?;
        Some(Size {
            pairs: tally.solutions,
            built: tally.nodes,
        })
    }

    /// Counts or sizes sub-problem `id` with the scratch's kernel.
    fn meet(
        &self,
        id: usize,
        meet: Meet,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        match scratch.kernel.level() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the scratch's kernel token proves the CPU has the AVX2 level.
            KernelLevel::Avx2 => unsafe { self.meet_avx2(id, meet, scratch, halted) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the scratch's kernel token proves the CPU has the AVX-512 level.
            KernelLevel::Avx512 => unsafe { self.meet_avx512(id, meet, scratch, halted) },
            _ => self.meet_body(id, meet, scratch, halted),
        }
    }

    /// [`Join::meet_body`] compiled for the AVX-512 level.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vpopcntdq,avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn meet_avx512(
        &self,
        id: usize,
        meet: Meet,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        self.meet_body(id, meet, scratch, halted)
    }

    /// [`Join::meet_body`] compiled for AVX2, BMI1/2, POPCNT and LZCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn meet_avx2(
        &self,
        id: usize,
        meet: Meet,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        self.meet_body(id, meet, scratch, halted)
    }

    #[inline(always)]
    fn meet_body(
        &self,
        id: usize,
        meet: Meet,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        match &self.pieces {
            Pieces::RowSets(row_sets) => {
                self.count_row_set(row_sets[id], None, meet, scratch, halted)
            }
            Pieces::Pins(row_sets) => {
                let side = self.geometry.side as usize;
                let slot = Some(id % side);
                self.count_row_set(row_sets[id / side], slot, meet, scratch, halted)
            }
            Pieces::Cross(cross) => {
                let (rows, slot) = (cross.row_set(id), cross.slot(id));
                self.count_pins(rows, slot, meet, scratch, halted)
            }
        }
    }

    /// Counts the solutions on one row set of an even board, `None` if halted: East's
    /// half-boards against West's, by class (the pair counter loads whichever side is
    /// faster, see `pairs`). With a `slot`, only
    /// those with West's inner-column queen on the `slot`-th of West's rows (`inner`);
    /// without, all, pin by pin where West is large.
    ///
    /// East's half-boards count among the nodes of each pin counted apart, whether built
    /// for it or kept from the worker's previous pin: a pin's nodes are the same wherever
    /// it ran.
    #[inline(always)]
    fn count_row_set(
        &self,
        east_rows: u32,
        slot: Option<usize>,
        meet: Meet,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        let g = &self.geometry;
        let west_rows = east_rows ^ (((1u64 << g.n) - 1) as u32);
        self.load_east(east_rows, scratch, halted)?;
        let east = scratch.east_len();
        let mut nodes = east as u64;
        if east == 0 {
            return Some(Tally {
                solutions: 0,
                nodes,
            });
        }
        // West's half-boards count by class (how many long diagonals they hold).
        let weights = [self.plain_weight(east_rows), 2, 4];
        let whole = match slot {
            Some(_) => false,
            None => {
                let west = g.half(false);
                let candidates =
                    (scratch.half).candidates(g, &self.table, west, west_rows, halted)?;
                (candidates < self.pin_from) != self.other_way
            }
        };
        let solutions = if whole {
            let parts = std::iter::once(InnerPin::none(g, west_rows));
            self.count_west(parts, weights, meet, scratch, &mut nodes, halted)?
        } else {
            // One pin, or every one.
            let (skip, take) = slot.map_or((0, usize::MAX), |slot| (slot, 1));
            let parts = inner_pins(g, west_rows).skip(skip).take(take);
            self.count_west(parts, weights, meet, scratch, &mut nodes, halted)?
        };
        Some(Tally { solutions, nodes })
    }

    /// Puts the keys of East's half-boards on `east_rows` in `scratch.patterns`, unless
    /// they are there already; `None` if halted.
    #[inline(always)]
    fn load_east(
        &self,
        east_rows: u32,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<()> {
        if scratch.east_of == Some(east_rows) {
            return Some(());
        }
        let g = &self.geometry;
        scratch.east_of = None;
        let by_queen = self.east_by_queen;
        inner::collect_east(g, &self.table, east_rows, by_queen, scratch, halted)?;
        scratch.east_of = Some(east_rows);
        Some(())
    }

    /// Counts West's half-boards of each part against East's keys (`scratch.patterns`)
    /// clear of its pin's queen, weighted by class (or sizes them, see [`Meet`]);
    /// `None` if halted. Adds the half-boards built to `nodes`.
    #[inline(always)]
    fn count_west(
        &self,
        parts: impl Iterator<Item = InnerPin>,
        weights: [u64; 3],
        meet: Meet,
        scratch: &mut Scratch,
        nodes: &mut u64,
        halted: &dyn Fn() -> bool,
    ) -> Option<u64> {
        let g = &self.geometry;
        let Scratch {
            kernel,
            counter,
            patterns: east,
            classes,
            half,
            cleared,
            east_parts,
            presorted,
            ..
        } = scratch;
        let mut solutions = 0;
        for part in parts {
            classes.iter_mut().for_each(Vec::clear);
            // A West half-board holds no long diagonal its pin's queen holds: a pin on
            // one makes each of its half-boards a class higher.
            let class_weights: [u64; 3] =
                std::array::from_fn(|i| weights.get(part.class + i).copied().unwrap_or(0));
            let plain = match class_weights {
                [0, ..] => Plain::Dropped,
                [plain, one, _] if plain == one => Plain::WithOne,
                _ => Plain::Apart,
            };
            let (west, west_rows) = (part.west, part.west_rows);
            half.collect(g, &self.table, west, west_rows, plain, classes, halted)?;
            // A pin apart takes seconds; the next one has other south rows about half
            // the time. Its West's south pieces (up to 268 MB at N = 28, twice their
            // slab) are not held through the count.
            if self.pins_per_row_set().is_some() {
                half.let_go_of_west_south();
            }
            let built = classes.iter().map(|c| c.len() as u64).sum::<u64>();
            *nodes += built;
            if built == 0 {
                continue;
            }
            let counted = 3 - part.class;
            let per_load = self.patterns_per_load;
            if !east_parts.is_empty() {
                let bars = part.east_bars;
                if meet == Meet::Size {
                    let clear = inner::clear_by_east_queen(east_parts, bars);
                    solutions += clear as u64 * built;
                    continue;
                }
                let west = (&mut classes[..counted], class_weights);
                let buffers = (&mut *cleared, &mut *presorted);
                solutions += inner::count_by_east_queen(
                    *kernel, counter, east_parts, bars, west, buffers, per_load, halted,
                )?;
                continue;
            }
            let weighted: [(&[u64], u64); 3] =
                std::array::from_fn(|i| (classes[i].as_slice(), class_weights[i]));
            let lists = &weighted[..counted];
            let east = cuts::clear_of(*kernel, east, part.east_bars, cleared);
            if east.is_empty() {
                continue;
            }
            if meet == Meet::Size {
                solutions += east.len() as u64 * built;
                continue;
            }
            solutions += counter.count_weighted_disjoint(east, lists, per_load, halted)?;
        }
        Some(solutions)
    }

    /// Counts the solutions on one row set of an odd board, every pin it allows or
    /// those of one `slot` (see `cross`), weighted; `None` if halted. East's half-boards
    /// are built once for the pins that share them (those of one centre column's queen),
    /// and counted against those pins' West half-boards together
    /// (`cross::count_together`), or, counted the other way, pin by pin (or sized,
    /// see [`Meet`]).
    #[inline(always)]
    fn count_pins(
        &self,
        east_rows: u32,
        slot: Option<usize>,
        meet: Meet,
        scratch: &mut Scratch,
        halted: &dyn Fn() -> bool,
    ) -> Option<Tally> {
        let g = &self.geometry;
        scratch.east_of = None;
        let mut pins = Vec::new();
        Cross::for_each_pin(g, east_rows, slot, |pin| {
            pins.push(pin);
            true
        });
        let mut tally = Tally::default();
        for pins in pins.chunk_by(|a, b| a.east.blocked == b.east.blocked && a.weight == b.weight) {
            let east = &mut scratch.patterns;
            east.clear();
            let out = std::slice::from_mut(east);
            let east_half = pins[0].east;
            let plain = Plain::Apart;
            (scratch.half).collect(g, &self.table, east_half, east_rows, plain, out, halted)?;
            tally.nodes += scratch.patterns.len() as u64;
            let (table, per_load, nodes) = (&self.table, self.patterns_per_load, &mut tally.nodes);
            let found = if meet == Meet::Count && !self.other_way {
                cross::count_together(g, table, pins, scratch, per_load, nodes, halted)?
            } else {
                cross::count_one_by_one(g, table, pins, meet, scratch, per_load, nodes, halted)?
            };
            tally.solutions += pins[0].weight * found;
        }
        Some(tally)
    }

    /// Buffers for one thread's counts.
    pub fn scratch(&self, kernel: Kernel) -> Scratch {
        Scratch::new(kernel, self.geometry.key_bits())
    }
}

impl Solver for Join {
    fn solve_all(
        &self,
        kernel: Kernel,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Tally),
        halted: &dyn Fn() -> bool,
    ) {
        let mut scratch = self.scratch(kernel);
        while let Some(id) = next() {
            match self.solve_until(id, &mut scratch, halted) {
                Some(tally) => done(id, tally),
                None => return,
            }
        }
    }

    /// A row set's pins (N = 28) share its East half-boards and slabs: a worker that
    /// counts them in a row builds those once (`load_east` keeps East between them).
    /// Handed out one by one to two workers, each built a row set's East (1.5 to 2.5 s
    /// of its 14 pins' 104 s, `count 28 --shard 7142857/20060016 --threads 2`); on
    /// fourteen workers and more, every pin would build it.
    fn ids_per_run(&self) -> usize {
        self.pins_per_row_set().unwrap_or(1)
    }
}

/// What a sub-problem's count will do, known before it counts ([`Join::size`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Pairs of half-boards it meets: for each pin, East's half-boards clear of it
    /// times West's (the pair counter compares a share of them, by their cut bits).
    pub pairs: u64,
    /// Half-boards it builds (its nodes).
    pub built: u64,
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::known::known;

    fn total(n: usize, kernel: Kernel) -> u128 {
        let plan = Join::new(n, None, 1).unwrap();
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
            for n in SMALLEST_N..=12 {
                assert_eq!(
                    Some(total(n, kernel)),
                    known(n).map(|k| k.total),
                    "n = {n}, {kernel:?}"
                );
            }
        }
    }

    /// Counted pin by pin of West's inner column (`inner`), every row set of an even
    /// board gives what it gives counted whole, with every kernel (boards this small are
    /// counted whole unless told). With each pin a sub-problem of its own (as from
    /// [`PINS_APART_FROM`]), a row set's pins add up to its count, a pin's nodes are the
    /// same whether East's keys were in hand or not, and the total is the published one.
    #[test]
    fn a_row_set_counts_the_same_pin_by_pin_as_whole() {
        for kernel in Kernel::available() {
            for n in (SMALLEST_N..=16).step_by(2) {
                let whole = Join::new(n, None, 1).unwrap();
                let mut pinned = Join::new(n, None, 1).unwrap();
                pinned.pin_from = 0;
                let mut apart = Join::new(n, None, 1).unwrap();
                let Pieces::RowSets(row_sets) = &whole.pieces else {
                    panic!("row sets whole below {PINS_APART_FROM}");
                };
                apart.pieces = Pieces::Pins(row_sets.clone());
                let side = apart.geometry.side as usize;
                assert_eq!(apart.blocks(), (whole.len(), side));
                let [mut a, mut b, mut c, mut fresh] =
                    [&whole, &pinned, &apart, &apart].map(|plan| plan.scratch(kernel));
                let mut total = 0u128;
                for id in 0..whole.len() {
                    let (by_whole, by_pin) = (whole.solve(id, &mut a), pinned.solve(id, &mut b));
                    let name = format!("n = {n}, {id}, {kernel:?}");
                    assert_eq!(by_whole.solutions, by_pin.solutions, "{name}");
                    assert!(by_whole.solutions == 0 || by_pin.nodes > 0);
                    let mut by_pins = 0;
                    for pin in id * side..(id + 1) * side {
                        assert_eq!(apart.weight(pin), whole.weight(id));
                        let tally = apart.solve(pin, &mut c);
                        fresh.east_of = None;
                        assert_eq!(apart.solve(pin, &mut fresh), tally, "{name}, pin {pin}");
                        by_pins += tally.solutions;
                        total += u128::from(apart.weight(pin)) * u128::from(tally.solutions);
                    }
                    assert_eq!(by_pins, by_whole.solutions, "{name}");
                }
                assert_eq!(Some(total), known(n).map(|k| k.total), "n = {n}");
            }
        }
    }

    /// Each pin apart counts and builds the same with East built and counted queen by
    /// queen of its inner column (as from [`EAST_QUEENS_FROM`]) as with East whole,
    /// with every kernel, in loads of a few patterns too; the other way of either is the
    /// other; a pin's size builds what its count builds, and is the same either way.
    #[test]
    fn a_pin_counts_the_same_against_east_queen_by_queen() {
        for kernel in Kernel::available() {
            for n in (SMALLEST_N..=16).step_by(2) {
                let Pieces::RowSets(row_sets) = Join::new(n, None, 1).unwrap().pieces else {
                    panic!("row sets whole below {PINS_APART_FROM}");
                };
                let plan = |per_load| {
                    let mut plan = Join::new(n, None, 1).unwrap();
                    plan.pieces = Pieces::Pins(row_sets.clone());
                    plan.patterns_per_load = per_load;
                    plan
                };
                let whole = plan(PATTERNS_PER_LOAD);
                assert!(!whole.east_by_queen);
                let by_queen = plan(PATTERNS_PER_LOAD).the_other_way();
                assert!(by_queen.east_by_queen);
                let small_loads = plan(5).the_other_way();
                let [mut a, mut b, mut c, mut d, mut e] =
                    [&whole, &by_queen, &small_loads, &by_queen, &whole]
                        .map(|plan| plan.scratch(kernel));
                let mut total = 0u128;
                for pin in 0..whole.len() {
                    let name = format!("n = {n}, pin {pin}, {kernel:?}");
                    let tally = whole.solve(pin, &mut a);
                    assert_eq!(by_queen.solve(pin, &mut b), tally, "{name}");
                    assert_eq!(small_loads.solve(pin, &mut c), tally, "{name}");
                    let size = by_queen.size(pin, &mut d, &|| false).unwrap();
                    assert_eq!(size.built, tally.nodes, "{name}");
                    assert_eq!(Some(size), whole.size(pin, &mut e, &|| false), "{name}");
                    assert!(tally.solutions == 0 || size.pairs > 0, "{name}");
                    total += u128::from(whole.weight(pin)) * u128::from(tally.solutions);
                }
                assert_eq!(Some(total), known(n).map(|k| k.total), "n = {n}");
                assert!(!by_queen.the_other_way().east_by_queen);
            }
        }
    }

    /// A sub-problem's size builds what its count builds (its nodes), and meets pairs
    /// wherever the count finds solutions (at most 8 a pair: the largest weight).
    #[test]
    fn a_size_builds_what_the_count_builds() {
        for kernel in Kernel::available() {
            for n in 6..=13 {
                let plan = Join::new(n, None, 1).unwrap();
                let [mut a, mut b] = [&plan, &plan].map(|plan| plan.scratch(kernel));
                for id in 0..plan.len() {
                    let count = plan.solve(id, &mut a);
                    let size = plan.size(id, &mut b, &|| false).unwrap();
                    assert_eq!(size.built, count.nodes, "n = {n}, {id}, {kernel:?}");
                    assert!(8 * size.pairs >= count.solutions, "n = {n}, {id}");
                }
            }
        }
    }

    /// An odd board's row set counts and builds the same with the pins that share East
    /// counted together as pin by pin (its other way), with every kernel and in loads of
    /// a few patterns too; its size builds what either builds.
    #[test]
    fn an_odd_row_set_counts_the_same_with_its_pins_together_as_one_by_one() {
        for kernel in Kernel::available() {
            for n in (5..=15).step_by(2) {
                let together = Join::new(n, None, 1).unwrap();
                let one_by_one = Join::new(n, None, 1).unwrap().the_other_way();
                let mut small_loads = Join::new(n, None, 1).unwrap();
                small_loads.patterns_per_load = 5;
                let plans = [&together, &one_by_one, &small_loads, &together];
                let [mut a, mut b, mut c, mut d] = plans.map(|plan| plan.scratch(kernel));
                let mut total = 0u128;
                for id in 0..together.len() {
                    let name = format!("n = {n}, {id}, {kernel:?}");
                    let tally = together.solve(id, &mut a);
                    assert_eq!(one_by_one.solve(id, &mut b), tally, "{name}");
                    assert_eq!(small_loads.solve(id, &mut c), tally, "{name}");
                    let size = together.size(id, &mut d, &|| false).unwrap();
                    assert_eq!(size.built, tally.nodes, "{name}");
                    total += u128::from(tally.solutions);
                }
                assert_eq!(Some(total), known(n).map(|k| k.total), "n = {n}");
            }
        }
    }

    /// An odd board's row set counts the same slot by slot (its pins apart by the centre
    /// column's queen, as from N = 27) as whole, with every kernel.
    #[test]
    fn an_odd_row_set_counts_the_same_slot_by_slot_as_whole() {
        for kernel in Kernel::available() {
            for n in (5..=15).step_by(2) {
                let whole = Join::new(n, None, 1).unwrap();
                let mut apart = Join::new(n, None, 1).unwrap();
                apart.pieces = Pieces::Cross(Cross::new(&apart.geometry).apart(&apart.geometry));
                let per = apart.geometry.side as usize;
                assert_eq!(
                    (apart.len(), apart.blocks()),
                    (whole.len() * per, (whole.len(), per))
                );
                let [mut a, mut b] = [&whole, &apart].map(|plan| plan.scratch(kernel));
                let mut total = 0u128;
                for id in 0..whole.len() {
                    let by_whole = whole.solve(id, &mut a).solutions;
                    let by_slots: u64 = (id * per..(id + 1) * per)
                        .map(|slot| apart.solve(slot, &mut b).solutions)
                        .sum();
                    assert_eq!(by_slots, by_whole, "n = {n}, row set {id}, {kernel:?}");
                    total += u128::from(by_slots);
                }
                assert_eq!(Some(total), known(n).map(|k| k.total), "n = {n}");
            }
        }
    }

    /// Counted with the pair counter holding a few patterns at a time (as the largest
    /// boards' row sets are) and a table with room for four slabs (letting go of the
    /// others), every board's total is the same, pinned and whole.
    #[test]
    fn totals_are_the_same_counted_in_small_pieces_with_little_room() {
        let kernel = Kernel::detect();
        for n in SMALLEST_N..=14 {
            let room = 4 * QuadrantTable::slab_bytes(Geometry::new(n).side);
            for pin_from in [0, PIN_FROM] {
                let mut plan = Join::new(n, Some(room), 1).unwrap();
                if n >= 8 {
                    assert_eq!(plan.table_room(), room, "n = {n}: the table lets slabs go");
                }
                (plan.patterns_per_load, plan.pin_from) = (5, pin_from);
                let mut scratch = plan.scratch(kernel);
                let total: u128 = (0..plan.len())
                    .map(|id| {
                        let tally = plan.solve(id, &mut scratch);
                        u128::from(plan.weight(id)) * u128::from(tally.solutions)
                    })
                    .sum();
                assert_eq!(Some(total), known(n).map(|k| k.total), "n = {n}");
                if n >= 8 {
                    assert!(plan.table.heap_bytes() <= room + (32 << plan.geometry.side));
                }
            }
        }
    }

    #[test]
    fn a_halted_row_set_is_abandoned_and_an_unhalted_one_counts_as_usual() {
        let plan = Join::new(16, None, 1).unwrap();
        let mut scratch = plan.scratch(Kernel::detect());
        let (mut abandoned, asked) = (0usize, std::cell::Cell::new(0usize));
        for id in 0..plan.len() {
            let halted = || {
                asked.set(asked.get() + 1);
                true
            };
            match plan.solve_until(id, &mut scratch, &halted) {
                // Only a row set with nothing to count finishes: it never asks.
                Some(tally) => assert_eq!(tally.solutions, 0, "row set {id}"),
                None => abandoned += 1,
            }
            let never = plan.solve_until(id, &mut scratch, &|| false);
            assert_eq!(never, Some(plan.solve(id, &mut scratch)), "row set {id}");
        }
        assert!(abandoned > plan.len() / 2, "{abandoned} of {}", plan.len());
        assert_eq!(asked.get(), abandoned, "asked once each, then stopped");
    }

    #[test]
    fn a_row_set_counts_the_same_with_the_whole_table_built_or_only_its_slabs() {
        let n = 13;
        let warm = Join::new(n, None, 1).unwrap();
        let mut scratch = warm.scratch(Kernel::portable());
        // Build every slab first, by counting everything once.
        let all: Vec<Tally> = (0..warm.len())
            .map(|id| warm.solve(id, &mut scratch))
            .collect();
        let full_bytes = warm.heap_bytes();
        for id in [0, 7, warm.len() / 2, warm.len() - 1] {
            let cold = Join::new(n, None, 1).unwrap();
            let mut scratch = cold.scratch(Kernel::portable());
            assert_eq!(cold.solve(id, &mut scratch), all[id], "row set {id}");
            assert!(
                cold.heap_bytes() < full_bytes,
                "only the slabs of row set {id}"
            );
        }
    }

    /// What the module docs say each row set's count must be on an even board, from the
    /// solutions themselves: a queen on a long diagonal in East counts 0; else 2 per long
    /// diagonal occupied in West, and the row set's plain weight when none is; counted
    /// whole and pin by pin (`inner`). (An odd board's: `cross`'s tests.)
    #[test]
    fn each_row_set_counts_what_the_symmetry_argument_says() {
        for (n, pin_from) in (SMALLEST_N..=10)
            .step_by(2)
            .flat_map(|n| [(n, PIN_FROM), (n, 0)])
        {
            let mut plan = Join::new(n, None, 1).unwrap();
            plan.pin_from = pin_from;
            let mut scratch = plan.scratch(Kernel::detect());
            let west = n / 2;
            let mut want = std::collections::HashMap::<u32, u64>::new();
            for solution in crate::oracle::all_solutions(n) {
                let rows = (0..n)
                    .filter(|&r| solution[r] >= west)
                    .fold(0u32, |set, r| set | 1 << r);
                let main = (0..n).find(|&r| solution[r] == r);
                let anti = (0..n).find(|&r| solution[r] == n - 1 - r);
                let east = |r: Option<usize>| r.is_some_and(|r| solution[r] >= west);
                let weight = if east(main) || east(anti) {
                    0
                } else if main.is_none() && anti.is_none() {
                    plan.plain_weight(rows)
                } else {
                    1 << (u32::from(main.is_some()) + u32::from(anti.is_some()))
                };
                *want.entry(rows).or_default() += weight;
            }
            let Pieces::RowSets(row_sets) = &plan.pieces else {
                panic!("an even board's row sets");
            };
            let ids = row_sets.iter().copied().enumerate();
            check_counts(&plan, &mut scratch, ids, &want);
        }
    }

    /// Asserts that each sub-problem `id` on East's `rows` counts `want[rows]` (0 if
    /// absent).
    pub(crate) fn check_counts(
        plan: &Join,
        scratch: &mut Scratch,
        ids: impl Iterator<Item = (usize, u32)>,
        want: &std::collections::HashMap<u32, u64>,
    ) {
        for (id, rows) in ids {
            let got = plan.solve(id, scratch).solutions;
            let n = plan.n;
            let wanted = want.get(&rows).copied().unwrap_or(0);
            assert_eq!(got, wanted, "n = {n}, rows {rows:b}");
        }
    }

    #[test]
    fn a_small_shard_needs_only_the_slabs_its_row_sets_touch() {
        let gigabyte = 1u64 << 30;
        let shard = Join::new(24, Some(gigabyte), 200_000).expect("a shard of 7 row sets fits");
        assert_eq!(shard.table_room(), gigabyte);
        assert_eq!((shard.built().0, shard.table.slabs_held()), (0, 0));
        // The whole count does not fit: its table keeps a gigabyte of slabs.
        assert!(memory::table_bytes(24) > gigabyte);
        let whole = Join::new(24, Some(gigabyte), 1).expect("a table of limited room");
        assert_eq!(whole.table_room(), gigabyte);
        assert!(
            Join::new(24, Some(10 << 20), 200_000).is_err(),
            "but not in 10 MB: less than a row set's four quadrants"
        );
        // An odd board's row sets touch up to `m + 3` slabs each.
        assert!(memory::table_bytes(25) > 1 << 32);
        assert_eq!(
            Join::new(25, Some(gigabyte), 1).unwrap().table_room(),
            gigabyte
        );
        assert_eq!(
            Join::new(25, Some(gigabyte), 900_000).unwrap().table_room(),
            gigabyte,
            "3 row sets"
        );
        assert!(Join::new(25, Some(10 << 20), 900_000).is_err());
        // The largest boards keep a bounded room whatever the shard.
        for n in [27, 28] {
            let join = Join::new(n, None, 1).expect("a table of limited room");
            assert_eq!(join.table_room(), memory::SHARD_ROOM, "n = {n}");
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
