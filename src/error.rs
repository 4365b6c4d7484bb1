//! Why a count could not run, in the library's own terms (the command line words these
//! with its flags).

use crate::board::MAX_N;
use crate::cpu::KernelLevel;
use crate::methods::{MAX_SPLIT_DEPTH, Method};
use crate::schedule::{MAX_THREADS, PoolError};
use crate::words::{human_bytes, plural};
use std::fmt;

/// Why a count could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// `n` outside `1..=MAX_N`.
    BoardSize(usize),
    /// A thread count outside `1..=MAX_THREADS`.
    Threads(usize),
    /// The system would not start the worker threads.
    Spawn(String),
    /// A split depth above [`MAX_SPLIT_DEPTH`].
    SplitDepth(usize),
    /// A split depth with a method that splits by its own pieces instead.
    SplitDepthNotTaken(Method),
    /// Results are missing for this many sub-problems.
    Incomplete(usize),
    /// The sub-problems' results add up to a total with no orbit split: one of them is
    /// wrong (from a bug, or from an edited file).
    Inconsistent {
        /// Board side.
        n: usize,
        /// The total they add up to.
        total: u128,
    },
    /// The kernel level is not one this CPU runs.
    Kernel(KernelLevel),
    /// Another decomposition was asked of a method that counts board `n` one way only.
    NoOtherWay {
        /// Board side.
        n: usize,
        /// The method.
        method: Method,
    },
    /// The half-board join's tables for board `n` need more memory than the budget.
    Memory {
        /// Board side.
        n: usize,
        /// Bytes needed (a lower bound for the largest boards).
        needed: u64,
        /// The budget, in bytes (`None`: past the largest board the join takes).
        budget: Option<u64>,
        /// The workers whose buffers are counted in `needed`.
        workers: usize,
    },
}

impl From<PoolError> for Error {
    fn from(e: PoolError) -> Error {
        match e {
            PoolError::Threads(t) => Error::Threads(t),
            PoolError::Spawn(why) => Error::Spawn(why),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BoardSize(n) => {
                write!(f, "board size {n} is out of range: N must be 1 to {MAX_N}")
            }
            Error::Threads(t) => write!(
                f,
                "thread count {t} is out of range: it must be 1 to {MAX_THREADS}"
            ),
            Error::Spawn(why) => write!(f, "the system refused the worker threads: {why}"),
            Error::SplitDepth(d) => write!(
                f,
                "split depth {d} is out of range: it must be 0 to {MAX_SPLIT_DEPTH}"
            ),
            Error::SplitDepthNotTaken(method) => write!(
                f,
                "a split depth applies to backtracking; the {method} method splits by its own pieces"
            ),
            Error::Incomplete(missing) => write!(
                f,
                "the results of {} are missing",
                plural(*missing as u64, "sub-problem")
            ),
            Error::Inconsistent { n, total } => write!(
                f,
                "the results of N = {n} do not add up: a total of {total} has no whole orbit \
                 split, so a sub-problem's result is wrong"
            ),
            Error::NoOtherWay { n, method } => write!(
                f,
                "N = {n} by {method} is counted one way only: it has no second decomposition"
            ),
            Error::Kernel(kernel) => {
                let here: Vec<&str> = KernelLevel::available().iter().map(|k| k.name()).collect();
                write!(
                    f,
                    "kernel {kernel} is not available on this CPU: it runs {}",
                    here.join(", ")
                )
            }
            Error::Memory {
                n,
                needed,
                budget: Some(budget),
                workers,
            } => write!(
                f,
                "counting N = {n} by halves needs {} of memory (its quadrant table and the \
                 buffers of {}), but {} is available",
                human_bytes(*needed),
                plural(*workers as u64, "worker"),
                human_bytes(*budget)
            ),
            Error::Memory {
                n,
                needed,
                budget: None,
                ..
            } => write!(
                f,
                "counting N = {n} by halves needs at least {} of memory for its quadrant \
                 table; the join takes boards up to N = {}",
                human_bytes(*needed),
                Method::HALVES.boards().end()
            ),
        }
    }
}

impl std::error::Error for Error {}
