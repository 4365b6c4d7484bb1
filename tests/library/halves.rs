//! The half-board join against the published table, the naive oracle and backtracking,
//! at several thread counts; and the choice between the methods.

use crate::common;

use nqueens::known::known;
use nqueens::methods::{HALVES_FROM, auto_method};
use nqueens::{Count, Error, Method, MethodChoice, NoProgress, Options, count};

fn by(method: Method, n: usize, threads: usize) -> Count {
    count(
        n,
        &Options {
            threads: Some(threads),
            split_depth: None,
            method: MethodChoice::Only(method),
            kernel: None,
            memory_budget: None,
        },
        &NoProgress,
    )
    .expect("valid options")
}

/// Total, unique and the orbits of 8, 4 and 2.
fn figures(c: &Count) -> (u128, u128, u128, u128, u128) {
    (c.total, c.unique, c.orbits.c8, c.orbits.c4, c.orbits.c2)
}

fn assert_matches_table(n: usize, got: &Count) {
    let want = known(n).expect("published");
    let want = (want.total, want.unique, want.c8, want.c4, want.c2);
    assert_eq!(figures(got), want, "N = {n}");
}

#[test]
fn halves_match_the_table_and_backtracking_at_1_2_and_3_threads() {
    for n in 4..=15 {
        let backtrack = by(Method::BACKTRACK, n, 2);
        for threads in 1..=3 {
            let halves = by(Method::HALVES, n, threads);
            assert_eq!(halves.method, Method::HALVES);
            assert_eq!(halves.threads, threads);
            assert_matches_table(n, &halves);
            assert_eq!(
                (halves.total, halves.unique, halves.orbits),
                (backtrack.total, backtrack.unique, backtrack.orbits),
                "N = {n}, {threads} threads"
            );
        }
    }
}

#[test]
fn halves_agree_with_the_naive_oracle_up_to_10() {
    for n in 4..=10 {
        let (total, unique, [c8, c4, c2, _]) = common::orbit_census(n);
        let got = by(Method::HALVES, n, 2);
        assert_eq!(figures(&got), (total, unique, c8, c4, c2), "N = {n}");
    }
}

#[test]
#[ignore = "slow: about a minute in release mode on 2 cores"]
fn halves_match_the_table_for_n_16_to_19() {
    for n in 16..=19 {
        assert_matches_table(n, &by(Method::HALVES, n, 2));
    }
}

#[test]
fn every_kernel_level_counts_4_to_15_by_halves() {
    for kernel in nqueens::cpu::KernelLevel::available() {
        let options = Options {
            threads: Some(2),
            method: MethodChoice::Only(Method::HALVES),
            kernel: Some(kernel),
            ..Options::default()
        };
        let engine = nqueens::Engine::new(&options).unwrap();
        for n in 4..=15 {
            let got = engine.count(n, &NoProgress).unwrap();
            assert_eq!((got.method, got.kernel), (Method::HALVES, kernel));
            assert_matches_table(n, &got);
        }
    }
}

#[test]
fn the_shard_partition_is_a_function_of_n_and_k() {
    let engine = nqueens::Engine::new(&Options {
        threads: Some(1),
        method: MethodChoice::Only(Method::HALVES),
        ..Options::default()
    })
    .unwrap();
    for (n, k) in [(12, 5), (15, 64)] {
        // Two plans made apart, one of them with every slab built by counting it.
        let (first, second) = (engine.prepare(n).unwrap(), engine.prepare(n).unwrap());
        engine.run(&second, &Default::default(), &NoProgress);
        let parts: Vec<Vec<usize>> = (0..k).map(|index| first.part(k, index)).collect();
        let again: Vec<Vec<usize>> = (0..k).map(|index| second.part(k, index)).collect();
        assert_eq!(parts, again, "N = {n}, K = {k}");
        let mut ids: Vec<usize> = parts.concat();
        ids.sort_unstable();
        assert_eq!(ids, (0..first.len()).collect::<Vec<_>>());
    }
}

#[test]
fn the_smallest_boards_go_to_backtracking() {
    for n in 1..=3 {
        let got = by(Method::HALVES, n, 1);
        assert_eq!(got.method, Method::BACKTRACK, "N = {n}");
        assert_eq!(got.total, known(n).unwrap().total);
    }
}

