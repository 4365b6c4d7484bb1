//! scripts/campaign.sh: a count in shards on one machine, resumable, merged at the end.

use std::path::Path;
use std::process::{Command, Output};

fn campaign(n: &str, shards: &str, dir: &Path) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/campaign.sh");
    Command::new("bash")
        .arg(script)
        .args([n, shards, dir.to_str().unwrap(), "1"])
        .env("NQUEENS", assert_cmd::cargo::cargo_bin("nqueens"))
        .output()
        .expect("bash runs")
}

/// Lines of the campaign's record, header left out: (shard, exit status).
fn record(dir: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(dir.join("times.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 4, "{line}");
            (fields[0].to_string(), fields[3].to_string())
        })
        .collect()
}

#[test]
fn a_campaign_counts_every_shard_once_and_merges_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = campaign("14", "3", dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("365596"), "{stdout}");
    assert!(stdout.contains("matches the published values"), "{stdout}");
    let ran = [("1", "0"), ("2", "0"), ("3", "0")].map(|(a, b)| (a.into(), b.into()));
    assert_eq!(record(dir.path()), ran);
    for shard in 1..=3 {
        assert!(dir.path().join(format!("n14-shard-{shard}.json")).is_file());
        let checkpoint = dir.path().join(format!("n14-shard-{shard}.checkpoint"));
        assert!(
            !checkpoint.exists(),
            "a finished shard's checkpoint is removed"
        );
    }

    // Run again after a shard was lost: only that one is counted again.
    std::fs::remove_file(dir.path().join("n14-shard-2.json")).unwrap();
    let again = campaign("14", "3", dir.path());
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("365596"));
    let record = record(dir.path());
    assert_eq!(record.len(), 4);
    assert_eq!(record[3], ("2".to_string(), "0".to_string()));
}
