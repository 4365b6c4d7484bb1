//! `nqueens estimate`'s 90% interval against the counts it projects. Alone in its test
//! binary, so that no other test of the suite runs beside the counts it times.

mod common;

use common::{json_lines, nqueens};
use std::sync::Mutex;

/// The tests here time counts: one at a time.
static ALONE: Mutex<()> = Mutex::new(());

/// The join's 90% interval covers the time of the count it projects (the median of three
/// counts) about nine times in ten. A machine shared with other work moves both a little
/// (a background job beside the suite put three of five outside once), so the test asks
/// three boards of N = 14 to 18 of five, each tried twice where the first try misses.
/// Counts' seconds scaled by 1.3 make it fail (N = 16 to 18 missed twice), by 1.15 not:
/// the intervals of N = 14 to 16 are a fifth to a half wide, those of 17 and 18 a tenth.
/// `scripts/bench-estimate.sh` reports each board, on a quiet machine.
#[test]
fn the_interval_covers_the_count_it_projects() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let run = |command: &str, n: usize, extra: &[&str]| {
        let n = n.to_string();
        let mut args = vec![
            command,
            &n,
            "--method",
            "halves",
            "--threads",
            "2",
            "--json",
        ];
        args.extend(extra);
        json_lines(&args).remove(0)
    };
    // One try of a board: whether its interval covers the count, and the figures.
    let try_board = |n: usize| {
        let e = run("estimate", n, &["--seconds", "2"]);
        let low = e["seconds_low"].as_f64().unwrap();
        let high = e["seconds_high"].as_f64().unwrap();
        let mut counts: Vec<f64> = (0..3)
            .map(|_| run("count", n, &[])["seconds"].as_f64().unwrap())
            .collect();
        counts.sort_by(f64::total_cmp);
        let took = counts[1];
        let line = format!("N = {n}: {low} <= {took} <= {high}");
        (low <= took && took <= high, line)
    };
    // A second try where the first misses: on a shared 2-core host a count moves by up
    // to a tenth from one run to the next, as wide as the interval of N = 17 or 18 (CI
    // on a busy host once saw only N = 15 and 16 covered).
    let (covered, missed): (Vec<_>, Vec<_>) = (14..=18)
        .map(|n| match try_board(n) {
            (false, _) => try_board(n),
            first => first,
        })
        .partition(|(inside, _)| *inside);
    assert!(covered.len() >= 3, "covered {covered:?}, missed {missed:?}");
}

/// By shards, the projection is of every shard run apart, each building the slabs its
/// own sub-problems touch (a few shards of N = 19 each build most of the table): it
/// comes within a tenth of the sum of the shards' own seconds for two of three shard
/// counts of N = 19 (one run of each shard, two where the first misses; a shard's own
/// start, its buffers' first pages, is left out of the projection, a few hundredths of
/// a second each).
#[test]
fn by_shards_the_projection_comes_within_a_tenth_of_the_shards() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let n = "19";
    let common = ["--method", "halves", "--threads", "2"];
    // One try of a shard count: its projection and its shards' seconds, if close.
    let close_at = |shards: usize| {
        let k = shards.to_string();
        let mut args = vec!["estimate", n, "--shards", &k, "--seconds", "2", "--json"];
        args.extend(common);
        let projected = json_lines(&args).remove(0)["seconds"].as_f64().unwrap();
        let took: f64 = (1..=shards)
            .map(|shard| {
                let file = dir.path().join(format!("k{shards}-{shard}.json"));
                let part = format!("{shard}/{shards}");
                nqueens()
                    .args(["count", n, "--shard", &part, "--quiet", "--force"])
                    .args(common)
                    .arg("--output")
                    .arg(&file)
                    .assert()
                    .success();
                let text = std::fs::read_to_string(&file).unwrap();
                let result: serde_json::Value = serde_json::from_str(&text).unwrap();
                result["seconds"].as_f64().unwrap()
            })
            .sum();
        ((projected - took).abs() <= 0.1 * took)
            .then(|| format!("{shards} shards: projected {projected} s, took {took} s"))
    };
    // A second try where the first misses: on a shared 2-core host both the projection
    // and the shards move by 5 to 10% from one run to the next (ratios 0.93 to 1.09 seen
    // within an hour on 2026-11-27, at f4e8cdd and at 5d86ff7 alike: this test, `cargo
    // test --release --test estimate_interval`, on a 2-core AMD EPYC Zen 4, KVM).
    let close: Vec<String> = [2, 4, 8]
        .into_iter()
        .filter_map(|shards| close_at(shards).or_else(|| close_at(shards)))
        .collect();
    assert!(close.len() >= 2, "close only {close:?}");
}
