//! `nqueens estimate N`: what a count will cost, before it starts (see
//! `nqueens::estimate`).

use crate::app::args::EstimateArgs;
use crate::app::args::engine::{EngineFlags, worded};
use crate::app::commands::count::process_bytes;
use crate::app::failure::{Failure, too_many_shards};
use crate::app::progress::over_seconds;
use crate::app::report::json_seconds;
use crate::app::system::{available_cpus, cpu_name, print_line, say};
use nqueens::Engine;
use nqueens::estimate::Projection;
use nqueens::words::{duration, human_bytes, plural};
use serde::Serialize;

#[derive(Serialize)]
struct JsonEstimate {
    n: usize,
    method: &'static str,
    threads: usize,
    subproblems: usize,
    /// Sub-problems timed, and sized (the join's two-phase sample; as many as timed
    /// where nothing is sized).
    sampled: usize,
    sized: usize,
    /// The CPU the sample ran on, and the kernel.
    cpu: String,
    kernel: &'static str,
    /// The whole count on `threads` threads.
    seconds: f64,
    /// Its 90% interval (`null` where the sample gives none: backtracking's probes, fewer
    /// than five sampled runs).
    seconds_low: Option<f64>,
    seconds_high: Option<f64>,
    /// The whole count's CPU time, in hours of one core like this machine's.
    core_hours: f64,
    /// Bytes one process holds at most.
    memory_bytes: u64,
    shards: u64,
    /// One shard on `threads` threads: its mean, with the threads' wait for a shard's
    /// last sub-problems, and what one shard in twenty exceeds (`null` for a whole count,
    /// for backtracking's shards, whose sub-problems are not timed one by one, and where
    /// a worker takes several sub-problems at a time: a row set's pins at N = 28).
    seconds_per_shard: f64,
    seconds_per_shard_high: Option<f64>,
    /// Bytes one shard's process holds at most.
    memory_bytes_per_shard: u64,
}

/// Sampled sub-problems below which a projection without an interval is called rough.
const FIRM_SAMPLE: usize = 30;

/// The share of the figure beyond which its interval's half-width makes it rough.
const FIRM_SPREAD: f64 = 0.25;

pub fn run(args: &EstimateArgs) -> Result<(), Failure> {
    let flags = EngineFlags::from_args(&args.engine, None);
    // Shards pick their method by N alone, as `count --shard` does.
    let options = if args.shards > 1 {
        flags.options_for_part(args.n)?
    } else {
        flags.options()?
    };
    let engine = Engine::new(&options).map_err(worded)?;
    // A shard's memory is its share's: a board whose whole count would not fit here may
    // still be estimated for shards that do.
    let plan = engine
        .prepare_part(args.n, args.shards as usize)
        .map_err(worded)?;
    if args.shards > plan.most_shards() as u64 {
        let option = format!("--shards {}", args.shards);
        let method = plan.method().name();
        return Err(too_many_shards(&option, args.n, method, plan.len()));
    }
    let shards = args.shards as usize;
    let seconds = args.seconds.unwrap_or_else(|| {
        let seconds = plan.sample_seconds();
        if !args.quiet {
            say(&format!(
                "N = {}: sampling for {seconds} s, the default for its sub-problems \
                 (--seconds to change)",
                args.n
            ));
        }
        seconds
    });
    let bar = over_seconds(format!("N = {}: sampling", args.n), seconds, args.quiet);
    let p = nqueens::estimate::project(&engine, &plan, shards, seconds, available_cpus(), None);
    bar.finish_and_clear();
    let even = p.seconds / args.shards as f64;
    let (per_shard, per_shard_high) = p.shard.map_or((even, None), |s| (s.mean, s.high));
    let figures = Figures {
        memory: process_bytes(&engine, &plan, 1),
        threads: engine.threads(),
        core_hours: p.seconds * engine.threads() as f64 / 3600.0,
        kernel: engine.kernel().name(),
        per_shard,
        per_shard_high,
        shard_memory: process_bytes(&engine, &plan, shards),
        p,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = figures.json(args);
        return print_line(&mut out, &serde_json::to_string(&json).expect("serializes"));
    }
    for line in figures.lines(args) {
        print_line(&mut out, &line)?;
    }
    Ok(())
}

