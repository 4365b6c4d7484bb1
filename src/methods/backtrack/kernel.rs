//! The hot kernel: counts the completions of a partly filled board by bitmask backtracking.
//!
//! Bit layout, used everywhere in the engine: bit `c` of a row mask is column `c` of that
//! row (bit 0 is column 0). The search fills the *free rows* of a [`RowPlan`] from top to
//! bottom, one queen per row. Three masks carry the attacks of the queens placed so far
//! onto the current row: `cols` (columns taken), `ld` (attacks along one diagonal: they move
//! one column up per row down, so the mask shifts left) and `rd` (the other diagonal: the
//! mask shifts right). Queens fixed before the search starts (the border keys)
//! are folded into a per-row `blocked` mask instead, so they cost nothing per node.
//!
//! Free rows need not be consecutive: rows taken by pre-placed queens are skipped by
//! shifting the diagonal masks by the distance between consecutive free rows.
//!
//! The kernels implement the same rule and give the same tallies, node counts included:
//! the scalar search here visits one queen at a time (built twice: portable, and for
//! AVX2/BMI2/POPCNT), and the vector search (`lanes`, built for AVX-512 in `avx512` and
//! for AVX2 in `avx2`) expands all candidate columns of a row at once and interleaves
//! several searches per thread ([`count_stream`]). Which one runs is decided at run time ([`crate::cpu::Kernel`]), so
//! one binary is fast on every CPU; the tests hold each to the portable one.
//!
//! The kernels are pure functions of their inputs: no allocation, no atomics, no I/O.
//!
//! Counting rule (also used by [`RowPlan::step`], so splitting never changes the node
//! count): a queen on a free square of row `d` is *accepted* unless, on its own, it takes
//! the only free square of row `d + 1` or of row `d + 2` (a lookahead over the next two
//! rows; on the second-to-last row it is exact, so every queen accepted there completes a
//! solution). Every accepted queen is one node; an accepted queen on the last free row
//! completes one solution.

/// Largest board side the engine supports: masks are `u32`.
pub const MAX_N: usize = 32;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod lanes;

use crate::cpu::Kernel;

/// Solutions and search nodes found by one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Completions found.
    pub solutions: u64,
    /// Queens accepted by the search (see the module docs for the rule).
    pub nodes: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.solutions += other.solutions;
        self.nodes += other.nodes;
    }
}

/// The free rows of a board to fill, each with the squares its pre-placed queens forbid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowPlan {
    len: usize,
    levels: [Level; MAX_N],
}

/// What the search needs to know on entering one free row, laid out so that the hot loop
/// reaches all of it from one index: the row itself and the next two free rows.
///
/// `blocked` masks hold the squares attacked or occupied by pre-placed queens plus every
/// bit at or above the board side, so that `!blocked` alone bounds the board. Rows past
/// the end are fully blocked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Level {
    /// Rows from the previous free row to this one.
    shift: u32,
    blocked: u32,
    /// Rows from this free row to the next one, and that row's blocked squares.
    near_shift: u32,
    near_blocked: u32,
    /// Rows from this free row to the one after next, and that row's blocked squares.
    far_shift: u32,
    far_blocked: u32,
}

/// The search state on entering a free row: the attacks of the queens placed so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// Index of the free row to fill next (equal to the plan's length when complete).
    pub depth: usize,
    /// Columns taken by queens placed during the search.
    pub cols: u32,
    /// Diagonal attacks moving one column up (left shift) per row.
    pub ld: u32,
    /// Diagonal attacks moving one column down (right shift) per row.
    pub rd: u32,
}

