//! `nqueens estimate`: the projected cost of a count, before it runs.

use crate::common::{json_lines, nqueens, skipped};
use predicates::prelude::*;

#[test]
fn an_estimate_has_every_field_and_agrees_with_the_count_it_projects() {
    for method in ["backtrack", "halves"] {
        let run = |command| {
            json_lines(&[
                command,
                "13",
                "--method",
                method,
                "--threads",
                "2",
                "--json",
            ])
        };
        let (e, c) = (&run("estimate")[0], &run("count")[0]);
        assert_eq!(e["method"], c["method"]);
        assert_eq!(e["subproblems"], c["subproblems"]);
        assert_eq!(e["threads"], 2);
        assert!(e["sampled"].as_u64().unwrap() >= 1);
        assert!(e["sized"].as_u64().unwrap() >= e["sampled"].as_u64().unwrap());
        assert!(e["seconds"].as_f64().unwrap() > 0.0);
        assert!(e["memory_bytes"].as_u64().unwrap() > 0);
        assert_eq!(e["shards"], 1);
        assert_eq!(e["seconds_per_shard"], e["seconds"]);
        assert!(e["seconds_per_shard_high"].is_null(), "{e}");
        assert!(
            e["memory_bytes_per_shard"].as_u64().unwrap() <= e["memory_bytes"].as_u64().unwrap()
        );
        let mut fields: Vec<&str> = e.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        fields.sort_unstable();
        assert_eq!(
            fields,
            [
                "core_hours",
                "cpu",
                "kernel",
                "memory_bytes",
                "memory_bytes_per_shard",
                "method",
                "n",
                "sampled",
                "seconds",
                "seconds_high",
                "seconds_low",
                "seconds_per_shard",
                "seconds_per_shard_high",
                "shards",
                "sized",
                "subproblems",
                "threads"
            ]
        );
        let core_hours = e["core_hours"].as_f64().unwrap();
        let seconds = e["seconds"].as_f64().unwrap();
        assert!((core_hours - seconds * 2.0 / 3600.0).abs() <= 1e-6, "{e}");
        assert!(!e["cpu"].as_str().unwrap().is_empty());
        let (low, high) = (e["seconds_low"].as_f64(), e["seconds_high"].as_f64());
        if method == "halves" {
            let (low, high) = (low.unwrap(), high.unwrap());
            assert!(low <= seconds && seconds <= high, "{e}");
        } else {
            assert_eq!((low, high), (None, None), "probes give no interval: {e}");
        }
        assert_eq!(
            e["kernel"], c["kernel"],
            "the sample ran on the count's kernel"
        );
    }
}

