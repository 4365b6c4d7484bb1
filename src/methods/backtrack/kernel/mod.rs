//! The backtracking kernels: count the completions of a partly filled board
//! ([`super::row_plan`]) by bitmask backtracking.
//!
//! The kernels implement the same rule and give the same tallies, node counts included:
//! the scalar search ([`scalar`]) visits one queen at a time (built twice: portable, and
//! for AVX2/BMI2/POPCNT), and the vector search (`lanes`, built for AVX-512 in
//! `avx512` and for AVX2 in `avx2`) expands all candidate columns of a row at once and
//! interleaves several searches per thread ([`count_stream`]). Which one runs is decided
//! at run time ([`crate::cpu::Kernel`]), so one binary is fast on every CPU; the tests
//! hold each to the portable one.
//!
//! The kernels are pure functions of their inputs: no atomics, no I/O, and no allocation
//! in the search itself (a vector stream keeps its queue of parts, see `jobs`).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "x86_64")]
mod jobs;
#[cfg(target_arch = "x86_64")]
mod lanes;
pub mod scalar;

use super::row_plan::{Frame, RowPlan};
use crate::cpu::Kernel;
#[cfg(target_arch = "x86_64")]
use crate::cpu::KernelLevel;
use crate::tally::Tally;
use scalar::count_until;

/// Counts every completion of `start` on `plan`: the same tally as [`scalar::count_scalar`], by
/// the fastest kernel this build has.
pub fn count_completions(plan: &RowPlan, start: &Frame) -> Tally {
    let mut job = Some((0, plan, *start));
    let mut tally = Tally::default();
    count_stream(
        Kernel::detect(),
        || job.take(),
        |_, found| tally = found,
        &|| false,
    );
    tally
}

