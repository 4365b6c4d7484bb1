//! The argument surface, declared with clap's derive API.

pub mod choices;
pub mod engine;
pub mod parse;

use choices::{FindMethod, KernelArg, MethodArg};

use crate::app::render::Format;
use clap::{Args as ClapArgs, Parser, Subcommand};
use parse::BoardRange;
use std::path::PathBuf;

/// The exit status, the same for every command (`--help` and every manual page say it).
pub const EXIT_STATUS: &str = "Exit status: 0 success (output whose reader closed the \
pipe early, as `| head` does, ends quietly with 0); 1 a check failed (a count or \
placement that is wrong, two results that disagree, output that could not be written, a \
full device say); 2 refused before any work or input refused (bad, damaged, edited, \
missing, foreign, unwritable; too little memory; standard output closed); 128+N stopped \
by signal N (130 Ctrl-C, 143 SIGTERM, 129 SIGHUP).";

/// Counts the solutions of the N-Queens problem: place N queens on an N x N board so that
/// none attacks another.
#[derive(Parser, Debug)]
#[command(name = "nqueens", version, about, long_about = None, after_help = EXIT_STATUS)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count all solutions (OEIS A000170), those up to symmetry (A002562) and the orbit
    /// split, for one board size or an inclusive range such as 8..12.
    Count(CountArgs),
    /// Compute each N and compare total, unique and the orbit split with the published
    /// values (OEIS A000170, A002562); exit status 1 on any mismatch.
    Verify(VerifyArgs),
    /// Benchmark this machine on a fixed workload (or, with --ladder, compare the classic
    /// algorithms with the engine).
    Bench(BenchArgs),
    /// List every solution in lexicographic order (rows and columns 0-based), as lists,
    /// boards, JSON Lines or an SVG picture.
    Solve(SolveArgs),
    /// Find one solution for a board of any size (explicit construction by default).
    Find(FindArgs),
    /// Check placements (arguments, --file, or standard input; list or JSON format): is
    /// each a solution, and if not, which queens attack first. Exit 1 if any is not.
    Check(CheckArgs),
    /// Watch the backtracking search step by step in the terminal (queens one per column
    /// from the left, rows counted from the bottom).
    Trace(TraceArgs),
    /// Combine shard results into the count, after checking that every shard is there
    /// once, for the same N and split, and undamaged.
    Merge(MergeArgs),
    /// Count a random sample of a shard result's sub-problems again, with another kernel
    /// than the runs that wrote it, and compare each count: a check of another site's
    /// work without redoing it. Exit 1 naming any sub-problem that differs.
    Recount(RecountArgs),
    /// Project what a count will cost before running it: method, sub-problems, time on
    /// the threads given (whole and per shard) and memory, from a sample of its own
    /// sub-problems.
    Estimate(EstimateArgs),
    /// Print a completion script for a shell (see the README for where to put it).
    Completions(CompletionsArgs),
    /// Print the manual page (roff), e.g. `nqueens man > nqueens.1`; `nqueens man count`
    /// prints the page of one command, `--dir DIR` writes every page there.
    Man(ManArgs),
}

#[derive(ClapArgs, Debug)]
pub struct ManArgs {
    /// The command whose page to print (count, verify, bench, solve, find, check, trace,
    /// merge, estimate, completions, man); none prints the page of nqueens itself.
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub command: Option<String>,

    /// Write every page (nqueens.1 and nqueens-COMMAND.1 for each command) into DIR.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,

    /// With --dir: replace pages that are already there.
    #[arg(long, requires = "dir")]
    pub force: bool,
}

#[derive(ClapArgs, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(ClapArgs, Debug)]
pub struct CountArgs {
    /// Board size N (1 to 32), or an inclusive range A..B.
    #[arg(value_name = "N|A..B", value_parser = BoardRange::parse, allow_negative_numbers = true)]
    pub range: BoardRange,

    #[command(flatten)]
    pub engine: engine::EngineArgs,

    /// Backtracking: free rows filled in per border key before the sub-problems start
    /// [default: 0 below N = 10, else 1]; giving one makes auto choose backtracking.
    #[arg(long, value_name = "D", value_parser = parse::split_depth, allow_negative_numbers = true)]
    pub split_depth: Option<usize>,

