//! The same search as [`super::count_scalar`], with the candidate columns of a row as the
//! lanes of one AVX-512 register.
//!
//! The scalar search visits each accepted queen and computes, for that queen alone, the
//! accepted squares of the next row. Here a row is expanded at once: lane `j` stands for a
//! queen on column `offset + j`, and one pass of vector instructions gives the accepted
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
//! Compiled only when the build targets AVX-512 (F and BW), as `target-cpu=native` does
//! on such machines; other builds use the scalar kernel alone.

use std::arch::x86_64::{
    __m512i, __mmask16, _mm512_add_epi32, _mm512_and_si512, _mm512_andnot_si512,
    _mm512_mask_mov_epi32, _mm512_mask_test_epi32_mask, _mm512_maskz_mov_epi32, _mm512_or_si512,
    _mm512_set1_epi32, _mm512_setr_epi32, _mm512_sllv_epi32, _mm512_srlv_epi32, _mm512_store_si512,
    _mm512_ternarylogic_epi32, _mm512_test_epi32_mask, _mm512_testn_epi32_mask,
};

use super::{Frame, Level, MAX_N, RowPlan, Tally};

/// Columns one register covers.
pub(super) const LANES: u32 = 16;

/// The lowest column a queen may take anywhere in the plan, if every such column fits in
/// one register from there; `None` sends the plan to the scalar kernel.
pub(super) fn lane_offset(plan: &RowPlan) -> Option<u32> {
    let possible = plan.levels[..plan.len]
        .iter()
        .fold(0u32, |any, level| any | !level.blocked);
    if possible == 0 {
        return Some(0);
    }
    let offset = possible.trailing_zeros();
    (possible >> offset < 1 << LANES).then_some(offset)
}

/// One expanded row on a search stack: for each candidate queen (lane), the attacks
/// entering the row below and that row's accepted squares. Keeping the attacks per lane
/// lets a visit load its child's attacks as broadcasts instead of computing them.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Entry {
    next: [u32; LANES as usize],
    /// Columns, left and right diagonal attacks entering the row below, per lane.
    below: [[u32; LANES as usize]; 3],
    /// Lanes still to visit: candidates whose row below is not empty. Never zero on the
    /// stack: an entry whose last lane is taken is replaced by that lane's child.
    pending: u32,
    depth: usize,
}

const EMPTY: Entry = Entry {
    next: [0; LANES as usize],
    below: [[0; LANES as usize]; 3],
    pending: 0,
    depth: 0,
};

#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn splat(x: u32) -> __m512i {
    _mm512_set1_epi32(x as i32)
}

/// `a | b | c` in one instruction.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn or3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0xFE>(a, b, c)
}

/// `!(a | b | c)`, the free squares of a row given its three kinds of attack.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn nor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<0x01>(a, b, c)
}

/// Lane-wise [`super::dead_squares`]: selected with lane masks instead of all-ones words.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn dead_squares(x: __m512i, shift: __m512i) -> __m512i {
    let near = or3(x, _mm512_sllv_epi32(x, shift), _mm512_srlv_epi32(x, shift));
    let below = _mm512_add_epi32(x, splat(u32::MAX));
    let single = _mm512_testn_epi32_mask(x, below);
    let empty = _mm512_testn_epi32_mask(x, x);
    _mm512_mask_mov_epi32(_mm512_maskz_mov_epi32(single, near), empty, splat(u32::MAX))
}

/// Lane-wise [`super::dead_squares_upto_two`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn dead_squares_upto_two(x: __m512i, shift: __m512i) -> __m512i {
    let (up, down) = (_mm512_sllv_epi32(x, shift), _mm512_srlv_epi32(x, shift));
    // Majority of the three: a queen between two squares or on either of a close pair.
    let two = _mm512_ternarylogic_epi32::<0xE8>(x, up, down);
    let minus_one = splat(u32::MAX);
    let rest = _mm512_and_si512(x, _mm512_add_epi32(x, minus_one));
    let exactly_two = _mm512_test_epi32_mask(rest, rest)
        & _mm512_testn_epi32_mask(rest, _mm512_add_epi32(rest, minus_one));
    _mm512_mask_mov_epi32(dead_squares(x, shift), exactly_two, two)
}

