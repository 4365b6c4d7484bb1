//! The argument surface, declared with clap's derive API.

use super::range::BoardRange;
use clap::{Args as ClapArgs, Parser, Subcommand};

/// Counts the solutions of the N-Queens problem: place N queens on an N x N board so that
/// none attacks another.
#[derive(Parser, Debug)]
#[command(name = "nqueens", version, about, long_about = None)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count all solutions (OEIS A000170), those up to symmetry (A002562) and the orbit
    /// split, for one board size or an inclusive range such as 8..12.
    Count(CountArgs),
}

#[derive(ClapArgs, Debug)]
pub struct CountArgs {
    /// Board size N (1 to 32), or an inclusive range A..B.
    #[arg(value_name = "N|A..B", value_parser = BoardRange::parse)]
    pub range: BoardRange,

    /// Worker threads [default: RAYON_NUM_THREADS, else every CPU this process may use].
    #[arg(long, short = 't', value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,

    /// Free rows filled in per border key before the sub-problems start
    /// [default: 0 below N = 10, else 1].
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=nqueens::engine::MAX_SPLIT_DEPTH as i64))]
    pub split_depth: Option<u32>,

    /// Print one JSON object per board size and line instead of a table.
    #[arg(long)]
    pub json: bool,

    /// Show no progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}
