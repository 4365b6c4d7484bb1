//! Long runs: `count N --checkpoint FILE` (resumable) and `count N --shard I/K` (one piece
//! of a count spread over machines, merged later).

use super::cli::CountArgs;
use super::count::{print_count, print_header};
use super::progress::Bar;
use super::{Failure, print_line};
use nqueens::kernel::Tally;
use nqueens::records::{
    CHECKPOINT_FORMAT, Checkpoint, Checksummed, Record, SHARD_FORMAT, ShardResult, parse, partition,
};
use nqueens::{Engine, Plan, Work};
use nqueens::{Options, Progress};
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const VERSION: &str = env!("CARGO_PKG_VERSION");

pub fn run(args: &CountArgs, options: &Options) -> Result<(), Failure> {
    if args.range.first != args.range.last {
        return Err(Failure::usage(
            "--checkpoint and --shard take one board size, not a range",
        ));
    }
    let n = args.range.first;
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    if shard.is_some() && args.output.is_none() {
        return Err(Failure::usage(
            "--shard needs --output FILE for the shard's result",
        ));
    }
    // Every file the run will write is checked now, not after hours of work.
    for path in [&args.output, &args.checkpoint].into_iter().flatten() {
        check_writable(path)?;
    }
    if let Some(out) = &args.output
        && out.exists()
        && !args.force
    {
        return Err(Failure::usage(format!(
            "{} exists; add --force to overwrite it",
            out.display()
        )));
    }
    let engine = Engine::new(options).map_err(|e| Failure::usage(e.to_string()))?;
    let plan = engine
        .prepare(n)
        .map_err(|e| Failure::usage(e.to_string()))?;
    let layout = Layout::of(&plan, shard);
    let covered: Vec<usize> = match shard {
        Some((i, k)) => partition(&plan, k).swap_remove(i - 1),
        None => (0..plan.len()).collect(),
    };
    let mut done: BTreeMap<usize, Tally> = match &args.checkpoint {
        Some(path) if path.exists() => load_checkpoint(path, &layout)?,
        _ => BTreeMap::new(),
    };
    let resumed = done.len();

    // Ctrl-C and SIGTERM set `stop`; the run ends between sub-problems and saves.
    let stop = Arc::new(AtomicBool::new(false));
    let term = Arc::new(AtomicBool::new(false));
    for (signal, flag) in [
        (signal_hook::consts::SIGINT, &stop),
        (signal_hook::consts::SIGTERM, &stop),
        (signal_hook::consts::SIGTERM, &term),
    ] {
        signal_hook::flag::register(signal, Arc::clone(flag))
            .map_err(|e| Failure::usage(format!("cannot handle signals: {e}")))?;
    }

    let collector = Collector {
        bar: Bar::new(format!("N = {n}"), args.quiet),
        already: resumed as u64,
        fresh: Mutex::new(Vec::new()),
    };
    let started = Instant::now();
    let snapshot = |collector: &Collector, done: &BTreeMap<usize, Tally>| {
        let mut all = done.clone();
        all.extend(
            collector
                .fresh
                .lock()
                .expect("no panics hold it")
                .iter()
                .copied(),
        );
        all
    };
    let finished_run = AtomicBool::new(false);
    let write_failed = Mutex::new(None);
    let results = std::thread::scope(|scope| {
        if let Some(path) = &args.checkpoint {
            let (collector, done, finished_run, write_failed, layout) =
                (&collector, &done, &finished_run, &write_failed, &layout);
            scope.spawn(move || {
                let mut last = Instant::now();
                while !finished_run.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20).min(args.checkpoint_every));
                    if last.elapsed() >= args.checkpoint_every {
                        let all = snapshot(collector, done);
                        if let Err(e) = write_checkpoint(path, layout, &all) {
                            *write_failed.lock().expect("no panics hold it") = Some(e);
                        }
                        last = Instant::now();
                    }
                }
            });
        }
        let skip = |id: usize| done.contains_key(&id);
        let work = Work {
            only: Some(&covered),
            skip: Some(&skip),
            stop: Some(&stop),
        };
        let results = engine.run(&plan, &work, &collector);
        finished_run.store(true, Ordering::Relaxed);
        results
    });
    collector.bar.finish();
    if let Some(e) = write_failed.into_inner().expect("no panics hold it") {
        return Err(e);
    }
    done.extend(results);
    let complete = covered.iter().all(|id| done.contains_key(id));
    if let Some(path) = &args.checkpoint {
        write_checkpoint(path, &layout, &done)?;
    }
    if !complete {
        let status = if term.load(Ordering::Relaxed) {
            143
        } else {
            130
        };
        let saved = match &args.checkpoint {
            Some(_) => "run the same command again to resume",
            None => "nothing was saved (use --checkpoint FILE to keep partial work)",
        };
        let finished = covered.iter().filter(|id| done.contains_key(id)).count();
        return Err(Failure::interrupted(
            format!(
                "interrupted with {finished} of {} sub-problems done; {saved}",
                covered.len()
            ),
            status,
        ));
    }
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    match shard {
        Some((i, k)) => {
            let result = shard_result(&plan, (i, k), &covered, &done, seconds);
            let path = args.output.as_deref().expect("checked above");
            write_atomically(path, &result.to_file_text())?;
            print_line(
                &mut out,
                &format!(
                    "shard {i}/{k} of N = {n}: {} sub-problems, total contribution {}, written to {}",
                    covered.len(),
                    result.total,
                    path.display()
                ),
            )
        }
        None => {
            let tallies: Vec<Option<Tally>> =
                (0..plan.len()).map(|id| done.get(&id).copied()).collect();
            let count = engine
                .finish(&plan, &tallies)
                .map_err(|e| Failure::usage(e.to_string()))?;
            if !args.json {
                print_header(&mut out)?;
            }
            print_count(&mut out, &count, seconds, args.json)
        }
    }
}

