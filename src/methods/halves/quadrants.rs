//! Every partial placement of a small square, indexed by the rows and columns it uses.
//!
//! A quadrant of the board holds some queens, at most one per row and column, none on a
//! shared diagonal. Which placements exist depends only on the quadrant's shape, so one
//! table of the `side` x `side` square serves all four quadrants (a narrower quadrant
//! simply uses fewer of its columns or rows). A placement is stored as its two diagonal
//! sets in the square's own coordinates: for a queen on local row `r` and column `c`,
//! bit `r + c` of the first and bit `r - c + side - 1` of the second.

use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// The placements of one square, grouped by (rows, columns), built by need: one slab per
/// set of rows, made the first time a count asks for it (by whichever worker asks), and
/// kept, read-only, while it fits. A shard builds only the slabs its row sets touch, so
/// its start-up and memory follow its own work, not the whole board's; and a table given
/// less room than all its slabs take (the largest boards: side 14 holds 540 GB) lets go
/// of the slabs asked for longest ago, so its memory stays within that room whatever the
/// shard.
pub struct QuadrantTable {
    side: u32,
    store: Store,
    /// Bytes of every slab built so far, those let go of included.
    built: AtomicU64,
    /// Nanoseconds spent building them (one at a time: see `building`).
    building_nanos: AtomicU64,
    /// Held while a slab is built: a worker asking for a slab another is building waits
    /// for it rather than building it too (both workers of a shard start on the same
    /// row set's pins, and a slab of side 14 takes 236 MB).
    building: Mutex<()>,
}

/// Where the slabs are kept.
enum Store {
    /// Every slab built, for the rest of the run (the whole table fits): slab `rows` at
    /// `[rows]`, read without a lock.
    All(Vec<OnceLock<Slab>>),
    /// At most `room` bytes of slabs; past it, the least recently used are let go of (a
    /// worker still using one keeps it until done).
    Room { room: u64, held: Mutex<Held> },
}

/// The slabs a table of limited room holds now.
struct Held {
    /// Slab `rows` at `slabs[rows]`, with the tick it was last asked for.
    slabs: Vec<Option<(Arc<Slab>, u64)>>,
    bytes: u64,
    tick: u64,
}

/// A slab lent by the table: borrowed from a table that keeps all, shared with one that
/// may let it go.
pub enum SlabRef<'a> {
    /// From a table that keeps every slab.
    Kept(&'a Slab),
    /// From a table of limited room.
    Held(Arc<Slab>),
}

impl Deref for SlabRef<'_> {
    type Target = Slab;

    fn deref(&self) -> &Slab {
        match self {
            SlabRef::Kept(slab) => slab,
            SlabRef::Held(slab) => slab,
        }
    }
}

/// The placements on one set of rows, grouped by their columns.
pub struct Slab {
    /// `offsets[columns] .. offsets[columns + 1]` are the placements on these columns.
    offsets: Vec<u32>,
    /// Each placement's diagonal sets: `d1 | d2 << 32`.
    pieces: Vec<u64>,
}

/// Placements of any number of non-attacking queens on the `s` x `s` square (the empty
/// placement included), for `s = 0 ..= 14`: counted once, checked by a test (up to side
/// 10 in the suite, 11 to 14 by an ignored one), and used to size a table before building
/// it. Side 14's full placements are Q(14) = 365,596 of them.
const PLACEMENTS: [u64; 15] = [
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
    67_480_769_839,
];

/// The placements of the largest slab of each side, counted once and checked by a test.
const LARGEST_SLAB: [u64; 15] = [
    1, 1, 2, 4, 10, 26, 92, 296, 1_174, 5_366, 26_548, 143_140, 788_698, 4_684_690, 29_555_392,
];

/// Each side beyond the table multiplies the placements by at least this much (the ratio
/// is 7.0 to 10.6 from side 8 to side 14, and rising).
const GROWTH_LOWER_BOUND: u64 = 9;

impl QuadrantTable {
    /// The largest side this build tabulates (its placement count is known, and a slab's
    /// offsets fit `u32`).
    pub const MAX_SIDE: u32 = PLACEMENTS.len() as u32 - 1;

    /// The table of the `side` x `side` square (`side <= MAX_SIDE`), with no slab built,
    /// keeping at most `room` bytes of slabs (`u64::MAX`: all it builds).
    pub fn new(side: u32, room: u64) -> QuadrantTable {
        assert!(side <= Self::MAX_SIDE, "side {side} is too large");
        let cells = 1usize << side;
        let store = if room == u64::MAX {
            Store::All((0..cells).map(|_| OnceLock::new()).collect())
        } else {
            let held = Held {
                slabs: (0..cells).map(|_| None).collect(),
                bytes: 0,
                tick: 0,
            };
            Store::Room {
                room,
                held: Mutex::new(held),
            }
        };
        QuadrantTable {
            side,
            store,
            built: AtomicU64::new(0),
            building_nanos: AtomicU64::new(0),
            building: Mutex::new(()),
        }
    }

