//! Long runs: interrupted and resumed counts, damaged files, shards and their merge.

use crate::common::nqueens;

use predicates::prelude::*;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::Duration;

fn spawn(args: &[&str], checkpoint: &Path) -> Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args)
        .arg("--checkpoint")
        .arg(checkpoint)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn total_of(json_line: &[u8]) -> u64 {
    let v: serde_json::Value = serde_json::from_slice(json_line).unwrap();
    v["total"].as_u64().unwrap()
}

/// A count that takes a second or two on one thread, by this method, with frequent
/// checkpoints.
const fn slow_count(n: &'static str, method: &'static str) -> [&'static str; 10] {
    [
        "count",
        n,
        "--method",
        method,
        "--threads",
        "1",
        "--json",
        "--quiet",
        "--checkpoint-every",
        "100ms",
    ]
}

const SLOW: [&str; 10] = slow_count("16", "backtrack");
const SLOW_HALVES: [&str; 10] = slow_count("17", "halves");

/// Waits until the run has written its first checkpoint (so its signal handlers are in
/// place), or gives up after a while.
fn wait_for(file: &Path) {
    for _ in 0..200 {
        if file.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Runs the slow count again from `checkpoint` and checks it ends at the known total.
fn resumes_to_the_known_total(slow: &[&str], checkpoint: &Path) {
    let resumed = nqueens()
        .args(slow)
        .arg("--checkpoint")
        .arg(checkpoint)
        .assert()
        .success();
    let n: usize = slow[1].parse().unwrap();
    let want = nqueens::known::known(n).unwrap().total;
    assert_eq!(u128::from(total_of(&resumed.get_output().stdout)), want);
}

#[test]
fn sigint_saves_and_the_same_command_resumes_to_the_exact_total() {
    interrupt_and_resume(&SLOW);
}

#[test]
fn a_count_by_halves_interrupted_resumes_to_the_exact_total() {
    interrupt_and_resume(&SLOW_HALVES);
}

fn interrupt_and_resume(slow: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    let child = spawn(slow, &cp);
    wait_for(&cp);
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    if out.status.code() == Some(130) {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("run the same command again to resume"),
            "{stderr}"
        );
    } else {
        assert!(
            out.status.success(),
            "finished before the signal, or failed: {out:?}"
        );
    }
    assert!(cp.exists(), "the checkpoint was written");
    let saved = std::fs::read_to_string(&cp).unwrap();
    assert!(
        saved.contains(&format!("\"method\":\"{}\"", slow[3])),
        "{saved}"
    );
    resumes_to_the_known_total(slow, &cp);
}

#[test]
fn sigkill_loses_only_the_work_since_the_last_write() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    let mut child = spawn(&SLOW, &cp);
    wait_for(&cp);
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(cp.exists(), "a periodic write happened before the kill");
    resumes_to_the_known_total(&SLOW, &cp);
}

#[test]
fn damaged_or_foreign_checkpoints_are_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    nqueens()
        .args(["count", "10", "--method", "backtrack", "--checkpoint"])
        .arg(&cp)
        .assert()
        .success();
    let good = std::fs::read_to_string(&cp).unwrap();
    // Another N.
    nqueens()
        .args(["count", "11", "--method", "backtrack", "--checkpoint"])
        .arg(&cp)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("N = 10").and(predicate::str::contains("left unchanged")));
    // Another split depth.
    nqueens()
        .args([
            "count",
            "10",
            "--method",
            "backtrack",
            "--split-depth",
            "2",
            "--checkpoint",
        ])
        .arg(&cp)
        .assert()
        .code(2);
    // Another method.
    nqueens()
        .args(["count", "10", "--method", "halves", "--checkpoint"])
        .arg(&cp)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("by backtrack"));
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), good);
    // A damaged file.
    let damaged = good.replacen("\"done\":[[0,", "\"done\":[[1,", 1);
    assert_ne!(damaged, good);
    std::fs::write(&cp, &damaged).unwrap();
    nqueens()
        .args(["count", "10", "--method", "backtrack", "--checkpoint"])
        .arg(&cp)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("damaged"));
    assert_eq!(std::fs::read_to_string(&cp).unwrap(), damaged);
}

