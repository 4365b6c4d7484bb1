//! The hot kernel: counts the completions of a partly filled board by bitmask backtracking.
//!
//! Bit layout, used everywhere in the engine: bit `c` of a row mask is column `c` of that
//! row (bit 0 is column 0). The search fills the *free rows* of a [`RowPlan`] from top to
//! bottom, one queen per row. Three masks carry the attacks of the queens placed so far
//! onto the current row: `cols` (columns taken), `ld` (diagonals running down and to the
//! left... stored so that they move one column up per row, i.e. shift left) and `rd` (the
//! other diagonals, shift right). Queens fixed before the search starts (the border keys)
//! are folded into a per-row `blocked` mask instead, so they cost nothing per node.
//!
//! Free rows need not be consecutive: rows taken by pre-placed queens are skipped by
//! shifting the diagonal masks by the distance between consecutive free rows.
//!
//! The kernel is a pure function of its inputs: no allocation, no atomics, no I/O.
//!
//! Counting rule (also used by [`RowPlan::step`], so splitting never changes the node
//! count): a queen on a free square of row `d` is *accepted* unless, on its own, it takes
//! the last free squares of row `d + 1` or of row `d + 2` while that row had at most two
//! (a lookahead over the next two rows, exact for the last rows and cheap elsewhere; see
//! `dead_squares`). Every accepted queen is one node; an accepted queen on the last free
//! row completes one solution.

/// Largest board side the engine supports: masks are `u32`.
pub const MAX_N: usize = 32;

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
    /// Per free row: squares attacked or occupied by pre-placed queens, plus every bit at
    /// or above the board side, so that `!blocked` alone bounds the board.
    blocked: [u32; MAX_N],
    /// Per free row `d >= 1`: rows between free row `d - 1` and free row `d`.
    shift: [u32; MAX_N],
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
    /// # Panics
    /// If `n > MAX_N`, the rows are not increasing, or the slices differ in length.
    pub fn new(n: usize, rows: &[usize], blocked: &[u32]) -> RowPlan {
        assert!(n <= MAX_N && rows.len() <= n && rows.len() == blocked.len());
        let off_board = if n == MAX_N { 0 } else { u32::MAX << n };
        let mut plan = RowPlan {
            len: rows.len(),
            blocked: [u32::MAX; MAX_N],
            shift: [0; MAX_N],
        };
        for (d, (&row, &mask)) in rows.iter().zip(blocked).enumerate() {
            plan.blocked[d] = mask | off_board;
            if d > 0 {
                assert!(row > rows[d - 1], "free rows must increase");
                plan.shift[d] = (row - rows[d - 1]) as u32;
            }
        }
        plan
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
        !(frame.cols | frame.ld | frame.rd | self.blocked[frame.depth])
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
        let shift = self.shift[depth];
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

/// The squares of a row whose queen would leave the next row with no free square, when
/// that row has at most two free squares (otherwise none are reported).
///
/// A queen on column bit `b` attacks `b`, `b << shift` and `b >> shift` in the next free
/// row (`shift` rows further down). It is dead exactly when all of `next_free` (the next
/// row's free squares before it is placed) lies among those three. The relation is
/// symmetric, so the dead squares are those near *every* bit of `next_free`. Computed for
/// the whole row at once, without branches, so the search never tries those squares.
/// Stopping at two free squares keeps the dependency chain short (the three-square case
/// saves under 1% of the nodes and costs more time than it saves); two is also exactly
/// what the second-to-last row needs, whose next row is the last.
#[inline(always)]
fn dead_squares(next_free: u32, shift: u32) -> u32 {
    let (x, up, down) = (next_free, next_free << shift, next_free >> shift);
    // One free square: the queens attacking it. Two: a queen attacking both, which exists
    // when they are `shift` apart (then it stands on either) or `2 * shift` apart (then
    // it stands between them). Selected with masks, not branches: the choice is data
    // dependent and would be mispredicted often.
    let one = x | up | down;
    let two = (x & (up | down)) | (up & down);
    let rest = x & x.wrapping_sub(1);
    let beyond_two = rest & rest.wrapping_sub(1);
    let pick_one = u32::from(rest == 0).wrapping_neg();
    let within_two = u32::from(beyond_two == 0).wrapping_neg();
    let empty = u32::from(x == 0).wrapping_neg();
    ((one & pick_one) | (two & !pick_one)) & within_two | empty
}

impl RowPlan {
    /// The squares of row `depth` on which a queen is accepted: free, and not alone
    /// emptying the next row or the one after (see the module docs).
    #[inline(always)]
    fn accepted(&self, depth: usize, cols: u32, ld: u32, rd: u32) -> u32 {
        const M: usize = MAX_N - 1;
        let free = !(cols | ld | rd | self.blocked[depth & M]);
        if depth + 1 >= self.len {
            return free;
        }
        let shift = self.shift[(depth + 1) & M];
        let next_free = !(cols | ld << shift | rd >> shift | self.blocked[(depth + 1) & M]);
        let dead_next = dead_squares(next_free, shift);
        // The row after next, two rows on: a queen that alone empties it is dead too.
        let far = shift + self.shift[(depth + 2) & M];
        let far_free = !(cols | ld << far | rd >> far | self.blocked[(depth + 2) & M]);
        let has_far = u32::from(depth + 2 < self.len).wrapping_neg();
        free & !dead_next & !(dead_squares(far_free, far) & has_far)
    }
}

/// Counts every completion of `start` on `plan`, iteratively with an explicit stack.
///
/// Each row's accepted squares are found at once (see `dead_squares`), so every square the
/// loop tries is a node. The last two rows are not entered: once one free row is left,
/// exactly one column is free, so each accepted queen on the second-to-last row completes
/// exactly one solution, and they are counted with a popcount.
#[inline(never)]
pub fn count_completions(plan: &RowPlan, start: &Frame) -> Tally {
    const M: usize = MAX_N - 1;
    let len = plan.len;
    if start.depth >= len {
        return Tally {
            solutions: 1,
            nodes: 0,
        };
    }
    let last = len - 1;
    let base = start.depth;
    let first = plan.accepted(base, start.cols, start.ld, start.rd);
    if base + 1 >= last {
        // Each accepted queen here completes a solution: on the last row one node, on
        // the row before it two.
        let found = u64::from(first.count_ones());
        return Tally {
            solutions: found,
            nodes: found * (len - base) as u64,
        };
    }

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
            let shift = plan.shift[(d + 1) & M];
            let c = cols | bit;
            let l = (ld | bit) << shift;
            let r = (rd | bit) >> shift;
            let next = plan.accepted(d + 1, c, l, r);
            if d + 2 == last {
                let found = u64::from(next.count_ones());
                solutions += found;
                nodes += 2 * found;
                continue;
            }
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
