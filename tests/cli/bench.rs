//! `nqueens bench`: the workload's figures, comparisons, Markdown, and the ladder.

use crate::common::nqueens;
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn bench_json_has_every_field() {
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "10",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--threads-list",
            "1,2",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let report: Value = serde_json::from_slice(&out).unwrap();
    for field in [
        "cpu",
        "logical_cpus",
        "memory_bytes",
        "os",
        "nqueens_version",
        "git_commit",
        "rustc",
        "date",
    ] {
        assert!(!report["machine"][field].is_null(), "machine.{field}");
    }
    assert_eq!(report["n"], 10);
    assert!(report["score_nodes_per_second"].as_f64().unwrap() > 0.0);
    let results = report["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for (r, threads) in results.iter().zip([1, 2]) {
        assert_eq!(r["threads"], threads);
        assert_eq!(r["solutions"], 724);
        for field in [
            "median_seconds",
            "min_seconds",
            "max_seconds",
            "nodes_per_second",
            "solutions_per_second",
            "speedup",
            "efficiency",
        ] {
            assert!(r[field].as_f64().is_some(), "{field}");
        }
    }
}

#[test]
fn bench_compares_with_a_saved_run() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("old.json");
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "9",
            "--runs",
            "1",
            "--threads-list",
            "1",
            "--json",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    std::fs::write(&saved, out).unwrap();
    nqueens()
        .args([
            "bench",
            "--n",
            "9",
            "--runs",
            "1",
            "--threads-list",
            "1",
            "--compare",
        ])
        .arg(&saved)
        .assert()
        .success()
        .stdout(
            predicate::str::contains("ratio new / old").and(predicate::str::contains("score:")),
        );
    std::fs::write(&saved, "not json").unwrap();
    nqueens()
        .args(["bench", "--n", "9", "--runs", "1", "--compare"])
        .arg(&saved)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a saved"));
}

#[test]
fn bench_markdown_is_a_table() {
    nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--runs",
            "1",
            "--threads-list",
            "1",
            "--markdown",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("| threads | median s |"));
}

#[test]
fn the_ladder_runs_every_rung_and_they_agree() {
    let out = nqueens()
        .args(["bench", "--ladder", "--n", "6..8", "--budget", "5"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for name in [
        "brute force",
        "permutations",
        "generate & filter",
        "backtracking",
        "mirror bitmask",
        "engine",
    ] {
        // The name column is padded, so a name followed by two spaces is a row of its own.
        let rows = text.matches(&format!("{name}  ")).count();
        assert_eq!(rows, 3, "{name} once per N:\n{text}");
    }
    assert!(
        text.contains("16777216"),
        "brute force at N = 8 checks 8^8 boards"
    );
}

#[test]
fn bench_refuses_a_range_without_the_ladder() {
    nqueens()
        .args(["bench", "--n", "8..9"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--ladder"));
}

#[test]
fn bench_bounds_its_board_and_the_ladder_keeps_its_budget_for_the_engine_too() {
    for args in [
        &["bench", "--n", "30"][..],
        &["bench", "--ladder", "--n", "21"],
    ] {
        nqueens()
            .args(args)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(
                predicate::str::contains("is out of range")
                    .and(predicate::str::contains("1 to 18")),
            );
    }
    // A tiny budget stops the ladder where the engine's next count would pass it.
    nqueens()
        .args([
            "bench", "--ladder", "--n", "4..18", "--budget", "0.000001", "--quiet",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "stopped: the engine's count is projected",
        ));
}