    /// Print one JSON object per board size and line instead of a table (with --shard,
    /// one for the shard: its file, sub-problems, contribution and digest).
    #[arg(long)]
    pub json: bool,

    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,

    /// Record finished sub-problems in FILE as the count goes; if FILE exists, resume
    /// from it. Ctrl-C or SIGTERM stop cleanly, saving it (exit 130 or 143).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// How often to write the checkpoint, e.g. 60s, 5m, 500ms.
    #[arg(long, value_name = "DURATION", default_value = "60s", value_parser = parse::interval, requires = "checkpoint")]
    pub checkpoint_every: std::time::Duration,

    /// Run only shard I of K (1-based), e.g. 3/8, or `slurm` to take I and K from a
    /// Slurm job array; the result goes to --output for `nqueens merge`.
    #[arg(long, value_name = "I/K|slurm")]
    pub shard: Option<String>,

    /// With --shard: the file for the shard's result (JSON).
    #[arg(long, short = 'o', value_name = "FILE", requires = "shard")]
    pub output: Option<PathBuf>,

    /// Overwrite an existing --output file.
    #[arg(long, requires = "output")]
    pub force: bool,

    /// Spread the count over MPI ranks (run under mpirun; needs the `mpi` feature). Rank 0
    /// hands out the work and alone keeps --checkpoint and --output, so a job that was
    /// stopped resumes with any number of ranks.
    #[arg(long)]
    pub mpi: bool,
}

#[derive(ClapArgs, Debug)]
pub struct RecountArgs {
    /// A shard result written by `nqueens count N --shard I/K --output FILE`, or a
    /// checkpoint (its finished sub-problems are sampled).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// The share of its sub-problems to count again, in percent (at least one is).
    #[arg(long, value_name = "PERCENT", default_value = "1%", value_parser = parse::percent)]
    pub sample: f64,

    /// Which sub-problems the sample takes [default: drawn anew each run; the report
    /// names the seed].
    #[arg(long, value_parser = parse::seed)]
    pub seed: Option<u64>,

    /// Kernel level: auto takes one this CPU runs that none of the file's runs used,
    /// when there is one.
    #[arg(long, value_enum, default_value = "auto")]
    pub kernel: KernelArg,

    /// Worker threads [default: RAYON_NUM_THREADS, else every CPU this process may use].
    #[arg(long, short = 't', value_name = "T", value_parser = parse::threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// Print one JSON object instead of words.
    #[arg(long)]
    pub json: bool,

    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(ClapArgs, Debug)]
pub struct MergeArgs {
    /// Shard result files written by `nqueens count N --shard I/K --output FILE`; a
    /// folder stands for every `*.json` file in it.
    #[arg(value_name = "FILES", required_unless_present = "files_from")]
    pub files: Vec<PathBuf>,

    /// Also merge the files listed in LIST, one path a line (`-`: standard input), for
    /// campaigns of more shards than a command line holds: `find results -name
    /// 'n27-*.json' | nqueens merge --files-from -`.
    #[arg(long, value_name = "LIST")]
    pub files_from: Option<PathBuf>,

    /// Worker threads for the final symmetric searches.
    #[arg(long, short = 't', value_name = "T", value_parser = parse::threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// Print one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(ClapArgs, Debug)]
pub struct VerifyArgs {
    /// Board sizes to verify: N or an inclusive range A..B.
    #[arg(value_name = "N|A..B", default_value = "1..15", value_parser = BoardRange::parse, allow_negative_numbers = true)]
    pub range: BoardRange,

    #[command(flatten)]
    pub engine: engine::EngineArgs,

    /// Run the quick built-in check of the engine instead (small N at several thread
    /// counts and split depths, the symmetry group, the table's identities).
    #[arg(long, conflicts_with_all = ["range", "json", "cross_check", "method"])]
    pub self_test: bool,

    /// Count each N by every method that takes it and report each; any disagreement
    /// fails (exit 1).
    #[arg(long, conflicts_with = "method")]
    pub cross_check: bool,