/// Counts the completions of every job `next_job` hands out (an id, a plan and a start on
/// it), calling `done` with each job's id and tally as it finishes, until `next_job`
/// returns `None`. Jobs may finish out of order.
///
/// With the vector kernels (AVX-512, AVX2) several searches share the thread and hide
/// each other's latency, so one call should be given many jobs; the portable kernel is
/// [`scalar::count_scalar`] job by job.
///
/// `halted` is asked now and then (every few microseconds of work, never per node): once
/// it says so, the stream returns, and the jobs still in flight are abandoned without a
/// report. So a stop never waits for a search, however long (a sub-problem of N = 28 runs
/// for hours).
pub fn count_stream<'a>(
    kernel: Kernel,
    mut next_job: impl FnMut() -> Option<(usize, &'a RowPlan, Frame)>,
    mut done: impl FnMut(usize, Tally),
    halted: &dyn Fn() -> bool,
) {
    match kernel.level() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has the AVX-512 level's features.
        KernelLevel::Avx512 => unsafe { avx512::count_stream(&mut next_job, &mut done, halted) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel token proves the CPU has AVX2, BMI1/2, POPCNT and LZCNT.
        KernelLevel::Avx2 => unsafe { avx2::count_stream(&mut next_job, &mut done, halted) },
        _ => {
            while let Some((id, plan, start)) = next_job() {
                match count_until(kernel, plan, &start, halted) {
                    Some(tally) => done(id, tally),
                    None => return,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::scalar::{count_scalar, count_with};
    use super::*;
    use crate::cpu::KernelLevel;

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
            let tally = count_completions(&open_board(n), &Frame::default());
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
                count_completions(&plan, &Frame::default())
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
        let by_kernel = count_completions(&plan, &Frame::default()).solutions;
        let all = crate::oracle::all_solutions(n)
            .iter()
            .filter(|cols| cols[2] == 0)
            .count() as u64;
        assert_eq!(by_kernel, all);
    }

    /// Draws below a bound from a small xorshift generator seeded with `state` (non-zero),
    /// so that a failure replays.
    fn below(mut state: u64) -> impl FnMut(u64) -> u64 {
        move |bound| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        }
    }

    /// A random plan: random free rows (with gaps), random blocked squares, and starts
    /// at random depths, from a small xorshift generator so failures replay.
    fn random_jobs(seed: u64, count: usize) -> Vec<(RowPlan, Frame)> {
        let mut next = below(seed | 1);
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
            &|| false,
        );
        out.into_iter()
            .enumerate()
            .map(|(id, t)| t.unwrap_or_else(|| panic!("job {id} never finished")))
            .collect()
    }

    /// Every kernel this CPU has; those it lacks are named on stderr, never skipped
    /// silently.
    fn kernels_here() -> Vec<Kernel> {
        use std::io::Write;
        for missing in KernelLevel::ALL.iter().filter(|k| !k.is_available()) {
            // Past the harness's capture, so that the skip shows in the test run's output.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED kernel {missing}: not available on this CPU"
            );
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
    fn every_kernel_agrees_on_random_starts_of_wide_boards() {
        // Open boards of 17 to 32 columns, started a few rows above the end from queens
        // picked at random among the accepted ones: wider than the narrow lanes of either
        // vector kernel, with rows whose candidates spread over more than one window.
        let mut next = below(0x9E37_79B9_7F4A_7C15);
        let mut jobs = Vec::new();
        for n in 17..=32 {
            let plan = open_board(n);
            for _ in 0..12 {
                let mut frame = Frame::default();
                while frame.depth + 10 < n {
                    let free = plan.free_squares(&frame);
                    let Some(deeper) = (0..free.count_ones())
                        .map(|_| {
                            let mut rest = free;
                            for _ in 0..next(u64::from(free.count_ones())) {
                                rest &= rest - 1;
                            }
                            rest & rest.wrapping_neg()
                        })
                        .find_map(|queen| plan.step(&frame, queen))
                    else {
                        break;
                    };
                    frame = deeper;
                }
                jobs.push((plan.clone(), frame));
            }
        }
        let want: Vec<Tally> = jobs.iter().map(|(p, f)| count_scalar(p, f)).collect();
        assert!(want.iter().filter(|t| t.solutions > 0).count() > 10);
        for kernel in kernels_here() {
            assert_eq!(streamed(kernel, &jobs), want, "{kernel}");
        }
    }

    #[test]
    fn plans_open_only_on_high_columns_agree() {
        // Open columns all above 16 put the 16-bit lanes' window past the board's 32
        // columns: what lies beyond must count as blocked, not free.
        let jobs: Vec<(RowPlan, Frame)> = [(24, 17..24), (32, 20..32), (30, 17..29)]
            .into_iter()
            .map(|(n, open)| {
                let open: u32 = open.map(|c| 1u32 << c).sum();
                let rows: Vec<usize> = (0..open.count_ones() as usize).collect();
                let plan = RowPlan::new(n, &rows, &vec![!open; rows.len()]);
                (plan, Frame::default())
            })
            .collect();
        let want: Vec<Tally> = jobs.iter().map(|(p, f)| count_scalar(p, f)).collect();
        assert!(want.iter().all(|t| t.solutions > 0));
        for kernel in kernels_here() {
            assert_eq!(streamed(kernel, &jobs), want, "{kernel}");
        }
    }

    #[test]
    fn queens_folded_into_the_plan_leave_the_same_tree() {
        // Every start two and three rows down the border-key plans of N = 9 to 12: the
        // plan with the start's queens folded in, searched from an empty frame, gives
        // the same tally, nodes included, and no more open columns.
        for n in 9..=12 {
            let split = crate::methods::backtrack::split::Split::new(n, 3);
            for id in 0..split.len() {
                let (plan, start) = split.search(id);
                let folded = plan.with_placed(&start);
                let empty = Frame {
                    depth: start.depth,
                    ..Frame::default()
                };
                assert_eq!(count_scalar(&folded, &empty), count_scalar(plan, &start));
                let open = folded.open_from(start.depth);
                assert_eq!(open & start.cols, 0, "n = {n}, id = {id}");
                assert_eq!(open & !plan.open_from(start.depth), 0);
            }
        }
    }

    #[test]
    fn wide_searches_cut_into_narrow_parts_agree() {
        // Open boards of 17 to 20 columns with a few queens placed (random accepted
        // ones), so that twelve rows or so are left: each search is cut into parts, some
        // folded into narrow lanes, some left wide, some too short to cut.
        let mut next = below(0x2545_F491_4F6C_DD1D);
        let mut jobs = Vec::new();
        for n in 17..=20 {
            let plan = open_board(n);
            for left in [12, 13] {
                for _ in 0..3 {
                    let mut frame = Frame::default();
                    while frame.depth + left < n {
                        let free = plan.free_squares(&frame);
                        let mut rest = free;
                        for _ in 0..next(u64::from(free.count_ones().max(1))) {
                            rest &= rest - 1;
                        }
                        match plan.step(&frame, rest & rest.wrapping_neg()) {
                            Some(deeper) => frame = deeper,
                            None => break,
                        }
                    }
                    jobs.push((plan.clone(), frame));
                }
            }
        }
        let want: Vec<Tally> = jobs.iter().map(|(p, f)| count_scalar(p, f)).collect();
        assert!(want.iter().filter(|t| t.solutions > 0).count() > 5);
        for kernel in kernels_here() {
            assert_eq!(streamed(kernel, &jobs), want, "{kernel}");
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
    fn a_halted_stream_abandons_its_searches_at_once() {
        // N = 18 on one thread takes many seconds; halted, it must end in microseconds
        // and report nothing of the search it abandoned. Small jobs finished before the
        // halt are reported, and right.
        let big = open_board(18);
        let small = open_board(8);
        for kernel in kernels_here() {
            let mut jobs = vec![(0, &small), (1, &big), (2, &small)].into_iter();
            let asked = std::cell::Cell::new(0u32);
            let mut reported = Vec::new();
            count_stream(
                kernel,
                || jobs.next().map(|(id, plan)| (id, plan, Frame::default())),
                |id, tally| reported.push((id, tally.solutions)),
                &|| {
                    asked.set(asked.get() + 1);
                    asked.get() > 3
                },
            );
            assert!(
                reported
                    .iter()
                    .all(|&(id, solutions)| id != 1 && solutions == 92)
            );
            assert!(asked.get() > 3, "{kernel}: the search looked at the flag");
        }
    }

    #[test]
    fn an_empty_stream_finishes_nothing() {
        count_stream(
            Kernel::portable(),
            || None,
            |id, _| panic!("job {id} finished"),
            &|| false,
        );
    }
}
