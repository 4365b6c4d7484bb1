//! `nqueens merge FILES...`: the count from shard results, once they prove complete.
//!
//! Every file is read and checked before anything is counted: a file that cannot be read,
//! is damaged or edited, belongs to another count, or leaves a shard missing is refused
//! (exit 2). A shard given twice (run twice, on two machines say) must agree with itself
//! sub-problem by sub-problem; where the two runs differ the merge fails (exit 1) naming
//! the sub-problems, as it does when the total differs from the published one.

use crate::app::args::MergeArgs;
use crate::app::args::choices::KernelArg;
use crate::app::failure::Failure;
use crate::app::report::{Provenance, Seconds, describe_runs, print_count, print_header};
use crate::app::shard_files::{Read, plan_of, read, refuse};
use crate::app::system::print_line;
use nqueens::records::{Run, ShardResult, digest};
use nqueens::verify::verdict;
use nqueens::{Count, Tally};
use std::collections::BTreeMap;

pub fn run(args: &MergeArgs) -> Result<(), Failure> {
    let files: Vec<Read> = args
        .files
        .iter()
        .map(|file| read(file))
        .collect::<Result<_, _>>()?;
    same_count(&files)?;
    let shards = one_per_number(&files)?;
    let first = &shards.values().next().expect("one file at least").shard;
    let (engine, plan, _) = plan_of(first, files[0].file, args.threads, KernelArg::Auto, false)?;
    let parts = plan.partition(first.shards);
    let mut tallies: Vec<Option<Tally>> = vec![None; plan.len()];
    for read in shards.values() {
        let s = &read.shard;
        let ids: Vec<usize> = s.results.iter().map(|r| r.0).collect();
        if ids != parts.part(s.shard - 1) {
            return Err(refuse(
                read.file,
                format!(
                    "shard {}/{} does not cover exactly its sub-problems",
                    s.shard, s.shards
                ),
            ));
        }
        for &(id, solutions, nodes) in &s.results {
            tallies[id] = Some(Tally { solutions, nodes });
        }
    }
    let count = engine.finish(&plan, &tallies).map_err(|e| match e {
        nqueens::Error::Inconsistent { .. } => Failure::refused(format!(
            "{e}: one of the shard files holds results that were edited or damaged; run its \
             shard again"
        )),
        _ => Failure::failed(e.to_string()),
    })?;
    let runs: Vec<Run> = files.iter().flat_map(|r| runs_of(&r.shard)).collect();
    let whole = digest(
        tallies
            .iter()
            .enumerate()
            .map(|(id, t)| (id, t.expect("every shard is here").solutions)),
    );
    let provenance = Provenance {
        runs: &runs,
        digest: Some(&whole),
    };
    report(args, &count, &shards, provenance)
}

/// Refuses a file of another count: another N, method, split, shard count or version.
fn same_count(files: &[Read]) -> Result<(), Failure> {
    let key = |s: &ShardResult| {
        (
            s.n,
            s.method.clone(),
            s.split_depth,
            s.subproblems,
            s.shards,
            s.version.clone(),
        )
    };
    let describe = |s: &ShardResult| {
        format!(
            "N = {} by {}, split depth {}, {} shards, nqueens {}",
            s.n,
            nqueens::words::shorten(&s.method),
            s.split_depth,
            s.shards,
            nqueens::words::shorten(&s.version)
        )
    };
    let first = &files[0];
    match files.iter().find(|r| key(&r.shard) != key(&first.shard)) {
        Some(other) => Err(refuse(
            other.file,
            format!(
                "foreign shard: {}; {} has {}",
                describe(&other.shard),
                first.file.display(),
                describe(&first.shard)
            ),
        )),
        None => Ok(()),
    }
}

/// The files by shard number, each shard once: a shard given twice must hold the same
/// counts both times (else exit 1, naming where they differ); a missing shard is refused.
fn one_per_number<'a>(files: &'a [Read<'a>]) -> Result<BTreeMap<usize, &'a Read<'a>>, Failure> {
    let k = files[0].shard.shards;
    let mut by_number: BTreeMap<usize, &Read> = BTreeMap::new();
    for read in files {
        match by_number.get(&read.shard.shard) {
            None => {
                by_number.insert(read.shard.shard, read);
            }
            Some(earlier) => compare_twins(earlier, read)?,
        }
    }
    let missing: Vec<String> = (1..=k)
        .filter(|i| !by_number.contains_key(i))
        .map(|i| format!("{i}/{k}"))
        .collect();
    if !missing.is_empty() {
        return Err(Failure::refused(format!(
            "missing {}: {} (every shard of the count must be given){}",
            nqueens::words::plural(missing.len() as u64, "shard"),
            nqueens::words::first_of(&missing, 20),
            still_to_do(&by_number, missing.len())
        )));
    }
    Ok(by_number)
}