/// What an estimate found, for printing.
struct Figures {
    p: Projection,
    threads: usize,
    core_hours: f64,
    kernel: &'static str,
    /// One shard's seconds, and what one shard in twenty exceeds where that is known.
    per_shard: f64,
    per_shard_high: Option<f64>,
    /// Bytes a process counting it whole holds at most ([`process_bytes`]), and one
    /// counting one shard.
    memory: u64,
    shard_memory: u64,
}

impl Figures {
    fn json(&self, args: &EstimateArgs) -> JsonEstimate {
        let p = &self.p;
        JsonEstimate {
            n: args.n,
            method: p.method.name(),
            threads: self.threads,
            subproblems: p.subproblems,
            sampled: p.sampled,
            sized: p.sized,
            cpu: cpu_name(),
            kernel: self.kernel,
            seconds: json_seconds(p.seconds),
            seconds_low: p.interval.map(|(low, _)| json_seconds(low)),
            seconds_high: p.interval.map(|(_, high)| json_seconds(high)),
            core_hours: json_seconds(self.core_hours),
            memory_bytes: self.memory,
            shards: args.shards,
            seconds_per_shard: json_seconds(self.per_shard),
            seconds_per_shard_high: self.per_shard_high.map(json_seconds),
            memory_bytes_per_shard: self.shard_memory,
        }
    }

    /// The estimate in words, a line each: the plan, the whole count, a warning where
    /// the figure is rough, and the shards.
    fn lines(&self, args: &EstimateArgs) -> Vec<String> {
        let p = &self.p;
        let threads = plural(self.threads as u64, "thread");
        let mut lines = vec![
            format!(
                "N = {} by {}: {} (projected from {} on {}, kernel {})",
                args.n,
                p.method,
                plural(p.subproblems as u64, "sub-problem"),
                sample_text(p.sampled, p.sized),
                cpu_name(),
                self.kernel
            ),
            format!(
                "  the whole count: {}{} on {threads} as fast as this machine's ({} core-hours); \
                 memory at most {} per process",
                duration(p.seconds),
                p.interval.map_or(String::new(), |(low, high)| format!(
                    " (90% interval {} to {})",
                    duration(low),
                    duration(high)
                )),
                nqueens::words::core_hours(self.core_hours),
                human_bytes(self.memory)
            ),
        ];
        if self.rough() {
            lines.push(format!(
                "  a rough figure, from {} timed: a longer --seconds samples more",
                plural(p.sampled as u64, "sub-problem"),
            ));
        }
        if args.shards > 1 {
            lines.push(format!(
                "  in {}: {} each on {threads}{}, about {} and memory at most {} each",
                plural(args.shards, "shard"),
                duration(self.per_shard),
                self.per_shard_high.map_or(String::new(), |high| format!(
                    " (one in twenty over {})",
                    duration(high)
                )),
                plural(p.subproblems as u64 / args.shards, "sub-problem"),
                human_bytes(self.shard_memory)
            ));
        }
        lines
    }

    /// Whether the figure is rough: a sample (not a census) with no interval and few
    /// sub-problems, or whose interval is wide (by a share of the figure, and by more
    /// than a second). A few sub-problems of a board whose sub-problems differ a
    /// hundredfold (one row set of N = 28 took 20 s, another 1,069 s) can be off many
    /// times over.
    fn rough(&self) -> bool {
        let p = &self.p;
        p.sampled < p.subproblems
            && match p.interval {
                Some((low, high)) => {
                    let margin = (high - low) / 2.0;
                    margin > FIRM_SPREAD * p.seconds && margin > 1.0
                }
                None => p.sampled < FIRM_SAMPLE,
            }
    }
}

/// What the projection sampled: "12 timed and 480 sized sub-problems", or "12 sampled
/// sub-problems" where nothing was sized beyond the timed ones.
fn sample_text(timed: usize, sized: usize) -> String {
    if sized > timed {
        format!(
            "{timed} timed and {}",
            plural(sized as u64, "sized sub-problem")
        )
    } else {
        plural(timed as u64, "sampled sub-problem")
    }
}
