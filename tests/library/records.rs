//! The files of long runs read back exactly as written: checkpoints and shard results with
//! any counts, durations and machine names, and the files earlier versions wrote.

use nqueens::records::{
    CHECKPOINT_FORMAT, Checkpoint, Checksummed, Record, Run, SHARD_FORMAT, ShardResult, parse,
};
use proptest::prelude::*;

/// Any finite, non-negative number of seconds: sums of runs' seconds, as resumes make them,
/// and plain draws across the whole range of doubles.
fn seconds() -> impl Strategy<Value = f64> {
    prop_oneof![
        (0.0..1e7f64, 0.0..1e7f64).prop_map(|(a, b)| a + b),
        (0u64..(1 << 52), -60i32..40).prop_map(|(m, e)| m as f64 * 2f64.powi(e)),
        any::<f64>()
            .prop_filter("finite", |s| s.is_finite())
            .prop_map(f64::abs),
    ]
}

/// Machine names, including the characters JSON must escape and the checksum's own key.
fn host() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9.-]{0,20}",
        any::<String>(),
        Just("\"checksum\":\"0000\"".to_string()),
    ]
}

fn runs() -> impl Strategy<Value = Vec<Run>> {
    prop::collection::vec(
        (host(), "[a-z0-9]{1,8}", 1usize..1024, 1usize..64, seconds()).prop_map(
            |(host, kernel, threads, ranks, seconds)| Run {
                host,
                kernel,
                threads,
                ranks,
                seconds,
            },
        ),
        0..4,
    )
}

fn records() -> impl Strategy<Value = Vec<Record>> {
    prop::collection::vec((any::<usize>(), any::<u64>(), any::<u64>()), 0..20)
}

fn checkpoint() -> impl Strategy<Value = Checkpoint> {
    (
        (1usize..64, 0usize..8, any::<usize>()),
        prop::option::of((1usize..100, 1usize..100)),
        records(),
        seconds(),
        runs(),
    )
        .prop_map(
            |((n, split_depth, subproblems), shard, done, seconds, runs)| Checkpoint {
                format: CHECKPOINT_FORMAT.into(),
                version: env!("CARGO_PKG_VERSION").into(),
                n,
                method: "halves".into(),
                split_depth,
                subproblems,
                shard,
                done,
                seconds,
                runs,
                digest: "cd".repeat(32),
                checksum: String::new(),
            },
        )
}

fn shard_result() -> impl Strategy<Value = ShardResult> {
    (
        (1usize..64, 1usize..1000, 1usize..1000),
        records(),
        (any::<u128>(), any::<u128>()),
        seconds(),
        host(),
        runs(),
    )
        .prop_map(
            |((n, shard, shards), results, (total, nodes), seconds, host, runs)| ShardResult {
                format: SHARD_FORMAT.into(),
                version: env!("CARGO_PKG_VERSION").into(),
                n,
                method: "backtrack".into(),
                split_depth: 2,
                subproblems: shards * 3,
                shard,
                shards,
                results,
                total,
                nodes,
                seconds,
                host,
                runs,
                digest: "ab".repeat(32),
                checksum: String::new(),
            },
        )
}

/// Writes `record`, reads it back and writes it again: the same record, the same bytes.
fn round_trips<T>(record: T) -> Result<(), TestCaseError>
where
    T: Checksummed + PartialEq + std::fmt::Debug + for<'de> serde::Deserialize<'de>,
{
    let text = record.to_file_text();
    let back: T = parse(&text).map_err(|why| TestCaseError::fail(format!("{why}: {text}")))?;
    let mut blank = back.clone();
    blank.checksum_field().clear();
    prop_assert_eq!(&blank, &record);
    prop_assert_eq!(back.to_file_text(), text);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn checkpoints_read_back_as_written(record in checkpoint()) {
        round_trips(record)?;
    }

    #[test]
    fn shard_results_read_back_as_written(record in shard_result()) {
        round_trips(record)?;
    }

    #[test]
    fn any_edited_digit_that_changes_the_record_is_refused(record in shard_result(), pick in any::<prop::sample::Index>()) {
        let text = record.to_file_text();
        let digits: Vec<usize> = text
            .char_indices()
            .filter(|&(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i)
            .collect();
        let at = digits[pick.index(digits.len())];
        let old = text.as_bytes()[at];
        let new = if old == b'9' { b'1' } else { old + 1 };
        let mut edited = text.clone().into_bytes();
        edited[at] = new;
        let edited = String::from_utf8(edited).unwrap();
        // An edit the JSON cannot hold is unreadable; one it can is damaged; either way
        // refused. Only an edit that leaves the record as it was (a digit past a float's
        // precision) may pass, as a file reformatted by hand does.
        if let Ok(back) = parse::<ShardResult>(&edited) {
            let mut blank = back;
            blank.checksum.clear();
            prop_assert_eq!(blank, record, "accepted: {}", edited);
        }
    }
}

/// A checkpoint as nqueens wrote it before this change: no "runs" field, the checksum
/// taken over the serialized record with the field empty, then filled in.
fn sealed_the_old_way(seconds: f64) -> String {
    let record = Checkpoint {
        format: CHECKPOINT_FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        n: 18,
        method: "backtrack".into(),
        split_depth: 2,
        subproblems: 900,
        shard: Some((1, 4)),
        done: vec![(3, 120, 4567), (7, 0, 99)],
        seconds,
        runs: Vec::new(),
        digest: String::new(),
        checksum: String::new(),
    };
    let blank = serde_json::to_string(&record)
        .unwrap()
        .replace(",\"runs\":[]", "");
    let sum = format!("{:08x}", crc32fast::hash(blank.as_bytes()));
    blank.replace("\"checksum\":\"\"", &format!("\"checksum\":\"{sum}\"")) + "\n"
}

#[test]
fn files_of_earlier_versions_are_accepted() {
    // Sums of two runs' seconds like those that serde_json once read back one unit off, so
    // that the record written again no longer matched its checksum.
    for seconds in [2.4931857539999998, 0.1 + 0.2, 1234.5678901234567, 5e-324] {
        let old = sealed_the_old_way(seconds);
        let back: Checkpoint = parse(&old).unwrap_or_else(|why| panic!("{why}: {old}"));
        assert_eq!(back.seconds.to_bits(), seconds.to_bits());
        assert!(back.runs.is_empty());
        let edited = old.replace("[3,120,4567]", "[3,121,4567]");
        assert!(
            parse::<Checkpoint>(&edited)
                .unwrap_err()
                .contains("damaged")
        );
    }
}

#[test]
fn a_file_reformatted_by_hand_is_accepted_when_its_record_is_unchanged() {
    let record = Checkpoint {
        format: CHECKPOINT_FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        n: 12,
        method: "halves".into(),
        split_depth: 0,
        subproblems: 50,
        shard: None,
        done: vec![(1, 2, 3)],
        seconds: 0.1 + 0.2,
        runs: Vec::new(),
        digest: String::new(),
        checksum: String::new(),
    };
    let text = record.to_file_text();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let pretty = serde_json::to_string_pretty(&value).unwrap();
    assert_ne!(pretty.trim(), text.trim());
    let back: Checkpoint = parse(&pretty).expect("same record, other spacing");
    assert_eq!(back.done, record.done);
    let edited = pretty.replace("\"n\": 12", "\"n\": 13");
    assert!(
        parse::<Checkpoint>(&edited)
            .unwrap_err()
            .contains("damaged")
    );
}