impl RowPlan {
    /// A plan for board side `n` whose free rows are `rows` (strictly increasing) with the
    /// given blocked squares per free row (bits `>= n` are added here).
    ///
    /// As on any board with some queens placed, the columns open in some free row must be
    /// no more than the free rows: the search then leaves at most two columns for the last
    /// two rows, which is what lets it count them without entering them.
    ///
    /// # Panics
    /// If `n > MAX_N`, the rows are not increasing, the slices differ in length, or more
    /// columns are open than rows are free.
    pub fn new(n: usize, rows: &[usize], blocked: &[u32]) -> RowPlan {
        assert!(n <= MAX_N && rows.len() <= n && rows.len() == blocked.len());
        assert!(
            rows.windows(2).all(|w| w[0] < w[1]),
            "free rows must increase"
        );
        let off_board = if n == MAX_N { 0 } else { u32::MAX << n };
        let open = blocked.iter().fold(0, |open, &b| open | !(b | off_board));
        assert!(
            open.count_ones() as usize <= rows.len(),
            "{} columns are open for {} free rows",
            open.count_ones(),
            rows.len()
        );
        let len = rows.len();
        let row_blocked = |d: usize| blocked.get(d).map_or(u32::MAX, |&m| m | off_board);
        let gap = |from: usize, to: usize| match (rows.get(from), rows.get(to)) {
            (Some(&a), Some(&b)) => (b - a) as u32,
            _ => 0,
        };
        let mut levels = [Level::default(); MAX_N];
        for (d, level) in levels.iter_mut().enumerate().take(len) {
            *level = Level {
                shift: if d == 0 { 0 } else { gap(d - 1, d) },
                blocked: row_blocked(d),
                near_shift: gap(d, d + 1),
                near_blocked: row_blocked(d + 1),
                far_shift: gap(d, d + 2),
                far_blocked: row_blocked(d + 2),
            };
        }
        RowPlan { len, levels }
    }

    /// The plan data for entering free row `depth` (any index is safe: it wraps).
    #[inline(always)]
    pub(crate) fn level(&self, depth: usize) -> &Level {
        &self.levels[depth & (MAX_N - 1)]
    }

    /// A rough, deterministic estimate of the work below `frame`: the product of the
    /// squares free in each of the next rows given the queens so far (at most eight rows).
    /// Used to balance shards, never to count.
    pub fn estimated_cost(&self, frame: &Frame) -> f64 {
        let (mut ld, mut rd) = (frame.ld, frame.rd);
        let mut product = 1.0;
        for depth in frame.depth..self.len.min(frame.depth + 8) {
            if depth > frame.depth {
                let shift = self.level(depth).shift;
                (ld, rd) = (ld << shift, rd >> shift);
            }
            let free = !(frame.cols | ld | rd | self.level(depth).blocked);
            product *= f64::from(free.count_ones().max(1));
        }
        product
    }

    /// Number of free rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no row is left to fill.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The free squares of the frame's row.
    #[inline(always)]
    pub fn free_squares(&self, frame: &Frame) -> u32 {
        !(frame.cols | frame.ld | frame.rd | self.levels[frame.depth].blocked)
    }

    /// Places a queen on `bit` (one free square of the frame's row) and returns the next
    /// frame if the queen is accepted (see the module docs). The frame after the last row
    /// has `depth == len()`.
    #[inline(always)]
    pub fn step(&self, frame: &Frame, bit: u32) -> Option<Frame> {
        if self.accepted(frame.depth, frame.cols, frame.ld, frame.rd) & bit == 0 {
            return None;
        }
        let depth = frame.depth + 1;
        if depth == self.len {
            return Some(Frame { depth, ..*frame });
        }
        let shift = self.levels[depth].shift;
        Some(Frame {
            depth,
            cols: frame.cols | bit,
            ld: (frame.ld | bit) << shift,
            rd: (frame.rd | bit) >> shift,
        })
    }

    /// Counts the completions of `start` and the nodes the search accepts below it.
    pub fn count_from(&self, start: &Frame) -> Tally {
        count_completions(self, start)
    }
}

/// The squares of a row whose queen alone would take the only free square of a row
/// `shift` rows further down (`lone_free`, the free squares of that row before the queen
/// is placed): all of them if that row has none, none if it has two or more.
///
/// A queen on column bit `b` attacks `b`, `b << shift` and `b >> shift` there, so with one
/// free square `x` the dead squares are `x`, `x >> shift` and `x << shift`. Selected with
/// masks, not branches: the case is data dependent and would be mispredicted often.
#[inline(always)]
fn dead_squares(lone_free: u32, shift: u32) -> u32 {
    let x = lone_free;
    let near = x | x << shift | x >> shift;
    let single = u32::from(x & x.wrapping_sub(1) == 0).wrapping_neg();
    let empty = u32::from(x == 0).wrapping_neg();
    (near & single) | empty
}

