//! The command-line application: argument surface ([`cli`]), validation of board ranges
//! ([`range`]), the progress bar ([`progress`]) and the `count` command ([`count`]).

mod bench;
mod check;
mod cli;
mod count;
mod find;
mod longrun;
mod machine;
mod merge;
#[cfg(feature = "mpi")]
mod mpi_run;
mod output;
mod parse;
mod progress;
mod render;
mod solve;
mod trace;
mod trace_view;
mod verify;

use clap::{CommandFactory, FromArgMatches};
use std::io::{self, Write};
use std::process::ExitCode;

/// A failure that ends the program with a message and an exit status.
pub struct Failure {
    message: String,
    status: u8,
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

    /// A usage error: bad input, exit status 2.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: 2,
        }
    }
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Failure {
        Failure {
            message: format!("write failed: {err}"),
            status: 1,
        }
    }
}

/// Runs the command line and returns the exit status.
pub fn run() -> ExitCode {
    // `--version` also names the kernels this CPU would use.
    let kernels: Vec<&str> = nqueens::cpu::Kernel::available()
        .iter()
        .rev()
        .map(|k| k.name())
        .collect();
    let version: &'static str = Box::leak(
        format!(
            "{} (kernels on this CPU, fastest first: {})",
            env!("CARGO_PKG_VERSION"),
            kernels.join(", ")
        )
        .into_boxed_str(),
    );
    let matches = match cli::Args::command().version(version).try_get_matches() {
        Ok(matches) => matches,
        Err(err) => return refuse_arguments(err),
    };
    let args = match cli::Args::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(err) => return refuse_arguments(err),
    };
    let outcome = match args.command {
        cli::Command::Count(ref a) => count::run(a),
        cli::Command::Verify(ref a) => verify::run(a),
        cli::Command::Bench(ref a) => bench::run(a),
        cli::Command::Solve(ref a) => solve::run(a),
        cli::Command::Find(ref a) => find::run(a),
        cli::Command::Check(ref a) => check::run(a),
        cli::Command::Trace(ref a) => trace::run(a),
        cli::Command::Merge(ref a) => merge::run(a),
        cli::Command::Completions(ref a) => completions(a.shell, version),
        cli::Command::Man => manual(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let _ = writeln!(io::stderr(), "nqueens: {}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

/// Writes the completion script for `shell` to stdout.
fn completions(shell: clap_complete::Shell, version: &'static str) -> Result<(), Failure> {
    let mut command = cli::Args::command().version(version);
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "nqueens", &mut script);
    print_bytes(&script)
}

/// Writes the manual page (roff) to stdout.
fn manual() -> Result<(), Failure> {
    let mut page = Vec::new();
    clap_mangen::Man::new(cli::Args::command()).render(&mut page)?;
    print_bytes(&page)
}

fn print_bytes(bytes: &[u8]) -> Result<(), Failure> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}

/// Ends the program on arguments clap could not take. A value our parsers refused is
/// reported in our own words (`nqueens: --threads: thread count 0 is out of range: it
/// must be 1 to 1024`), never echoing a long value; everything else (help, version,
/// unknown flags) as clap writes it.
fn refuse_arguments(err: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if err.kind() != ErrorKind::ValueValidation {
        err.exit();
    }
    let reason = std::error::Error::source(&err).map(|e| e.to_string());
    let arg = match err.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => arg.split(' ').next().unwrap_or_default(),
        _ => "",
    };
    let message = match (reason, arg.starts_with('-')) {
        (Some(reason), true) => format!("{arg}: {reason}"),
        (Some(reason), false) => reason,
        (None, _) => err.kind().to_string(),
    };
    let _ = writeln!(io::stderr(), "nqueens: {message}");
    ExitCode::from(2)
}

/// Writes a line to stdout; a reader that closed the pipe early ends the program quietly,
/// as `head` expects.
pub fn print_line(out: &mut impl Write, line: &str) -> Result<(), Failure> {
    match writeln!(out, "{line}").and_then(|()| out.flush()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}
