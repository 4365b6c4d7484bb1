//! `nqueens merge FILES...`: the count from shard results, once they prove complete.

use crate::app::args::MergeArgs;
use crate::app::args::choices::{KernelArg, MethodArg};
use crate::app::args::engine::{EngineFlags, worded};
use crate::app::failure::Failure;
use crate::app::report::{Seconds, print_count, print_header};
use crate::app::system::print_line;
use nqueens::Tally;
use nqueens::records::{SHARD_FORMAT, ShardResult, parse, partition};
use nqueens::verify::verdict;
use nqueens::{Engine, Method, MethodChoice, Options};
use std::collections::BTreeMap;

pub fn run(args: &MergeArgs) -> Result<(), Failure> {
    let bad =
        |file: &std::path::Path, why: String| Failure::failed(format!("{}: {why}", file.display()));
    let mut shards: Vec<(&std::path::Path, ShardResult)> = Vec::new();
    for file in &args.files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| bad(file, format!("cannot read it ({e})")))?;
        let shard: ShardResult = parse(&text).map_err(|why| bad(file, why))?;
        if shard.format != SHARD_FORMAT {
            return Err(bad(
                file,
                format!("not a shard result (format {})", shard.format),
            ));
        }
        if shard.shards == 0 || !(1..=shard.shards).contains(&shard.shard) {
            return Err(Failure::usage(format!(
                "{}: shard {} of {} cannot be: a shard number must be 1 to the number of \
                 shards; the file was edited or damaged",
                file.display(),
                shard.shard,
                shard.shards
            )));
        }
        shards.push((file, shard));
    }
    let (first_file, first) = &shards[0];
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
    for (file, s) in &shards {
        if key(s) != key(first) {
            return Err(bad(
                file,
                format!(
                    "foreign shard: N = {} by {}, split depth {}, {} shards, nqueens {}; {} has N = {} by {}, split depth {}, {} shards, nqueens {}",
                    s.n,
                    s.method,
                    s.split_depth,
                    s.shards,
                    s.version,
                    first_file.display(),
                    first.n,
                    first.method,
                    first.split_depth,
                    first.shards,
                    first.version
                ),
            ));
        }
    }
    let k = first.shards;
    let mut by_number: BTreeMap<usize, &std::path::Path> = BTreeMap::new();
    for (file, s) in &shards {
        if let Some(other) = by_number.insert(s.shard, file) {
            return Err(bad(
                file,
                format!(
                    "shard {}/{k} is given twice (also {})",
                    s.shard,
                    other.display()
                ),
            ));
        }
    }
    let missing: Vec<String> = (1..=k)
        .filter(|i| !by_number.contains_key(i))
        .map(|i| format!("{i}/{k}"))
        .collect();
    if !missing.is_empty() {
        return Err(Failure::failed(format!(
            "missing shard(s): {}",
            missing.join(", ")
        )));
    }
    let method = Method::from_name(&first.method).ok_or_else(|| {
        bad(
            first_file,
            format!(
                "unknown method '{}'",
                nqueens::words::shorten(&first.method)
            ),
        )
    })?;
    let flags = EngineFlags {
        threads: args.threads,
        // The join splits by row sets; its files record depth 0.
        split_depth: (method == Method::Backtrack).then_some(first.split_depth),
        method: MethodArg::Auto,
        kernel: KernelArg::Auto,
    };
    let options = Options {
        method: MethodChoice::Only(method),
        ..flags.options()?
    };
    let engine = Engine::new(&options).map_err(worded)?;
    let plan = engine.prepare(first.n).map_err(worded)?;
    if plan.len() != first.subproblems || plan.method() != method {
        return Err(bad(
            first_file,
            "its split does not match this version's".into(),
        ));
    }
    if k > plan.len() {
        return Err(Failure::usage(format!(
            "{}: {k} shards of {} sub-problems cannot be; the file was edited or damaged",
            first_file.display(),
            plan.len()
        )));
    }
    let parts = partition(&plan, k);
    let mut tallies: Vec<Option<Tally>> = vec![None; plan.len()];
    for (file, s) in &shards {
        let ids: Vec<usize> = s.results.iter().map(|r| r.0).collect();
        if ids != parts[s.shard - 1] {
            return Err(bad(
                file,
                format!(
                    "shard {}/{k} does not cover exactly its sub-problems",
                    s.shard
                ),
            ));
        }
        for &(id, solutions, nodes) in &s.results {
            tallies[id] = Some(Tally { solutions, nodes });
        }
    }
    let count = engine.finish(&plan, &tallies).map_err(|e| match e {
        nqueens::Error::Inconsistent { .. } => Failure::usage(format!(
            "{e}: one of the shard files holds results that were edited or damaged; run its \
             shard again"
        )),
        _ => Failure::failed(e.to_string()),
    })?;
    let seconds: f64 = shards.iter().map(|(_, s)| s.seconds).sum();
    let mut out = std::io::stdout().lock();
    if !args.json {
        print_header(&mut out)?;
    }
    print_count(&mut out, &count, Seconds::once(seconds), args.json)?;
    let v = verdict(&count);
    if !args.json {
        let word = match (v.passed(), v.published) {
            (true, true) => "matches the published values",
            (true, false) => "no published term to compare (identities hold)",
            (false, _) => "DIFFERS from the published values",
        };
        print_line(
            &mut out,
            &format!(
                "merged {}; {word}",
                nqueens::words::plural(k as u64, "shard")
            ),
        )?;
    }
    if !v.passed() {
        return Err(Failure::failed(
            "the merged count differs from the published values",
        ));
    }
    Ok(())
}
