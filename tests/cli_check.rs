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
