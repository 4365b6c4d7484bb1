//! The vector kernels' search, written once over a vector of lanes ([`Lanes`]) and built
//! for each instruction set (the files beside this one): AVX-512 with 16 lanes of 32 bits
//! in one register; AVX2 with 16 lanes of 16 bits in one register, for plans whose open
//! columns span at most 16. Wider plans (more than 16 open columns on AVX-512, a span of
//! more than 16 on AVX2) take lanes of 32 bits whose columns are chosen row by row, a
//! window from the row's lowest candidate up ([`Lanes::window`]): 16 on AVX-512, 8 on AVX2.
//!
//! The scalar search visits each accepted queen and computes, for that queen alone, the
//! accepted squares of the next row. Here a row is expanded at once: lane `j` stands for a
//! queen on the `j`-th column that is open anywhere in the plan (the open columns, however
//! spread, are numbered in order), and one pass of vector instructions gives the accepted
//! squares of the next row for every candidate of the current row. The search then visits
//! only the queens whose next row is not empty, and never visits the queens of the row
//! above the second-to-last at all: their completions are counted from the vector
//! directly. Same acceptance rule, same tree, same node count, with fewer instructions per
//! node.
//!
//! A step has no branch that depends on the board, so it never mispredicts, but each step
//! waits on the one before. Each thread therefore steps several searches (walks) in turn,
//! and their independent work fills the pipeline.
//!
//! Everything here is `#[inline(always)]` and reaches the CPU's instructions only through
//! [`Lanes`], whose methods are `#[target_feature]` functions: each entry point, compiled
//! with those features, inlines all of it. So every function here that steps vectors is
//! an `unsafe fn` with one contract, the trait's: it runs only where the CPU has the
//! features of the lane types it is given.

use super::jobs::{Job, Part, Parts, cut};
use super::scalar::count_until;
use crate::board::MAX_N;
use crate::cpu::Kernel;
use crate::methods::backtrack::row_plan::{Frame, Level, RowPlan};
use crate::tally::Tally;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

/// A vector of `LANES` lanes and the operations the search needs on it. Each method is a
/// few instructions; the implementations choose them per instruction set.
///
/// Masks enter the vector in *lane space*: the board's column masks shifted right by the
/// plan's [`Lanes::fit`] offset (0 for vectors of 32-bit lanes, which hold whole masks).
/// Lane `j` stands for the column whose bit [`Lanes::lane_bits`] puts in lane `j`.
///
/// # Safety
/// Every method but `fit` needs the CPU features of its implementation, which compiles it
/// as a `#[target_feature]` function (an `unsafe fn`: a trait method with target features
/// cannot be safe): call them only where the CPU has those features, and from code
/// compiled with them, so that they inline.
pub(super) trait Lanes: Copy {
    /// Lanes in the vector (a power of two, at most 32: lane masks are `u32`).
    const LANES: u32;
    /// For a plan whose open columns are `open`: the shift into lane space, or `None`
    /// when they do not fit the lanes.
    fn fit(open: u32) -> Option<u32>;
    /// Lane `j` holds the bit (in lane space) of the column lane `j` stands for; `open`
    /// is in lane space.
    unsafe fn lane_bits(open: u32) -> Self;
    /// Bit `j` set for each lane `j` whose column is in `squares` (in lane space).
    unsafe fn lanes_of(lane_bits: Self, squares: u32) -> u32;
    /// The first window of candidates `todo` (in lane space) on a plan whose lanes are
    /// `lane_bits`: the lanes' columns in this window, the lanes of `todo` in it, and the
    /// candidates left for further windows. Lanes fixed for the whole plan take every
    /// candidate in one window; lanes whose columns follow the candidates may need more
    /// (and a walk's stack room for them: see [`Walk`]).
    #[inline(always)]
    unsafe fn window(lane_bits: Self, todo: u32) -> (Self, u32, u32) {
        // SAFETY: the caller keeps this function's contract: the CPU has this type's features.
        unsafe { (lane_bits, Self::lanes_of(lane_bits, todo), 0) }
    }
    /// Every lane `x`.
    unsafe fn splat(x: u32) -> Self;
    /// Lane `j` of `v` (`j < LANES`).
    unsafe fn lane(v: &Self, j: u32) -> u32;
    /// Lane-wise `a | b`.
    unsafe fn or(a: Self, b: Self) -> Self;
    /// Lane-wise `a & !b`.
    unsafe fn and_not(a: Self, b: Self) -> Self;
    /// Lane-wise `a << shift`, and 0 for shifts past the lane width.
    unsafe fn shl(a: Self, shift: u32) -> Self;
    /// Lane-wise `a >> shift`, and 0 for shifts past the lane width.
    unsafe fn shr(a: Self, shift: u32) -> Self;
    /// Lane-wise `!(a | b | c)`.
    unsafe fn nor3(a: Self, b: Self, c: Self) -> Self;
    /// Lane-wise `a & !b & !c`.
    unsafe fn and_not2(a: Self, b: Self, c: Self) -> Self;
    /// Lane-wise [`dead_squares`](crate::methods::backtrack::row_plan::dead_squares).
    unsafe fn dead_squares(x: Self, shift: u32) -> Self;
    /// Lane-wise [`dead_squares_upto_two`](crate::methods::backtrack::row_plan::dead_squares_upto_two).
    unsafe fn dead_squares_upto_two(x: Self, shift: u32) -> Self;
    /// Bit `j` set for each lane `j` in `lanes` that is not zero.
    unsafe fn nonzero(a: Self, lanes: u32) -> u32;
    /// Over the lanes in `lanes`: those with one bit or more, plus those with two or more.
    unsafe fn ones_and_twos(a: Self, lanes: u32) -> u64;
}

