//! Checking another site's work without redoing it: digests of results, compared whole
//! and sharded, and `recount` of a sample with another kernel.

use crate::common::nqueens;
use nqueens::records::{Checksummed, ShardResult, digest, parse};
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn shards(dir: &Path, n: usize, k: usize) -> Vec<PathBuf> {
    (1..=k)
        .map(|i| {
            let file = dir.join(format!("s{i}.json"));
            nqueens()
                .args([
                    "count",
                    &n.to_string(),
                    "--shard",
                    &format!("{i}/{k}"),
                    "-o",
                ])
                .arg(&file)
                .assert()
                .success();
            file
        })
        .collect()
}

fn digest_of(json: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(json).unwrap();
    v["digest"].as_str().expect("a digest").to_string()
}

#[test]
fn a_digest_is_the_same_whole_or_sharded_whatever_the_kernel_and_threads() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 13, 3);
    let merged = nqueens()
        .arg("merge")
        .args(&files)
        .arg("--json")
        .assert()
        .success();
    let merged = digest_of(&merged.get_output().stdout);
    for (kernel, threads) in [("portable", "1"), ("auto", "2")] {
        let whole = nqueens()
            .args([
                "count",
                "13",
                "--json",
                "--kernel",
                kernel,
                "--threads",
                threads,
            ])
            .assert()
            .success();
        assert_eq!(
            digest_of(&whole.get_output().stdout),
            merged,
            "{kernel}, {threads}"
        );
    }
    // Each file's digest is that of its own results.
    for file in &files {
        let shard: ShardResult = parse(&std::fs::read_to_string(file).unwrap()).unwrap();
        let own = digest(shard.results.iter().map(|&(id, s, _)| (id, s)));
        assert_eq!(shard.digest, own);
    }
}

#[test]
fn recount_passes_honest_work_and_names_a_forged_count() {
    let dir = tempfile::tempdir().unwrap();
    let files = shards(dir.path(), 12, 2);
    nqueens()
        .args(["recount", "--sample", "100%"])
        .arg(&files[0])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("0 differ")
                .and(predicate::str::contains("other decomposition")),
        );
    // Its progress bar: none on a pipe, and `--quiet` is taken as by `count`.
    nqueens()
        .args(["recount", "--quiet", "--sample", "100%"])
        .arg(&files[0])
        .assert()
        .success()
        .stdout(predicate::str::contains("0 differ"))
        .stderr(predicate::str::is_empty());
    // An odd board's other decomposition counts its pins one by one.
    let odd_dir = tempfile::tempdir().unwrap();
    let odd = shards(odd_dir.path(), 13, 1);
    let out = nqueens()
        .args(["recount", "--json", "--sample", "100"])
        .arg(&odd[0])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("\"other_decomposition\":true"), "{stdout}");
    assert!(stdout.contains("\"differ\":[]"), "{stdout}");
    // Backtracking has one decomposition: a second kernel only.
    let backtracking = odd_dir.path().join("backtracking.json");
    nqueens()
        .args([
            "count",
            "11",
            "--method",
            "backtrack",
            "--shard",
            "1/1",
            "-o",
        ])
        .arg(&backtracking)
        .assert()
        .success();
    let out = nqueens()
        .args(["recount", "--json", "--sample", "100%"])
        .arg(&backtracking)
        .assert()
        .success();
    assert!(
        String::from_utf8_lossy(&out.get_output().stdout).contains("\"other_decomposition\":false")
    );
    // A count changed by someone who knows the format: checksum and digest made anew.
    let mut shard: ShardResult = parse(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    let forged = shard.results[3].0;
    shard.results[3].1 += 1;
    shard.digest = digest(shard.results.iter().map(|&(id, s, _)| (id, s)));
    shard.checksum.clear();
    std::fs::write(&files[1], shard.to_file_text()).unwrap();
    nqueens()
        .args(["recount", "--sample", "100", "--json"])
        .arg(&files[1])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!("\"differ\":[{forged}]")))
        .stderr(predicate::str::contains(
            "1 sub-problem of the sample counted differently",
        ));
    // A digest that does not match the results is an edit: refused.
    shard.results[3].1 -= 1;
    std::fs::write(&files[1], shard.to_file_text()).unwrap();
    nqueens()
        .arg("recount")
        .arg(&files[1])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("digest does not match"));
}
