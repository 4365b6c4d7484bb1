//! `nqueens trace`: the search step by step, without a terminal.

mod common;

use common::{nqueens, stdout_of};
use predicates::prelude::*;

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
