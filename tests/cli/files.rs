//! Files that cannot be written: a full disk, a read-only folder, two runs on one
//! checkpoint. Nothing computed is lost and no temporary file is left behind.

use crate::common::{self, nqueens};

use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A small tmpfs mounted on a fresh folder, unmounted when dropped; `None` (with a message
/// saying the test is skipped) where this process may not mount one.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(check: &str, options: &str) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().ok()?;
        let mounted = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !mounted {
            common::skipped(check, "cannot mount a tmpfs here (needs root)");
            return None;
        }
        Some(Tmpfs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills the file system to the last byte.
    fn fill(&self) {
        use std::io::Write;
        let mut filler = std::fs::File::create(self.path().join("filler")).unwrap();
        let block = vec![0u8; 4096];
        while filler.write_all(&block).is_ok() {}
        let _ = filler.write_all(&[0]);
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.dir.path())
            .status();
    }
}

/// The names in a folder, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_full_disk_never_ends_the_count_and_the_result_still_reaches_stdout() {
    let Some(disk) = Tmpfs::mount("a full disk", "size=64k") else {
        return;
    };
    disk.fill();
    let cp = disk.path().join("run.json");
    let out = nqueens()
        .args(["count", "12", "--threads", "1", "--json", "--quiet"])
        .args(["--checkpoint-every", "1ms", "--checkpoint"])
        .arg(&cp)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("\"total\":14200"), "{stdout}");
    assert!(
        stderr.contains(&format!("cannot write checkpoint {}", cp.display()))
            && stderr.contains("No space left on device")
            && stderr.contains("the result above is complete"),
        "{stderr}"
    );
    assert_eq!(names(disk.path()), ["filler"], "no temporary file is left");

    // A shard whose result file cannot be written prints the result instead.
    let shard = disk.path().join("shard.json");
    let out = nqueens()
        .args(["count", "12", "--shard", "1/1", "--quiet", "--output"])
        .arg(&shard)
        .assert()
        .code(1)
        .get_output()
        .clone();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let file_line = stdout.lines().last().unwrap();
    let result: serde_json::Value = serde_json::from_str(file_line).unwrap();
    assert_eq!(result["total"], 14200);
    assert!(String::from_utf8_lossy(&out.stderr).contains("save that line"));
    assert_eq!(names(disk.path()), ["filler"]);

    // Listings: nothing at the path, no temporary file, the path named.
    nqueens()
        .args(["solve", "8", "--output"])
        .arg(disk.path().join("all.txt"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("all.txt").and(predicate::str::contains("No space")));
    assert_eq!(names(disk.path()), ["filler"]);
}

#[test]
fn a_read_only_folder_is_refused_before_the_work() {
    let Some(disk) = Tmpfs::mount("a read-only folder", "ro,size=64k") else {
        return;
    };
    let started = Instant::now();
    for args in [
        &["count", "16", "--shard", "1/3", "--output"][..],
        &["count", "16", "--checkpoint"],
        &["solve", "8", "--output"],
        &["find", "1000", "--output"],
    ] {
        nqueens()
            .args(args)
            .arg(disk.path().join("x.json"))
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains("not writable"));
    }
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "refused before counting"
    );
}

#[test]
fn a_second_run_on_a_held_checkpoint_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    let lock = PathBuf::from(format!("{}.lock", cp.display()));
    let first = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args([
            "count",
            "17",
            "--method",
            "backtrack",
            "--threads",
            "1",
            "--quiet",
        ])
        .arg("--checkpoint")
        .arg(&cp)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    for _ in 0..200 {
        if lock.exists() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let started = Instant::now();
    nqueens()
        .args(["count", "17", "--method", "backtrack", "--checkpoint"])
        .arg(&cp)
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(
            predicate::str::contains("is in use")
                .and(predicate::str::contains(format!("process {}", first.id()))),
        );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "refused at once"
    );
    std::process::Command::new("kill")
        .args(["-INT", &first.id().to_string()])
        .status()
        .unwrap();
    let status = { first }.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(!lock.exists(), "the lock file goes with the run");
    assert_eq!(names(dir.path()), ["run.json"], "no temporary file is left");
}

#[test]
fn a_run_killed_during_a_write_leaves_nothing_the_next_run_keeps() {
    // What a run killed between creating its temporary file and renaming it leaves.
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    std::fs::write(dir.path().join(".run.json.Ab12Cd.tmp"), "{\"half\":").unwrap();
    std::fs::write(dir.path().join("other.txt"), "kept").unwrap();
    nqueens()
        .args(["count", "10", "--checkpoint"])
        .arg(&cp)
        .assert()
        .success();
    assert_eq!(names(dir.path()), ["other.txt", "run.json"]);
}