/// Like [`dead_squares`], but exact for up to two free squares: a queen takes both when
/// they are `shift` apart (it stands on either) or `2 * shift` apart (it stands between).
/// The second-to-last row needs this: the last row has two free squares there.
#[inline(always)]
fn dead_squares_upto_two(next_free: u32, shift: u32) -> u32 {
    let (x, up, down) = (next_free, next_free << shift, next_free >> shift);
    let two = (x & (up | down)) | (up & down);
    let rest = x & x.wrapping_sub(1);
    let exactly_two = u32::from(rest != 0 && rest & rest.wrapping_sub(1) == 0).wrapping_neg();
    dead_squares(x, shift) | (two & exactly_two)
}

impl RowPlan {
    /// The squares of row `depth` on which a queen is accepted: free, and not emptying
    /// the next row or the one after (see the module docs).
    #[inline(always)]
    fn accepted(&self, depth: usize, cols: u32, ld: u32, rd: u32) -> u32 {
        let level = &self.levels[depth & (MAX_N - 1)];
        if depth + 2 < self.len {
            level.accepted_early(cols, ld, rd)
        } else if depth + 2 == self.len {
            level.accepted_second_to_last(cols, ld, rd)
        } else {
            !(cols | ld | rd | level.blocked)
        }
    }
}

impl Level {
    /// [`RowPlan::accepted`] for a row with at least two free rows below it.
    #[inline(always)]
    fn accepted_early(&self, cols: u32, ld: u32, rd: u32) -> u32 {
        let free = !(cols | ld | rd | self.blocked);
        let (near, far) = (self.near_shift, self.far_shift);
        let near_free = !(cols | ld << near | rd >> near | self.near_blocked);
        let far_free = !(cols | ld << far | rd >> far | self.far_blocked);
        free & !dead_squares(near_free, near) & !dead_squares(far_free, far)
    }

    /// [`RowPlan::accepted`] for the second-to-last row: exact, so that every accepted
    /// queen there completes a solution.
    #[inline(always)]
    fn accepted_second_to_last(&self, cols: u32, ld: u32, rd: u32) -> u32 {
        let free = !(cols | ld | rd | self.blocked);
        let shift = self.near_shift;
        let last_free = !(cols | ld << shift | rd >> shift | self.near_blocked);
        free & !dead_squares_upto_two(last_free, shift)
    }
}

/// Counts every completion of `start` on `plan`: the same tally as [`count_scalar`], by
/// the fastest kernel this build has.
pub fn count_completions(plan: &RowPlan, start: &Frame) -> Tally {
    let mut job = Some((0, plan, *start));
    let mut tally = Tally::default();
    count_stream(Kernel::detect(), || job.take(), |_, found| tally = found);
    tally
}

/// Counts the completions of every job `next_job` hands out (an id, a plan and a start on
/// it), calling `done` with each job's id and tally as it finishes, until `next_job`
/// returns `None`. Jobs may finish out of order.
///
/// With the vector kernels (AVX-512, AVX2) several searches share the thread and hide
/// each other's latency, so one call should be given many jobs; the portable kernel is
/// [`count_scalar`] job by job.
pub fn count_stream<'a>(
    kernel: Kernel,
    mut next_job: impl FnMut() -> Option<(usize, &'a RowPlan, Frame)>,
    mut done: impl FnMut(usize, Tally),
) {
    assert!(
        kernel.is_available(),
        "kernel {kernel} is not available here"
    );
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX-512 F and BW (checked above).
        Kernel::Avx512 => unsafe { avx512::count_stream(&mut next_job, &mut done) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX2, BMI1/2, POPCNT and LZCNT (checked above).
        Kernel::Avx2 => unsafe { avx2::count_stream(&mut next_job, &mut done) },
        _ => {
            while let Some((id, plan, start)) = next_job() {
                done(id, count_with(kernel, plan, &start));
            }
        }
    }
}

