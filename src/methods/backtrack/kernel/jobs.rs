//! The jobs of the vector search ([`super::lanes`]): which lanes take a sub-problem, and
//! how one too wide for the narrow lanes is cut into parts that fit them.
//!
//! A plan's open columns decide its lanes: the narrow ones (16 lanes of 16 bits on AVX2,
//! for a span of at most 16 columns; 16 lanes of 32 bits on AVX-512, for at most 16
//! columns) or the wide windows. From N = 19 on AVX2 (N = 21 on AVX-512) most plans are
//! too wide, but each queen placed closes its column, and once a queen takes the lowest or
//! highest open column, the span narrows. So a wide sub-problem is searched a few rows
//! down here, and each part below is folded into a plan of its own
//! ([`RowPlan::with_placed`]): the parts that fit go to the narrow lanes, the rest to the
//! wide ones. The rows searched here count their nodes as the walks would, so tallies do
//! not change.

use crate::methods::backtrack::row_plan::{Frame, RowPlan, first_row};
use crate::tally::Tally;
use std::collections::HashMap;
use std::ops::Deref;

/// Rows a wide sub-problem is searched down at most, looking for parts that fit: at
/// N = 19 on AVX2, 4 rows leave 30% of the nodes wide, in about 500 parts a sub-problem;
/// 5 rows leave 21%, but in 3.6 times as many parts, which cost more than they save.
const MAX_CUT_ROWS: usize = 4;

/// A part is cut further only while it has more free rows left than this: below, its
/// search is too short to pay for a plan of its own.
const MIN_ROWS_TO_CUT: usize = 8;

/// A job's plan: the sub-problem's own, or one with the queens above the job folded in.
pub(super) enum JobPlan<'a> {
    Shared(&'a RowPlan),
    Folded(Box<RowPlan>),
}

impl Deref for JobPlan<'_> {
    type Target = RowPlan;

    fn deref(&self) -> &RowPlan {
        match self {
            JobPlan::Shared(plan) => plan,
            JobPlan::Folded(plan) => plan,
        }
    }
}

/// A search a vector kernel takes: a plan, a start on it with at least three free rows
/// left, the start row's accepted squares, the columns open from the start on and the
/// shift of the plan's masks into lane space.
pub(super) struct Job<'a> {
    pub plan: JobPlan<'a>,
    pub start: Frame,
    pub first: u32,
    pub open: u32,
    pub offset: u32,
}

/// A part of a sub-problem.
pub(super) enum Part<'a> {
    /// A search for the narrow lanes.
    Narrow(Job<'a>),
    /// A search for the wide lanes.
    Wide(Job<'a>),
    /// Fewer than three free rows left, or no lanes fit: the scalar search counts it.
    Scalar(&'a RowPlan, Frame),
}

/// Which columns a kind of lanes takes: for a plan's open columns, the shift of its masks
/// into lane space, or `None` when they do not fit (`Lanes::fit`).
pub(super) type Fit = fn(u32) -> Option<u32>;

/// Cuts the search of `start` on `plan` into parts for the narrow lanes and the wide ones
/// (see the module docs), handing each to `emit`; returns the nodes accepted in the rows
/// searched here.
pub(super) fn cut<'a>(
    plan: &'a RowPlan,
    start: Frame,
    [narrow, wide]: [Fit; 2],
    emit: &mut dyn FnMut(Part<'a>),
) -> u64 {
    let Some(first) = first_row(plan, &start) else {
        emit(Part::Scalar(plan, start));
        return 0;
    };
    if let Some(job) = narrow_job(plan, start, first, narrow) {
        emit(Part::Narrow(job));
        return 0;
    }
    cut_below(plan, start, first, 0, [narrow, wide], emit)
}

/// The job of `start` (whose accepted squares are `first`) for the narrow lanes, on its
/// plan or with its queens folded in, if either fits them.
fn narrow_job(plan: &RowPlan, start: Frame, first: u32, narrow: Fit) -> Option<Job<'_>> {
    // The plan's own lanes must hold the queens already placed (their attacks enter
    // lane space with them), so they span every row, not only those left.
    let open = plan.open_from(0);
    if let Some(offset) = narrow(open) {
        return Some(Job {
            plan: JobPlan::Shared(plan),
            start,
            first,
            open,
            offset,
        });
    }
    let open = plan.open_below(&start);
    let offset = narrow(open)?;
    Some(Job {
        plan: JobPlan::Folded(Box::new(plan.with_placed(&start))),
        start: Frame {
            depth: start.depth,
            ..Frame::default()
        },
        first,
        open,
        offset,
    })
}

/// Cuts a search too wide for the narrow lanes, `rows_cut` rows below its job: each
/// accepted queen of the start row (`first`) whose search fits the narrow lanes becomes
/// a narrow part; the others are cut further, or, on the last row cut, left together in
/// one wide part from `start`.
fn cut_below<'a>(
    plan: &'a RowPlan,
    start: Frame,
    first: u32,
    rows_cut: usize,
    [narrow, wide]: [Fit; 2],
    emit: &mut dyn FnMut(Part<'a>),
) -> u64 {
    let last_cut = rows_cut + 1 >= MAX_CUT_ROWS || plan.len() - start.depth <= MIN_ROWS_TO_CUT;
    let (mut nodes, mut left_wide) = (0, 0);
    let mut todo = first;
    while todo != 0 {
        let bit = todo & todo.wrapping_neg();
        todo ^= bit;
        let next = plan.step(&start, bit).expect("an accepted square");
        let Some(next_first) = first_row(plan, &next) else {
            nodes += 1;
            emit(Part::Scalar(plan, next));
            continue;
        };
        if let Some(job) = narrow_job(plan, next, next_first, narrow) {
            nodes += 1;
            emit(Part::Narrow(job));
        } else if last_cut {
            left_wide |= bit;
        } else {
            let fits = [narrow, wide];
            nodes += 1 + cut_below(plan, next, next_first, rows_cut + 1, fits, emit);
        }
    }
    if left_wide != 0 {
        let open = plan.open_from(0);
        match wide(open) {
            Some(offset) => {
                let job = Job {
                    plan: JobPlan::Shared(plan),
                    start,
                    first: left_wide,
                    open,
                    offset,
                };
                emit(Part::Wide(job));
            }
            None => emit(Part::Scalar(plan, start)),
        }
    }
    nodes
}

/// The sub-problems whose parts are still being searched: a sub-problem is reported once,
/// with the sum of its parts, when its last part ends.
#[derive(Default)]
pub(super) struct Parts {
    open: HashMap<usize, (usize, Tally)>,
}

impl Parts {
    /// Sub-problem `id` was cut into `parts` parts still to search, and `tally` so far;
    /// returns its tally when no part is left to search.
    pub fn begin(&mut self, id: usize, parts: usize, tally: Tally) -> Option<Tally> {
        if parts == 0 {
            return Some(tally);
        }
        self.open.insert(id, (parts, tally));
        None
    }

    /// A part of sub-problem `id` ended with `tally`; returns the sub-problem's tally when
    /// that was its last part.
    pub fn end(&mut self, id: usize, tally: Tally) -> Option<Tally> {
        let (left, sum) = self
            .open
            .get_mut(&id)
            .expect("a part of an open sub-problem");
        *sum += tally;
        *left -= 1;
        if *left > 0 {
            return None;
        }
        self.open.remove(&id).map(|(_, sum)| sum)
    }
}
