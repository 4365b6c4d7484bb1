//! The command-line application, in layers: the arguments and how they become engine
//! options ([`args`]), one module per subcommand ([`commands`]), and what the commands
//! share: the reports of counts ([`report`]), files written whole ([`output`]), drawings
//! of placements ([`render`]), the progress bar ([`progress`]), signals ([`signals`]), the
//! system's facts and stdout ([`system`]), and the one way a command fails ([`failure`]).

mod args;
mod commands;
mod escape;
mod failure;
mod output;
mod progress;
mod projection;
mod reading;
mod render;
mod report;
mod shard_files;
mod signals;
mod system;

use args::{Args, Command};
use clap::{CommandFactory, FromArgMatches};
use failure::Failure;
use std::io::{self, Write};
use std::process::ExitCode;

/// Runs the command line and returns the exit status.
pub fn run() -> ExitCode {
    system::one_libc_arena();
    // `--version` also names the kernels this CPU would use.
    let kernels: Vec<&str> = nqueens::cpu::KernelLevel::available()
        .iter()
        .rev()
        .map(|k| k.name())
        .collect();
    let version: &'static str = Box::leak(
        format!(
            "{} (kernels on this CPU, fastest first: {})",
            system::VERSION,
            kernels.join(", ")
        )
        .into_boxed_str(),
    );
    let command = Args::command()
        .version(version)
        .mut_subcommands(|sub| sub.after_help(args::EXIT_STATUS));
    let matches = match command.try_get_matches() {
        Ok(matches) => matches,
        Err(err) => return refuse_arguments(err),
    };
    let args = match Args::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(err) => return refuse_arguments(err),
    };
    let outcome = match system::stdout_is_closed() {
        // Rust's stdout drops writes to a closed descriptor without an error; every
        // command prints its result there, so none would be seen.
        true => Err(Failure::refused(
            "cannot write to standard output: it is closed (Bad file descriptor); nothing \
             was run",
        )),
        false => signals::watch().and_then(|()| dispatch(&args, version)),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            let _ = writeln!(io::stderr(), "nqueens: {}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

/// Runs the command.
fn dispatch(args: &Args, version: &'static str) -> Result<(), Failure> {
    match args.command {
        Command::Count(ref a) => commands::count::run(a),
        Command::Verify(ref a) => commands::verify::run(a),
        Command::Bench(ref a) => commands::bench::run(a),
        Command::Solve(ref a) => commands::solve::run(a),
        Command::Find(ref a) => commands::find::run(a),
        Command::Check(ref a) => commands::check::run(a),
        Command::Trace(ref a) => commands::trace::run(a),
        Command::Merge(ref a) => commands::merge::run(a),
        Command::Recount(ref a) => commands::recount::run(a),
        Command::Estimate(ref a) => commands::estimate::run(a),
        Command::Completions(ref a) => commands::man::completions(a.shell, version),
        Command::Man(ref a) => commands::man::run(a),
    }
}

/// Prints help or the version as clap renders them: to stdout where asked for (exit 0,
/// or 1 with a message when it cannot be written, a full device say), to stderr where
/// arguments were missing (exit 2).
fn print_help(err: &clap::Error) -> ExitCode {
    let text = err.render().ansi().to_string();
    if !err.use_stderr() {
        let mut out = io::stdout().lock();
        return match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                let _ = writeln!(
                    io::stderr(),
                    "nqueens: cannot write to standard output: {e}"
                );
                ExitCode::from(1)
            }
        };
    }
    let _ = write!(io::stderr(), "{text}");
    ExitCode::from(2)
}

/// Ends the program on arguments clap could not take. A value our parsers refused is
/// reported in our own words (`nqueens: --threads: thread count 0 is out of range: it
/// must be 1 to 1024`), never echoing a long value; help and version as clap writes
/// them; every other refusal (an unknown flag, a missing argument) in clap's words
/// under the voice of every other message, `nqueens: ` where clap says `error: `.
fn refuse_arguments(err: clap::Error) -> ExitCode {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    match err.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => return print_help(&err),
        ErrorKind::ValueValidation => {}
        _ => {
            let text = err.render().to_string();
            let text = match text.strip_prefix("error: ") {
                Some(rest) => format!("nqueens: {rest}"),
                None => text,
            };
            let _ = write!(io::stderr(), "{text}");
            return ExitCode::from(2);
        }
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
