//! `nqueens check`: placements judged, and what is wrong named.

mod common;

use common::nqueens;
use predicates::prelude::*;

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
fn a_byte_order_mark_is_read_past_and_a_file_name_gets_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("placements.txt");
    std::fs::write(&file, b"\xef\xbb\xbf1 3 0 2\n").unwrap();
    nqueens()
        .args(["check", "--file"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("line 1: ok, a solution for N = 4"));
    nqueens()
        .arg("check")
        .arg(&file)
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "is a file: to read it, use --file",
        ));
}