/// Counts every completion of `start` on `plan` with the scalar search compiled for
/// `kernel`'s level (the vector kernels need streams: one job runs the AVX2 scalar build).
pub fn count_with(kernel: Kernel, plan: &RowPlan, start: &Frame) -> Tally {
    match first_row(plan, start) {
        #[cfg(target_arch = "x86_64")]
        Some(first) if kernel >= Kernel::Avx2 && Kernel::Avx2.is_available() => {
            // SAFETY: the CPU has the AVX2 level's features (checked just above).
            unsafe { search_scalar_avx2(plan, start, first) }
        }
        Some(first) => search_scalar(plan, start, first),
        None => small_count(plan, start),
    }
}

/// The accepted squares of the start row, or `None` when fewer than three free rows are
/// left (see [`small_count`]).
fn first_row(plan: &RowPlan, start: &Frame) -> Option<u32> {
    (start.depth + 3 <= plan.len)
        .then(|| plan.accepted(start.depth, start.cols, start.ld, start.rd))
}

/// The tally of a start with at most two free rows left, where no search is needed: the
/// acceptance rule is exact there, so each accepted queen completes one solution (one node
/// per row left).
fn small_count(plan: &RowPlan, start: &Frame) -> Tally {
    let Some(rows_left) = plan.len.checked_sub(start.depth).filter(|&left| left > 0) else {
        return Tally {
            solutions: 1,
            nodes: 0,
        };
    };
    let found = u64::from(
        plan.accepted(start.depth, start.cols, start.ld, start.rd)
            .count_ones(),
    );
    Tally {
        solutions: found,
        nodes: found * rows_left as u64,
    }
}

/// Counts every completion of `start` on `plan` with the portable kernel alone.
pub fn count_scalar(plan: &RowPlan, start: &Frame) -> Tally {
    count_with(Kernel::Portable, plan, start)
}

/// The portable search, iterative with an explicit stack, from a start with at least three
/// free rows left whose accepted squares are `first`.
///
/// Each row's accepted squares are found at once (see `dead_squares`), so every square the
/// loop tries is a node. The last two rows are not entered: once one free row is left,
/// exactly one column is free, so each accepted queen on the second-to-last row completes
/// exactly one solution, and they are counted with a popcount.
#[inline(never)]
fn search_scalar(plan: &RowPlan, start: &Frame, first: u32) -> Tally {
    search_body(plan, start, first)
}

/// [`search_scalar`] compiled for AVX2, BMI1/2, POPCNT and LZCNT.
#[cfg(target_arch = "x86_64")]
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn search_scalar_avx2(plan: &RowPlan, start: &Frame, first: u32) -> Tally {
    search_body(plan, start, first)
}