/// `I/K` (1 <= I <= K), or `slurm` for the job array's task.
fn parse_shard(spec: &str) -> Result<(usize, usize), Failure> {
    if spec == "slurm" {
        let var = |name: &str| -> Result<usize, Failure> {
            std::env::var(name)
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .ok_or_else(|| Failure::usage(format!("--shard slurm: {name} is not set to a number (run it inside a Slurm job array)")))
        };
        let (id, count, min) = (
            var("SLURM_ARRAY_TASK_ID")?,
            var("SLURM_ARRAY_TASK_COUNT")?,
            var("SLURM_ARRAY_TASK_MIN")?,
        );
        let i = id.checked_sub(min).map(|x| x + 1).filter(|&i| i <= count);
        return i.map(|i| (i, count)).ok_or_else(|| {
            Failure::usage(format!(
                "--shard slurm: task {id} is outside the array (min {min}, count {count})"
            ))
        });
    }
    let parsed = spec
        .split_once('/')
        .and_then(|(i, k)| Some((i.trim().parse().ok()?, k.trim().parse().ok()?)));
    match parsed {
        Some((i, k)) if (1..=k).contains(&i) => Ok((i, k)),
        _ => Err(Failure::usage(format!(
            "--shard '{spec}' is not a shard: write I/K with 1 <= I <= K (e.g. 3/8), or slurm"
        ))),
    }
}

/// What fixes the meaning of sub-problem ids: a checkpoint must match it to be resumed.
struct Layout {
    n: usize,
    method: String,
    depth: usize,
    subproblems: usize,
    shard: Option<(usize, usize)>,
}

impl Layout {
    fn of(plan: &Plan, shard: Option<(usize, usize)>) -> Layout {
        Layout {
            n: plan.n(),
            method: plan.method().name().into(),
            depth: plan.depth(),
            subproblems: plan.len(),
            shard,
        }
    }
}

fn load_checkpoint(path: &Path, layout: &Layout) -> Result<BTreeMap<usize, Tally>, Failure> {
    let Layout {
        n,
        ref method,
        depth,
        subproblems,
        shard,
    } = *layout;
    let refuse = |why: String| {
        Failure::usage(format!(
            "checkpoint {}: {why}; it was left unchanged",
            path.display()
        ))
    };
    let text = fs::read_to_string(path).map_err(|e| refuse(format!("cannot read it ({e})")))?;
    let cp: Checkpoint = parse(&text).map_err(refuse)?;
    if cp.format != CHECKPOINT_FORMAT {
        return Err(refuse(format!("not a checkpoint (format {})", cp.format)));
    }
    if (cp.n, &cp.method, cp.split_depth, cp.subproblems) != (n, method, depth, subproblems) {
        return Err(refuse(format!(
            "it is for N = {} by {} at split depth {}, this run is N = {n} by {method} at \
             split depth {depth}",
            cp.n, cp.method, cp.split_depth
        )));
    }
    if cp.shard != shard {
        return Err(refuse(format!(
            "it is for shard {:?}, this run is {:?}",
            cp.shard, shard
        )));
    }
    if cp.version != VERSION {
        return Err(refuse(format!(
            "written by nqueens {}, this is {VERSION}",
            cp.version
        )));
    }
    let table = nqueens::records::tally_table(subproblems, &cp.done).map_err(refuse)?;
    Ok(table
        .into_iter()
        .enumerate()
        .filter_map(|(id, t)| Some((id, t?)))
        .collect())
}

