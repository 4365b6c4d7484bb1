//! `nqueens man` and `nqueens completions`: the manual pages (roff) and the shell
//! completion scripts, from the argument surface itself.

use crate::app::args::{Args, ManArgs};
use crate::app::escape::ShowPath;
use crate::app::failure::Failure;
use crate::app::output::{check_writable, write_atomically};
use crate::app::system::print_bytes;
use clap::CommandFactory;

/// Writes the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell, version: &'static str) -> Result<(), Failure> {
    let mut command = Args::command().version(version);
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "nqueens", &mut script);
    print_bytes(&script)
}

/// Every page ends with this section: what the exit status means, the same for every
/// command.
const EXIT_STATUS: &str = ".SH \"EXIT STATUS\"
.TP
0
success
.TP
1
a check failed: a count that differs from the published values, two results of one shard
that disagree, a placement that is not a solution, or output that could not be written
after the work (stdout full or closed; a result file that could not be written is then
printed on stdout)
.TP
2
refused before any work, or input refused: bad arguments, a file that is damaged, edited,
missing, foreign, in use or cannot be written, or too little memory
.TP
128 + N
stopped by signal N (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP), after saving what
could be saved
";

/// `nqueens man`: the page of nqueens or of one command on stdout, or every page in a
/// folder.
pub fn run(args: &ManArgs) -> Result<(), Failure> {
    // The pages name the release; which kernels this CPU runs is for `--version`.
    let version = crate::app::system::VERSION;
    let mut root = Args::command()
        .version(version)
        .disable_help_subcommand(true);
    root.build();
    let page = |cmd: clap::Command| -> Result<Vec<u8>, Failure> {
        let mut page = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut page)?;
        page.extend_from_slice(EXIT_STATUS.as_bytes());
        Ok(page)
    };
    // A page's header names the version; clap gives it to the top command only.
    let commands: Vec<clap::Command> = root
        .get_subcommands()
        .map(|cmd| cmd.clone().version(version))
        .collect();
    if let Some(dir) = &args.dir {
        if !dir.is_dir() {
            return Err(Failure::refused(format!(
                "{} is not a folder: --dir takes the folder to write the pages into",
                dir.shown()
            )));
        }
        let mut written = vec![("nqueens.1".to_string(), page(root.clone())?)];
        for cmd in commands {
            written.push((format!("nqueens-{}.1", cmd.get_name()), page(cmd)?));
        }
        // Every page is checked before the first is written: an existing page is kept
        // unless --force, and a folder that cannot be written is refused up front.
        for (name, _) in &written {
            check_writable(&dir.join(name), args.force)?;
        }
        for (name, text) in &written {
            let path = dir.join(name);
            let text = String::from_utf8_lossy(text);
            write_atomically(&path, &text, args.force)
                .map_err(|e| Failure::failed(format!("cannot write {}: {e}", path.shown())))?;
        }
        return print_bytes(
            format!("wrote {} pages to {}\n", written.len(), dir.shown()).as_bytes(),
        );
    }
    match &args.command {
        None => print_bytes(&page(root)?),
        Some(name) => match commands.into_iter().find(|c| c.get_name() == name) {
            Some(cmd) => print_bytes(&page(cmd)?),
            None => Err(Failure::refused(format!(
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
