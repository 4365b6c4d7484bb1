//! `nqueens merge FILES...`: the count from shard results, once they prove complete.
//!
//! Every file is read and checked, one at a time, before anything is counted: a file
//! that cannot be read, is damaged or edited, belongs to another count, or leaves a shard
//! missing is refused (exit 2). What is kept of them is one count per sub-problem, so a
//! campaign of millions of shards merges in the memory of its count, not of its files.
//! A shard given twice (run twice, on two machines say) must agree with itself
//! sub-problem by sub-problem; where the two runs differ the merge fails (exit 1) naming
//! the sub-problems, as it does when the total differs from the published one.

use crate::app::args::MergeArgs;
use crate::app::args::choices::KernelArg;
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;
use crate::app::reading::{FILE_LIST_BYTES, read_file, read_stdin};
use crate::app::report::{Provenance, Seconds, describe_runs, print_count, print_header};
use crate::app::shard_files::{Purpose, Read, plan_of, read, refuse};
use crate::app::system::{memory_available, print_line, say};
use nqueens::Count;
use nqueens::methods::{Partition, Plan};
use nqueens::records::{Run, ShardResult, digest_in_order};
use nqueens::verify::verdict;
use nqueens::words::human_bytes;
use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

pub fn run(args: &MergeArgs) -> Result<(), Failure> {
    let files = shard_files(args)?;
    // One file at a time, so that a campaign of a million shards is merged in the
    // memory of one count per sub-problem (8 bytes each), not of every file at once.
    let first = read(&files[0])?;
    let (engine, plan, _) = plan_of(
        &first.shard,
        first.file,
        args.threads,
        KernelArg::Auto,
        Purpose::Merge,
    )?;
    refuse_beyond_memory(&plan)?;
    let parts = plan.partition(first.shard.shards);
    let mut merged = Merged::new(&plan, parts, &first);
    merged.take(first)?;
    for file in &files[1..] {
        merged.take(read(file)?)?;
    }
    merged.refuse_missing()?;
    let count = engine
        .finish_summed(&plan, merged.weighted, merged.nodes)
        .map_err(|e| match e {
            nqueens::Error::Inconsistent { .. } => Failure::refused(format!(
                "{e}: one of the shard files holds results that were edited or damaged; run \
                 its shard again"
            )),
            _ => Failure::failed(e.to_string()),
        })?;
    let whole = digest_in_order(merged.solutions.iter().copied().enumerate());
    let provenance = Provenance {
        runs: &merged.runs,
        digest: Some(&whole),
    };
    report(args, &count, &merged.shards, provenance)
}

/// The files in their order, each once: a file named twice (by two paths to it, say) is
/// said so and merged once.
fn once_each(files: Vec<PathBuf>) -> Vec<PathBuf> {
    let mut seen = std::collections::HashSet::new();
    let mut once = Vec::with_capacity(files.len());
    for file in files {
        let same = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
        if seen.insert(same) {
            once.push(file);
        } else {
            say(&format!("{}: named twice; merged once", file.shown()));
        }
    }
    once
}

