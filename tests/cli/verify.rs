//! `nqueens verify`: the published table, the self-test, and the cross-check.

use crate::common::{json_lines, nqueens, stdout_of};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn cross_check_counts_by_every_method() {
    let out = nqueens()
        .args(["verify", "4..12", "--cross-check"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("N = 12  backtrack 14200"), "{text}");
    assert!(text.contains("halves 14200"), "{text}");
    assert!(text.contains("mirror 14200"), "{text}");
    assert!(text.contains("9 passed, 0 failed"), "{text}");
    let rows = json_lines(&["verify", "10..11", "--cross-check", "--json"]);
    assert!(
        rows.iter()
            .all(|r| r["agree"] == true && r["verdict"] == "pass")
    );
    assert_eq!(rows[0]["halves"]["method"], "halves");
    assert_eq!(rows[0]["mirror"]["total"], 724);
}

#[test]
fn verify_passes_a_range_and_closes_with_a_summary() {
    nqueens()
        .args(["verify", "1..12"])
        .assert()
        .success()
        .stdout(predicate::str::contains("N =  8").and(predicate::str::contains("PASS")))
        .stdout(predicate::str::ends_with("12 passed, 0 failed\n"));
}

#[test]
fn verify_json_has_a_verdict_per_size() {
    let out = nqueens()
        .args(["verify", "7..9", "--json"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rows: Vec<Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    for row in rows {
        assert_eq!(row["verdict"], "pass");
        assert_eq!(row["identities_hold"], true);
        assert!(row["total"].as_u64().unwrap() > 0);
    }
}

#[test]
fn verify_refuses_bad_ranges() {
    nqueens()
        .args(["verify", "0..5"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty());
}

#[test]
fn the_self_test_runs_every_kernel_of_this_cpu() {
    let out = nqueens()
        .args(["verify", "--self-test"])
        .assert()
        .success()
        .stdout(predicate::str::contains("checks passed"))
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    let available = nqueens::cpu::KernelLevel::available();
    let names: Vec<&str> = available.iter().map(|k| k.name()).collect();
    assert!(
        out.contains(&format!("(kernels: {})", names.join(", "))),
        "{out}"
    );
}

#[test]
fn the_cross_check_names_the_methods_that_do_not_take_a_board() {
    let out = stdout_of(&["verify", "2..4", "--cross-check"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].contains("(halves takes boards from N = 4"),
        "{out}"
    );
    assert!(
        lines[1].contains("(halves takes boards from N = 4"),
        "{out}"
    );
    assert!(
        lines[0].contains("backtrack 0") && lines[0].contains("mirror 0"),
        "{out}"
    );
    assert!(
        !lines[2].contains("takes boards"),
        "N = 4 has every method: {out}"
    );
    assert!(
        lines[2].contains("halves 2") && lines[2].contains("agree"),
        "{out}"
    );
}