/// A plan's row data with its masks in lane space. The columns past the board's 32
/// that a window reaching beyond it would show (an offset above 16) come in blocked.
#[inline(always)]
fn in_lane_space(level: &Level, offset: u32) -> Level {
    let shifted = |mask: u32| ((u64::from(mask) | u64::MAX << 32) >> offset) as u32;
    Level {
        blocked: shifted(level.blocked),
        near_blocked: shifted(level.near_blocked),
        far_blocked: shifted(level.far_blocked),
        ..*level
    }
}

/// The attacks entering the row of `level` for a queen in each lane's column of the row
/// above, whose attacks were `[cols, ld, rd]` (the same in every lane).
///
/// # Safety
/// The CPU has `V`'s features (see [`Lanes`]).
#[inline(always)]
unsafe fn place<V: Lanes>(level: &Level, lane_bits: V, [cols, ld, rd]: [V; 3]) -> [V; 3] {
    // SAFETY: the caller keeps this function's contract: the CPU has `V`'s features.
    unsafe {
        let shift = level.shift;
        [
            V::or(cols, lane_bits),
            V::shl(V::or(ld, lane_bits), shift),
            V::shr(V::or(rd, lane_bits), shift),
        ]
    }
}

/// Lane-wise [`Level::accepted_early`].
///
/// # Safety
/// The CPU has `V`'s features (see [`Lanes`]).
#[inline(always)]
unsafe fn accepted_early<V: Lanes>(level: &Level, [c, l, r]: [V; 3]) -> V {
    // SAFETY: the caller keeps this function's contract: the CPU has `V`'s features.
    unsafe {
        let (near, far) = (level.near_shift, level.far_shift);
        let free = V::nor3(c, V::or(l, r), V::splat(level.blocked));
        let near_free = V::nor3(
            V::or(c, V::splat(level.near_blocked)),
            V::shl(l, near),
            V::shr(r, near),
        );
        let far_free = V::nor3(
            V::or(c, V::splat(level.far_blocked)),
            V::shl(l, far),
            V::shr(r, far),
        );
        V::and_not2(
            free,
            V::dead_squares(near_free, near),
            V::dead_squares(far_free, far),
        )
    }
}

/// Lane-wise [`Level::accepted_second_to_last`].
///
/// # Safety
/// The CPU has `V`'s features (see [`Lanes`]).
#[inline(always)]
unsafe fn accepted_second_to_last<V: Lanes>(level: &Level, [c, l, r]: [V; 3]) -> V {
    // SAFETY: the caller keeps this function's contract: the CPU has `V`'s features.
    unsafe {
        let shift = level.near_shift;
        let free = V::nor3(c, V::or(l, r), V::splat(level.blocked));
        let last_free = V::nor3(
            V::or(c, V::splat(level.near_blocked)),
            V::shl(l, shift),
            V::shr(r, shift),
        );
        V::and_not(free, V::dead_squares_upto_two(last_free, shift))
    }
}

