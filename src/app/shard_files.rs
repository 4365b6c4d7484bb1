//! Shard result files as `merge` and `recount` read them: each checked whole (readable,
//! sealed, a shard result, its digest, its shard number) before any is used, and the
//! plan that gives their sub-problem ids.

use crate::app::args::choices::{KernelArg, MethodArg};
use crate::app::args::engine::{EngineFlags, worded};
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;
use crate::app::reading::{read_file, records_bytes};
use nqueens::records::{CHECKPOINT_FORMAT, Checkpoint, SHARD_FORMAT, ShardResult, digest, parse};

use crate::app::system::VERSION;
use nqueens::{Engine, Method, MethodChoice, Options, Plan};
use std::path::Path;

/// A shard result and the file it came from.
pub struct Read<'a> {
    pub file: &'a Path,
    pub shard: ShardResult,
}

/// Reads one shard result, or refuses the file.
pub fn read(file: &Path) -> Result<Read<'_>, Failure> {
    shard_from(file, &read_text(file, "shard result")?)
}

/// The shard result a file's text holds, or the file refused.
fn shard_from<'a>(file: &'a Path, text: &str) -> Result<Read<'a>, Failure> {
    let shard: ShardResult = parse(text).map_err(|why| refuse(file, why))?;
    if shard.format != SHARD_FORMAT {
        return Err(refuse(
            file,
            format!(
                "not a shard result (format {})",
                nqueens::words::shorten(&shard.format)
            ),
        ));
    }
    checked(file, shard)
}

/// Reads a shard result or a checkpoint (its finished sub-problems, as one shard of
/// its count: the whole count is shard 1 of 1), or refuses the file.
pub fn read_recountable(file: &Path) -> Result<Read<'_>, Failure> {
    /// A file's format, its other fields unread.
    #[derive(serde::Deserialize)]
    struct Format {
        format: String,
    }
    let text = read_text(file, "shard result or checkpoint")?;
    let format = serde_json::from_str::<Format>(&text).map_or_else(|_| String::new(), |f| f.format);
    if format != CHECKPOINT_FORMAT {
        return shard_from(file, &text);
    }
    let cp: Checkpoint = parse(&text).map_err(|why| refuse(file, why))?;
    let (shard, shards) = cp.shard.unwrap_or((1, 1));
    let shard = ShardResult {
        format: SHARD_FORMAT.into(),
        version: cp.version,
        n: cp.n,
        method: cp.method,
        split_depth: cp.split_depth,
        subproblems: cp.subproblems,
        shard,
        shards,
        results: cp.done,
        total: 0,
        nodes: 0,
        seconds: cp.seconds,
        host: String::new(),
        runs: cp.runs,
        digest: cp.digest,
        checksum: cp.checksum,
    };
    checked(file, shard)
}

/// A file's text, read in the memory the largest valid file of its kind can need.
fn read_text(file: &Path, kind: &str) -> Result<String, Failure> {
    if file.is_dir() {
        return Err(refuse(file, format!("is a folder, not a {kind}")));
    }
    let most = records_bytes(u64::from(u32::MAX));
    let bytes = read_file(file, most, kind).map_err(|why| refuse(file, why))?;
    String::from_utf8(bytes).map_err(|_| refuse(file, format!("not a {kind} (not UTF-8 text)")))
}

/// The shard result if what it says can be what a run of this version wrote.
fn checked(file: &Path, shard: ShardResult) -> Result<Read<'_>, Failure> {
    let own = digest(
        shard
            .results
            .iter()
            .map(|&(id, solutions, _)| (id, solutions)),
    );
    if !shard.digest.is_empty() && shard.digest != own {
        return Err(refuse(
            file,
            "its digest does not match its results; the file was edited".into(),
        ));
    }
    if shard.shards == 0 || !(1..=shard.shards).contains(&shard.shard) {
        return Err(refuse(
            file,
            format!(
                "shard {} of {} cannot be: a shard number must be 1 to the number of \
                 shards; the file was edited or damaged",
                shard.shard, shard.shards
            ),
        ));
    }
    if let Some(why) = nqueens::records::impossible_runs(shard.seconds, &shard.runs) {
        return Err(refuse(
            file,
            format!("{why}; the file was edited or damaged"),
        ));
    }
    // Sub-problem ids, and what a file holds, may change from one version to the next:
    // a file is read by the version that wrote it, whatever the other files are.
    if shard.version != VERSION {
        return Err(refuse(
            file,
            format!(
                "written by nqueens {}, this is {VERSION}; read it with the nqueens that \
                 wrote it",
                nqueens::words::shorten(&shard.version)
            ),
        ));
    }
    Ok(Read { file, shard })
}

/// A file's problem, refused (exit 2).
pub fn refuse(file: &Path, why: String) -> Failure {
    Failure::refused(format!("{}: {why}", file.shown()))
}

/// What a plan of shard results is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Merging: the plan gives ids and weights and counts no sub-problem, so it needs
    /// none of a count's memory (a head node merges what a cluster counted).
    Merge,
    /// Counting a sample again, by the method's other decomposition where it has one.
    Recount,
}

/// The engine and plan that give the shards' sub-problem ids, or a refusal when this
/// version splits the count otherwise. For [`Purpose::Recount`] the plan counts each
/// sub-problem by the method's other decomposition where it has one (the returned flag
/// says whether it did).
pub fn plan_of(
    first: &ShardResult,
    file: &Path,
    threads: Option<usize>,
    kernel: KernelArg,
    purpose: Purpose,
) -> Result<(Engine, Plan, bool), Failure> {
    let other_way = purpose == Purpose::Recount;
    let method = Method::from_name(&first.method).ok_or_else(|| {
        refuse(
            file,
            format!(
                "unknown method '{}'",
                nqueens::words::shorten(&first.method)
            ),
        )
    })?;
    let flags = EngineFlags {
        threads,
        // The join splits by row sets; its files record depth 0.
        split_depth: method.takes_split_depth().then_some(first.split_depth),
        method: MethodArg::Auto,
        kernel,
    };
    let mut options = Options {
        method: MethodChoice::Only(method),
        ..flags.options()?
    };
    if purpose == Purpose::Merge {
        options.memory_budget = None;
    }
    let engine = Engine::new(&options).map_err(worded)?;
    // A run of one shard needs only its share of the tables.
    let parts = first.shards.max(1);
    let (plan, other_way) = match other_way {
        true => match engine.prepare_other_way(first.n, parts) {
            Ok(plan) => (plan, true),
            Err(nqueens::Error::NoOtherWay { .. }) => {
                (engine.prepare_part(first.n, parts).map_err(worded)?, false)
            }
            Err(e) => return Err(worded(e)),
        },
        false => (engine.prepare_part(first.n, parts).map_err(worded)?, false),
    };
    if plan.len() != first.subproblems || plan.method() != method {
        return Err(refuse(
            file,
            "its split does not match this version's".into(),
        ));
    }
    if first.shards > plan.most_shards() {
        return Err(refuse(
            file,
            format!(
                "{} shards of {} sub-problems cannot be; the file was edited or damaged",
                first.shards,
                plan.len()
            ),
        ));
    }
    Ok((engine, plan, other_way))
}
