//! The command-line application, in layers: the arguments and how they become engine
//! options ([`args`]), one module per subcommand ([`commands`]), and what the commands
//! share: the reports of counts ([`report`]), files written whole ([`output`]), drawings
//! of placements ([`render`]), the progress bar ([`progress`]), signals ([`signals`]), the
//! system's facts and stdout ([`system`]), and the one way a command fails ([`failure`]).

mod args;
mod commands;
mod failure;
mod output;
mod progress;
mod render;
mod report;
mod signals;
mod system;

use args::{Args, Command};
use clap::{CommandFactory, FromArgMatches};
use failure::Failure;
use std::io::{self, Write};
use std::process::ExitCode;
use system::print_bytes;

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
            env!("CARGO_PKG_VERSION"),
            kernels.join(", ")
        )
        .into_boxed_str(),
    );
    let matches = match Args::command().version(version).try_get_matches() {
        Ok(matches) => matches,
        Err(err) => return refuse_arguments(err),
    };
    let args = match Args::from_arg_matches(&matches) {
        Ok(args) => args,
        Err(err) => return refuse_arguments(err),
    };
    let outcome = match args.command {
        Command::Count(ref a) => commands::count::run(a),
        Command::Verify(ref a) => commands::verify::run(a),
        Command::Bench(ref a) => commands::bench::run(a),
        Command::Solve(ref a) => commands::solve::run(a),
        Command::Find(ref a) => commands::find::run(a),
        Command::Check(ref a) => commands::check::run(a),
        Command::Trace(ref a) => commands::trace::run(a),
        Command::Merge(ref a) => commands::merge::run(a),
        Command::Estimate(ref a) => commands::estimate::run(a),
        Command::Completions(ref a) => completions(a.shell, version),
        Command::Man(ref a) => manual(a),
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
    let mut command = Args::command().version(version);
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "nqueens", &mut script);
    print_bytes(&script)
}

/// Writes the manual page (roff) to stdout.
/// Every page ends with this section: what the exit status means, the same for every
/// command.
const EXIT_STATUS: &str = ".SH \"EXIT STATUS\"
.TP
0
success
.TP
1
a check failed: a count that differs from the published values, a placement that is not a
solution, or a file that could not be written after the work (the result is printed on
stdout)
.TP
2
refused before any work: bad input, a file that cannot be written or is in use, too little
memory, or a damaged or edited file
.TP
128 + N
stopped by signal N (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), after saving what
could be saved
";

/// `nqueens man`: the page of nqueens or of one command on stdout, or every page in a
/// folder.
fn manual(args: &args::ManArgs) -> Result<(), Failure> {
    let mut root = Args::command().disable_help_subcommand(true);
    root.build();
    let page = |cmd: clap::Command| -> Result<Vec<u8>, Failure> {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut page)?;
        page.extend_from_slice(EXIT_STATUS.as_bytes());
        Ok(page)
    };
    let commands: Vec<clap::Command> = root.get_subcommands().cloned().collect();
    if let Some(dir) = &args.dir {
        if !dir.is_dir() {
            return Err(Failure::usage(format!(
                "{} is not a folder: --dir takes the folder to write the pages into",
                dir.display()
            )));
        }
        let mut written = vec![("nqueens.1".to_string(), page(root.clone())?)];
        for cmd in commands {
            written.push((format!("nqueens-{}.1", cmd.get_name()), page(cmd)?));
        }
        for (name, text) in &written {
            let path = dir.join(name);
            std::fs::write(&path, text)
                .map_err(|e| Failure::failed(format!("cannot write {}: {e}", path.display())))?;
        }
        return print_bytes(
            format!("wrote {} pages to {}\n", written.len(), dir.display()).as_bytes(),
        );
    }
    match &args.command {
        None => print_bytes(&page(root)?),
        Some(name) => match commands.into_iter().find(|c| c.get_name() == name) {
            Some(cmd) => print_bytes(&page(cmd)?),
            None => Err(Failure::usage(format!(
                "there is no command '{}': the commands are {}",
                nqueens::words::shorten(name),
                root.get_subcommands()
                    .map(|c| c.get_name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        },
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
