//! The engine's options, built here alone from the flags and the environment: the thread
//! count (`--threads`, else `RAYON_NUM_THREADS`, else every CPU this process may use) and
//! the memory budget (what this process can still take: free memory, cgroup and
//! `ulimit -v`). The library reads neither; it is handed both.
//!
//! The library's errors are worded here with the flags that would fix them.

use super::choices::{KernelArg, MethodArg};
use super::parse;
use crate::app::failure::Failure;
use crate::app::system::{available_cpus, memory_available};
use clap::Args as ClapArgs;
use nqueens::methods::{MethodChoice, auto_method};
use nqueens::{Error, Options};

/// The environment variable for the default thread count (rayon's own name, so scripts
/// written for rayon programs keep working).
pub const THREADS_VAR: &str = "RAYON_NUM_THREADS";

/// The engine's flags, the same for `count`, `verify` and `estimate`.
#[derive(ClapArgs, Debug)]
pub struct EngineArgs {
    /// Worker threads [default: RAYON_NUM_THREADS, else every CPU this process may use].
    #[arg(long, short = 't', value_name = "T", value_parser = parse::threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// Counting method: auto picks the faster one for each N.
    #[arg(long, value_enum, default_value = "auto")]
    pub method: MethodArg,

    /// Kernel level: auto takes the fastest this CPU runs; one it lacks is refused.
    #[arg(long, value_enum, default_value = "auto")]
    pub kernel: KernelArg,
}

/// The engine flags of a command.
pub struct EngineFlags {
    pub threads: Option<usize>,
    pub split_depth: Option<usize>,
    pub method: MethodArg,
    pub kernel: KernelArg,
}

impl EngineFlags {
    /// The flags a command took (`split_depth` only `count` takes).
    pub fn from_args(args: &EngineArgs, split_depth: Option<usize>) -> EngineFlags {
        EngineFlags {
            threads: args.threads,
            split_depth,
            method: args.method,
            kernel: args.kernel,
        }
    }

    /// The options: flags first, then the environment.
    pub fn options(&self) -> Result<Options, Failure> {
        Ok(Options {
            threads: Some(match self.threads {
                Some(threads) => threads,
                None => default_threads()?,
            }),
            split_depth: self.split_depth,
            method: self.method.choice(),
            kernel: self.kernel.choice(),
            memory_budget: memory_available(),
        })
    }

    /// The options for one part of a count split across runs (a checkpoint, a shard, an
    /// MPI rank) of board `n`: `auto` is resolved by `n` alone, not by this machine's
    /// memory, so every part of the count picks the same method and the same sub-problem
    /// ids. A part that cannot hold that method's tables is refused ([`worded`] says so).
    pub fn options_for_part(&self, n: usize) -> Result<Options, Failure> {
        let mut options = self.options()?;
        if options.method == MethodChoice::Auto && options.split_depth.is_none() {
            options.method = MethodChoice::Only(auto_method(n, None, 0));
        }
        Ok(options)
    }
}

/// `RAYON_NUM_THREADS` if set (checked like `--threads`), else every CPU this process may
/// use. Set but empty counts as not set, as rayon itself reads it.
pub fn default_threads() -> Result<usize, Failure> {
    match std::env::var(THREADS_VAR) {
        Ok(text) if text.is_empty() => Ok(available_cpus().min(parse::max_threads())),
        Ok(text) => {
            parse::threads(&text).map_err(|e| Failure::refused(format!("{THREADS_VAR}: {e}")))
        }
        Err(std::env::VarError::NotUnicode(text)) => Err(Failure::refused(format!(
            "{THREADS_VAR}: '{}' is not a thread count: it must be 1 to {}",
            nqueens::words::shorten(&text.to_string_lossy()),
            parse::max_threads()
        ))),
        Err(std::env::VarError::NotPresent) => Ok(available_cpus().min(parse::max_threads())),
    }
}

/// A library error as a usage failure, with the flag that would fix it where one would.
pub fn worded(error: Error) -> Failure {
    let hint = match &error {
        Error::Memory {
            budget: Some(_), ..
        } => "; use fewer --threads, or --method backtrack, or a machine with more memory free",
        Error::Memory { budget: None, .. } => "; count it with --method backtrack",
        Error::SplitDepthNotTaken(_) => " (drop --split-depth or use --method backtrack)",
        _ => "",
    };
    Failure::refused(format!("{error}{hint}"))
}
