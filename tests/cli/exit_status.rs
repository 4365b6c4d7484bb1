//! One meaning per exit status, for every command: 0 success; 1 a check failed (a count or
//! placement that is wrong, two results that disagree, or output that could not be
//! written after the work); 2 refused before any work, or input refused (bad, damaged,
//! edited, missing, foreign, unwritable); 128 + N stopped by signal N. A row per command
//! and class; the manual's EXIT STATUS section says the same.

use crate::common::{self, nqueens};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a command's exit status means.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Class {
    Success,
    CheckFailed,
    Refused,
}

impl Class {
    fn status(self) -> i32 {
        match self {
            Class::Success => 0,
            Class::CheckFailed => 1,
            Class::Refused => 2,
        }
    }
}

/// Runs `args` with stdin closed and stdout to `stdout` ("null" or "full").
fn status_of(args: &[&str], stdout: &str) -> (i32, String) {
    let sink = std::fs::OpenOptions::new()
        .write(true)
        .open(format!("/dev/{stdout}"))
        .unwrap();
    let out = Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(sink)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code().expect("ended by exit"), stderr)
}

#[test]
fn every_command_has_one_status_per_class() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |i: usize| dir.path().join(format!("s{i}.json"));
    for i in 1..=2 {
        let spec = format!("{i}/2");
        let file = shard(i);
        nqueens()
            .args(["count", "9", "--shard", &spec, "-o"])
            .arg(&file)
            .assert()
            .success();
    }
    let twin = dir.path().join("twin.json");
    let text = std::fs::read_to_string(shard(1)).unwrap();
    let mut record: nqueens::records::ShardResult = nqueens::records::parse(&text).unwrap();
    record.results[0].1 += 1;
    record.digest = nqueens::records::digest(record.results.iter().map(|&(id, s, _)| (id, s)));
    use nqueens::records::Checksummed;
    std::fs::write(&twin, record.to_file_text()).unwrap();
    let (s1, s2, twin) = (shard(1), shard(2), twin);
    let (s1, s2, twin) = (
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        twin.to_str().unwrap(),
    );
    let man_dir = dir.path().join("pages");
    std::fs::create_dir(&man_dir).unwrap();
    let man_dir = man_dir.to_str().unwrap();
    let missing = dir.path().join("none/x.json");
    let missing = missing.to_str().unwrap();

    use Class::*;
    // (command, class, arguments, stdout): "full" is /dev/full, where every write fails.
    let table: &[(&str, Class, &[&str], &str)] = &[
        ("count", Success, &["count", "8"], "null"),
        ("count", Refused, &["count", "0"], "null"),
        (
            "count",
            Refused,
            &["count", "8", "--shard", "1/2", "-o", missing],
            "null",
        ),
        ("count", CheckFailed, &["count", "8"], "full"),
        ("verify", Success, &["verify", "8"], "null"),
        ("verify", Refused, &["verify", "40"], "null"),
        ("verify", CheckFailed, &["verify", "8"], "full"),
        (
            "bench",
            Success,
            &[
                "bench",
                "--n",
                "6",
                "--runs",
                "1",
                "--warmup",
                "0",
                "--threads-list",
                "1",
            ],
            "null",
        ),
        ("bench", Refused, &["bench", "--n", "40"], "null"),
        ("solve", Success, &["solve", "6"], "null"),
        ("solve", Refused, &["solve", "0"], "null"),
        ("solve", CheckFailed, &["solve", "6"], "full"),
        ("find", Success, &["find", "8"], "null"),
        ("find", Refused, &["find", "0"], "null"),
        ("find", CheckFailed, &["find", "3"], "null"),
        ("check", Success, &["check", "1 3 0 2"], "null"),
        ("check", Refused, &["check", "1 x 0"], "null"),
        ("check", CheckFailed, &["check", "0 1 2 3"], "null"),
        ("trace", Refused, &["trace", "0"], "null"),
        ("merge", Success, &["merge", s1, s2], "null"),
        ("merge", Refused, &["merge", s1], "null"),
        ("merge", Refused, &["merge", s1, "/dev/null"], "null"),
        (
            "recount",
            Success,
            &["recount", s1, "--sample", "100"],
            "null",
        ),
        ("recount", Refused, &["recount", "/dev/null"], "null"),
        (
            "recount",
            CheckFailed,
            &["recount", twin, "--sample", "100"],
            "null",
        ),
        ("merge", CheckFailed, &["merge", s1, twin, s2], "null"),
        (
            "estimate",
            Success,
            &["estimate", "10", "--seconds", "0.2"],
            "null",
        ),
        ("estimate", Refused, &["estimate", "0"], "null"),
        ("completions", Success, &["completions", "bash"], "null"),
        ("completions", Refused, &["completions", "nosuch"], "null"),
        ("completions", CheckFailed, &["completions", "bash"], "full"),
        ("man", Success, &["man"], "null"),
        ("man", Refused, &["man", "nosuch"], "null"),
        ("man", Success, &["man", "--dir", man_dir], "null"),
        ("man", Refused, &["man", "--dir", man_dir], "null"),
    ];
    let mut wrong = Vec::new();
    for &(command, class, args, stdout) in table {
        let (status, stderr) = status_of(args, stdout);
        if status != class.status() {
            wrong.push(format!(
                "{command} {args:?} > /dev/{stdout}: {status}, not {class:?} ({}): {stderr}",
                class.status()
            ));
        }
        if class != Success && !stderr.starts_with("nqueens: ") {
            wrong.push(format!(
                "{command} {args:?}: no message on stderr: {stderr:?}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let commands: std::collections::BTreeSet<&str> = table.iter().map(|row| row.0).collect();
    let every: std::collections::BTreeSet<&str> = common::COMMANDS.into_iter().collect();
    assert_eq!(commands, every, "a row for every command");
}

#[test]
fn arguments_clap_refuses_are_refused_in_the_same_voice() {
    let mut cases: Vec<Vec<&str>> = common::COMMANDS
        .into_iter()
        .map(|command| vec![command, "--no-such-flag"])
        .collect();
    cases.push(vec!["no-such-command"]);
    cases.push(vec!["count"]);
    cases.push(vec!["count", "8", "--kernel", "neon"]);
    for args in cases {
        let (status, stderr) = status_of(&args, "null");
        assert_eq!(status, 2, "{args:?}: {stderr}");
        assert!(stderr.starts_with("nqueens: "), "{args:?}: {stderr:?}");
        assert!(!stderr.contains("error:"), "{args:?}: {stderr:?}");
        assert!(
            stderr.contains("Usage: nqueens") || stderr.contains("possible values"),
            "{args:?}: {stderr:?}"
        );
    }
}

/// Starts `args`, stdout dropped, stderr piped.
fn started(args: &[&str]) -> std::process::Child {
    Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` (a name: INT, TERM, HUP) to `child`.
fn send(signal: &str, child: &std::process::Child) {
    let status = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Starts `args` and sends `signal` once it has run for `after`; returns the status.
fn stopped_by(args: &[&str], signal: &str, after: Duration) -> (Option<i32>, Duration) {
    let mut child = started(args);
    std::thread::sleep(after);
    let sent = Instant::now();
    send(signal, &child);
    let status = child.wait().unwrap();
    (status.code(), sent.elapsed())
}

#[test]
fn long_commands_stop_on_a_signal_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("cp.json");
    let cp = cp.to_str().unwrap();
    let rows: &[(&[&str], &str, i32)] = &[
        (&["count", "28", "--quiet"], "INT", 130),
        (&["count", "28", "--quiet", "--checkpoint", cp], "TERM", 143),
        (&["count", "1..28", "--quiet"], "HUP", 129),
        (&["verify", "30", "--quiet"], "INT", 130),
        (&["verify", "30", "--quiet"], "TERM", 143),
        (&["verify", "24", "--cross-check", "--quiet"], "HUP", 129),
        (
            &["bench", "--n", "18", "--runs", "50", "--quiet"],
            "INT",
            130,
        ),
    ];
    for &(args, signal, status) in rows {
        let (got, waited) = stopped_by(args, signal, Duration::from_millis(1500));
        assert_eq!(got, Some(status), "{args:?} on SIG{signal}");
        // A liveness bound, not a timing: the promise is a second.
        assert!(waited < Duration::from_secs(10), "{args:?}: {waited:?}");
    }
    assert!(Path::new(cp).exists(), "the checkpoint was saved");
}

#[test]
fn help_and_manual_pages_state_the_same_statuses() {
    for command in common::COMMANDS {
        let help = nqueens().args([command, "--help"]).output().unwrap();
        let help = String::from_utf8_lossy(&help.stdout);
        assert!(
            help.contains("Exit status: 0 success (output whose reader closed the pipe early")
                && help.contains("1 a check failed")
                && help.contains("2 refused before any work or input refused")
                && help.contains("128+N stopped by signal N"),
            "{command} --help: {help}"
        );
        let page = nqueens().args(["man", command]).output().unwrap();
        let page = String::from_utf8_lossy(&page.stdout);
        assert!(
            page.contains(".SH \"EXIT STATUS\"")
                && page.contains("refused before any work, or input refused"),
            "man {command}"
        );
        assert!(
            page.contains(env!("CARGO_PKG_VERSION")),
            "man {command} names the version"
        );
    }
}

/// Starts `args`, waits for `words` on stderr (before any result), then stops it with
/// SIGINT: a long command says what is ahead before the work starts.
fn says_before_starting(args: &[&str], words: &[&str]) {
    use std::io::Read;
    let mut child = started(args);
    let mut stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut byte = [0u8; 1];
        while let Ok(1) = stderr.read(&mut byte) {
            seen.push(byte[0]);
            if byte[0] == b'\n' {
                let _ = tx.send(String::from_utf8_lossy(&seen).into_owned());
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut said = String::new();
    while !words.iter().all(|w| said.contains(w)) {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(text) => said = text,
            Err(_) => break,
        }
    }
    send("INT", &child);
    let status = child.wait().unwrap();
    assert!(
        words.iter().all(|w| said.contains(w)),
        "{args:?} said: {said}"
    );
    assert_eq!(status.code(), Some(130), "{args:?}");
}

#[test]
fn long_commands_project_first() {
    says_before_starting(
        &["count", "1..32", "--quiet"],
        &["N = 32", "years", "ends the range"],
    );
    says_before_starting(
        &["verify", "30", "--quiet"],
        &["N = 30", "projected", "Ctrl-C stops it"],
    );
    says_before_starting(&["verify", "14..29"], &["N = 29", "ends the range"]);
}

#[test]
fn signals_the_parent_ignored_still_stop_every_command() {
    // A script's background job starts with SIGINT ignored; `trap '' INT` does the same.
    let bin = assert_cmd::cargo::cargo_bin("nqueens");
    for command in [
        "estimate 27",
        "count 28 --quiet",
        "solve 18 --force",
        "trace 30 --plain --solutions-only",
    ] {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("trap '' INT; exec '{}' {command}", bin.display()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let sent = Instant::now();
        send("INT", &child);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{command}");
        assert!(sent.elapsed() < Duration::from_secs(10), "{command}");
    }
}
