//! `nqueens estimate`'s 90% interval against the counts it projects. Alone in its test
//! binary, so that no other test of the suite runs beside the counts it times.

mod common;

use common::json_lines;

/// The join's 90% interval covers the time of the count it projects about nine times in
/// ten: here at least four boards of N = 14 to 18 of five (on a machine busy with other
/// work, one may fall outside; a 90% interval promises no more).
#[test]
fn the_interval_covers_the_count_it_projects() {
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
    let covered: Vec<String> = (14..=18)
        .filter_map(|n| {
            let e = run("estimate", n, &["--seconds", "2"]);
            let c = run("count", n, &[]);
            let (low, high) = (e["seconds_low"].as_f64()?, e["seconds_high"].as_f64()?);
            let took = c["seconds"].as_f64()?;
            (low <= took && took <= high).then(|| format!("N = {n}: {low} <= {took} <= {high}"))
        })
        .collect();
    assert!(covered.len() >= 4, "covered only {covered:?}");
}