/// The files to merge: those named, every `*.json` file of a folder named (by name; not
/// hidden ones, such as a run's temporary files), and those listed in `--files-from`.
fn shard_files(args: &MergeArgs) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for path in &args.files {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let cannot = |e: std::io::Error| refuse(path, format!("cannot read the folder ({e})"));
        let mut found: Vec<PathBuf> = Vec::new();
        for entry in std::fs::read_dir(path).map_err(cannot)? {
            let file = entry.map_err(cannot)?.path();
            // Names are bytes: one that is not UTF-8 is merged like any other.
            let name = file.file_name().map_or(&b"."[..], |n| n.as_encoded_bytes());
            if name.ends_with(b".json") && !name.starts_with(b".") && !file.is_dir() {
                found.push(file);
            }
        }
        if found.is_empty() {
            return Err(refuse(path, "is a folder with no .json file".into()));
        }
        found.sort();
        files.extend(found);
    }
    if let Some(list) = &args.files_from {
        let bytes = match list.as_os_str() == "-" {
            true => read_stdin(FILE_LIST_BYTES, "list of files")?,
            false => read_file(list, FILE_LIST_BYTES, "list of files")
                .map_err(|why| refuse(list, why))?,
        };
        // One name a line, as bytes (a name need not be UTF-8); white space that ends a
        // line (a CR) is not part of it.
        files.extend(
            bytes
                .split(|&b| b == b'\n')
                .map(<[u8]>::trim_ascii_end)
                .filter(|line| !line.is_empty())
                .map(|line| PathBuf::from(std::ffi::OsStr::from_bytes(line))),
        );
    }
    let files = once_each(files);
    if files.is_empty() {
        return Err(Failure::refused(
            "no shard files to merge: the list is empty",
        ));
    }
    Ok(files)
}

/// Refuses a merge whose count per sub-problem would not fit in the memory left.
fn refuse_beyond_memory(plan: &Plan) -> Result<(), Failure> {
    let needed = 8 * plan.len() as u64;
    match memory_available() {
        Some(available) if needed > available => Err(Failure::refused(format!(
            "merging N = {} keeps a count for each of its {} sub-problems: it needs {} of \
             memory, but {} is available",
            plan.n(),
            nqueens::words::thousands(plan.len() as u64),
            human_bytes(needed),
            human_bytes(available)
        ))),
        _ => Ok(()),
    }
}

/// What a merge keeps of a shard once its file is read.
struct Shard {
    /// The first file given for it.
    file: PathBuf,
    /// That file's checksum, which a copy of it shares.
    checksum: String,
    seconds: f64,
    /// The core-seconds its runs took (0 where the file does not say).
    core_seconds: f64,
}

/// The shards read so far: each sub-problem's count, by id (from the first file of its
/// shard; a second file of the shard is compared with it), the weighted total and the
/// nodes, and what the report needs of each shard.
struct Merged<'p> {
    plan: &'p Plan,
    parts: Partition<'p>,
    /// The first file, which every other must match (the same N, split and shards), and
    /// what it says but its results.
    first_file: PathBuf,
    first: ShardResult,
    solutions: Vec<u64>,
    weighted: u128,
    nodes: u128,
    shards: BTreeMap<usize, Shard>,
    /// The runs that did the work, file by file (a shard's second file's too).
    runs: Vec<Run>,
}