#[test]
fn time_across_resumes_is_kept_in_the_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    nqueens()
        .args(["count", "11", "--checkpoint"])
        .arg(&cp)
        .assert()
        .success();
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cp).unwrap()).unwrap();
    let first_seconds = saved["seconds"].as_f64().unwrap();
    assert!(first_seconds > 0.0);
    // Run again: everything is done, so this run adds almost nothing to the total.
    let out = nqueens()
        .args(["count", "11", "--json", "--checkpoint"])
        .arg(&cp)
        .assert()
        .success();
    let line: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let (seconds, total) = (
        line["seconds"].as_f64().unwrap(),
        line["total_seconds"].as_f64().unwrap(),
    );
    assert!(total >= first_seconds && total >= seconds, "{line}");
    for field in ["seconds", "total_seconds"] {
        let text = line[field].to_string();
        let decimals = text.split('.').nth(1).map_or(0, str::len);
        assert!(decimals <= 6, "{field} rounded to the microsecond: {text}");
    }
}

#[test]
fn listings_are_written_whole_and_folders_are_called_folders() {
    let dir = tempfile::tempdir().unwrap();
    nqueens()
        .args(["solve", "6", "-o"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a folder"));
    let file = dir.path().join("six.txt");
    nqueens()
        .args(["solve", "6", "-o"])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&file).unwrap().lines().count(), 4);
    nqueens()
        .args(["find", "100", "-o"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("exists; add --force"));
    assert_eq!(names(dir.path()), ["six.txt"], "no temporary file is left");
}

#[test]
fn force_never_replaces_what_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let target = dir.path().join("target.txt");
    std::fs::write(&target, "kept\n").unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let paths = [
        (PathBuf::from("/dev/null"), "not a regular file"),
        (fifo.clone(), "not a regular file"),
        (link.clone(), "symbolic link"),
    ];
    for (path, why) in &paths {
        let runs: [Vec<&str>; 4] = [
            vec!["count", "10", "--shard", "1/2", "--force", "--output"],
            vec!["count", "10", "--checkpoint"],
            vec!["solve", "6", "--force", "-o"],
            vec!["find", "50", "--force", "-o"],
        ];
        for args in runs {
            nqueens()
                .args(&args)
                .arg(path)
                .assert()
                .code(2)
                .stdout(predicate::str::is_empty())
                .stderr(predicate::str::contains(*why));
        }
    }
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type()));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "kept\n");
    assert_eq!(names(dir.path()), ["fifo", "link", "target.txt"]);
}

#[test]
fn one_file_cannot_be_both_the_output_and_the_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("run.json");
    let same = dir.path().join(".").join("run.json");
    nqueens()
        .args(["count", "10", "--shard", "1/2", "--output"])
        .arg(&file)
        .arg("--checkpoint")
        .arg(&same)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("both --output and --checkpoint"));
    assert!(names(dir.path()).is_empty());
}

#[test]
fn a_second_run_on_the_same_output_is_refused_while_the_first_works() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shard.json");
    let first = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args([
            "count",
            "28",
            "--shard",
            "1/1000",
            "--threads",
            "1",
            "--output",
        ])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lock = dir.path().join("shard.json.lock");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !lock.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    nqueens()
        .args(["count", "12", "--shard", "1/2", "--output"])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("output").and(predicate::str::contains("is in use")));
    std::process::Command::new("kill")
        .args(["-INT", &first.id().to_string()])
        .status()
        .unwrap();
    let stopped = first.wait_with_output().unwrap();
    assert_eq!(stopped.status.code(), Some(130));
    assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
}

#[test]
fn new_files_follow_the_umask_not_the_temporary_files_0600() {
    use std::os::unix::fs::PermissionsExt;
    let umask = std::process::Command::new("sh")
        .args(["-c", "umask"])
        .output()
        .unwrap();
    let umask = u32::from_str_radix(String::from_utf8_lossy(&umask.stdout).trim(), 8).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let listing = dir.path().join("all.txt");
    nqueens()
        .args(["solve", "6", "-o"])
        .arg(&listing)
        .assert()
        .success();
    let shard = dir.path().join("shard.json");
    nqueens()
        .args(["count", "10", "--shard", "1/1", "--output"])
        .arg(&shard)
        .assert()
        .success();
    for file in [listing, shard] {
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask, "{}", file.display());
    }
}

#[test]
fn a_signal_during_a_listing_to_a_file_leaves_no_hidden_file() {
    for signal in ["INT", "TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("all.txt");
        let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
            .args(["solve", "16", "-o"])
            .arg(&out)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until the temporary file is there (the listing is under way).
        let deadline = Instant::now() + Duration::from_secs(20);
        while names(dir.path()).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        let done = child.wait_with_output().unwrap();
        let code = done.status.code();
        assert!(code.is_some_and(|c| c > 128), "{signal}: {done:?}");
        assert!(
            names(dir.path()).is_empty(),
            "{signal}: {:?}",
            names(dir.path())
        );
    }
}