#[test]
fn auto_picks_halves_from_the_threshold_up() {
    assert_eq!(auto_method(HALVES_FROM - 1, None, 1), Method::BACKTRACK);
    assert_eq!(auto_method(HALVES_FROM, None, 1), Method::HALVES);
    let got = count(HALVES_FROM, &Options::default(), &NoProgress).unwrap();
    assert_eq!(got.method, Method::HALVES);
    assert_eq!(got.total, known(HALVES_FROM).unwrap().total);
}

#[test]
fn a_board_whose_tables_cannot_fit_is_refused_before_the_work() {
    let options = Options {
        method: MethodChoice::Only(Method::HALVES),
        ..Options::default()
    };
    match count(32, &options, &NoProgress) {
        Err(Error::Memory { n, needed, .. }) => {
            assert_eq!(n, 32);
            assert!(needed > 1 << 40, "a table of side 16 needs terabytes");
        }
        other => panic!("expected a memory refusal, got {other:?}"),
    }
    let message = count(32, &options, &NoProgress).unwrap_err().to_string();
    assert!(message.contains("by halves needs"), "{message}");
    assert!(
        !message.contains("--"),
        "the library names no flag: {message}"
    );
}

#[test]
fn auto_is_a_function_of_the_board_and_the_budget_alone() {
    let table = Method::HALVES.table_bytes(16, None);
    assert_eq!(auto_method(16, Some(table), 0), Method::HALVES);
    // Short of the whole table, the join keeps what room it has, down to the slabs of a
    // row set's four quadrants (what it holds with no room to spare).
    let least = Method::HALVES.table_bytes(16, Some(0));
    assert!(least < table);
    assert_eq!(auto_method(16, Some(table - 1), 0), Method::HALVES);
    assert_eq!(auto_method(16, Some(least), 0), Method::HALVES);
    assert_eq!(auto_method(16, Some(least - 1), 0), Method::BACKTRACK);
    // Each worker's buffers come out of the same budget.
    let buffers = 2 * Method::HALVES.worker_bytes(16);
    assert_eq!(auto_method(16, Some(least + buffers), 2), Method::HALVES);
    assert_eq!(
        auto_method(16, Some(least + buffers - 1), 2),
        Method::BACKTRACK
    );
    let tight = Options {
        memory_budget: Some(least - 1),
        ..Options::default()
    };
    let got = count(16, &tight, &NoProgress).unwrap();
    assert_eq!((got.method, got.total), (Method::BACKTRACK, 14_772_512));
    // Asked for by name, the join is refused rather than swapped for backtracking.
    let halves = Options {
        method: MethodChoice::Only(Method::HALVES),
        ..tight
    };
    assert!(matches!(
        count(16, &halves, &NoProgress),
        Err(Error::Memory { n: 16, .. })
    ));
}

#[test]
fn the_other_decomposition_counts_every_sub_problem_the_same() {
    let engine = nqueens::Engine::new(&Options {
        threads: Some(2),
        method: MethodChoice::Only(Method::HALVES),
        ..Options::default()
    })
    .unwrap();
    for n in 4..=15 {
        let (usual, other) = (
            engine.prepare(n).unwrap(),
            engine.prepare_other_way(n, 1).unwrap(),
        );
        let count = |plan: &nqueens::Plan| {
            let mut by_id = engine.run(plan, &Default::default(), &NoProgress);
            by_id.sort_unstable_by_key(|&(id, _)| id);
            by_id
                .into_iter()
                .map(|(id, t)| (id, t.solutions))
                .collect::<Vec<_>>()
        };
        assert_eq!(count(&usual), count(&other), "N = {n}");
    }
    // Backtracking has one way only.
    let backtracking = nqueens::Engine::new(&Options {
        method: MethodChoice::Only(Method::BACKTRACK),
        ..Options::default()
    })
    .unwrap();
    assert!(matches!(
        backtracking.prepare_other_way(13, 1),
        Err(nqueens::Error::NoOtherWay { n: 13, .. })
    ));
}