/// One expanded row on a search stack: for each candidate queen (lane), the attacks
/// entering the row below and that row's accepted squares. Keeping the attacks per lane
/// lets a visit load its child's attacks as broadcasts instead of computing them.
#[derive(Clone, Copy)]
#[repr(C)]
struct Entry<V> {
    next: V,
    /// Columns, left and right diagonal attacks entering the row below, per lane.
    below: [V; 3],
    /// Lanes still to visit: candidates whose row below is not empty. Never zero on the
    /// stack: an entry whose last lane is taken is replaced by that lane's child.
    pending: u32,
    depth: usize,
}

/// One search in flight: its plan's rows in lane space, its stack of expanded rows, and
/// its tally so far. The stack holds `S` entries: [`MAX_N`] when each row is one window,
/// more when a row may take several ([`Lanes::window`]).
struct Walk<V, const S: usize> {
    /// The job's plan rows, masks shifted into lane space.
    levels: [Level; MAX_N],
    /// Lane `j` holds the bit of the column it stands for.
    lane_bits: V,
    last: usize,
    /// Live entries of `stack`; the search is over when it is zero.
    live: usize,
    stack: [Entry<V>; S],
    tally: Tally,
}

impl<V: Lanes, const S: usize> Walk<V, S> {
    /// Whether the search has nodes left to visit.
    #[inline(always)]
    fn is_live(&self) -> bool {
        self.live != 0
    }

    /// The tally so far (the job's, once it is no longer live).
    #[inline(always)]
    fn tally(&self) -> Tally {
        self.tally
    }

    /// A walk with nothing to do.
    ///
    /// # Safety
    /// The CPU has `V`'s features (see [`Lanes`]).
    #[inline(always)]
    unsafe fn idle() -> Self {
        const { assert!(S.is_power_of_two() && S >= MAX_N) };
        // SAFETY: the caller keeps this function's contract: the CPU has `V`'s features.
        unsafe {
            let zero = V::splat(0);
            let empty = Entry {
                next: zero,
                below: [zero; 3],
                pending: 0,
                depth: 0,
            };
            Walk {
                levels: [Level::default(); MAX_N],
                lane_bits: zero,
                last: 0,
                live: 0,
                stack: [empty; S],
                tally: Tally::default(),
            }
        }
    }

    /// Starts the search of `job` in place (the stack needs no clearing: an entry is
    /// always written before it becomes live).
    ///
    /// # Safety
    /// The CPU has `V`'s features (see [`Lanes`]).
    #[inline(always)]
    unsafe fn start(&mut self, job: &Job) {
        let (plan, offset) = (&*job.plan, job.offset);
        for (mine, level) in self.levels.iter_mut().zip(&plan.levels).take(plan.len) {
            *mine = in_lane_space(level, offset);
        }
        self.last = plan.len - 1;
        self.tally = Tally::default();
        let start = &job.start;
        // SAFETY: the caller keeps this function's contract: the CPU has `V`'s features.
        unsafe {
            self.lane_bits = V::lane_bits(job.open >> offset);
            let attacks = [start.cols, start.ld, start.rd].map(|x| V::splat(x >> offset));
            self.live = self.expand(0, start.depth, attacks, job.first >> offset);
        }
    }

    /// Visits the next candidate of the top entry: no branch depends on the board, so that
    /// several walks interleave in the pipeline without mispredictions.
    ///
    /// # Safety
    /// The CPU has `V`'s features (see [`Lanes`]).
    #[inline(always)]
    unsafe fn step(&mut self) {
        let top = &mut self.stack[self.live.wrapping_sub(1) & (S - 1)];
        let pending = top.pending;
        let index = pending.trailing_zeros();
        let rest = pending & pending.wrapping_sub(1);
        top.pending = rest;
        let depth = top.depth;
        let index = index & (V::LANES - 1);
        // The child goes above the top, or in its place once the top has no lanes left.
        let slot = self.live - usize::from(rest == 0);
        // SAFETY: the caller keeps this function's contract: the CPU has `V`'s features.
        unsafe {
            let todo = V::lane(&top.next, index);
            let below = top.below.each_ref().map(|row| V::lane(row, index));
            let attacks = below.map(|x| V::splat(x));
            self.live = slot + self.expand(slot, depth + 1, attacks, todo);
        }
    }