/// What the missing shards should take, from the core-seconds the given ones took
/// (shards of one count are of about equal work). Empty when the files do not say (written before runs were recorded).
fn still_to_do(given: &BTreeMap<usize, &Read>, missing: usize) -> String {
    let core_seconds: Vec<f64> = given
        .values()
        .map(|r| {
            r.shard
                .runs
                .iter()
                .map(|run| run.seconds * (run.threads * run.ranks.max(1)) as f64)
                .sum()
        })
        .filter(|&s: &f64| s > 0.0)
        .collect();
    if core_seconds.is_empty() {
        return String::new();
    }
    let mean = core_seconds.iter().sum::<f64>() / core_seconds.len() as f64;
    format!(
        "; they should take about {} of one core ({} core-hours), as the {} given did",
        nqueens::words::duration(mean * missing as f64),
        nqueens::words::core_hours(mean * missing as f64 / 3600.0),
        core_seconds.len()
    )
}

/// Two results of one shard: the same counts for every sub-problem, or a failed check.
fn compare_twins(a: &Read, b: &Read) -> Result<(), Failure> {
    let counts = |s: &ShardResult| -> BTreeMap<usize, (u64, u64)> {
        s.results
            .iter()
            .map(|&(id, sol, nodes)| (id, (sol, nodes)))
            .collect()
    };
    let (left, right) = (counts(&a.shard), counts(&b.shard));
    let differ: Vec<usize> = left
        .keys()
        .chain(right.keys())
        .copied()
        .filter(|id| left.get(id).map(|t| t.0) != right.get(id).map(|t| t.0))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if differ.is_empty() {
        return Ok(());
    }
    Err(Failure::failed(format!(
        "{} and {} are both shard {}/{} and disagree on {}: {}; run that shard again to \
         settle it",
        a.file.display(),
        b.file.display(),
        a.shard.shard,
        a.shard.shards,
        nqueens::words::plural(differ.len() as u64, "sub-problem"),
        nqueens::words::first_of(&differ, 10)
    )))
}

/// The runs that did a shard's work; a file from before runs were recorded names its
/// host and seconds only.
fn runs_of(shard: &ShardResult) -> Vec<Run> {
    if !shard.runs.is_empty() {
        return shard.runs.clone();
    }
    vec![Run {
        host: shard.host.clone(),
        kernel: "unrecorded".into(),
        threads: 0,
        ranks: 1,
        seconds: shard.seconds,
    }]
}

/// Prints the merged count and checks it against the published values.
fn report(
    args: &MergeArgs,
    count: &Count,
    shards: &BTreeMap<usize, &Read>,
    provenance: Provenance,
) -> Result<(), Failure> {
    let seconds: f64 = shards.values().map(|r| r.shard.seconds).sum();
    let mut out = std::io::stdout().lock();
    if !args.json {
        print_header(&mut out)?;
    }
    print_count(
        &mut out,
        count,
        Seconds::once(seconds),
        provenance,
        args.json,
    )?;
    let v = verdict(count);
    if !args.json {
        let word = match (v.passed(), v.published) {
            (true, true) => "matches the published values",
            (true, false) => "no published term to compare (identities hold)",
            (false, _) => "DIFFERS from the published values",
        };
        print_line(
            &mut out,
            &format!(
                "merged {} ({}); {word}",
                nqueens::words::plural(shards.len() as u64, "shard"),
                describe_runs(provenance.runs)
            ),
        )?;
        if let Some(digest) = provenance.digest {
            print_line(
                &mut out,
                &format!("digest of every sub-problem's count: {digest}"),
            )?;
        }
    }
    if !v.passed() {
        return Err(Failure::failed(
            "the merged count differs from the published values",
        ));
    }
    Ok(())
}
