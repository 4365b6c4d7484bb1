//! `nqueens find`: one checked solution for a large board.

use crate::common::{self, nqueens, parse_list, stdout_of};
use predicates::prelude::*;

#[test]
fn find_gives_checked_solutions_for_large_boards() {
    for n in ["100000", "1000003", "1234567"] {
        let text = stdout_of(&["find", n]);
        let cols = parse_list(text.trim());
        assert_eq!(cols.len(), n.parse::<usize>().unwrap());
        assert!(common::is_solution(&cols), "N = {n}");
    }
    let a = stdout_of(&[
        "find",
        "5000",
        "--method",
        "min-conflicts",
        "--seed",
        "9",
        "-q",
    ]);
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
        .args(["find", "10001", "--method", "random-restart"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("up to N = 10,000")
                .and(predicate::str::contains("min-conflicts")),
        );
    nqueens()
        .args(["find", "8", "--format", "summary"])
        .assert()
        .success()
        .stdout(predicate::str::contains("checked"));
}

#[test]
fn a_board_beyond_memory_is_refused_before_the_search() {
    // 400 MB of address space: N = 100,000,000 by min-conflicts needs 4.8 GB.
    let nq = assert_cmd::cargo::cargo_bin("nqueens");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 400000 && exec '{}' find 100000000 --method min-conflicts",
            nq.display()
        ))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(
            "nqueens: finding a solution for N = 100,000,000 by min-conflicts needs 4800 MB"
        ) && stderr.contains("is available; the explicit construction needs 400 MB"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}
