//! `nqueens solve`: every solution, in every format, in order.

use crate::common::{self, nqueens, parse_list, stdout_of};
use predicates::prelude::*;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

#[test]
fn solve_8_lists_92_distinct_solutions_in_lexicographic_order() {
    let text = stdout_of(&["solve", "8"]);
    let all: Vec<Vec<usize>> = text.lines().map(parse_list).collect();
    assert_eq!(all.len(), 92);
    assert!(all.iter().all(|s| common::is_solution(s)));
    assert!(
        all.windows(2).all(|w| w[0] < w[1]),
        "strictly increasing, so distinct"
    );
    assert_eq!(all, common::all_solutions(8), "the documented order");
}

#[test]
fn unique_lists_one_per_orbit_with_its_size() {
    let text = stdout_of(&["solve", "8", "--unique", "--format", "json"]);
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 12);
    let sizes: u64 = rows.iter().map(|r| r["orbit_size"].as_u64().unwrap()).sum();
    assert_eq!(sizes, 92);
}

#[test]
fn solve_agrees_with_the_engine_up_to_12() {
    for n in 1..=12usize {
        let listed = stdout_of(&["solve", &n.to_string()]).lines().count() as u128;
        let counted = nqueens::count(n, &Default::default(), &nqueens::NoProgress)
            .unwrap()
            .total;
        assert_eq!(listed, counted, "N = {n}");
    }
}

#[test]
fn every_format_draws_the_first_solution() {
    assert_eq!(stdout_of(&["solve", "4", "--limit", "1"]), "1 3 0 2\n");
    assert_eq!(
        stdout_of(&["solve", "4", "--limit", "1", "--format", "board"]),
        "solution 1\n. Q . .\n. . . Q\nQ . . .\n. . Q .\n\n"
    );
    let unicode = stdout_of(&["solve", "4", "--limit", "1", "--format", "unicode"]);
    assert_eq!(unicode.matches('♛').count(), 4);
    let json = stdout_of(&["solve", "4", "--limit", "1", "--format", "json", "--placed"]);
    let row: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(row["cols"], serde_json::json!([1, 3, 0, 2]));
    assert!(row["placed"].as_u64().unwrap() >= 4);
    // --json is --format json, for solve and find alike, and not beside another format.
    for command in [&["solve", "6"][..], &["find", "8"], &["find", "1000"]] {
        let by_format = stdout_of(&[command, &["--format", "json"]].concat());
        assert_eq!(stdout_of(&[command, &["--json"]].concat()), by_format);
        assert!(by_format.lines().count() >= 1);
        nqueens()
            .args([command, &["--json", "--format", "list"]].concat())
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--json"));
    }
}

#[test]
fn svg_is_well_formed_with_every_square_and_queen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("boards.svg");
    nqueens()
        .args(["solve", "8", "--limit", "3", "--format", "svg", "-o"])
        .arg(&path)
        .assert()
        .success();
    let text = std::fs::read_to_string(&path).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("well-formed XML");
    let count = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    assert_eq!(count("board"), 3);
    assert_eq!(count("square"), 3 * 64);
    assert_eq!(count("queen"), 3 * 8);
    // An existing file is not overwritten without --force.
    nqueens()
        .args(["solve", "8", "--format", "svg", "-o"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--force"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn the_listing_is_the_same_on_any_number_of_threads() {
    // N = 15 is listed in runs of prefixes of its first three rows, on the threads at
    // once; every format, with the placed count and orbits, as on one thread.
    for extra in [
        &["--placed", "--unique"][..],
        &["--format", "board", "--limit", "100000"],
        &["--json", "--placed", "--limit", "250000"],
    ] {
        let one = stdout_of(&[&["solve", "15", "--threads", "1"][..], extra].concat());
        let three = stdout_of(&[&["solve", "15", "--threads", "3"][..], extra].concat());
        assert!(one.len() > 1_000_000, "{extra:?}");
        assert!(one == three, "{extra:?}");
    }
    let unique = stdout_of(&["solve", "15", "--unique", "--threads", "2"]);
    assert_eq!(unique.lines().count(), 285_053);
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(["solve", "14"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.split_whitespace().count(), 14);
    // The reader is dropped here: the pipe closes early.
    assert!(child.wait().unwrap().success());
}

#[test]
fn solve_refuses_bad_requests() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "0"], "N must be 1 to 32"),
        (&["solve", "33"], "N must be 1 to 32"),
        (&["solve", "17"], "--limit"),
        (&["solve", "8", "--format", "svg"], "--output"),
        (&["solve", "8", "--limit", "0"], "--limit"),
        (&["solve", "8", "--format", "summary"], "find"),
        (&["solve", "8", "--threads", "0"], "must be 1 to"),
        (&["solve", "17"], "95,815,104 boards"),
    ];
    for (args, message) in cases {
        nqueens()
            .args(*args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(*message));
    }
    assert_eq!(
        stdout_of(&["solve", "17", "--limit", "2"]).lines().count(),
        2
    );
}