#[test]
fn a_huge_count_is_projected_in_seconds_and_in_human_units() {
    // By probes, not by running it: N = 24 by backtracking takes weeks on 2 threads.
    nqueens()
        .args(["estimate", "24", "--method", "backtrack", "--threads", "2"])
        .args(["--shards", "1000", "--seconds", "0.5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("N = 24 by backtrack"))
        .stdout(predicate::str::contains("in 1000 shards"))
        .stdout(predicate::str::is_match(r"whole count: [0-9.,]+ (days|years|h)").unwrap());
}

#[test]
fn a_shard_of_few_sub_problems_waits_for_its_last_one() {
    // N = 16 by the join in 2,000 shards: 3.2 sub-problems a shard on two threads, so one
    // thread is often idle while the other counts the last: were they all alike, a
    // shard would take 1.24 times its work divided by the threads. How far over depends
    // on the sampled times, which a busy host stretches now and then (a CI run beside
    // builds put one far above the rest), so only the direction is asserted here; the
    // simulation's figures are checked in `schedule::makespan`.
    let e = &json_lines(&[
        "estimate",
        "16",
        "--method",
        "halves",
        "--threads",
        "2",
        "--shards",
        "2000",
        "--seconds",
        "0.5",
        "--json",
    ])[0];
    let even = e["seconds"].as_f64().unwrap() / 2000.0;
    let mean = e["seconds_per_shard"].as_f64().unwrap();
    assert!(mean > even, "{e}");
    assert!(e["seconds_per_shard_high"].as_f64().unwrap() >= mean, "{e}");
}

#[test]
fn a_small_shard_needs_only_the_memory_of_its_share() {
    let e = &json_lines(&[
        "estimate",
        "21",
        "--method",
        "halves",
        "--threads",
        "1",
        "--shards",
        "100000",
        "--seconds",
        "0.3",
        "--json",
    ])[0];
    let (whole, shard) = (
        e["memory_bytes"].as_u64().unwrap(),
        e["memory_bytes_per_shard"].as_u64().unwrap(),
    );
    assert!(
        shard < whole / 2,
        "a shard of 2 row sets: {shard} of {whole} bytes"
    );
}

#[test]
fn an_estimate_refuses_what_count_would_refuse() {
    nqueens()
        .args(["estimate", "8", "--shards", "1000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("K must be 1 to"));
    nqueens()
        .args(["estimate", "33"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("N must be 1 to 32"));
}

#[test]
fn a_board_whose_table_does_not_fit_is_estimated_within_the_room_it_has() {
    // 400 MB of address space (the budget counts half): the whole table of N = 23 (550 MB)
    // does not fit, so the count keeps what room it has, letting older slabs go; the
    // estimate says so, whole and by shards, within the budget.
    let nq = assert_cmd::cargo::cargo_bin("nqueens");
    let run = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 400000 && exec '{}' estimate 23 --method halves --seconds 0.3 {args}",
                nq.display()
            ))
            .output()
            .unwrap()
    };
    for args in ["", "--shards 200000"] {
        let out = run(args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let megabytes: u64 = stdout
            .split("memory at most ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|mb| mb.parse().ok())
            .unwrap_or_else(|| panic!("no memory figure: {stdout}"));
        assert!(megabytes <= 200, "{stdout}");
        assert!(
            args.is_empty() || stdout.contains("in 200,000 shards"),
            "{stdout}"
        );
    }
}

#[test]
fn boards_below_the_rate_board_are_projected_from_its_rate() {
    // The node rate is measured on N = 12 at least: a board of 10 was once projected at an
    // hour from no measurement at all. Its count takes milliseconds; a generous bound.
    for n in ["6", "10", "11"] {
        let e = &json_lines(&[
            "estimate",
            n,
            "--method",
            "backtrack",
            "--seconds",
            "0.2",
            "--json",
        ])[0];
        let seconds = e["seconds"].as_f64().unwrap();
        assert!(seconds < 5.0, "N = {n}: projected {seconds} s");
    }
}

#[test]
fn a_board_without_sub_problems_is_projected_at_nothing() {
    // N = 2 and 3: no queen gets past the first rows, so there is nothing to sample; the
    // projection once divided by the empty sample and printed NaN.
    for n in ["2", "3"] {
        let e = &json_lines(&["estimate", n, "--seconds", "0.2", "--json"])[0];
        assert_eq!(e["subproblems"].as_u64(), Some(0), "N = {n}");
        assert_eq!(e["seconds"].as_f64(), Some(0.0), "N = {n}");
        assert_eq!(e["core_hours"].as_f64(), Some(0.0), "N = {n}");
        nqueens()
            .args(["estimate", n, "--shards", "2"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "has no sub-problems, so K must be 1",
            ));
    }
}

#[test]
fn a_projection_from_few_sub_problems_says_it_is_rough() {
    let text = |args: &[&str]| {
        let out = nqueens().args(args).assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    // N = 24's row sets take about a second each: a third of a second samples a few. N = 14
    // by halves has 1,716, most of them sampled in a second; N = 6 has 16, every one
    // sampled, which is no sample but the whole.
    let few = text(&["estimate", "24", "--seconds", "0.3"]);
    assert!(few.contains("a rough figure, from "), "{few}");
    for args in [
        &["estimate", "14", "--seconds", "1"][..],
        &["estimate", "6"],
    ] {
        let firm = text(args);
        assert!(!firm.contains("rough"), "{firm}");
    }
}

/// The sample's bar: drawn on a terminal (a pseudo-terminal made by `script`), where the
/// sample takes over a second; never with `--quiet`, nor on a pipe.
#[test]
fn the_sample_shows_a_bar_on_a_terminal_only() {
    for quiet in [false, true] {
        let mut args = vec!["estimate", "21", "--seconds", "3"];
        if quiet {
            args.push("--quiet");
        }
        nqueens()
            .args(&args)
            .assert()
            .success()
            .stderr(predicate::str::is_empty());
        let binary = assert_cmd::cargo::cargo_bin("nqueens");
        let command = format!("{} {}", binary.display(), args.join(" "));
        let Ok(out) = std::process::Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .output()
        else {
            skipped(
                "estimate's bar on a terminal",
                "no `script` (util-linux) to make one",
            );
            return;
        };
        let shown = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{shown}");
        assert!(shown.contains("N = 21 by"), "{shown}");
        assert_eq!(shown.contains("N = 21: sampling ["), !quiet, "{shown}");
    }
}