    /// Print one JSON object per board size and line, with a `verdict` field.
    #[arg(long)]
    pub json: bool,

    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(ClapArgs, Debug)]
pub struct BenchArgs {
    /// Board size of the workload (with --ladder, N or a range A..B).
    #[arg(long = "n", value_name = "N", value_parser = BoardRange::parse, allow_negative_numbers = true)]
    pub n: Option<BoardRange>,

    /// Thread counts to run, e.g. 1,2,8 [default: 1, 2, 4, ... and every available CPU].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse::threads, allow_negative_numbers = true)]
    pub threads_list: Option<Vec<usize>>,

    /// Timed runs per thread count (the median is quoted, with min and max).
    #[arg(long, default_value_t = 3, value_parser = parse::runs, allow_negative_numbers = true)]
    pub runs: u32,

    /// Untimed warm-up runs per thread count.
    #[arg(long, default_value_t = 1, value_parser = parse::warmups, allow_negative_numbers = true)]
    pub warmup: u32,

    /// Print the full results as one JSON object.
    #[arg(long, conflicts_with = "markdown")]
    pub json: bool,

    /// Print the results as a Markdown table.
    #[arg(long)]
    pub markdown: bool,

    /// Compare with a saved `--json` result: the ratio of each figure.
    #[arg(long, value_name = "OLD.json")]
    pub compare: Option<std::path::PathBuf>,

    /// Run the algorithm ladder: five classic counters and the engine, side by side.
    #[arg(long, conflicts_with_all = ["threads_list", "compare", "runs", "warmup"])]
    pub ladder: bool,

    /// With --ladder: skip a rung whose projected time passes this many seconds.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        value_parser = parse::budget_seconds,
        allow_negative_numbers = true,
        requires = "ladder"
    )]
    pub budget: f64,

    /// Counting method of the workload: mirror (the classic counter, frozen) by default,
    /// so that scores stay comparable across versions; another method times the engine.
    #[arg(long, value_enum, default_value = "mirror", conflicts_with = "ladder")]
    pub method: MethodArg,

    /// Kernel level: auto takes the fastest this CPU runs; one it lacks is refused.
    #[arg(long, value_enum, default_value = "auto", conflicts_with = "ladder")]
    pub kernel: KernelArg,

    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(ClapArgs, Debug)]
pub struct EstimateArgs {
    /// Board size N (1 to 32).
    #[arg(value_name = "N", value_parser = parse::board_size, allow_negative_numbers = true)]
    pub n: usize,

    /// The count's engine; the sample runs on its threads.
    #[command(flatten)]
    pub engine: engine::EngineArgs,

    /// Shards the count would be cut into (as with `count --shard I/K`): one shard's
    /// time and memory are given too.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = parse::positive, allow_negative_numbers = true)]
    pub shards: u64,

    /// Seconds to spend on the sample (more gives a steadier figure) [default: 4, or 60
    /// where a sub-problem takes seconds: the join from N = 25; the estimate says which].
    #[arg(long, value_name = "SECONDS", value_parser = parse::budget_seconds, allow_negative_numbers = true)]
    pub seconds: Option<f64>,

    /// Print one JSON object instead of words.
    #[arg(long)]
    pub json: bool,

    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(ClapArgs, Debug)]
pub struct SolveArgs {
    /// Board size N (1 to 32).
    #[arg(value_name = "N", value_parser = parse::board_size, allow_negative_numbers = true)]
    pub n: usize,

    /// Stop after K solutions.
    #[arg(long, value_name = "K", value_parser = parse::positive, allow_negative_numbers = true)]
    pub limit: Option<u64>,

    /// List one representative per orbit (the lexicographically smallest of its eight
    /// images) with the orbit's size.
    #[arg(long)]
    pub unique: bool,

    /// Add how many queens the search had placed when it found each solution (a measure
    /// of the search's work; `trace` counts steps, a different thing).
    #[arg(long)]
    pub placed: bool,

    /// Worker threads [default: RAYON_NUM_THREADS, else every CPU this process may use];
    /// the listing is the same on any number.
    #[arg(long, short = 't', value_name = "T", value_parser = parse::threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    #[command(flatten)]
    pub out: OutputArgs,

    /// List everything even for N above 16, and overwrite an existing --output file.
    #[arg(long)]
    pub force: bool,