    /// The slab of `rows`, built now if it is not held.
    #[inline(always)]
    pub fn slab(&self, rows: u32) -> SlabRef<'_> {
        self.slab_until(rows, &|| false).expect("never halted")
    }

    /// [`QuadrantTable::slab`], or `None` once `halted` says so while it is built (the
    /// largest take most of a second): a stop never waits for a slab.
    #[inline(always)]
    pub fn slab_until(&self, rows: u32, halted: &dyn Fn() -> bool) -> Option<SlabRef<'_>> {
        match &self.store {
            Store::All(slabs) => {
                let cell = &slabs[rows as usize];
                match cell.get() {
                    Some(slab) => Some(SlabRef::Kept(slab)),
                    None => self.build_into(cell, rows, halted).map(SlabRef::Kept),
                }
            }
            Store::Room { room, held } => {
                let slab = self.slab_in_room(rows, *room, held, halted)?;
                Some(SlabRef::Held(slab))
            }
        }
    }

    /// Builds the slab of `rows` into its `cell` of a table that keeps all, unless
    /// another worker did while this one waited for its turn.
    #[cold]
    fn build_into<'a>(
        &self,
        cell: &'a OnceLock<Slab>,
        rows: u32,
        halted: &dyn Fn() -> bool,
    ) -> Option<&'a Slab> {
        let _turn = lock(&self.building);
        if let Some(slab) = cell.get() {
            return Some(slab);
        }
        let slab = self.build(rows, halted)?;
        Some(cell.get_or_init(|| slab))
    }

    /// [`QuadrantTable::slab_until`] from the `held` slabs of a table of `room` bytes (a
    /// slab of the largest boards serves seconds of work: the lock is nothing beside
    /// it).
    #[inline(never)]
    fn slab_in_room(
        &self,
        rows: u32,
        room: u64,
        held: &Mutex<Held>,
        halted: &dyn Fn() -> bool,
    ) -> Option<Arc<Slab>> {
        if let Some(slab) = lock(held).take(rows) {
            return Some(slab);
        }
        let _turn = lock(&self.building);
        if let Some(slab) = lock(held).take(rows) {
            return Some(slab);
        }
        let slab = Arc::new(self.build(rows, halted)?);
        lock(held).keep(rows, Arc::clone(&slab), room);
        Some(slab)
    }

    #[cold]
    fn build(&self, rows: u32, halted: &dyn Fn() -> bool) -> Option<Slab> {
        let started = std::time::Instant::now();
        let slab = Slab::build(self.side, rows, halted)?;
        self.built.fetch_add(slab.bytes(), Ordering::Relaxed);
        let nanos = started.elapsed().as_nanos() as u64;
        self.building_nanos.fetch_add(nanos, Ordering::Relaxed);
        Some(slab)
    }

    /// Bytes of slabs the table keeps (`u64::MAX`: all).
    pub fn room(&self) -> u64 {
        match &self.store {
            Store::All(_) => u64::MAX,
            Store::Room { room, .. } => *room,
        }
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
        match &self.store {
            // Such a table lets nothing go: it holds all it built.
            Store::All(slabs) => {
                self.built_bytes() + (slabs.len() * size_of::<OnceLock<Slab>>()) as u64
            }
            Store::Room { held, .. } => {
                let held = lock(held);
                let cells = held.slabs.len() * size_of::<Option<(Arc<Slab>, u64)>>();
                held.bytes + cells as u64
            }
        }
    }

    /// Bytes of every slab built so far, those let go of included.
    pub fn built_bytes(&self) -> u64 {
        self.built.load(Ordering::Relaxed)
    }

    /// Seconds spent building them: slabs are built one at a time, so these are seconds
    /// of the run's wall time too.
    pub fn building_seconds(&self) -> f64 {
        self.building_nanos.load(Ordering::Relaxed) as f64 * 1e-9
    }

    /// How many slabs are held now.
    pub fn slabs_held(&self) -> usize {
        match &self.store {
            Store::All(slabs) => slabs.iter().flat_map(OnceLock::get).count(),
            Store::Room { held, .. } => lock(held).slabs.iter().flatten().count(),
        }
    }
}

