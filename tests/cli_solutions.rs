//! `nqueens solve`, `find` and `check`, as a user or a script runs them.

mod common;

use common::nqueens;

use predicates::prelude::*;
use std::io::{BufRead, BufReader};
use std::process::Stdio;

fn stdout_of(args: &[&str]) -> String {
    let out = nqueens()
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

fn parse_list(line: &str) -> Vec<usize> {
    line.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

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

#[test]
fn find_gives_checked_solutions_for_large_boards() {
    for n in ["100000", "1000003", "1234567"] {
        let text = stdout_of(&["find", n]);
        let cols = parse_list(text.trim());
        assert_eq!(cols.len(), n.parse::<usize>().unwrap());
        assert!(common::is_solution(&cols), "N = {n}");
    }
    let a = stdout_of(&["find", "5000", "--method", "min-conflicts", "--seed", "9"]);
    assert!(common::is_solution(&parse_list(a.trim())));
    assert_eq!(
        a,
        stdout_of(&["find", "5000", "--method", "min-conflicts", "--seed", "9"])
    );
    let r = stdout_of(&["find", "12", "--method", "random-restart", "--seed", "4"]);
    assert!(common::is_solution(&parse_list(r.trim())));
}

#[test]
fn find_refuses_what_it_cannot_do() {
    for n in ["2", "3"] {
        nqueens()
            .args(["find", n])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("no solution"));
    }
    nqueens().args(["find", "0"]).assert().code(2);
    nqueens()
        .args(["find", "100", "--format", "board"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("64"));
    nqueens()
        .args([
            "find",
            "40",
            "--method",
            "random-restart",
            "--max-steps",
            "5",
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--max-steps"));
    nqueens()
        .args(["find", "8", "--format", "summary"])
        .assert()
        .success()
        .stdout(predicate::str::contains("checked"));
}

#[test]
fn check_names_what_is_wrong() {
    nqueens()
        .args(["check", "1 3 0 2", "2,0,3,1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ok"));
    let cases: &[(&str, &str)] = &[
        ("1 3 1 2", "same column"),
        ("0 1 3 2", "a diagonal"),
        ("1 0 3 2", "an anti-diagonal"),
        ("0 4 1", "off the board"),
        (
            "{\"n\":5,\"cols\":[1,3,0,2]}",
            "4 queens for a board of side 5",
        ),
    ];
    for (placement, message) in cases {
        nqueens()
            .args(["check", placement])
            .assert()
            .code(1)
            .stdout(predicate::str::contains(*message));
    }
    nqueens()
        .arg("check")
        .write_stdin("1 3 0 2\n[2,0,3,1]\n")
        .assert()
        .success()
        .stdout(predicate::str::contains("line 2: ok"));
    nqueens()
        .args(["check", "1 x 0"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "argument 1: unreadable: 'x' is not a column",
        ));
    nqueens()
        .args(["check", "--file", "/no/such/file"])
        .assert()
        .code(2);
    nqueens()
        .args(["check", "--n", "5", "1 3 0 2"])
        .assert()
        .code(1);
}

#[test]
fn trace_prints_steps_and_solutions_without_a_terminal() {
    let text = stdout_of(&["trace", "4", "--plain", "--steps", "2"]);
    assert!(text.starts_with(
        "step 1: placed a queen at column 0, row 0\n. . . .\n. . . .\n. . . .\nQ ? . .\n"
    ));
    assert!(text.contains("step 2: rejected column 1, row 0"));
    // A trace asked for more steps than the search has ends with the search.
    let whole = stdout_of(&["trace", "4", "--plain", "--steps", "100000"]);
    let last = whole.lines().last().unwrap();
    assert!(
        last.ends_with("search finished: 2 solutions; r starts it again"),
        "{last}"
    );
    assert_eq!(whole.matches("search finished").count(), 1);
    let solutions = stdout_of(&["trace", "8", "--plain", "--solutions-only"]);
    assert_eq!(solutions.lines().count(), 92);
    assert!(
        solutions
            .lines()
            .all(|l| l.starts_with("solution ") && l.contains(" step "))
    );
    let first: Vec<usize> = solutions
        .lines()
        .next()
        .unwrap()
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .map(|t| t.parse().unwrap())
        .collect();
    // Rows by column; as a placement by row it must be a solution too.
    let mut by_row = vec![0; 8];
    for (col, &row) in first.iter().enumerate() {
        by_row[row] = col;
    }
    assert!(common::is_solution(&by_row));
    nqueens()
        .args(["trace", "8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--plain"));
    nqueens().args(["trace", "8", "--plain"]).assert().code(2);
}
