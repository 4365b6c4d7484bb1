//! `merge` at a campaign's scale: the memory of one count per sub-problem, whatever the
//! files and the shards, and none of a count's. The largest, N = 27 (135,207,800
//! sub-problems) in 1,000 shards with made-up counts, is slow (it writes 2 GB of shard
//! files and reads them back, about two minutes): run it on purpose, `cargo test
//! --release --test cli merge_scale -- --ignored --nocapture` (which prints the peak
//! memory).

use crate::common;

use nqueens::methods::{Method, Plan, Sizing};
use nqueens::records::{Checksummed, ShardResult, digest, parse};
use std::path::Path;

/// A real shard of one sub-problem of N: the fields a shard result of this version has.
fn template(n: usize, dir: &Path) -> ShardResult {
    let file = dir.join("template.json");
    let subproblems = Plan::new(Method::HALVES, n, &Sizing::default())
        .unwrap()
        .len();
    common::nqueens()
        .args(["count", &n.to_string(), "--method", "halves", "-q"])
        .args(["--shard", &format!("1/{subproblems}"), "--output"])
        .arg(&file)
        .assert()
        .success();
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    parse(&text).unwrap()
}

/// Shard `shard` of `shards` of N, every count 8 (a total whose orbits add up where no
/// solution of N is kept by a turn, and which differs from the published term).
fn made_up(
    template: &ShardResult,
    parts: &nqueens::methods::Partition,
    shard: usize,
    shards: usize,
) -> String {
    let mut file = template.clone();
    file.shard = shard;
    file.shards = shards;
    file.results = parts
        .part(shard - 1)
        .into_iter()
        .map(|id| (id, 8, 0))
        .collect();
    file.total = 0;
    file.nodes = 0;
    file.digest = digest(file.results.iter().map(|&(id, s, _)| (id, s)));
    file.to_file_text()
}

/// `nqueens ARGS` in `dir` within `kb` KB of address space: exit status and stderr.
fn limited(kb: u64, args: &str, dir: &Path) -> (Option<i32>, String) {
    let nq = assert_cmd::cargo::cargo_bin("nqueens");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kb} && exec '{}' {args}", nq.display()))
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn a_merge_needs_none_of_a_counts_memory() {
    // Half of N = 24 is 676,270 sub-problems: counting that share needs gigabytes of
    // quadrant tables, merging it 11 MB. Within 600 MB the merge gets as far as the
    // missing half.
    let dir = tempfile::tempdir().unwrap();
    let template = template(24, dir.path());
    let plan = Plan::new(Method::HALVES, 24, &Sizing::default()).unwrap();
    std::fs::write(
        dir.path().join("s1.json"),
        made_up(&template, &plan.partition(2), 1, 2),
    )
    .unwrap();
    let (status, stderr) = limited(600_000, "merge s1.json", dir.path());
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("nqueens: missing 1 shard: 2/2 "),
        "{stderr}"
    );
}

#[test]
fn a_merge_beyond_memory_is_refused_naming_its_need() {
    let dir = tempfile::tempdir().unwrap();
    let template = template(27, dir.path());
    std::fs::write(dir.path().join("one.json"), template.to_file_text()).unwrap();
    let (status, stderr) = limited(400_000, "merge one.json", dir.path());
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.starts_with(
            "nqueens: merging N = 27 keeps a count for each of its 135,207,800 sub-problems: \
             it needs 1082 MB of memory, but "
        ),
        "{stderr}"
    );
    // With room for its counts, a merge of one shard of 135,207,800 names the first
    // missing ones, not all (as a list they took gigabytes).
    let (status, stderr) = limited(4_000_000, "merge one.json", dir.path());
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.starts_with("nqueens: missing 135,207,799 shards: 2/135207800, ")
            && stderr.len() < 1000,
        "{stderr}"
    );
}

#[test]
#[ignore = "writes 2 GB; run on purpose"]
fn a_merge_of_135_million_sub_problems_runs_in_4_gb_of_address_space() {
    const SHARDS: usize = 1000;
    let dir = tempfile::tempdir().unwrap();
    let template = template(27, dir.path());
    let plan = Plan::new(Method::HALVES, 27, &Sizing::default()).unwrap();
    let parts = plan.partition(SHARDS);
    for shard in 1..=SHARDS {
        let path = dir.path().join(format!("s{shard:04}.json"));
        std::fs::write(path, made_up(&template, &parts, shard, SHARDS)).unwrap();
    }
    // 4 GB of address space: merging all the files' results at once took 8.5 GB here,
    // one file at a time 1.1 GB (8 bytes a sub-problem, and the shards' runs).
    let nq = assert_cmd::cargo::cargo_bin("nqueens");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 4000000 && T=; [ -x /usr/bin/time ] && T='/usr/bin/time -f peak_%M_KB'; \
             $T '{}' merge s*.json",
            nq.display()
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    eprintln!("{stdout}{stderr}");
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stdout.contains("merged 1000 shards") && stderr.contains("differs from the published"),
        "{stdout}{stderr}"
    );
}