/// The body of the scalar search, inlined into each build of it.
#[inline(always)]
fn search_body(plan: &RowPlan, start: &Frame, first: u32) -> Tally {
    const M: usize = MAX_N - 1;
    let last = plan.len - 1;
    let base = start.depth;

    // The current row's state lives in locals; the stack holds the rows above it. The
    // `& M` keeps indices provably in range, so no bounds checks are emitted.
    let mut stack = [(0u32, 0u32, 0u32, 0u32); MAX_N];
    let mut d = base;
    let (mut todo, mut cols, mut ld, mut rd) = (first, start.cols, start.ld, start.rd);
    let mut solutions = 0u64;
    let mut nodes = 0u64;

    loop {
        while todo != 0 {
            let bit = todo & todo.wrapping_neg();
            todo ^= bit;
            nodes += 1;
            let level = &plan.levels[(d + 1) & M];
            let c = cols | bit;
            let l = (ld | bit) << level.shift;
            let r = (rd | bit) >> level.shift;
            if d + 2 == last {
                let found = u64::from(level.accepted_second_to_last(c, l, r).count_ones());
                solutions += found;
                nodes += 2 * found;
                continue;
            }
            let next = level.accepted_early(c, l, r);
            if next == 0 {
                continue;
            }
            stack[d & M] = (todo, cols, ld, rd);
            d += 1;
            (todo, cols, ld, rd) = (next, c, l, r);
        }
        if d == base {
            break;
        }
        d -= 1;
        (todo, cols, ld, rd) = stack[d & M];
    }
    Tally { solutions, nodes }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain n-queens problem as a plan: every row free, nothing blocked.
    fn open_board(n: usize) -> RowPlan {
        let rows: Vec<usize> = (0..n).collect();
        RowPlan::new(n, &rows, &vec![0; n])
    }

    #[test]
    fn open_boards_give_the_published_totals() {
        let want = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680];
        for (i, &total) in want.iter().enumerate() {
            let n = i + 1;
            let tally = open_board(n).count_from(&Frame::default());
            assert_eq!(tally.solutions, total, "n = {n}");
        }
    }

    #[test]
    fn stepping_by_hand_visits_the_same_tree() {
        fn walk(plan: &RowPlan, frame: Frame) -> Tally {
            if frame.depth == plan.len() {
                return Tally {
                    solutions: 1,
                    nodes: 0,
                };
            }
            let mut tally = Tally::default();
            let mut free = plan.free_squares(&frame);
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                if let Some(next) = plan.step(&frame, bit) {
                    tally.nodes += 1;
                    tally += walk(plan, next);
                }
            }
            tally
        }
        for n in 1..=9 {
            let plan = open_board(n);
            assert_eq!(
                walk(&plan, Frame::default()),
                plan.count_from(&Frame::default())
            );
        }
    }

    #[test]
    fn skipped_rows_shift_the_diagonals() {
        // A 5x5 board with a queen fixed at (2, 0): rows 0, 1, 3, 4 are free, column 0
        // and the squares the queen attacks are blocked.
        let n = 5;
        let q = (2usize, 0usize);
        let rows = [0usize, 1, 3, 4];
        let blocked: Vec<u32> = rows
            .iter()
            .map(|&r| {
                let dist = r.abs_diff(q.0);
                let mut m = 1u32 << q.1;
                if q.1 + dist < n {
                    m |= 1 << (q.1 + dist);
                }
                m
            })
            .collect();
        let plan = RowPlan::new(n, &rows, &blocked);
        let by_kernel = plan.count_from(&Frame::default()).solutions;
        let all = brute_force(n).filter(|cols| cols[2] == 0).count() as u64;
        assert_eq!(by_kernel, all);
    }

    /// A random plan: random free rows (with gaps), random blocked squares, and starts
    /// at random depths, from a small xorshift generator so failures replay.
    fn random_jobs(seed: u64, count: usize) -> Vec<(RowPlan, Frame)> {
        let mut state = seed | 1;
        let mut next = move |below: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % below
        };
        (0..count)
            .map(|_| {
                // Up to 32 columns but at most 10 free rows, each with an open column
                // (as if the other columns held pre-placed queens), so every search stays
                // small; the open columns lie anywhere on the board, so some plans fit the
                // vector lanes and some do not.
                let n = 4 + next(29) as usize;
                let mut rows: Vec<usize> = (0..n).collect();
                while rows.len() > 10 || next(4) == 0 && rows.len() > 3 {
                    rows.remove(next(rows.len() as u64) as usize);
                }
                let mut open = 0u32;
                while (open.count_ones() as usize) < rows.len() {
                    open |= 1 << next(n as u64);
                }
                let blocked: Vec<u32> = rows
                    .iter()
                    .map(|_| !open | (0..2).fold(0, |m, _| m | 1 << next(n as u64)))
                    .collect();
                let plan = RowPlan::new(n, &rows, &blocked);
                // Walk a few accepted queens down to get a start inside the tree.
                let mut frame = Frame::default();
                for _ in 0..next(4) {
                    if frame.depth == plan.len() {
                        break;
                    }
                    let free = plan.free_squares(&frame);
                    if free == 0 {
                        break;
                    }
                    let pick = free.count_ones() as u64;
                    let mut rest = free;
                    for _ in 0..next(pick) {
                        rest &= rest - 1;
                    }
                    match plan.step(&frame, rest & rest.wrapping_neg()) {
                        Some(deeper) => frame = deeper,
                        None => break,
                    }
                }
                (plan, frame)
            })
            .collect()
    }

    /// Runs `jobs` through one stream and returns the tallies by id, checking each id
    /// comes back exactly once.
    fn streamed(kernel: Kernel, jobs: &[(RowPlan, Frame)]) -> Vec<Tally> {
        let mut out = vec![None; jobs.len()];
        let mut ids = 0..jobs.len();
        count_stream(
            kernel,
            || ids.next().map(|id| (id, &jobs[id].0, jobs[id].1)),
            |id, tally| {
                assert!(out[id].replace(tally).is_none(), "job {id} finished twice");
            },
        );
        out.into_iter()
            .enumerate()
            .map(|(id, t)| t.unwrap_or_else(|| panic!("job {id} never finished")))
            .collect()
    }

    /// Every kernel this CPU has; those it lacks are named on stderr, never skipped
    /// silently.
    fn kernels_here() -> Vec<Kernel> {
        for missing in Kernel::ALL.iter().filter(|k| !k.is_available()) {
            eprintln!("kernel {missing} is not available on this CPU: not tested here");
        }
        Kernel::available()
    }

    #[test]
    fn every_kernel_agrees_with_the_portable_one_on_random_plans() {
        for kernel in kernels_here() {
            for seed in 1..=12 {
                let jobs = random_jobs(seed * 7919, 50);
                let want: Vec<Tally> = jobs.iter().map(|(p, f)| count_scalar(p, f)).collect();
                assert_eq!(streamed(kernel, &jobs), want, "{kernel}, seed {seed}");
                for (job, want) in jobs.iter().zip(&want) {
                    assert_eq!(count_with(kernel, &job.0, &job.1), *want, "{kernel}");
                }
            }
        }
    }

    #[test]
    fn streams_agree_on_every_open_board_and_one_at_a_time() {
        let jobs: Vec<(RowPlan, Frame)> = (1..=13)
            .map(|n| (open_board(n), Frame::default()))
            .collect();
        let want: Vec<Tally> = jobs.iter().map(|(p, f)| count_scalar(p, f)).collect();
        for kernel in kernels_here() {
            assert_eq!(streamed(kernel, &jobs), want, "{kernel}");
        }
        for (job, want) in jobs.iter().zip(&want) {
            assert_eq!(count_completions(&job.0, &job.1), *want);
        }
    }

    #[test]
    fn plans_wider_than_the_lanes_agree_too() {
        // Boards of 17 to 24 open columns, started deep in the tree along a known
        // solution so each search is small: more open columns than 16 lanes.
        let jobs: Vec<(RowPlan, Frame)> = (17..=24)
            .flat_map(|n| {
                let plan = open_board(n);
                let solution = crate::construct::explicit(n).unwrap();
                (n - 9..n - 6).map(move |placed| {
                    let frame = solution[..placed]
                        .iter()
                        .try_fold(Frame::default(), |f, &c| plan.step(&f, 1 << c))
                        .expect("a solution's queens are accepted");
                    (plan.clone(), frame)
                })
            })
            .collect();
        let want: Vec<Tally> = jobs.iter().map(|(p, f)| count_scalar(p, f)).collect();
        assert!(
            want.iter().all(|t| t.solutions >= 1),
            "the solution is among them"
        );
        for kernel in kernels_here() {
            assert_eq!(streamed(kernel, &jobs), want, "{kernel}");
        }
    }

    #[test]
    fn an_empty_stream_finishes_nothing() {
        count_stream(
            Kernel::Portable,
            || None,
            |id, _| panic!("job {id} finished"),
        );
    }

    /// Every solution of n-queens as `cols[row]`, by filtering all n^n boards.
    fn brute_force(n: usize) -> impl Iterator<Item = Vec<usize>> {
        (0..n.pow(n as u32)).filter_map(move |mut code| {
            let mut cols = vec![0; n];
            for c in cols.iter_mut() {
                *c = code % n;
                code /= n;
            }
            let ok = (0..n)
                .all(|a| (0..a).all(|b| cols[a] != cols[b] && cols[a].abs_diff(cols[b]) != a - b));
            ok.then_some(cols)
        })
    }
}
