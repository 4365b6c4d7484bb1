//! Counts over MPI ranks (a build with `--features mpi`, and Open MPI's `mpirun`): the
//! total, and a job that loses a rank keeping its work for the next run, whatever its
//! number of ranks. `.ci/run` runs these after building with the feature.
#![cfg(feature = "mpi")]

mod common;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Open MPI runs as root here (CI's containers) and on more ranks than cores, with its
/// temporary files under `tmpdir` (one directory per job): the tests run at once, and two
/// jobs that share Open MPI's default (`/tmp/ompi.HOST.UID`) can fail to start ("A call
/// to mkdir was unable to create the desired directory ... File exists", Open MPI 4.1),
/// as one job's start or end races the other's.
fn mpirun(ranks: usize, tmpdir: &Path, args: &[&str]) -> Command {
    std::fs::create_dir_all(tmpdir).unwrap();
    let mut command = Command::new("mpirun");
    command
        .env("OMPI_MCA_orte_tmpdir_base", tmpdir)
        .args(["--allow-run-as-root", "--oversubscribe", "-n"])
        .arg(ranks.to_string())
        .arg(assert_cmd::cargo::cargo_bin("nqueens"))
        .args(args);
    command
}

fn json_of(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

#[test]
fn an_mpi_count_over_two_ranks_gives_the_known_total() {
    let tmpdir = tempfile::tempdir().unwrap();
    let out = mpirun(
        2,
        tmpdir.path(),
        &["count", "13", "--mpi", "--json", "--quiet"],
    )
    .output()
    .expect("mpirun runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(json_of(&out)["total"], 73_712);
}

/// The processes of the job whose command line names `marker`, with their MPI ranks (Open
/// MPI puts each process's rank in its environment).
fn ranks_of(marker: &str) -> Vec<(u32, usize)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline);
        if !cmdline.contains(marker) || cmdline.starts_with("mpirun") {
            continue;
        }
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let rank = environ
            .split(|&b| b == 0)
            .filter_map(|v| std::str::from_utf8(v).ok())
            .find_map(|v| v.strip_prefix("OMPI_COMM_WORLD_RANK="))
            .and_then(|r| r.parse().ok());
        if let Some(rank) = rank {
            found.push((pid, rank));
        }
    }
    found
}

/// Waits for `path` to hold a checkpoint with some work in it.
fn wait_for_checkpoint(path: &Path, job: &mut Child) {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.contains("[[")
        {
            return;
        }
        assert!(
            job.try_wait().unwrap().is_none(),
            "the job ended before a checkpoint"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no checkpoint within a minute");
}

/// Kills one rank of a checkpointed job with SIGKILL, then resumes the job with another
/// number of ranks: the job that lost a rank ends with a non-zero status and keeps what
/// it had, and the resumed one ends on the exact total.
fn a_job_that_loses_rank(victim: usize) {
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join(format!("mpi-loses-rank-{victim}.json"));
    let path = checkpoint.to_str().unwrap();
    let args = [
        "count",
        "17",
        "--method",
        "backtrack",
        "--mpi",
        "--quiet",
        "--json",
        "--checkpoint",
        path,
        "--checkpoint-every",
        "100ms",
    ];
    let mut job = mpirun(2, &dir.path().join("tmpdir-of-the-job"), &args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_checkpoint(&checkpoint, &mut job);
    let (pid, _) = ranks_of(path)
        .into_iter()
        .find(|&(_, rank)| rank == victim)
        .expect("the rank's process is found");
    kill(pid);
    let out = job.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "a job that lost a rank failed: {stderr}"
    );
    assert!(out.stdout.is_empty(), "no total from partial work: {out:?}");
    if victim != 0 {
        // Rank 0 lived to say what it kept.
        assert!(stderr.contains("saved in"), "{stderr}");
        assert!(!stderr.contains("nothing is kept"), "{stderr}");
    }
    let kept: nqueens::records::Checkpoint =
        nqueens::records::parse(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert!(!kept.done.is_empty() && kept.done.len() < kept.subproblems);

    let resumed = dir.path().join("tmpdir-of-the-resumed-job");
    let out = mpirun(3, &resumed, &args).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let json = json_of(&out);
    assert_eq!(json["total"], 95_815_104);
    assert_eq!(json["unique"], 11_977_939);
    let ranks: Vec<u64> = json["runs"]
        .as_array()
        .expect("the runs are listed")
        .iter()
        .map(|run| run["ranks"].as_u64().unwrap())
        .collect();
    assert_eq!(ranks, [2, 3], "{json}");
}

fn kill(pid: u32) {
    let status = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_job_that_loses_a_worker_keeps_its_work_and_resumes_on_more_ranks() {
    a_job_that_loses_rank(1);
}

#[test]
fn a_job_that_loses_rank_0_keeps_its_last_checkpoint_and_resumes() {
    a_job_that_loses_rank(0);
}