impl<'p> Merged<'p> {
    fn new(plan: &'p Plan, parts: Partition<'p>, first: &Read) -> Merged<'p> {
        let mut header = first.shard.clone();
        header.results = Vec::new();
        Merged {
            plan,
            parts,
            first_file: first.file.to_path_buf(),
            first: header,
            solutions: vec![0; plan.len()],
            weighted: 0,
            nodes: 0,
            shards: BTreeMap::new(),
            runs: Vec::new(),
        }
    }

    /// Takes one file's counts, or refuses it: another count's, one that does not cover
    /// exactly its shard's sub-problems, or a second result of a shard that disagrees
    /// with the first (exit 1, naming where).
    fn take(&mut self, read: Read) -> Result<(), Failure> {
        same_count(&self.first, &self.first_file, &read)?;
        let s = &read.shard;
        let ids = s.results.iter().map(|r| r.0);
        if !ids.eq(self.parts.part(s.shard - 1)) {
            return Err(refuse(
                read.file,
                format!(
                    "shard {}/{} does not cover exactly its sub-problems",
                    s.shard, s.shards
                ),
            ));
        }
        if let Some(earlier) = self.shards.get(&s.shard) {
            // A copy of a file (the same bytes under another name) is one run's result,
            // not a second count of the shard.
            if earlier.checksum == s.checksum {
                say(&format!(
                    "{} is a copy of {}; merged once",
                    read.file.shown(),
                    earlier.file.shown()
                ));
                return Ok(());
            }
            self.compare_twins(&earlier.file, &read)?;
            self.runs.extend(runs_of(s));
            return Ok(());
        }
        for &(id, solutions, nodes) in &s.results {
            self.solutions[id] = solutions;
            self.weighted += u128::from(self.plan.weight(id)) * u128::from(solutions);
            self.nodes += u128::from(nodes);
        }
        let runs = runs_of(s);
        let core_seconds = runs
            .iter()
            .map(|run| run.seconds * (run.threads * run.ranks.max(1)) as f64)
            .sum();
        self.runs.extend(runs);
        self.shards.insert(
            s.shard,
            Shard {
                file: read.file.to_path_buf(),
                checksum: s.checksum.clone(),
                seconds: s.seconds,
                core_seconds,
            },
        );
        Ok(())
    }

    /// A second result of a shard: the same counts for every sub-problem as the first,
    /// or a failed check.
    fn compare_twins(&self, earlier: &Path, read: &Read) -> Result<(), Failure> {
        let s = &read.shard;
        let differ: Vec<usize> = s
            .results
            .iter()
            .filter(|&&(id, solutions, _)| self.solutions[id] != solutions)
            .map(|r| r.0)
            .collect();
        if differ.is_empty() {
            return Ok(());
        }
        Err(Failure::failed(format!(
            "{} and {} are both shard {}/{} and disagree on {}: {}; run that shard again to \
             settle it",
            earlier.shown(),
            read.file.shown(),
            s.shard,
            s.shards,
            nqueens::words::plural(differ.len() as u64, "sub-problem"),
            nqueens::words::first_of(&differ, 10)
        )))
    }

    /// Refuses an incomplete set, naming the missing shards and what they should take.
    fn refuse_missing(&self) -> Result<(), Failure> {
        let k = self.first.shards;
        let missing = k - self.shards.len();
        if missing == 0 {
            return Ok(());
        }
        // The first few by name: a campaign of millions may miss millions.
        const NAMED: usize = 20;
        let named: Vec<String> = (1..=k)
            .filter(|i| !self.shards.contains_key(i))
            .take(NAMED + 1)
            .map(|i| format!("{i}/{k}"))
            .collect();
        Err(Failure::refused(format!(
            "missing {}: {} (every shard of the count must be given){}",
            nqueens::words::plural(missing as u64, "shard"),
            nqueens::words::first_of(&named, NAMED),
            still_to_do(&self.shards, missing)
        )))
    }
}

/// Refuses a file of another count: another N, method, split or shard count (every file
/// is of this version: [`read`] refuses others).
fn same_count(first: &ShardResult, first_file: &Path, other: &Read) -> Result<(), Failure> {
    let key = |s: &ShardResult| {
        (
            s.n,
            s.method.clone(),
            s.split_depth,
            s.subproblems,
            s.shards,
        )
    };
    let describe = |s: &ShardResult| {
        format!(
            "N = {} by {}, split depth {}, {} shards",
            s.n,
            nqueens::words::shorten(&s.method),
            s.split_depth,
            s.shards
        )
    };
    if key(&other.shard) == key(first) {
        return Ok(());
    }
    Err(refuse(
        other.file,
        format!(
            "foreign shard: {}; {} has {}",
            describe(&other.shard),
            first_file.shown(),
            describe(first)
        ),
    ))
}

/// What the missing shards should take, from the core-seconds the given ones took
/// (shards of one count are of about equal work). Empty when the files do not say (written before runs were recorded).
fn still_to_do(given: &BTreeMap<usize, Shard>, missing: usize) -> String {
    let core_seconds: Vec<f64> = given
        .values()
        .map(|shard| shard.core_seconds)
        .filter(|&s| s > 0.0)
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
    shards: &BTreeMap<usize, Shard>,
    provenance: Provenance,
) -> Result<(), Failure> {
    let seconds: f64 = shards.values().map(|shard| shard.seconds).sum();
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
