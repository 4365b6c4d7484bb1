//! `nqueens trace`: the search step by step, without a terminal.

use crate::common::{self, nqueens, stdout_of};
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

#[test]
fn trace_json_gives_each_step_as_the_plain_trace_tells_it() {
    // The whole search of N = 6: each step's "text" is the plain trace's line for it.
    let plain = stdout_of(&["trace", "6", "--plain", "--steps", "100000"]);
    let told: Vec<&str> = plain.lines().filter(|l| l.starts_with("step ")).collect();
    let steps = common::json_lines(&["trace", "6", "--json", "--steps", "100000"]);
    assert_eq!(steps.len(), told.len());
    for (i, (step, line)) in steps.iter().zip(&told).enumerate() {
        assert_eq!(step["step"], i + 1);
        let text = step["text"].as_str().unwrap();
        assert_eq!(format!("step {}: {text}", i + 1), *line);
    }
    assert_eq!(steps[0]["action"], "placed");
    assert_eq!((&steps[0]["col"], &steps[0]["row"]), (&0.into(), &0.into()));
    assert_eq!(steps[0]["queens"], serde_json::json!([0]));
    assert_eq!(steps[1]["action"], "rejected");
    assert_eq!(steps[1]["line"], "row");
    let last = steps.last().unwrap();
    assert_eq!(
        (&last["action"], &last["total"]),
        (&"finished".into(), &4.into())
    );
    let solutions: Vec<_> = steps.iter().filter(|s| s["action"] == "solution").collect();
    assert_eq!(solutions.len(), 4);

    // --solutions-only: the same solutions, at the same steps, as the plain lines.
    let found = common::json_lines(&["trace", "6", "--json", "--solutions-only"]);
    let lines = stdout_of(&["trace", "6", "--plain", "--solutions-only"]);
    assert_eq!(found.len(), 4);
    for ((found, step), line) in found.iter().zip(&solutions).zip(lines.lines()) {
        assert_eq!(found["step"], step["step"]);
        assert_eq!(found["queens"], step["queens"]);
        let rows: Vec<String> = found["queens"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.to_string())
            .collect();
        let count = &found["solution"];
        assert_eq!(
            line,
            format!(
                "solution {count} step {}: {}",
                found["step"],
                rows.join(" ")
            )
        );
    }
    nqueens()
        .args(["trace", "6", "--json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--json needs --steps K"));
    nqueens()
        .args(["trace", "6", "--steps", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--plain|--json"));
}