fn run_shards(dir: &Path, n: usize, k: usize) -> Vec<std::path::PathBuf> {
    run_shards_by(dir, n, k, "backtrack")
}

fn run_shards_by(dir: &Path, n: usize, k: usize, method: &str) -> Vec<std::path::PathBuf> {
    (1..=k)
        .map(|i| {
            let tag = if method == "backtrack" { "" } else { "-halves" };
            let file = dir.join(format!("n{n}-{i}-of-{k}{tag}.json"));
            nqueens()
                .args([
                    "count",
                    &n.to_string(),
                    "--method",
                    method,
                    "--shard",
                    &format!("{i}/{k}"),
                    "--output",
                ])
                .arg(&file)
                .assert()
                .success();
            file
        })
        .collect()
}

#[test]
fn shards_by_halves_merge_to_the_known_totals_and_do_not_mix_with_backtracking() {
    let dir = tempfile::tempdir().unwrap();
    for k in 1..=3 {
        let files = run_shards_by(dir.path(), 13, k, "halves");
        let out = nqueens()
            .arg("merge")
            .args(&files)
            .arg("--json")
            .assert()
            .success();
        assert_eq!(total_of(&out.get_output().stdout), 73_712, "K = {k}");
        assert!(
            String::from_utf8_lossy(&out.get_output().stdout).contains("\"method\":\"halves\"")
        );
    }
    let mixed = tempfile::tempdir().unwrap();
    let halves = run_shards_by(mixed.path(), 13, 2, "halves");
    let backtrack = run_shards_by(mixed.path(), 13, 2, "backtrack");
    assert_ne!(halves[0], backtrack[1]);
    nqueens()
        .arg("merge")
        .args([&halves[0], &backtrack[1]])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("foreign shard"));
}

#[test]
fn shards_merge_to_the_known_totals() {
    let dir = tempfile::tempdir().unwrap();
    for (n, total) in [(12, 14_200u64), (13, 73_712)] {
        for k in [1, 3, 7] {
            let files = run_shards(dir.path(), n, k);
            let out = nqueens()
                .arg("merge")
                .args(&files)
                .arg("--json")
                .assert()
                .success();
            assert_eq!(
                total_of(&out.get_output().stdout),
                total,
                "N = {n}, K = {k}"
            );
        }
    }
}

#[test]
fn a_folder_or_a_list_of_shards_merges_as_the_files_named() {
    let dir = tempfile::tempdir().unwrap();
    let shards = dir.path().join("shards");
    std::fs::create_dir(&shards).unwrap();
    let files = run_shards(&shards, 12, 5);
    // A run's hidden temporary file and other files beside the results are left alone.
    std::fs::write(shards.join(".n12-6-of-5.json.tmp"), "partial").unwrap();
    std::fs::write(shards.join("times.tsv"), "shard\twall_s\n").unwrap();
    let merged = |cmd: &mut assert_cmd::Command| {
        let out = cmd.arg("--json").assert().success();
        let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
        (json["total"].clone(), json["digest"].clone())
    };
    let named = merged(nqueens().arg("merge").args(&files));
    assert!(named.0 == 14_200 && named.1.is_string(), "{named:?}");
    assert_eq!(merged(nqueens().arg("merge").arg(&shards)), named);
    let list: String = files.iter().map(|f| format!("{}\n", f.display())).collect();
    assert_eq!(
        merged(
            nqueens()
                .args(["merge", "--files-from", "-"])
                .write_stdin(list.clone())
        ),
        named
    );
    let list_file = dir.path().join("list");
    std::fs::write(&list_file, list).unwrap();
    assert_eq!(
        merged(nqueens().arg("merge").arg("--files-from").arg(&list_file)),
        named
    );
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    nqueens()
        .arg("merge")
        .arg(&empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a folder with no .json file"));
    nqueens()
        .args(["merge", "--files-from", "-"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no shard files to merge"));
}

#[test]
fn a_board_without_sub_problems_is_one_shard_of_count_0() {
    let dir = tempfile::tempdir().unwrap();
    for n in ["2", "3"] {
        let file = dir.path().join(format!("n{n}.json"));
        nqueens()
            .args(["count", n, "--shard", "2/2", "--output"])
            .arg(&file)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "has no sub-problems, so K must be 1",
            ));
        assert!(!file.exists());
        nqueens()
            .args(["count", n, "--shard", "1/1", "--output"])
            .arg(&file)
            .assert()
            .success();
        let out = nqueens()
            .args(["merge", "--json"])
            .arg(&file)
            .assert()
            .success();
        assert_eq!(total_of(&out.get_output().stdout), 0, "N = {n}");
    }
}

#[test]
fn a_shard_run_with_json_prints_its_result_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("n12-1-of-3.json");
    let out = nqueens()
        .args(["count", "12", "--shard", "1/3", "--json", "--output"])
        .arg(&file)
        .assert()
        .success();
    let line: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    for field in ["n", "method", "shard", "shards", "total", "nodes", "digest"] {
        assert_eq!(line[field], written[field], "{field}");
    }
    let results = written["results"].as_array().unwrap();
    assert_eq!(line["subproblems"].as_u64().unwrap(), results.len() as u64);
    assert_eq!(line["output"].as_str().unwrap(), file.to_str().unwrap());
}