    /// Expands the row entering `depth`, with attacks `[cols, ld, rd]` (broadcast to every
    /// lane) and accepted squares `todo`, into the stack from slot `slot` on, one entry
    /// per window of candidates ([`Lanes::window`]) worth visiting, and returns how many
    /// it wrote. Above the second-to-last row it counts the completions instead (and
    /// writes none).
    ///
    /// # Safety
    /// The CPU has `V`'s features (see [`Lanes`]).
    #[inline(always)]
    unsafe fn expand(&mut self, slot: usize, depth: usize, attacks: [V; 3], todo: u32) -> usize {
        // SAFETY: the caller keeps this function's contract: the CPU has `V`'s features.
        unsafe {
            self.tally.nodes += u64::from(todo.count_ones());
            let level = &self.levels[(depth + 1) & (MAX_N - 1)];
            let mut written = 0;
            let mut left = todo;
            loop {
                let (lane_bits, lanes, rest) = V::window(self.lane_bits, left);
                let placed = place(level, lane_bits, attacks);
                if depth + 2 == self.last {
                    let found = V::ones_and_twos(accepted_second_to_last(level, placed), lanes);
                    self.tally.solutions += found;
                    self.tally.nodes += 2 * found;
                } else {
                    let next = accepted_early(level, placed);
                    let entry = &mut self.stack[(slot + written) & (S - 1)];
                    entry.next = next;
                    entry.below = placed;
                    let pending = V::nonzero(next, lanes);
                    (entry.pending, entry.depth) = (pending, depth);
                    written += usize::from(pending != 0);
                }
                left = rest;
                if left == 0 {
                    return written;
                }
            }
        }
    }
}

/// How many walks one thread interleaves.
const WALKS: usize = 4;

/// Turns of the walks between two looks at `halted`: some tens of microseconds of work.
const POLL_EVERY: u32 = 1 << 12;

/// One turn of a set of walks: each live walk takes a step; each idle one reports the part
/// it finished and starts the next one `next` gives. Returns how many walks are at work.
///
/// # Safety
/// The CPU has `X`'s features (see [`Lanes`]).
#[inline(always)]
unsafe fn turn<'a, X: Lanes, const S: usize>(
    walks: &mut [Walk<X, S>; WALKS],
    ids: &mut [Option<usize>; WALKS],
    mut next: impl FnMut() -> Option<(usize, Job<'a>)>,
    done: &dyn Fn(usize, Tally),
) -> usize {
    let mut working = 0;
    for (walk, id) in walks.iter_mut().zip(ids.iter_mut()) {
        if walk.is_live() {
            // SAFETY: the caller keeps this function's contract: the CPU has `X`'s features.
            unsafe { walk.step() };
            working += 1;
            continue;
        }
        if let Some(id) = id.take() {
            done(id, walk.tally());
        }
        if let Some((next_id, job)) = next() {
            // SAFETY: as above.
            unsafe { walk.start(&job) };
            *id = Some(next_id);
            working += 1;
        }
    }
    working
}

/// The queue (and walks) of the narrow lanes `V`, and of the wide ones `W`, in
/// [`count_stream`]'s pairs.
const NARROW: usize = 0;
/// See [`NARROW`].
const WIDE: usize = 1;

/// The parts waiting for the walks, one queue per width ([`NARROW`], [`WIDE`]), each with
/// the id of the job it belongs to.
type Queues<'a> = [VecDeque<(usize, Job<'a>)>; 2];

