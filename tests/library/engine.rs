//! The engine against published values, a naive oracle, and itself at every thread count
//! and split depth.

use crate::common;

use nqueens::known::{KNOWN, known};
use nqueens::symmetry::group::Symmetry;
use nqueens::{Count, Method, MethodChoice, NoProgress, Options, count};
use proptest::prelude::*;

/// A count by backtracking (node counts are compared at every depth).
fn run(n: usize, threads: Option<usize>, split_depth: Option<usize>) -> Count {
    count(
        n,
        &Options {
            threads,
            split_depth,
            method: MethodChoice::Only(Method::BACKTRACK),
            kernel: None,
            memory_budget: None,
        },
        &NoProgress,
    )
    .expect("valid options")
}

fn assert_published(n: usize) {
    let got = run(n, None, None);
    let want = known(n).expect("published");
    assert_eq!(got.total, want.total, "total, N = {n}");
    assert_eq!(got.unique, want.unique, "unique, N = {n}");
    assert_eq!(
        (got.orbits.c8, got.orbits.c4, got.orbits.c2),
        (want.c8, want.c4, want.c2),
        "orbit split, N = {n}"
    );
    let c1 = got.orbits.c1;
    assert_eq!(
        got.total,
        8 * got.orbits.c8 + 4 * got.orbits.c4 + 2 * got.orbits.c2 + c1
    );
}

#[test]
fn published_values_for_n_1_to_14() {
    for n in 1..=14 {
        assert_published(n);
    }
}

#[test]
#[ignore = "slow: about a minute in release mode on 2 cores"]
fn published_values_for_n_15_to_18() {
    for n in 15..=18 {
        assert_published(n);
    }
}

#[test]
fn small_boards_are_as_the_problem_says() {
    assert_eq!(
        (run(1, None, None).total, run(1, None, None).unique),
        (1, 1)
    );
    assert_eq!(run(1, None, None).orbits.c1, 1);
    for n in [2, 3] {
        let c = run(n, None, None);
        assert_eq!(
            (c.total, c.unique, c.nodes > 0 || c.total == 0),
            (0, 0, true)
        );
    }
}

#[test]
fn the_naive_oracle_agrees_up_to_10() {
    for n in 1..=10 {
        let (total, unique, [c8, c4, c2, c1]) = common::orbit_census(n);
        let got = run(n, None, None);
        assert_eq!(got.total, total, "N = {n}");
        assert_eq!(got.unique, unique, "N = {n}");
        assert_eq!(
            (got.orbits.c8, got.orbits.c4, got.orbits.c2, got.orbits.c1),
            (c8, c4, c2, c1),
            "N = {n}"
        );
    }
}

#[test]
fn every_thread_count_and_split_depth_gives_identical_results() {
    for n in [6, 9, 12, 13] {
        let reference = run(n, Some(1), Some(0));
        for threads in [1, 2, 3] {
            for depth in [0, 1, 2] {
                let got = run(n, Some(threads), Some(depth));
                assert_eq!(got.threads, threads);
                assert_eq!(
                    (got.total, got.unique, got.orbits, got.nodes),
                    (
                        reference.total,
                        reference.unique,
                        reference.orbits,
                        reference.nodes
                    ),
                    "N = {n}, threads = {threads}, depth = {depth}"
                );
            }
        }
    }
}

#[test]
fn sub_problems_sum_to_the_count() {
    use nqueens::methods::backtrack::split::Split;
    for (n, depth) in [(11, 0), (11, 2), (12, 1)] {
        let split = Split::new(n, depth);
        let sum: u128 = (0..split.subproblems.len())
            .map(|id| u128::from(split.weight(id)) * u128::from(split.solve(id).solutions))
            .sum();
        assert_eq!(sum, known(n).unwrap().total, "N = {n}, depth = {depth}");
    }
}

#[test]
fn bad_options_are_refused() {
    use nqueens::Error;
    let opts = Options::default();
    assert_eq!(count(0, &opts, &NoProgress), Err(Error::BoardSize(0)));
    assert_eq!(count(33, &opts, &NoProgress), Err(Error::BoardSize(33)));
    let zero = Options {
        threads: Some(0),
        ..opts
    };
    assert_eq!(count(8, &zero, &NoProgress), Err(Error::Threads(0)));
    let too_many = Options {
        threads: Some(1025),
        ..opts
    };
    assert_eq!(count(8, &too_many, &NoProgress), Err(Error::Threads(1025)));
    let deep = Options {
        split_depth: Some(99),
        ..opts
    };
    assert_eq!(count(8, &deep, &NoProgress), Err(Error::SplitDepth(99)));
}

#[test]
fn the_table_is_the_one_the_tests_use() {
    assert_eq!(KNOWN.len(), 27);
    assert_eq!(known(27).unwrap().total, 234_907_967_154_122_528);
}

fn symmetry() -> impl Strategy<Value = Symmetry> {
    (0..8usize).prop_map(|i| Symmetry::ALL[i])
}

proptest! {
    #[test]
    fn symmetries_form_a_group(a in symmetry(), b in symmetry(), c in symmetry(), n in 1..20usize, r in 0..20usize, col in 0..20usize) {
        let sq = (r % n, col % n);
        prop_assert_eq!(a.then(b).then(c), a.then(b.then(c)));
        prop_assert_eq!(a.then(Symmetry::IDENTITY), a);
        prop_assert_eq!(a.then(a.inverse()), Symmetry::IDENTITY);
        prop_assert_eq!(a.inverse().apply(n, a.apply(n, sq)), sq);
        prop_assert!(Symmetry::ALL.contains(&a.then(b)));
    }

    #[test]
    fn symmetries_map_solutions_to_solutions(g in symmetry(), pick in 0..92usize) {
        let solutions = common::all_solutions(8);
        let image = g.apply_to_solution(&solutions[pick]);
        prop_assert!(common::is_solution(&image));
        prop_assert!(common::images(&solutions[pick]).contains(&image));
    }
}

/// A stop that comes while a run lists its sub-problems is answered before the list is
/// done (N = 28's 280 million took ten seconds to list, a signal unanswered meanwhile):
/// the run returns nothing, and the ids past the slice in hand are never looked at.
#[test]
fn a_stop_while_listing_is_answered_within_a_slice() {
    use nqueens::{Engine, Work};
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
    let options = Options {
        threads: Some(1),
        ..Options::default()
    };
    let engine = Engine::new(&options).expect("valid options");
    let plan = engine.prepare(8).expect("a plan");
    let ids = vec![0; 3 << 20];
    let (stop, looked) = (AtomicBool::new(false), AtomicUsize::new(0));
    // The stop comes as the first id is looked at.
    let skip = |_id: usize| {
        looked.fetch_add(1, Relaxed);
        stop.store(true, Relaxed);
        false
    };
    let work = Work {
        only: Some(&ids),
        skip: Some(&skip),
        stop: Some(&stop),
        ..Work::default()
    };
    assert!(engine.run(&plan, &work, &NoProgress).is_empty());
    let looked = looked.load(Relaxed);
    assert!(
        (1..=1 << 20).contains(&looked),
        "{looked} of {} ids",
        ids.len()
    );
}
