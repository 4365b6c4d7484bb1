//! The row plan of a backtracking search: which rows are free, what the pre-placed queens
//! block, and the rule that decides which queens the search accepts.
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
//! Counting rule (used by every kernel and by [`RowPlan::step`], so splitting never
//! changes the node count): a queen on a free square of row `d` is *accepted* unless, on
//! its own, it takes the only free square of row `d + 1` or of row `d + 2` (a lookahead
//! over the next two rows; on the second-to-last row it is exact, so every queen accepted
//! there completes a solution). Every accepted queen is one node; an accepted queen on
//! the last free row completes one solution.

use crate::board::MAX_N;
use crate::tally::Tally;

/// The free rows of a board to fill, each with the squares its pre-placed queens forbid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowPlan {
    pub(crate) len: usize,
    pub(crate) levels: [Level; MAX_N],
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
    pub(crate) shift: u32,
    pub(crate) blocked: u32,
    /// Rows from this free row to the next one, and that row's blocked squares.
    pub(crate) near_shift: u32,
    pub(crate) near_blocked: u32,
    /// Rows from this free row to the one after next, and that row's blocked squares.
    pub(crate) far_shift: u32,
    pub(crate) far_blocked: u32,
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

    /// This plan with the queens of `frame` standing as if pre-placed: their columns and
    /// diagonal attacks folded into the blocked squares of the rows from `frame.depth`
    /// on. Searched from an empty frame at that depth, it has the same tree, node for
    /// node, as this plan from `frame`, and fewer open columns (the queens' own and any
    /// their attacks close in every row left), so that a narrower kernel may take it.
    pub fn with_placed(&self, frame: &Frame) -> RowPlan {
        let mut blocked = [u32::MAX; MAX_N + 2];
        let (mut ld, mut rd) = (frame.ld, frame.rd);
        let rows = frame.depth..self.len;
        for (depth, (level, blocked)) in self.levels[rows.clone()]
            .iter()
            .zip(&mut blocked[rows])
            .enumerate()
        {
            if depth > 0 {
                (ld, rd) = (ld << level.shift, rd >> level.shift);
            }
            *blocked = level.blocked | frame.cols | ld | rd;
        }
        let mut plan = self.clone();
        for depth in frame.depth..self.len {
            let level = &mut plan.levels[depth];
            level.blocked = blocked[depth];
            level.near_blocked = blocked[depth + 1];
            level.far_blocked = blocked[depth + 2];
        }
        plan
    }

    /// The columns open in some free row from `frame.depth` on, once the queens of
    /// `frame` stand: [`RowPlan::with_placed`]'s open columns, without building it.
    pub fn open_below(&self, frame: &Frame) -> u32 {
        let (mut ld, mut rd) = (frame.ld, frame.rd);
        let mut open = 0;
        for depth in frame.depth..self.len {
            if depth > frame.depth {
                let shift = self.levels[depth].shift;
                (ld, rd) = (ld << shift, rd >> shift);
            }
            open |= !(self.levels[depth].blocked | frame.cols | ld | rd);
        }
        open
    }

    /// The columns open in some free row from `depth` on.
    #[cfg(any(target_arch = "x86_64", test))]
    #[inline(always)]
    pub(crate) fn open_from(&self, depth: usize) -> u32 {
        self.levels[depth.min(self.len)..self.len]
            .iter()
            .fold(0, |open, level| open | !level.blocked)
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
}

/// The squares of a row whose queen alone would take the only free square of a row
/// `shift` rows further down (`lone_free`, the free squares of that row before the queen
/// is placed): all of them if that row has none, none if it has two or more.
///
/// A queen on column bit `b` attacks `b`, `b << shift` and `b >> shift` there, so with one
/// free square `x` the dead squares are `x`, `x >> shift` and `x << shift`. Selected with
/// masks, not branches: the case is data dependent and would be mispredicted often.
#[inline(always)]
pub(crate) fn dead_squares(lone_free: u32, shift: u32) -> u32 {
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
pub(crate) fn dead_squares_upto_two(next_free: u32, shift: u32) -> u32 {
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
    pub(crate) fn accepted(&self, depth: usize, cols: u32, ld: u32, rd: u32) -> u32 {
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
    pub(crate) fn accepted_early(&self, cols: u32, ld: u32, rd: u32) -> u32 {
        let free = !(cols | ld | rd | self.blocked);
        let (near, far) = (self.near_shift, self.far_shift);
        let near_free = !(cols | ld << near | rd >> near | self.near_blocked);
        let far_free = !(cols | ld << far | rd >> far | self.far_blocked);
        free & !dead_squares(near_free, near) & !dead_squares(far_free, far)
    }

    /// [`RowPlan::accepted`] for the second-to-last row: exact, so that every accepted
    /// queen there completes a solution.
    #[inline(always)]
    pub(crate) fn accepted_second_to_last(&self, cols: u32, ld: u32, rd: u32) -> u32 {
        let free = !(cols | ld | rd | self.blocked);
        let shift = self.near_shift;
        let last_free = !(cols | ld << shift | rd >> shift | self.near_blocked);
        free & !dead_squares_upto_two(last_free, shift)
    }
}

/// The accepted squares of the start row, or `None` when fewer than three free rows are
/// left (see [`small_count`]).
pub(crate) fn first_row(plan: &RowPlan, start: &Frame) -> Option<u32> {
    (start.depth + 3 <= plan.len)
        .then(|| plan.accepted(start.depth, start.cols, start.ld, start.rd))
}

/// The tally of a start with at most two free rows left, where no search is needed: the
/// acceptance rule is exact there, so each accepted queen completes one solution (one node
/// per row left).
pub(crate) fn small_count(plan: &RowPlan, start: &Frame) -> Tally {
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