/// The held slabs (or the building turn), locked.
fn lock<T>(held: &Mutex<T>) -> MutexGuard<'_, T> {
    // A worker that panicked holding the lock left the slabs whole (each change is made
    // under it in one step), so they are still good to read.
    held.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Held {
    /// The held slab of `rows`, marked as just asked for.
    fn take(&mut self, rows: u32) -> Option<Arc<Slab>> {
        self.tick += 1;
        let tick = self.tick;
        let (slab, asked) = self.slabs[rows as usize].as_mut()?;
        *asked = tick;
        Some(Arc::clone(slab))
    }

    /// Holds `slab` as that of `rows`, letting go of the least recently used others
    /// while they take more than `room` bytes.
    fn keep(&mut self, rows: u32, slab: Arc<Slab>, room: u64) {
        self.bytes += slab.bytes();
        self.slabs[rows as usize] = Some((slab, self.tick));
        while self.bytes > room {
            let Some(oldest) = self.least_recent(rows) else {
                break;
            };
            let (gone, _) = self.slabs[oldest].take().expect("a held slab");
            self.bytes -= gone.bytes();
        }
    }

    /// The slab asked for longest ago, other than `rows`'s.
    fn least_recent(&self, rows: u32) -> Option<usize> {
        let others = self
            .slabs
            .iter()
            .enumerate()
            .filter(|&(at, _)| at != rows as usize);
        others
            .filter_map(|(at, slab)| slab.as_ref().map(|(_, asked)| (*asked, at)))
            .min()
            .map(|(_, at)| at)
    }
}

/// A count from `list` for this side; past its end, a lower bound.
fn counted(list: &[u64; 15], side: u32) -> u64 {
    let last = list.len() - 1;
    match list.get(side as usize) {
        Some(&p) => p,
        None => list[last].saturating_mul(GROWTH_LOWER_BOUND.saturating_pow(side - last as u32)),
    }
}

impl Slab {
    /// Every placement on exactly `rows`, found once and then sorted by column set (a
    /// counting sort); `None` once `halted` says so. Found twice instead (to count each
    /// column set, then to fill it), the search took a sixth of a shard of N = 24: once
    /// made `count 24 --shard k/20000` 3 to 5% faster, pins of N = 28 1%. While sorted,
    /// the placements are held twice (18 bytes each): a pin of N = 28 peaked 90 MB
    /// higher (1.14 to 1.20 GB).
    fn build(side: u32, rows: u32, halted: &dyn Fn() -> bool) -> Option<Slab> {
        FOUND.with_borrow_mut(|found| {
            let slab = Slab::build_with(side, rows, halted, found);
            found.let_go_if_large();
            slab
        })
    }

