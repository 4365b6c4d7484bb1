//! `nqueens check`: placements judged, and what is wrong named.

use crate::common::nqueens;
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

#[test]
fn control_bytes_in_the_input_are_shown_escaped_never_raw() {
    let input = b"1 \x1b[2J\x07 0\n{\"cols\":[1,\"\\u001b]0;title\\u0007\"]}\n\x00\x1b\n";
    let out = nqueens()
        .arg("check")
        .write_stdin(&input[..])
        .assert()
        .code(2);
    let stdout = out.get_output().stdout.clone();
    let stderr = out.get_output().stderr.clone();
    for (what, bytes) in [("stdout", &stdout), ("stderr", &stderr)] {
        assert!(
            !bytes.iter().any(|&b| b < 0x20 && b != b'\n' || b == 0x7f),
            "{what} holds a control byte: {:?}",
            String::from_utf8_lossy(bytes)
        );
    }
    let stdout = String::from_utf8(stdout).unwrap();
    assert!(
        stdout.contains(r"'\u{1b}[2J\u{7}' is not a column"),
        "{stdout}"
    );
    assert!(stdout.contains(r"\u{1b}]0;title\u{7}"), "{stdout}");
    assert!(stdout.contains(r"'\u{0}\u{1b}'"), "{stdout}");
}

#[test]
fn a_huge_line_is_streamed_and_quoted_short() {
    // One token of 20 MB: named by its first bytes and its length, not echoed.
    let mut token = vec![b'7'; 20_000_000];
    token.push(b'x');
    token.push(b'\n');
    let out = nqueens().arg("check").write_stdin(token).assert().code(2);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.len() < 300, "{} bytes of output", stdout.len());
    assert!(stdout.contains("(20000001 bytes)"), "{stdout}");
    // A long placement in JSON and as a list, read a column at a time.
    let n = 100_000usize;
    let cols: Vec<String> = (0..n).map(|i| ((2 * i + 1) % n).to_string()).collect();
    let input = format!(
        "{}\n{{\"n\":{n},\"cols\":[{}]}}\n",
        cols.join(" "),
        cols.join(",")
    );
    nqueens()
        .arg("check")
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("line 1: not a solution")
                .and(predicate::str::contains("line 2: not a solution")),
        );
}

/// The JSON lines `check` prints for `args` (and `stdin`), its exit status `code`.
fn check_json(args: &[&str], stdin: &str, code: i32) -> Vec<serde_json::Value> {
    let out = nqueens()
        .arg("check")
        .arg("--json")
        .args(args)
        .write_stdin(stdin)
        .assert()
        .code(code)
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect()
}

#[test]
fn check_json_gives_each_placement_its_verdict_and_faults() {
    let lines = check_json(&["1 3 0 2", "0 1 3 2", "0 4 1", "1 3 1 2"], "", 1);
    assert_eq!(lines.len(), 4);
    let sources: Vec<&str> = lines
        .iter()
        .map(|l| l["source"].as_str().unwrap())
        .collect();
    assert_eq!(
        sources,
        ["argument 1", "argument 2", "argument 3", "argument 4"]
    );
    let solutions: Vec<bool> = lines
        .iter()
        .map(|l| l["solution"].as_bool().unwrap())
        .collect();
    assert_eq!(solutions, [true, false, false, false]);
    assert_eq!(lines[0]["n"], 4);
    assert!(lines[0].get("faults").is_none());
    let fault = |i: usize| &lines[i]["faults"][0];
    assert_eq!(fault(1)["fault"], "attack");
    assert_eq!(fault(1)["first"], serde_json::json!([0, 0]));
    assert_eq!(fault(1)["second"], serde_json::json!([1, 1]));
    assert_eq!(fault(1)["line"], "diagonal");
    assert!(fault(1)["text"].as_str().unwrap().contains("a diagonal"));
    assert_eq!(fault(2)["fault"], "column_out_of_range");
    assert_eq!((&fault(2)["row"], &fault(2)["col"]), (&1.into(), &4.into()));
    assert_eq!(fault(3)["line"], "column");

    // --all lists every attacking pair; a length that is not the board's is named.
    assert_eq!(
        check_json(&["--all", "1 3 0 2"], "", 0)[0]["solution"],
        true
    );
    let all = check_json(&["--all", "0 1 2 3"], "", 1);
    assert_eq!(all[0]["faults"].as_array().unwrap().len(), 6);
    let wrong = &check_json(&["--n", "5", "1 3 0 2"], "", 1)[0]["faults"][0];
    assert_eq!(
        (&wrong["fault"], &wrong["expected"]),
        (&"wrong_length".into(), &5.into())
    );

    // An unreadable line is reported in its place, the others still judged: exit 2.
    let lines = check_json(&[], "1 3 0 2\n1 x 0\n\n2 0 3 1\n", 2);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["source"], "line 2");
    assert_eq!(lines[1]["solution"], false);
    assert!(lines[1]["unreadable"].as_str().unwrap().contains("'x'"));
    assert_eq!(lines[2]["source"], "line 4");
    assert_eq!(lines[2]["solution"], true);
}

#[test]
fn all_pairs_of_a_large_board_are_counted_and_listed_as_they_come() {
    // 100,000 queens on one column make 4,999,950,000 attacking pairs: more than any
    // memory holds (240 GB as a list), so --all streams them. Within 1 GB of address
    // space the first lines come, and the run ends quietly when `head` has enough.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("column.txt");
    std::fs::write(&file, format!("{}\n", vec!["0"; 100_000].join(" "))).unwrap();
    let nq = assert_cmd::cargo::cargo_bin("nqueens");
    for json in ["", "--json"] {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v 1000000 && {{ '{}' check --all {json} --file '{}'; echo \"status $?\" >&2; }} | head -c 400",
                nq.display(),
                file.display()
            ))
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(stderr.contains("status 0"), "{json}: {stderr}");
        let (count, first) = if json.is_empty() {
            (
                "4,999,950,000 attacking pairs",
                "(row 1, col 0) attack along the same column",
            )
        } else {
            ("\"attacking_pairs\":4999950000", "\"second\":[1,0]")
        };
        assert!(
            stdout.contains(count) && stdout.contains(first),
            "{json}: {stdout}"
        );
    }
}

#[test]
fn a_verdict_comes_before_the_next_line_is_typed() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    // Verdicts are written in blocks, but never held while check waits for input.
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .arg("check")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    writeln!(stdin, "1 3 0 2").unwrap();
    stdin.flush().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        tx.send(line).unwrap();
    });
    let first = rx.recv_timeout(std::time::Duration::from_secs(30));
    drop(stdin);
    child.wait().unwrap();
    assert_eq!(first.unwrap(), "line 1: ok, a solution for N = 4\n");
}