/// The attacks entering the row of `level` for a queen in each lane's column of the row
/// above, whose attacks were `[cols, ld, rd]` (the same in every lane).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn place(level: &Level, lane_bits: __m512i, [cols, ld, rd]: [__m512i; 3]) -> [__m512i; 3] {
    let shift = splat(level.shift);
    [
        _mm512_or_si512(cols, lane_bits),
        _mm512_sllv_epi32(_mm512_or_si512(ld, lane_bits), shift),
        _mm512_srlv_epi32(_mm512_or_si512(rd, lane_bits), shift),
    ]
}

/// Lane-wise [`Level::accepted_early`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn accepted_early(level: &Level, [c, l, r]: [__m512i; 3]) -> __m512i {
    let (near, far) = (splat(level.near_shift), splat(level.far_shift));
    let free = nor3(c, _mm512_or_si512(l, r), splat(level.blocked));
    let near_free = nor3(
        _mm512_or_si512(c, splat(level.near_blocked)),
        _mm512_sllv_epi32(l, near),
        _mm512_srlv_epi32(r, near),
    );
    let far_free = nor3(
        _mm512_or_si512(c, splat(level.far_blocked)),
        _mm512_sllv_epi32(l, far),
        _mm512_srlv_epi32(r, far),
    );
    // free & !dead_near & !dead_far
    _mm512_ternarylogic_epi32::<0x02>(
        dead_squares(near_free, near),
        dead_squares(far_free, far),
        free,
    )
}

/// Lane-wise [`Level::accepted_second_to_last`].
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn accepted_second_to_last(level: &Level, [c, l, r]: [__m512i; 3]) -> __m512i {
    let shift = splat(level.near_shift);
    let free = nor3(c, _mm512_or_si512(l, r), splat(level.blocked));
    let last_free = nor3(
        _mm512_or_si512(c, splat(level.near_blocked)),
        _mm512_sllv_epi32(l, shift),
        _mm512_srlv_epi32(r, shift),
    );
    _mm512_andnot_si512(dead_squares_upto_two(last_free, shift), free)
}

/// Completions counted from the accepted squares of the second-to-last row, one lane per
/// queen of the row above: with two columns left, each lane holds at most two squares.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
fn completions(lanes: __mmask16, accepted: __m512i) -> u64 {
    let any = _mm512_mask_test_epi32_mask(lanes, accepted, accepted);
    let rest = _mm512_and_si512(accepted, _mm512_add_epi32(accepted, splat(u32::MAX)));
    let two = _mm512_mask_test_epi32_mask(any, rest, rest);
    u64::from(any.count_ones() + two.count_ones())
}

/// One search in flight: a plan, its stack of expanded rows, and its tally so far.
struct Walk<'a> {
    plan: &'a RowPlan,
    /// Lane `j` holds the column bit `offset + j`.
    lane_bits: __m512i,
    offset: u32,
    last: usize,
    /// Live entries of `stack`; the search is over when it is zero.
    live: usize,
    stack: [Entry; MAX_N],
    tally: Tally,
}

