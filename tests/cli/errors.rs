//! One voice for errors: every subcommand refuses bad input the same way, naming the value
//! and the allowed range in words, with exit status 2 and nothing on stdout.

use crate::common::{self, nqueens};

use predicates::prelude::*;

/// Debug text and Rust range syntax never reach a user.
fn plain_words(stderr: &str) {
    for leak in [
        "Some(",
        "None",
        "..=",
        "1844674",
        "invalid digit",
        "panicked",
    ] {
        assert!(!stderr.contains(leak), "{leak:?} in: {stderr}");
    }
}

fn refused(args: &[&str], message: &str) {
    let out = nqueens()
        .args(args)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty());
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains(message), "{args:?}: {stderr}");
    plain_words(&stderr);
}

#[test]
fn board_sizes_get_one_message_everywhere() {
    for command in ["count", "verify", "solve", "trace"] {
        refused(
            &[command, "abc"],
            "'abc' is not a board size: N must be a whole number, 1 to 32",
        );
        refused(
            &[command, "40"],
            "board size 40 is out of range: N must be 1 to 32",
        );
        refused(
            &[command, "-1"],
            "board size -1 is out of range: N must be 1 to 32",
        );
    }
    refused(
        &["find", "8..9"],
        "'8..9' is a range, but this takes one board size",
    );
    refused(&["solve", "8..9"], "N must be 1 to 32");
    refused(&["find", "0"], "N must be 1 to 100,000,000");
    refused(&["bench", "--n", "x"], "not a board size");
}

#[test]
fn numbers_name_the_allowed_range_in_words() {
    refused(
        &["count", "8", "--threads", "0"],
        &format!(
            "--threads: thread count 0 is out of range: it must be 1 to {}",
            common::max_threads()
        ),
    );
    refused(
        &["count", "8", "--threads", "-2"],
        &format!("it must be 1 to {}", common::max_threads()),
    );
    refused(
        &["solve", "8", "--limit", "0"],
        "--limit: count 0 is out of range: it must be at least 1",
    );
    refused(
        &["find", "8", "--method", "min-conflicts", "--max-steps", "0"],
        "at least 1",
    );
    refused(&["bench", "--runs", "0"], "1 to 1000");
    refused(&["trace", "8", "--speed", "NaN"], "more than 0");
    refused(&["trace", "8", "--speed", "-1"], "more than 0");
    refused(&["check", "--n", "0", "0"], "N must be 1 to 100,000,000");
}

#[test]
fn a_huge_bad_value_is_cut_short() {
    let huge = "x".repeat(100_000);
    let out = nqueens().args(["count", &huge]).assert().code(2);
    assert!(out.get_output().stderr.len() < 300);
    let out = nqueens()
        .arg("check")
        .write_stdin(format!("1 {huge} 0\n"))
        .assert()
        .code(2);
    let output = out.get_output();
    assert!(output.stdout.len() + output.stderr.len() < 500);
}

#[test]
fn the_thread_variable_is_checked_like_the_flag() {
    for value in ["100000", "0", "many"] {
        let out = nqueens()
            .args(["count", "8"])
            .env("RAYON_NUM_THREADS", value)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty());
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            stderr.contains("RAYON_NUM_THREADS")
                && stderr.contains(&format!("1 to {}", common::max_threads())),
            "{stderr}"
        );
    }
    nqueens()
        .args(["count", "8", "--json"])
        .env("RAYON_NUM_THREADS", "3")
        .assert()
        .success()
        .stdout(predicate::str::contains("\"threads\":3"));
    // Set but empty is unset, as rayon reads it: every CPU this process may use.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    nqueens()
        .args(["count", "8", "--json"])
        .env("RAYON_NUM_THREADS", "")
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("\"threads\":{cpus},")));
}

#[test]
fn a_range_without_an_end_says_which_end_is_missing() {
    refused(&["count", "8.."], "the range '8..' has no last board size");
    refused(&["count", "..8"], "the range '..8' has no first board size");
    refused(&["verify", "3.."], "has no last board size");
}

#[test]
fn one_of_a_thing_is_said_in_the_singular() {
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "6",
            "--runs",
            "1",
            "--warmup",
            "1",
            "--threads-list",
            "1",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("1 warm-up + 1 timed run per"), "{stdout}");
    assert!(stdout.contains("at 1 thread ("), "{stdout}");
    assert!(
        !stdout.contains("1 threads") && !stdout.contains("1 timed runs"),
        "{stdout}"
    );
}

#[test]
fn man_dir_keeps_existing_pages_without_force() {
    let dir = tempfile::tempdir().unwrap();
    nqueens()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    let page = dir.path().join("nqueens-count.1");
    std::fs::write(&page, "my own page").unwrap();
    nqueens()
        .args(["man", "--dir"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("exists; add --force"));
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "my own page");
    nqueens()
        .args(["man", "--force", "--dir"])
        .arg(dir.path())
        .assert()
        .success();
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains(".SH \"EXIT STATUS\"")
    );
}