fn records(done: &BTreeMap<usize, Tally>) -> Vec<Record> {
    done.iter()
        .map(|(&id, t)| (id, t.solutions, t.nodes))
        .collect()
}

fn write_checkpoint(
    path: &Path,
    layout: &Layout,
    done: &BTreeMap<usize, Tally>,
) -> Result<(), Failure> {
    let cp = Checkpoint {
        format: CHECKPOINT_FORMAT.into(),
        version: VERSION.into(),
        n: layout.n,
        method: layout.method.clone(),
        split_depth: layout.depth,
        subproblems: layout.subproblems,
        shard: layout.shard,
        done: records(done),
        checksum: String::new(),
    };
    write_atomically(path, &cp.to_file_text())
}

fn shard_result(
    plan: &Plan,
    (shard, shards): (usize, usize),
    covered: &[usize],
    done: &BTreeMap<usize, Tally>,
    seconds: f64,
) -> ShardResult {
    let mine: BTreeMap<usize, Tally> = covered.iter().map(|&id| (id, done[&id])).collect();
    ShardResult {
        format: SHARD_FORMAT.into(),
        version: VERSION.into(),
        n: plan.n(),
        method: plan.method().name().into(),
        split_depth: plan.depth(),
        subproblems: plan.len(),
        shard,
        shards,
        total: mine
            .iter()
            .map(|(&id, t)| u128::from(plan.weight(id)) * u128::from(t.solutions))
            .sum(),
        nodes: mine.values().map(|t| u128::from(t.nodes)).sum(),
        results: records(&mine),
        seconds,
        host: fs::read_to_string("/proc/sys/kernel/hostname")
            .map_or_else(|_| "unknown".into(), |h| h.trim().to_string()),
        checksum: String::new(),
    }
}

/// Refuses, before any work, a path the run could not write: a folder, one in a folder
/// that does not exist, or one in a folder it may not write in (tried by creating and
/// removing a file there).
fn check_writable(path: &Path) -> Result<(), Failure> {
    if path.is_dir() {
        return Err(Failure::usage(format!(
            "{} is a folder; give a file name",
            path.display()
        )));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(Failure::usage(format!(
            "cannot write {}: the folder {} does not exist",
            path.display(),
            folder.display()
        )));
    }
    let probe = folder.join(format!(".nqueens-probe-{}", std::process::id()));
    fs::File::create(&probe)
        .and_then(|_| fs::remove_file(&probe))
        .map_err(|e| {
            Failure::usage(format!(
                "cannot write {}: the folder {} is not writable ({e})",
                path.display(),
                folder.display()
            ))
        })
}

/// Writes a temporary file beside `path`, syncs it, and renames it over `path`, so a
/// crash leaves either the old file or the new one, never half of one.
fn write_atomically(path: &Path, text: &str) -> Result<(), Failure> {
    let fail = |e: std::io::Error| Failure::failed(format!("cannot write {}: {e}", path.display()));
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(".tmp");
    let tmp = Path::new(&tmp_name);
    let mut file = fs::File::create(tmp).map_err(fail)?;
    file.write_all(text.as_bytes()).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    fs::rename(tmp, path).map_err(fail)
}

/// Progress for long runs: the bar (starting from the work already done) and the
/// finished sub-problems, for the checkpoint writer.
struct Collector {
    bar: Bar,
    already: u64,
    fresh: Mutex<Vec<(usize, Tally)>>,
}

impl Progress for Collector {
    fn begin(&self, subproblems: u64) {
        self.bar.begin(self.already + subproblems);
        self.bar.advance(self.already);
    }

    fn advance(&self, done: u64) {
        self.bar.advance(done);
    }

    fn finished(&self, id: usize, tally: Tally) {
        self.fresh
            .lock()
            .expect("no panics hold it")
            .push((id, tally));
    }
}