#[test]
fn missing_foreign_and_damaged_shards_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let files = run_shards(dir.path(), 12, 3);
    nqueens()
        .arg("merge")
        .args(&files[..2])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("missing 1 shard: 3/3")
                .and(predicate::str::contains("of one core"))
                // A few milliseconds of work, not "0.0 core-hours".
                .and(predicate::str::contains("(under 0.01 core-hours)")),
        );
    let foreign = run_shards(dir.path(), 13, 3);
    nqueens()
        .arg("merge")
        .args([&files[0], &files[1], &foreign[2]])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("foreign").and(predicate::str::contains("n13-3-of-3.json")),
        );
    for not_a_shard in [Path::new("/dev/null"), dir.path()] {
        nqueens()
            .arg("merge")
            .args([not_a_shard, &files[1], &files[2]])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(not_a_shard.to_str().unwrap()));
    }
    let text = std::fs::read_to_string(&files[1]).unwrap();
    let truncated = dir.path().join("truncated.json");
    std::fs::write(&truncated, &text[..text.len() / 2]).unwrap();
    nqueens()
        .arg("merge")
        .args([&files[0], &truncated, &files[2]])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("truncated.json").and(predicate::str::contains("unreadable")),
        );
    let damaged = text.replacen("\"total\":", "\"total\":1", 1);
    std::fs::write(&files[1], &damaged).unwrap();
    nqueens().arg("merge").args(&files).assert().code(2).stderr(
        predicate::str::contains("n12-2-of-3.json").and(predicate::str::contains("damaged")),
    );
    assert_eq!(std::fs::read_to_string(&files[1]).unwrap(), damaged);
}

#[test]
fn a_shard_run_twice_merges_when_both_agree_and_fails_naming_where_they_differ() {
    use nqueens::records::ShardResult;
    let dir = tempfile::tempdir().unwrap();
    let files = run_shards(dir.path(), 12, 3);
    let out = nqueens()
        .arg("merge")
        .args([&files[0], &files[1], &files[1], &files[2]])
        .arg("--json")
        .assert()
        .success();
    assert_eq!(total_of(&out.get_output().stdout), 14_200);
    let twin = dir.path().join("twin.json");
    std::fs::copy(&files[1], &twin).unwrap();
    let mut changed = 0;
    forge::<ShardResult>(&twin, |v| {
        let first = &mut v["results"][0];
        changed = first[0].as_u64().unwrap();
        first[1] = (first[1].as_u64().unwrap() + 1).into();
    });
    nqueens()
        .arg("merge")
        .args([&files[0], &files[1], &twin, &files[2]])
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("disagree on 1 sub-problem")
                .and(predicate::str::contains(format!(": {changed};")))
                .and(predicate::str::contains("twin.json")),
        );
}

