//! Hostile input, each test the attack that found a defect: devices where files belong,
//! memory limits, names with escapes or bytes that are not UTF-8, impossible values,
//! a file given twice, a forged checkpoint.

use crate::common::nqueens;
use crate::longrun::forge;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

fn stderr_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

fn stdout_text(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

#[test]
fn a_device_where_a_file_belongs_is_refused_before_it_is_read() {
    for args in [
        &["merge", "/dev/zero"][..],
        &["merge", "--files-from", "/dev/zero"],
        &["bench", "--compare", "/dev/zero", "--n", "4", "--runs", "1"],
    ] {
        let out = nqueens()
            .args(args)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2);
        let stderr = stderr_of(&out);
        assert!(
            stderr.contains("/dev/zero: is not a regular file"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn too_little_memory_is_a_message_and_exit_2_not_an_abort() {
    let binary = assert_cmd::cargo::cargo_bin("nqueens");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 60000 && exec \"$0\" count 20 --quiet")
        .arg(&binary)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("out of memory"), "{stderr}");
    assert!(!stderr.contains("backtrace"), "{stderr}");
}

/// Two shards of N = 12 written into `dir` under `names`.
fn two_shards(dir: &Path, names: [&OsStr; 2]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (i, name) in names.into_iter().enumerate() {
        let path = dir.join(name);
        let shard = format!("{}/2", i + 1);
        let out = nqueens()
            .args(["count", "12", "--quiet", "--shard", &shard, "--output"])
            .arg(&path)
            .assert()
            .success();
        assert!(
            !stdout_text(&out).contains('\u{1b}'),
            "no raw escape is printed"
        );
        files.push(path);
    }
    files
}

#[test]
fn names_with_escapes_are_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let names = [
        OsStr::new("evil\u{1b}]0;PWNED\u{7}.json"),
        OsStr::new("s5\u{1b}[31mred.json"),
    ];
    let files = two_shards(dir.path(), names);
    std::fs::write(&files[1], "not a shard").unwrap();
    let out = nqueens().arg("merge").args(&files).assert().code(2);
    let stderr = stderr_of(&out);
    assert!(stderr.contains("s5\\u{1b}[31mred.json"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
}

#[test]
fn names_that_are_not_utf8_are_merged_from_a_folder_and_a_list() {
    let dir = tempfile::tempdir().unwrap();
    let names = [
        OsStr::from_bytes(b"one-\xff.json"),
        OsStr::from_bytes(b"two-\xfe.json"),
    ];
    let files = two_shards(dir.path(), names);
    let merged = nqueens().arg("merge").arg(dir.path()).assert().success();
    assert!(
        stdout_text(&merged).contains("14200"),
        "{}",
        stdout_text(&merged)
    );
    let list = dir.path().join("list");
    let mut bytes = Vec::new();
    for file in &files {
        bytes.extend_from_slice(file.as_os_str().as_bytes());
        bytes.push(b'\n');
    }
    std::fs::write(&list, bytes).unwrap();
    let listed = nqueens()
        .args(["merge", "--files-from"])
        .arg(&list)
        .assert()
        .success();
    assert!(stdout_text(&listed).contains("14200"));
}

#[test]
fn a_file_named_twice_is_merged_once_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_shards(dir.path(), [OsStr::new("a.json"), OsStr::new("b.json")]);
    let out = nqueens()
        .arg("merge")
        .arg(dir.path())
        .arg(&files[0])
        .assert()
        .success();
    assert!(
        stderr_of(&out).contains("named twice; merged once"),
        "{}",
        stderr_of(&out)
    );
    assert!(
        stdout_text(&out).contains("merged 2 shards"),
        "{}",
        stdout_text(&out)
    );
}

#[test]
fn impossible_values_make_a_shard_refused_as_edited() {
    use nqueens::records::ShardResult;
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 5] = [
        ("negative seconds", |v| v["seconds"] = (-5.0).into()),
        ("absurd seconds", |v| v["seconds"] = 1e308.into()),
        ("zero threads", |v| v["runs"][0]["threads"] = 0.into()),
        ("an unknown kernel", |v| {
            v["runs"][0]["kernel"] = "quantum".into()
        }),
        ("runs that do not add up", |v| {
            v["runs"][0]["seconds"] = 1000.0.into()
        }),
    ];
    for (what, edit) in edits {
        let dir = tempfile::tempdir().unwrap();
        let files = two_shards(dir.path(), [OsStr::new("a.json"), OsStr::new("b.json")]);
        forge::<ShardResult>(&files[0], edit);
        let out = nqueens().arg("merge").args(&files).assert().code(2);
        let stderr = stderr_of(&out);
        assert!(stderr.contains("edited or damaged"), "{what}: {stderr}");
    }
}

#[test]
fn a_forged_checkpoint_never_prints_a_wrong_total() {
    use nqueens::records::Checkpoint;
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    let run = || {
        nqueens()
            .args([
                "count",
                "12",
                "--method",
                "backtrack",
                "--json",
                "--checkpoint",
            ])
            .arg(&cp)
            .assert()
    };
    run().success();
    // One search's count one more: backtracking weighs it by its orbit's size, so the
    // total moves by whole orbits and keeps an orbit split; only the table tells.
    forge::<Checkpoint>(&cp, |v| {
        let first = &mut v["done"][0][1];
        *first = (first.as_u64().unwrap() + 1).into();
    });
    let out = run().code(1);
    let stderr = stderr_of(&out);
    assert!(
        stderr.contains("DIFFERS from the published values"),
        "{stderr}"
    );
    assert!(stderr.contains("edited or damaged"), "{stderr}");
    assert!(
        stdout_text(&out).is_empty(),
        "no wrong total: {}",
        stdout_text(&out)
    );
}

#[test]
fn help_and_version_into_a_full_device_fail_and_a_closed_stdout_is_refused() {
    let binary = assert_cmd::cargo::cargo_bin("nqueens");
    for flag in ["--help", "--version"] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(&binary)
            .arg(flag)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("cannot write"),
            "{flag}"
        );
    }
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" count 12 >&-")
        .arg(&binary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a check before any work");
}

#[test]
fn a_read_only_checkpoint_is_refused_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    std::fs::write(&cp, "kept").unwrap();
    std::fs::set_permissions(&cp, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&cp)
        .assert()
        .code(2);
    assert!(stderr_of(&out).contains("read-only"), "{}", stderr_of(&out));
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), "kept");
}
