//! How a command fails: a message and the exit status, in one voice for every command.

use std::io;

/// A failure that ends the program with a message and an exit status.
pub struct Failure {
    pub message: String,
    pub status: u8,
}

impl Failure {
    /// A failed check (a count that differs, a self-test that fails): exit status 1.
    pub fn failed(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: 1,
        }
    }

    /// Stopped by a signal: the shell's status for it (130 for SIGINT, 143 for SIGTERM).
    pub fn interrupted(message: impl Into<String>, status: u8) -> Failure {
        Failure {
            message: message.into(),
            status,
        }
    }

    /// Refused before any work, or input refused (bad, damaged, edited, missing, foreign,
    /// unwritable): exit status 2.
    pub fn refused(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: 2,
        }
    }
}

/// The refusal of `option` (`--shard I/K` or `--shards K`, as written) where K exceeds
/// the most shards a count of N by `method` with `subproblems` splits into (one a
/// sub-problem; one for a board without any).
pub fn too_many_shards(option: &str, n: usize, method: &str, subproblems: usize) -> Failure {
    let (has, allowed) = match subproblems {
        0 => ("no sub-problems".to_string(), "K must be 1".to_string()),
        1 => ("1 sub-problem".to_string(), "K must be 1".to_string()),
        many => (
            nqueens::words::plural(many as u64, "sub-problem"),
            format!("K must be 1 to {many}"),
        ),
    };
    Failure::refused(format!(
        "{option}: N = {n} by {method} has {has}, so {allowed}"
    ))
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Failure {
        Failure {
            message: format!("write failed: {err}"),
            status: 1,
        }
    }
}