#[test]
fn slurm_array_tasks_pick_their_shard() {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<_> = (5..=7)
        .map(|task| {
            let file = dir.path().join(format!("task{task}.json"));
            nqueens()
                .args(["count", "11", "--shard", "slurm", "--output"])
                .arg(&file)
                .env("SLURM_ARRAY_TASK_ID", task.to_string())
                .env("SLURM_ARRAY_TASK_COUNT", "3")
                .env("SLURM_ARRAY_TASK_MIN", "5")
                .assert()
                .success()
                .stdout(predicate::str::contains(format!("shard {}/3", task - 4)));
            file
        })
        .collect();
    let out = nqueens()
        .arg("merge")
        .args(&files)
        .arg("--json")
        .assert()
        .success();
    assert_eq!(total_of(&out.get_output().stdout), 2680);
    nqueens()
        .args(["count", "11", "--shard", "slurm", "-o", "x.json"])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .assert()
        .code(2);
}

#[test]
fn bad_shard_requests_are_refused() {
    for spec in ["0/3", "4/3", "x", "1/0", "2"] {
        nqueens()
            .args([
                "count",
                "10",
                "--shard",
                spec,
                "--output",
                "/tmp/never-written.json",
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("I/K"));
    }
    nqueens()
        .args(["count", "10", "--shard", "1/2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--output"));
    nqueens()
        .args(["count", "8..10", "--checkpoint", "/tmp/x.json"])
        .assert()
        .code(2);
}

#[test]
fn mpi_without_the_feature_says_how_to_build_it() {
    if cfg!(feature = "mpi") {
        return;
    }
    nqueens()
        .args(["count", "10", "--mpi"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--features mpi"));
}

#[test]
fn outputs_that_cannot_be_written_are_refused_before_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    nqueens()
        .args(["count", "16", "--shard", "1/3", "--output"])
        .arg(dir.path().join("missing").join("x.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not exist"));
    nqueens()
        .args(["count", "16", "--shard", "1/3", "--output"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a folder"));
    nqueens()
        .args(["count", "16", "--checkpoint"])
        .arg(dir.path().join("missing").join("cp.json"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not exist"));
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "refused before counting"
    );
}

/// Sends `signal` to a count of N = 28 (sub-problems of hours each) once it runs, and
/// checks it stops at once with the shell's status, its checkpoint saved and its lock
/// gone.
fn a_huge_count_stops_on(signal: &str, status: i32) {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    let child = spawn(
        &[
            "count",
            "28",
            "--threads",
            "2",
            "--checkpoint-every",
            "100ms",
        ],
        &cp,
    );
    wait_for(&cp);
    let sent = std::time::Instant::now();
    std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    // A liveness bound, not a timing: before the kernels looked at the flag, N = 28 never
    // stopped at all.
    let out = child.wait_with_output().unwrap();
    let waited = sent.elapsed();
    assert!(
        waited < Duration::from_secs(20),
        "{signal}: stopped after {waited:?}"
    );
    assert_eq!(out.status.code(), Some(status), "{signal}: {out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("stopping"), "{signal}: {stderr}");
    assert!(
        stderr.contains("; run the same command again to resume"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty(), "no partial result on stdout");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cp).unwrap()).unwrap();
    assert_eq!(saved["n"], 28);
    let mut left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["run.json"], "no lock or temporary file is left");
}

#[test]
fn sigint_stops_a_count_of_28_at_once_and_saves_it() {
    a_huge_count_stops_on("INT", 130);
}

#[test]
fn sigterm_stops_a_count_of_28_at_once_and_saves_it() {
    a_huge_count_stops_on("TERM", 143);
}

#[test]
fn sighup_stops_a_count_of_28_at_once_and_saves_it() {
    a_huge_count_stops_on("HUP", 129);
}

/// Rewrites a shard or checkpoint file with `edit` applied and its digest and checksum
/// recomputed, as someone who knows the format could.
pub fn forge<T>(path: &Path, edit: impl FnOnce(&mut serde_json::Value))
where
    T: nqueens::records::Checksummed + serde::de::DeserializeOwned,
{
    reseal::<T>(path, |value| {
        edit(value);
        // The digest follows the records (a shard's results, a checkpoint's finished
        // sub-problems), as a forger would make it.
        for records in ["results", "done"] {
            if let Some(list) = value.get(records).and_then(|r| r.as_array()) {
                let pairs: Vec<(usize, u64)> = list
                    .iter()
                    .map(|r| (r[0].as_u64().unwrap() as usize, r[1].as_u64().unwrap()))
                    .collect();
                value["digest"] = nqueens::records::digest(pairs).into();
            }
        }
    });
}

/// Rewrites a shard or checkpoint file with `edit` applied and only its checksum
/// recomputed.
pub fn reseal<T>(path: &Path, edit: impl FnOnce(&mut serde_json::Value))
where
    T: nqueens::records::Checksummed + serde::de::DeserializeOwned,
{
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut value);
    let record: T = serde_json::from_value(value).unwrap();
    std::fs::write(path, record.to_file_text()).unwrap();
}

/// A change made to a file's JSON.
type Edit = fn(&mut serde_json::Value);

#[test]
fn crafted_shards_are_refused_never_a_panic() {
    use nqueens::records::ShardResult;
    let edits: [(&str, Edit); 4] = [
        ("shard 0", |v| v["shard"] = 0.into()),
        ("shard 3 of 2", |v| v["shard"] = 3.into()),
        ("shards: 0", |v| v["shards"] = 0.into()),
        ("a count off by one", |v| {
            let first = &mut v["results"][0][1];
            *first = (first.as_u64().unwrap() + 1).into();
        }),
    ];
    for (what, edit) in edits {
        let dir = tempfile::tempdir().unwrap();
        // By halves, so that a count one more leaves a total with no orbit split.
        let files = run_shards_by(dir.path(), 12, 2, "halves");
        forge::<ShardResult>(&files[0], edit);
        let out = nqueens().arg("merge").args(&files).assert().code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(stderr.contains("edited or damaged"), "{what}: {stderr}");
    }
}

#[test]
fn a_crafted_checkpoint_is_refused_at_the_end_never_a_panic() {
    use nqueens::records::Checkpoint;
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    let run = |cp: &Path| {
        nqueens()
            .args(["count", "12", "--method", "halves", "--checkpoint"])
            .arg(cp)
            .assert()
    };
    run(&cp).success();
    // A row set's count one more: the join's weights are 1 or 2, so the total moves by
    // 1 or 2 and has no orbit split. (Backtracking's weights are orbit sizes: a count one
    // more there moves the total by a whole orbit, which no check short of the published
    // table can tell from a right one.)
    forge::<Checkpoint>(&cp, |v| {
        let first = &mut v["done"][0][1];
        *first = (first.as_u64().unwrap() + 1).into();
    });
    let out = run(&cp).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("edited or damaged") && !stderr.contains("panicked"),
        "{stderr}"
    );
    assert!(
        out.get_output().stdout.is_empty(),
        "no wrong total is printed"
    );
}

/// Kills the count without warning once `file` has been written by the run's periodic
/// writer (not the last write a signal gets), and waits for it.
fn kill_after_a_write(child: Child, file: &Path) {
    let before = std::fs::read_to_string(file).ok();
    for _ in 0..200 {
        if std::fs::read_to_string(file).ok() != before {
            break;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    std::thread::sleep(Duration::from_millis(300));
    std::process::Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .unwrap();
    child.wait_with_output().unwrap();
}

/// The finished sub-problems a checkpoint holds, checked to be by increasing id, once each.
fn saved_ids(file: &Path) -> Vec<usize> {
    let text = std::fs::read_to_string(file).unwrap();
    let cp: nqueens::records::Checkpoint = nqueens::records::parse(&text).unwrap();
    let ids: Vec<usize> = cp.done.iter().map(|&(id, _, _)| id).collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "ids in order, once each"
    );
    ids
}

/// The periodic writer streams the earlier runs' sub-problems and this run's, merged by
/// id: a run killed (SIGKILL, no last write) keeps what its writer wrote, the run that
/// resumes it writes both lists as one, and a third run ends at the known total.
#[test]
fn checkpoints_written_while_counting_merge_earlier_and_new_work() {
    let dir = tempfile::tempdir().unwrap();
    let cp = dir.path().join("run.json");
    kill_after_a_write(spawn(&SLOW, &cp), &cp);
    let first = saved_ids(&cp);
    assert!(!first.is_empty(), "the writer saved finished sub-problems");
    kill_after_a_write(spawn(&SLOW, &cp), &cp);
    let second = saved_ids(&cp);
    assert!(
        first.iter().all(|id| second.binary_search(id).is_ok()),
        "the resumed run's checkpoint keeps the first run's work"
    );
    resumes_to_the_known_total(&SLOW, &cp);
}