    /// [`Slab::build`] with `found` to hold the placements as found.
    fn build_with(
        side: u32,
        rows: u32,
        halted: &dyn Fn() -> bool,
        found: &mut Found,
    ) -> Option<Slab> {
        let mut offsets = vec![0u32; (1 << side) + 1];
        let Found { keys, columns } = found;
        keys.clear();
        columns.clear();
        place(side, rows, halted, &mut |p| {
            offsets[p.columns as usize] += 1;
            keys.push(u64::from(p.d1) | u64::from(p.d2) << 32);
            // A square's columns fit in 16 bits (asserted below `Slab`).
            columns.push(p.columns as u16);
        })?;
        let mut end = 0u32;
        for slot in offsets.iter_mut() {
            end += *slot;
            *slot = end;
        }
        // Fill each column set from its end; the offsets end up at the starts.
        let mut pieces = vec![0u64; end as usize];
        for (&key, &columns) in keys.iter().zip(columns.iter()) {
            let slot = &mut offsets[columns as usize];
            *slot -= 1;
            pieces[*slot as usize] = key;
        }
        Some(Slab { offsets, pieces })
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

/// The placements of a slab as found, before they are sorted: kept by each thread for
/// its next slab while small, so that the next one is not found into new memory (its
/// pages faulted in, the buffers regrown): `count 24 --shard 7/20000` took 4.08 s with
/// new buffers for each slab, 3.96 s with them kept (fastest of 3).
#[derive(Default)]
struct Found {
    keys: Vec<u64>,
    columns: Vec<u16>,
}

/// The most placements a thread's [`Found`] keeps room for between slabs (10 MB): every
/// slab of side 12, most of side 13, none of the largest of side 14 (a large slab's
/// buffers go back, as a worker's memory counts only the slab itself).
const FOUND_KEPT: usize = 1 << 20;

impl Found {
    fn let_go_if_large(&mut self) {
        if self.keys.capacity() > FOUND_KEPT {
            *self = Found::default();
        }
    }
}

thread_local! {
    static FOUND: std::cell::RefCell<Found> = std::cell::RefCell::default();
}

// The column sets of every square the table takes fit in 16 bits.
const _: () = assert!(QuadrantTable::MAX_SIDE <= 16);

/// A placement under construction.
#[derive(Clone, Copy, Default)]
struct Piece {
    columns: u32,
    d1: u32,
    d2: u32,
}

/// Calls `emit` with every placement of one queen on each of `rows` and none on the other
/// rows of the `side` square (a bitmask search, row by row, in a loop over a stack of
/// its own: by recursive calls the search took 7.0 ns a placement on slabs of side 12,
/// so 3.7 ns); `None` if `halted` said so first (it is asked before each queen of the
/// first row: a slab of side 14 takes most of a second, a fourteenth of it between two
/// asks).
fn place(
    side: u32,
    rows: u32,
    halted: &dyn Fn() -> bool,
    emit: &mut impl FnMut(Piece),
) -> Option<()> {
    const MOST: usize = QuadrantTable::MAX_SIDE as usize;
    let queens = rows.count_ones() as usize;
    assert!(side as usize <= MOST && rows >> side == 0);
    if queens == 0 {
        emit(Piece::default());
        return Some(());
    }
    let all = (1u32 << side) - 1;
    // The rows with a queen, in order: level `l`'s queen goes on row `at[l]`.
    let mut at = [0u32; MOST];
    let mut rest = rows;
    for row in at.iter_mut().take(queens) {
        *row = rest.trailing_zeros();
        rest &= rest - 1;
    }
    // Each level's placement above it, the columns of its row its queens attack along
    // each diagonal, and its columns not yet tried.
    let mut above = [Piece::default(); MOST];
    let (mut left, mut right, mut free) = ([0u32; MOST], [0u32; MOST], [0u32; MOST]);
    free[0] = all;
    let last = queens - 1;
    let mut level = 0;
    loop {
        if free[level] == 0 {
            if level == 0 {
                return Some(());
            }
            level -= 1;
            continue;
        }
        if level == 0 && halted() {
            return None;
        }
        let (row, piece) = (at[level], above[level]);
        let with = |bit: u32| Piece {
            columns: piece.columns | bit,
            d1: piece.d1 | bit << row,
            d2: piece.d2 | (1 << (row + side - 1)) >> bit.trailing_zeros(),
        };
        if level == last {
            // The last queen's placements, all emitted here.
            let mut open = std::mem::take(&mut free[level]);
            while open != 0 {
                let bit = open & open.wrapping_neg();
                open ^= bit;
                emit(with(bit));
            }
            continue;
        }
        let bit = free[level] & free[level].wrapping_neg();
        free[level] ^= bit;
        let next = with(bit);
        // Rows without a queen only carry the diagonals down.
        let gap = at[level + 1] - row;
        let (l, r) = (
            (left[level] | bit) >> gap,
            ((right[level] | bit) << gap) & all,
        );
        level += 1;
        (above[level], left[level], right[level]) = (next, l, r);
        free[level] = all & !(next.columns | l | r);
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
            let table = QuadrantTable::new(side, u64::MAX);
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
            let table = QuadrantTable::new(side, u64::MAX);
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
        let table = QuadrantTable::new(10, u64::MAX);
        let empty = table.heap_bytes();
        table.slab(0b1011).pieces(0b110100);
        let one = table.heap_bytes() - empty;
        table.slab(0b1011).pieces(0b111);
        assert_eq!(table.heap_bytes() - empty, one, "the same slab");
        assert_eq!(table.slabs_held(), 1);
    }

    /// A slab whose building is halted is kept nowhere (in either store), and asked for
    /// again it is built whole; a stop is heard within the first rows of its search.
    #[test]
    fn a_halted_slab_is_not_kept() {
        for room in [u64::MAX, 1 << 20] {
            let table = QuadrantTable::new(10, room);
            let asked = std::cell::Cell::new(0);
            let halted = || {
                asked.set(asked.get() + 1);
                asked.get() > 3
            };
            assert!(table.slab_until(0b11_1111_1111, &halted).is_none());
            assert_eq!(asked.get(), 4, "asked until it said stop, then not again");
            assert_eq!((table.slabs_held(), table.built_bytes()), (0, 0));
            let slab = table.slab_until(0b11_1111_1111, &|| false).expect("built");
            let all: usize = (0..1u32 << 10).map(|c| slab.pieces(c).len()).sum();
            assert_eq!(all, 724, "Q(10)");
            assert_eq!(table.slabs_held(), 1);
        }
    }

    /// A table given room for a few slabs lets go of the least recently used ones and
    /// builds them again when asked: the same pieces, within its room.
    #[test]
    fn a_table_with_little_room_lets_old_slabs_go() {
        let whole = QuadrantTable::new(8, u64::MAX);
        let room = 3 * QuadrantTable::slab_bytes(8);
        let small = QuadrantTable::new(8, room);
        let cells = small.heap_bytes();
        for round in 0..2 {
            for rows in (0..1u32 << 8).rev() {
                let (want, got) = (whole.slab(rows), small.slab(rows));
                assert_eq!(got.pieces, want.pieces, "rows {rows:b}, round {round}");
                assert_eq!(got.offsets, want.offsets);
                assert!(small.heap_bytes() - cells <= room + got.bytes());
            }
        }
        assert_eq!(small.built_bytes(), 2 * whole.built_bytes());
        // The slab asked for last stays; the one asked for before it is let go first.
        let kept = small.slab(0b1111_0000);
        let before = small.built_bytes();
        small.slab(0b1111_0000);
        assert_eq!(small.built_bytes(), before, "held, not built again");
        drop(kept);

        // Room for the three largest slabs exactly: a, b, c fill it; a asked again; d
        // comes in, and b, the least recently used, is the one let go.
        let mut by_size: Vec<u32> = (0..1u32 << 8).collect();
        by_size.sort_by_key(|&rows| std::cmp::Reverse(whole.slab(rows).bytes()));
        let [a, b, c, d] = [by_size[0], by_size[1], by_size[2], by_size[3]];
        let room = [a, b, c].map(|rows| whole.slab(rows).bytes()).iter().sum();
        let table = QuadrantTable::new(8, room);
        let builds = |rows: u32| {
            let before = table.built_bytes();
            table.slab(rows);
            table.built_bytes() > before
        };
        assert_eq!([a, b, c, a, d].map(builds), [true, true, true, false, true]);
        assert_eq!([a, c, d, b].map(builds), [false, false, false, true]);
    }

    #[test]
    fn sizes_grow_at_least_as_the_bound_says() {
        for side in 8..PLACEMENTS.len() {
            assert!(PLACEMENTS[side] >= PLACEMENTS[side - 1] * 7);
        }
        assert!(QuadrantTable::bytes(15) >= PLACEMENTS[14] * 9 * 8);
        assert_eq!(QuadrantTable::bytes(4), 87 * 8 + 16 * 4 * 16);
        assert_eq!(QuadrantTable::slab_bytes(4), 10 * 8 + 4 * 16);
    }

    #[test]
    fn the_counted_sizes_are_those_of_the_slabs() {
        for side in 1..=8u32 {
            let table = QuadrantTable::new(side, u64::MAX);
            let sizes: Vec<u64> = (0..1u32 << side)
                .map(|rows| table.slab(rows).pieces.len() as u64)
                .collect();
            assert_eq!(sizes.iter().max(), Some(&LARGEST_SLAB[side as usize]));
        }
    }

    /// Placements per set of rows, by a search of its own (row by row with shifted
    /// diagonal masks, a row either skipped or given a queen, the last row's queens
    /// counted rather than placed): an independent count of the constants.
    fn placements_by_rows(side: u32) -> Vec<u64> {
        struct Walk {
            side: u32,
            all: u32,
            counts: Vec<u64>,
        }
        impl Walk {
            /// `left` and `right` are the columns of `row` attacked along the diagonals.
            fn row(&mut self, row: u32, rows: u32, columns: u32, left: u32, right: u32) {
                let free = self.all & !(columns | left | right);
                if row + 1 == self.side {
                    self.counts[rows as usize] += 1;
                    self.counts[(rows | 1 << row) as usize] += u64::from(free.count_ones());
                    return;
                }
                let (next_left, next_right) = ((left << 1) & self.all, right >> 1);
                self.row(row + 1, rows, columns, next_left, next_right);
                let mut rest = free;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest ^= bit;
                    let (left, right) = (((left | bit) << 1) & self.all, (right | bit) >> 1);
                    self.row(row + 1, rows | 1 << row, columns | bit, left, right);
                }
            }
        }
        let mut walk = Walk {
            side,
            all: (1 << side) - 1,
            counts: vec![0; 1 << side],
        };
        walk.row(0, 0, 0, 0, 0);
        walk.counts
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
    #[ignore = "sides 11 to 14: about three minutes in release mode"]
    fn the_constants_are_counted_again_up_to_side_14() {
        check_the_constants(11..=14);
    }
}
