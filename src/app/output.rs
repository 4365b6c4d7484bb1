//! Where listings go: stdout, or a new file given with --output (never overwriting one
//! that exists unless --force is given).

use super::Failure;
use std::fs::OpenOptions;
use std::io::{self, BufWriter, Write};
use std::path::Path;

pub fn open(path: Option<&Path>, force: bool) -> Result<Box<dyn Write>, Failure> {
    match path {
        None => Ok(Box::new(BufWriter::new(io::stdout().lock()))),
        Some(path) => {
            let file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .create_new(!force)
                .open(path)
                .map_err(|e| {
                    let hint = if e.kind() == io::ErrorKind::AlreadyExists {
                        " (it exists; add --force to overwrite it)"
                    } else {
                        ""
                    };
                    Failure::usage(format!("cannot write {}: {e}{hint}", path.display()))
                })?;
            Ok(Box::new(BufWriter::new(file)))
        }
    }
}

/// Writes one chunk; a reader that closed the pipe ends the program quietly.
pub fn write(out: &mut dyn Write, text: &str) -> Result<(), Failure> {
    match out.write_all(text.as_bytes()) {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}

pub fn finish(out: &mut dyn Write) -> Result<(), Failure> {
    match out.flush() {
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        other => Ok(other?),
    }
}