    /// Show no progress bar (one is drawn on stderr, after a second, only while the
    /// listing goes to a file).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(ClapArgs, Debug)]
pub struct FindArgs {
    /// Board size N (1 to 100,000,000).
    #[arg(value_name = "N", value_parser = parse::large_board_size, allow_negative_numbers = true)]
    pub n: usize,

    /// How to search.
    #[arg(long, value_enum, default_value_t = FindMethod::Explicit)]
    pub method: FindMethod,

    /// Random seed for min-conflicts and random-restart [default: 1].
    #[arg(long, value_parser = parse::seed, allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// With min-conflicts or random-restart: give up (exit 1) after this many steps (queen
    /// moves or placements) [default: 50,000,000].
    #[arg(long, value_name = "K", value_parser = parse::positive, allow_negative_numbers = true)]
    pub max_steps: Option<u64>,

    #[command(flatten)]
    pub out: OutputArgs,

    /// Overwrite an existing --output file.
    #[arg(long)]
    pub force: bool,

    /// Show no progress bar (min-conflicts draws one on stderr, after a second, over the
    /// queens of its start).
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(ClapArgs, Debug)]
pub struct CheckArgs {
    /// Placements to check, each as columns by row (0-based), e.g. "1 3 0 2" or 1,3,0,2.
    #[arg(value_name = "PLACEMENT")]
    pub placements: Vec<String>,

    /// Read placements from FILE, one per line (list or JSON Lines).
    #[arg(long, value_name = "FILE", conflicts_with = "placements")]
    pub file: Option<PathBuf>,

    /// List every attacking pair of a placement, not only the first: their number, then
    /// each as it is found (none held, so a board of any size is listed).
    #[arg(long)]
    pub all: bool,

    /// Require every placement to be for an N x N board.
    #[arg(long, value_name = "N", value_parser = parse::large_board_size, allow_negative_numbers = true)]
    pub n: Option<usize>,

    /// Print one JSON object a placement (JSON Lines) instead of words: "source",
    /// "solution", "n", and "faults" (each with its "text") or "unreadable".
    #[arg(long)]
    pub json: bool,
}

/// Where and how `solve` and `find` write placements.
#[derive(ClapArgs, Debug)]
pub struct OutputArgs {
    /// Output format. In `list` and `json`, rows and columns are 0-based: the list
    /// `1 3 0 2` puts row 0's queen in column 1. Boards are drawn up to N = 64.
    #[arg(long = "format", id = "format", value_name = "FORMAT", value_enum, default_value_t = Format::List)]
    pub given_format: Format,

    /// Print JSON Lines, as `--format json` does.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,

    /// Write to FILE instead of standard output (required for svg).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
}

impl OutputArgs {
    /// The format asked for, by `--format` or `--json`.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else {
            self.given_format
        }
    }
}

#[derive(ClapArgs, Debug)]
#[command(group(clap::ArgGroup::new("text").args(["plain", "json"]).multiple(true)))]
pub struct TraceArgs {
    /// Board size N (1 to 32; up to about 20 fits a normal terminal).
    #[arg(value_name = "N", value_parser = parse::board_size, allow_negative_numbers = true)]
    pub n: usize,

    /// Starting speed in steps per second.
    #[arg(long, default_value_t = 10.0, value_parser = parse::speed, allow_negative_numbers = true)]
    pub speed: f64,

    /// Start running instead of halted.
    #[arg(long)]
    pub start_running: bool,

    /// Print text instead of the terminal UI (for scripts and pipes).
    #[arg(long)]
    pub plain: bool,

    /// With --plain or --json: the number of steps to print (or, with --solutions-only,
    /// to run).
    #[arg(long, value_name = "K", requires = "text", value_parser = parse::positive, allow_negative_numbers = true)]
    pub steps: Option<u64>,

    /// With --plain or --json: one line per solution found, `solution K step S: r0 r1
    /// ...` (the row of the queen in each column), and nothing else.
    #[arg(long, requires = "text")]
    pub solutions_only: bool,

    /// As --plain, one JSON object a step (JSON Lines): "step", "action" (placed,
    /// rejected, backtracked, solution, finished) with its squares, "queens" (the row of
    /// each column's queen) and "text"; with --solutions-only, "solution", "step" and
    /// "queens" a solution.
    #[arg(long)]
    pub json: bool,
}