/// Counts every job `next_job` hands out, calling `done` with each one's id and tally as
/// it finishes. A job is cut into parts ([`cut`]): those whose open columns fit the lanes
/// of `V` run on up to [`WALKS`] walks of `V` (stacks of `SV` entries), the others on
/// walks of `W` (lanes that take any plan, stacks of `SW`); a part with fewer than three
/// free rows left needs no search. All walks are stepped in turn, so that one's latency
/// hides behind the others' work ([`interleave`]). Parts wait in a queue per width: each
/// width pulls new jobs only while the other's queue is shorter than [`WALKS`].
///
/// Once `halted` says so (it is asked every [`POLL_EVERY`] turns), the stream returns at
/// once: the jobs in flight are abandoned, unreported.
///
/// # Safety
/// The CPU has the features of `V` and of `W` (see [`Lanes`]).
#[inline(always)]
pub(super) unsafe fn count_stream<'a, V: Lanes, W: Lanes, const SV: usize, const SW: usize>(
    mut next_job: impl FnMut() -> Option<(usize, &'a RowPlan, Frame)>,
    mut done: impl FnMut(usize, Tally),
    halted: &dyn Fn() -> bool,
) {
    let mut queues: Queues<'a> = [VecDeque::new(), VecDeque::new()];
    let exhausted = Cell::new(false);
    // Set when a part the scalar search took was abandoned: the stream ends.
    let abandoned = Cell::new(false);
    // A job is reported when its last part ends.
    let parts = RefCell::new(Parts::default());
    let done = RefCell::new(&mut done);
    let part_done = |id: usize, tally: Tally| {
        if let Some(sum) = parts.borrow_mut().end(id, tally) {
            (done.borrow_mut())(id, sum);
        }
    };
    // Pulls jobs until `width`'s queue has a part, the other queue is full, or none are
    // left.
    let refill = |queues: &mut Queues<'a>, width: usize| {
        while queues[width].is_empty() && !exhausted.get() && queues[1 - width].len() < WALKS {
            let Some((id, plan, start)) = next_job() else {
                exhausted.set(true);
                break;
            };
            let (mut count, mut tally) = (0, Tally::default());
            let cut_nodes = cut(plan, start, [V::fit, W::fit], &mut |part| match part {
                Part::Narrow(job) => {
                    queues[NARROW].push_back((id, job));
                    count += 1;
                }
                Part::Wide(job) => {
                    queues[WIDE].push_back((id, job));
                    count += 1;
                }
                Part::Scalar(plan, frame) if !abandoned.get() => {
                    match count_until(Kernel::portable(), plan, &frame, halted) {
                        Some(found) => tally += found,
                        None => abandoned.set(true),
                    }
                }
                Part::Scalar(..) => {}
            });
            if abandoned.get() {
                exhausted.set(true);
                break;
            }
            tally.nodes += cut_nodes;
            if let Some(sum) = parts.borrow_mut().begin(id, count, tally) {
                (done.borrow_mut())(id, sum);
            }
        }
    };
    let mut refill = refill;
    refill(&mut queues, NARROW);
    let flags = (&exhausted, &abandoned);
    // SAFETY: the caller's: the CPU has `V`'s and `W`'s features.
    unsafe { interleave::<V, W, SV, SW>(&mut queues, flags, refill, &part_done, halted) }
}

/// [`count_stream`]'s walks at work: [`WALKS`] of each width, turned in turn until the
/// queues are empty and no more jobs come (`exhausted`, the first of `flags`), a part the
/// scalar search took was abandoned (the second), or `halted` says so. The narrow walks
/// pull new jobs through `refill` (given the queues and the width to fill); each part
/// done goes to `part_done`.
///
/// # Safety
/// The CPU has the features of `V` and of `W` (see [`Lanes`]).
#[inline(always)]
unsafe fn interleave<'a, V: Lanes, W: Lanes, const SV: usize, const SW: usize>(
    queues: &mut Queues<'a>,
    (exhausted, abandoned): (&Cell<bool>, &Cell<bool>),
    mut refill: impl FnMut(&mut Queues<'a>, usize),
    part_done: &dyn Fn(usize, Tally),
    halted: &dyn Fn() -> bool,
) {
    // SAFETY: the caller's: the CPU has `V`'s and `W`'s features.
    unsafe {
        let mut narrow: [Walk<V, SV>; WALKS] = std::array::from_fn(|_| Walk::idle());
        let mut wide: [Walk<W, SW>; WALKS] = std::array::from_fn(|_| Walk::idle());
        let mut ids = [[None; WALKS]; 2];
        let (mut narrow_working, mut wide_working) = (0, 0);
        let mut until_poll = POLL_EVERY;
        loop {
            until_poll -= 1;
            if until_poll == 0 {
                if halted() {
                    return;
                }
                until_poll = POLL_EVERY;
            }
            // Only the narrow walks pull new jobs; wide parts wait in their queue. Idle
            // narrow walks that could get none (the wide queue is full) are not turned:
            // asking cost 11% of the time at N = 19 on AVX2.
            let narrow_may_start = !queues[NARROW].is_empty()
                || !exhausted.get() && queues[WIDE].len() < WALKS
                || ids[NARROW].iter().any(Option::is_some);
            if narrow_working > 0 || narrow_may_start {
                narrow_working = turn(
                    &mut narrow,
                    &mut ids[NARROW],
                    || {
                        refill(queues, NARROW);
                        queues[NARROW].pop_front()
                    },
                    part_done,
                );
            }
            // Most counts have no wide part at all: then the wide walks cost one check.
            if wide_working > 0 || !queues[WIDE].is_empty() {
                wide_working = turn(
                    &mut wide,
                    &mut ids[WIDE],
                    || queues[WIDE].pop_front(),
                    part_done,
                );
            }
            if narrow_working + wide_working == 0 || abandoned.get() {
                return;
            }
        }
    }
}