#[test]
fn threads_run_up_to_the_bound_and_are_refused_past_it() {
    // How long the most threads take is measured by scripts/bench-threads.sh, not here.
    let max = common::max_threads();
    nqueens()
        .args(["count", "8", "--threads", &max.to_string(), "--json"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!("\"threads\":{max}")));
    let over = (max + 1).to_string();
    refused(
        &["count", "8", "--threads", &over],
        &format!("--threads: thread count {over} is out of range: it must be 1 to {max}"),
    );
}

#[test]
fn flags_that_mean_nothing_together_are_refused() {
    refused(&["count", "8", "--force"], "--output");
    refused(&["count", "8", "--checkpoint-every", "5s"], "--checkpoint");
    refused(
        &[
            "count",
            "8",
            "--checkpoint",
            "x.json",
            "--checkpoint-every",
            "0s",
        ],
        "more than 0",
    );
    refused(&["verify", "--self-test", "8"], "--self-test");
    refused(
        &["find", "8", "--seed", "5"],
        "--seed applies to --method min-conflicts",
    );
    refused(
        &["count", "8", "--shard", "1/99999", "-o", "never.json"],
        "K must be 1 to",
    );
    refused(
        &["count", "12", "--method", "halves", "--split-depth", "2"],
        "split depth applies to backtracking",
    );
    refused(
        &["count", "8..9", "--checkpoint", "x.json"],
        "one board size",
    );
    assert!(!std::path::Path::new("never.json").exists());
}

#[test]
fn shard_and_checkpoint_messages_use_words() {
    refused(
        &["count", "8", "--shard", "0/3", "-o", "x.json"],
        "I from 1 to K",
    );
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    nqueens()
        .args(["count", "9", "--checkpoint"])
        .arg(&cp)
        .assert()
        .success();
    let out = nqueens()
        .args(["count", "9", "--shard", "1/2", "-o"])
        .arg(dir.path().join("s.json"))
        .arg("--checkpoint")
        .arg(&cp)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("it is for the whole count, this run is shard 1/2"),
        "{stderr}"
    );
    plain_words(&stderr);
    let text = std::fs::read_to_string(&cp)
        .unwrap()
        .replace("\"shard\":null", "\"shard\":1");
    std::fs::write(&cp, text).unwrap();
    let out = nqueens()
        .args(["count", "9", "--checkpoint"])
        .arg(&cp)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    // Its bytes are checked before its fields are read.
    assert!(stderr.contains("damaged"), "{stderr}");
    plain_words(&stderr);
}

#[test]
fn check_reads_every_line_and_reports_each() {
    let out = nqueens()
        .arg("check")
        .write_stdin("1 3 0 2\n1 x 0\n0 1 2 3\n\n2 0 3 1\n")
        .assert()
        .code(2);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("line 1: ok"), "{stdout}");
    assert!(
        stdout.contains("line 2: unreadable: 'x' is not a column"),
        "{stdout}"
    );
    assert!(stdout.contains("line 3: not a solution"), "{stdout}");
    assert!(stdout.contains("line 5: ok"), "{stdout}");
    // Attacks alone: exit 1; --all lists every attacking pair.
    nqueens()
        .args(["check", "--all", "0 1 2 3"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("6 attacking pairs"));
    refused(&["check"], "no placement to check");
}

#[test]
fn json_lines_everywhere() {
    let out = nqueens()
        .args([
            "bench",
            "--n",
            "8",
            "--threads-list",
            "1",
            "--runs",
            "1",
            "--warmup",
            "0",
            "--json",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!stdout.trim().is_empty());
    for line in stdout.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("one JSON object per line");
    }
}

#[test]
fn a_memory_limit_is_a_refusal_naming_the_need_never_an_abort() {
    let nq = assert_cmd::cargo::cargo_bin("nqueens");
    let dir = tempfile::tempdir().unwrap();
    for args in [
        "count 28 --method halves",
        "count 28 --method halves --shard 1/1000 --output shard.json",
    ] {
        // 400 MB of address space: a count of N = 28 by halves, or a thousandth of it,
        // needs room for a row set's four quadrants (944 MB) and its workers' buffers
        // (a count whose table alone does not fit keeps a smaller room: see tests/library/halves.rs).
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 400000 && exec '{}' {args}",
                nq.display()
            ))
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {stderr}");
        assert!(
            stderr.contains("by halves needs") && stderr.contains("is available"),
            "{args}: {stderr}"
        );
        plain_words(&stderr);
    }
    assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
}
