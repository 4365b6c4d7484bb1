//! `nqueens count`: the table, JSON, ranges, methods and kernels, bad input.

use crate::common::{self, json_lines, nqueens};
use predicates::prelude::*;

#[test]
fn json_has_every_field() {
    let rows = json_lines(&["count", "12", "--json", "--threads", "2"]);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row["n"], 12);
    assert_eq!(row["total"], 14200);
    assert_eq!(row["unique"], 1787);
    assert_eq!(row["orbits"]["c8"], 1765);
    assert_eq!(row["orbits"]["c4"], 18);
    assert_eq!(row["orbits"]["c2"], 4);
    assert_eq!(row["orbits"]["c1"], 0);
    assert!(row["nodes"].as_u64().unwrap() > 0);
    let seconds = row["seconds"].as_f64().unwrap();
    assert!(seconds >= 0.0);
    assert_eq!(row["total_seconds"].as_f64().unwrap(), seconds, "one run");
    assert_eq!(row["threads"], 2);
    assert_eq!(row["subproblems"], 472, "N = 12 by halves: 472 row sets");
    assert_eq!(row["split_depth"], 0);
    assert_eq!(row["method"], "halves");
    assert_eq!(row["kernel"], nqueens::cpu::KernelLevel::detect().name());
    assert!(row["peak_memory_bytes"].as_u64().unwrap() > 1 << 20);
    let digest = row["digest"].as_str().unwrap();
    assert!(digest.len() == 64 && digest.bytes().all(|b| b.is_ascii_hexdigit()));
    // Nothing more and nothing less: a new field needs a check here.
    let mut fields: Vec<&str> = row
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    fields.sort_unstable();
    assert_eq!(
        fields,
        [
            "digest",
            "kernel",
            "method",
            "n",
            "nodes",
            "orbits",
            "peak_memory_bytes",
            "seconds",
            "split_depth",
            "subproblems",
            "threads",
            "total",
            "total_seconds",
            "unique"
        ]
    );
    let orbits = row["orbits"].as_object().unwrap();
    assert_eq!(orbits.len(), 4);
}

#[test]
fn nodes_do_not_depend_on_threads() {
    let one = json_lines(&["count", "11", "--json", "--threads", "1"]);
    let three = json_lines(&["count", "11", "--json", "--threads", "3"]);
    assert_eq!(one[0]["nodes"], three[0]["nodes"]);
}

#[test]
fn ranges_are_inclusive() {
    let rows = json_lines(&["count", "4..8", "--json"]);
    let totals: Vec<u64> = rows.iter().map(|r| r["total"].as_u64().unwrap()).collect();
    assert_eq!(totals, [2, 10, 4, 40, 92]);
}

#[test]
fn the_table_has_a_header_and_a_row_per_size() {
    nqueens()
        .args(["count", "1..3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("total").and(predicate::str::contains("unique")))
        .stdout(predicate::function(|s: &str| s.lines().count() == 4));
}

#[test]
fn tiny_boards() {
    let rows = json_lines(&["count", "1..3", "--json"]);
    let got: Vec<(u64, u64)> = rows
        .iter()
        .map(|r| (r["total"].as_u64().unwrap(), r["unique"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, [(1, 1), (0, 0), (0, 0)]);
}

#[test]
fn bad_input_is_refused_with_the_allowed_range() {
    let cases: &[(&[&str], &str)] = &[
        (&["count", "0"], "N must be 1 to 32"),
        (&["count", "33"], "N must be 1 to 32"),
        (&["count", "eight"], "not a board size"),
        (&["count", "12..8"], "empty"),
        (&["count", ""], "not a board size"),
        (&["count", "4..x"], "not a board size"),
        (
            &["count", "8", "--threads", "0"],
            &format!(
                "--threads: thread count 0 is out of range: it must be 1 to {}",
                common::max_threads()
            ),
        ),
        (&["count", "8", "--threads", "two"], "--threads"),
        (&["count", "8", "--split-depth", "9"], "--split-depth"),
        (&["count"], "N|A..B"),
    ];
    for (args, message) in cases {
        nqueens()
            .args(*args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains(*message));
    }
}

#[test]
fn quiet_and_piped_runs_draw_no_bar() {
    nqueens()
        .args(["count", "13", "--quiet"])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
    nqueens()
        .args(["count", "13"])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
}

#[test]
fn method_and_kernel_are_chosen_and_reported() {
    let auto = &json_lines(&["count", "12", "--json", "--quiet"])[0];
    assert_eq!(auto["method"], "halves");
    assert!(auto["peak_memory_bytes"].as_u64().unwrap() > 0);
    let by_backtracking = &json_lines(&["count", "12", "--json", "--method", "backtrack"])[0];
    assert_eq!(by_backtracking["method"], "backtrack");
    assert_eq!(by_backtracking["total"], auto["total"]);
    for kernel in nqueens::cpu::KernelLevel::available() {
        for method in ["backtrack", "halves"] {
            let row = &json_lines(&[
                "count",
                "13",
                "--json",
                "--method",
                method,
                "--kernel",
                kernel.name(),
            ])[0];
            assert_eq!(row["kernel"], kernel.name());
            assert_eq!(row["total"], 73712, "{method}, {kernel}");
        }
    }
    for missing in nqueens::cpu::KernelLevel::ALL
        .iter()
        .filter(|k| !k.is_available())
    {
        eprintln!("kernel {missing} is not on this CPU: checking that it is refused");
        nqueens()
            .args(["count", "8", "--kernel", missing.name()])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("not available on this CPU"));
    }
}

#[test]
fn a_count_that_fails_prints_nothing_on_stdout() {
    // N = 32 by halves needs terabytes for its table: refused before any result.
    nqueens()
        .args(["count", "32", "--method", "halves"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--method backtrack"));
}