impl<'a> Walk<'a> {
    /// A walk with nothing to do, on `plan` (any plan: it is replaced by [`Walk::start`]).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    fn idle(plan: &'a RowPlan) -> Walk<'a> {
        Walk {
            plan,
            lane_bits: splat(0),
            offset: 0,
            last: 0,
            live: 0,
            stack: [EMPTY; MAX_N],
            tally: Tally::default(),
        }
    }

    /// Starts the search of `job` in place (the stack needs no clearing: an entry is
    /// always written before it becomes live).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    fn start(&mut self, job: &Job<'a>) {
        let offsets = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        self.plan = job.plan;
        self.lane_bits = _mm512_sllv_epi32(splat(1), _mm512_add_epi32(offsets, splat(job.offset)));
        self.offset = job.offset;
        self.last = job.plan.len - 1;
        self.tally = Tally::default();
        let start = &job.start;
        let attacks = [splat(start.cols), splat(start.ld), splat(start.rd)];
        let grew = self.expand(0, start.depth, attacks, job.first);
        self.live = usize::from(grew);
    }

    /// Expands the row entering `depth`, with attacks `[cols, ld, rd]` (broadcast to every
    /// lane) and accepted squares `todo`, into stack slot `slot`, and returns whether any
    /// candidate is worth visiting. Above the second-to-last row it counts the completions
    /// instead (and returns false).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    fn expand(&mut self, slot: usize, depth: usize, attacks: [__m512i; 3], todo: u32) -> bool {
        let lanes = (todo >> self.offset) as __mmask16;
        self.tally.nodes += u64::from(todo.count_ones());
        let level = &self.plan.levels[(depth + 1) & (MAX_N - 1)];
        let placed = place(level, self.lane_bits, attacks);
        if depth + 2 == self.last {
            let found = completions(lanes, accepted_second_to_last(level, placed));
            self.tally.solutions += found;
            self.tally.nodes += 2 * found;
            return false;
        }
        let next = accepted_early(level, placed);
        let entry = &mut self.stack[slot & (MAX_N - 1)];
        // SAFETY: `Entry` is 64-byte aligned and its arrays of 16 lanes are 64 bytes each.
        unsafe {
            _mm512_store_si512(entry.next.as_mut_ptr().cast(), next);
            for (below, placed) in entry.below.iter_mut().zip(placed) {
                _mm512_store_si512(below.as_mut_ptr().cast(), placed);
            }
        }
        let pending = u32::from(_mm512_mask_test_epi32_mask(lanes, next, next));
        (entry.pending, entry.depth) = (pending, depth);
        pending != 0
    }

    /// Visits the next candidate of the top entry: no branch depends on the board, so that
    /// several walks interleave in the pipeline without mispredictions.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
    fn step(&mut self) {
        let top = &mut self.stack[self.live.wrapping_sub(1) & (MAX_N - 1)];
        let pending = top.pending;
        let lane = pending.trailing_zeros();
        let rest = pending & pending.wrapping_sub(1);
        top.pending = rest;
        let depth = top.depth;
        let lane = lane as usize & (LANES as usize - 1);
        let attacks = top.below.map(|row| splat(row[lane]));
        let todo = top.next[lane];
        // The child goes above the top, or in its place once the top has no lanes left.
        let slot = self.live - usize::from(rest == 0);
        let grew = self.expand(slot, depth + 1, attacks, todo);
        self.live = slot + usize::from(grew);
    }
}

/// How many walks one thread interleaves.
const WALKS: usize = 4;

/// A search this kernel takes: a plan, a start on it with at least three free rows left,
/// the start row's accepted squares and the plan's lane offset (see [`lane_offset`]).
struct Job<'a> {
    plan: &'a RowPlan,
    start: Frame,
    first: u32,
    offset: u32,
}

impl<'a> Job<'a> {
    /// The job as this kernel takes it, or its tally when it needs no search or does not
    /// fit the lanes (then counted by the portable kernel).
    fn new(plan: &'a RowPlan, start: Frame) -> Result<Job<'a>, Tally> {
        match (super::first_row(plan, &start), lane_offset(plan)) {
            (Some(first), Some(offset)) => Ok(Job {
                plan,
                start,
                first,
                offset,
            }),
            _ => Err(super::count_scalar(plan, &start)),
        }
    }
}

/// Counts every job `next_job` hands out, calling `done` with each one's id and tally as
/// it finishes. Up to [`WALKS`] searches are stepped in turn, so that one's latency hides
/// behind the others' work.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi1,bmi2,lzcnt")]
pub(super) fn count_stream<'a>(
    mut next_job: impl FnMut() -> Option<(usize, &'a RowPlan, Frame)>,
    mut done: impl FnMut(usize, Tally),
) {
    // The next job that needs this kernel; the others are counted on the way.
    let mut next_search = |done: &mut dyn FnMut(usize, Tally)| {
        while let Some((id, plan, start)) = next_job() {
            match Job::new(plan, start) {
                Ok(job) => return Some((id, job)),
                Err(tally) => done(id, tally),
            }
        }
        None
    };
    let Some((id, job)) = next_search(&mut done) else {
        return;
    };
    let mut walks: [Walk; WALKS] = std::array::from_fn(|_| Walk::idle(job.plan));
    let mut ids = [None; WALKS];
    walks[0].start(&job);
    ids[0] = Some(id);
    loop {
        let mut busy = false;
        for (walk, id) in walks.iter_mut().zip(ids.iter_mut()) {
            if walk.live != 0 {
                walk.step();
                busy = true;
                continue;
            }
            if let Some(id) = id.take() {
                done(id, walk.tally);
            }
            if let Some((next_id, job)) = next_search(&mut done) {
                walk.start(&job);
                *id = Some(next_id);
                busy = true;
            }
        }
        if !busy {
            return;
        }
    }
}
