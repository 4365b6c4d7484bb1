//! Hostile input, each test the attack that found a defect: devices where files belong,
//! memory limits, names with escapes or bytes that are not UTF-8, impossible values,
//! a file given twice or copied, files of another version, a forged checkpoint.

use crate::common::nqueens;
use crate::longrun::{forge, reseal};
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
fn check_reads_placements_from_a_pipe_but_not_from_a_device() {
    let out = nqueens()
        .args(["check", "--file", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2);
    assert!(
        stderr_of(&out).contains("is not a regular file or a pipe"),
        "{}",
        stderr_of(&out)
    );
    let binary = assert_cmd::cargo::cargo_bin("nqueens");
    let piped = std::process::Command::new("bash")
        .arg("-c")
        .arg("\"$0\" check --file <(\"$0\" solve 6)")
        .arg(&binary)
        .output()
        .unwrap();
    assert_eq!(piped.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&piped.stdout).contains("ok"));
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
    let dir = tempfile::tempdir().unwrap();
    let files = two_shards(dir.path(), [OsStr::new("a.json"), OsStr::new("b.json")]);
    let merge = format!("merge {} {}", files[0].display(), files[1].display());
    // Each under a limit (kB of address space) that lets it start and not finish here;
    // it may run out while starting its threads or in its work: either is refused.
    let cases = [
        (60_000, "count 20 --quiet"),
        (25_000, "estimate 18"),
        (25_000, "solve 14"),
        (25_000, "find 1000000"),
        (15_000, merge.as_str()),
    ];
    for (limit, command) in cases {
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {limit} && exec \"$0\" {command}"))
            .arg(&binary)
            .stdout(std::process::Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command}: {stderr}");
        assert!(
            stderr.contains("out of memory") || stderr.contains("refused"),
            "{command}: {stderr}"
        );
        assert!(
            !stderr.contains("backtrace") && !stderr.contains("panicked"),
            "{command}: {stderr}"
        );
    }
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

#[test]
fn a_copy_of_a_shard_under_another_name_is_merged_once_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let files = two_shards(dir.path(), [OsStr::new("a.json"), OsStr::new("b.json")]);
    let copy = dir.path().join("a-copy.json");
    std::fs::copy(&files[0], &copy).unwrap();
    let out = nqueens()
        .arg("merge")
        .args(&files)
        .arg(&copy)
        .assert()
        .success();
    assert!(
        stderr_of(&out).contains("a-copy.json is a copy of"),
        "{}",
        stderr_of(&out)
    );
    assert!(
        stdout_text(&out).contains("merged 2 shards (2 runs"),
        "{}",
        stdout_text(&out)
    );
}

#[test]
fn files_of_another_version_are_refused_whatever_the_mix() {
    use nqueens::records::ShardResult;
    for edited in [1, 2] {
        let dir = tempfile::tempdir().unwrap();
        let files = two_shards(dir.path(), [OsStr::new("a.json"), OsStr::new("b.json")]);
        for file in &files[..edited] {
            forge::<ShardResult>(file, |v| v["version"] = "0.0.9".into());
        }
        let out = nqueens().arg("merge").args(&files).assert().code(2);
        assert!(
            stderr_of(&out).contains("written by nqueens 0.0.9"),
            "{edited} of 2 edited: {}",
            stderr_of(&out)
        );
    }
}

/// A finished count of 12 by backtracking with its checkpoint kept, and the command
/// that resumes it.
fn finished_checkpoint(dir: &Path) -> (PathBuf, impl Fn() -> assert_cmd::assert::Assert) {
    let cp = dir.join("run.json");
    let run = {
        let cp = cp.clone();
        move || {
            nqueens()
                .args(["count", "12", "--method", "backtrack", "--checkpoint"])
                .arg(&cp)
                .assert()
        }
    };
    run().success();
    (cp, run)
}

#[test]
fn a_checkpoint_whose_digest_is_stale_or_gone_is_refused_as_edited() {
    use nqueens::records::Checkpoint;
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 2] = [
        ("its digest does not match its records", |v| {
            let first = &mut v["done"][0][1];
            *first = (first.as_u64().unwrap() + 1).into();
        }),
        ("it has no digest of its records", |v| {
            v.as_object_mut().unwrap().remove("digest");
        }),
    ];
    for (why, edit) in edits {
        let dir = tempfile::tempdir().unwrap();
        let (cp, resume) = finished_checkpoint(dir.path());
        reseal::<Checkpoint>(&cp, edit);
        let kept = std::fs::read(&cp).unwrap();
        let out = resume().code(2);
        assert!(stderr_of(&out).contains(why), "{}", stderr_of(&out));
        assert!(stdout_text(&out).is_empty(), "no total is printed");
        assert_eq!(std::fs::read(&cp).unwrap(), kept, "left unchanged");
    }
}

#[test]
fn recount_of_a_forged_checkpoint_names_the_forged_sub_problem() {
    use nqueens::records::Checkpoint;
    let dir = tempfile::tempdir().unwrap();
    let (cp, _) = finished_checkpoint(dir.path());
    let good = nqueens()
        .args(["recount", "--sample", "100", "--json"])
        .arg(&cp)
        .assert()
        .success();
    assert!(
        stdout_text(&good).contains("\"differ\":[]"),
        "{}",
        stdout_text(&good)
    );
    let mut forged_id = 0;
    forge::<Checkpoint>(&cp, |v| {
        let record = &mut v["done"][7];
        forged_id = record[0].as_u64().unwrap();
        record[1] = (record[1].as_u64().unwrap() + 1).into();
    });
    let out = nqueens()
        .args(["recount", "--sample", "100", "--json"])
        .arg(&cp)
        .assert()
        .code(1);
    assert!(
        stdout_text(&out).contains(&format!("\"differ\":[{forged_id}]")),
        "{}",
        stdout_text(&out)
    );
    assert!(
        stderr_of(&out).contains("counted differently"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn a_column_that_is_not_whole_is_quoted_as_given_or_said_out_of_range() {
    let cases = [
        ("[1.0,3,0,2]", "1.0 is not a column"),
        ("[2.5,3,0,2]", "2.5 is not a column"),
        ("[18446744073709551616,3,0,2]", "is out of range"),
        ("1.0 3 0 2", "'1.0' is not a column"),
    ];
    for (placement, want) in cases {
        let out = nqueens().args(["check", placement]).assert().code(2);
        let said = format!("{}{}", stdout_text(&out), stderr_of(&out));
        assert!(said.contains(want), "{placement}: {said}");
        assert!(
            !said.contains("18446744073709552000"),
            "{placement}: {said}"
        );
    }
}
