//! Where results go: stdout, or files written whole or not at all.
//!
//! Every file a command will write is checked before its work starts
//! ([`check_writable`]). Files are written to a temporary file beside the target (a name
//! unique to the process) and renamed over it once complete and synced, so a failed or
//! interrupted write leaves the old file or none, never half of one, and removes its
//! temporary file.

use super::failure::Failure;
use super::system::quiet_on_broken_pipe;
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Refuses, before any work, a path the run could not write: a folder, an existing file
/// without `force`, a file in a folder that does not exist or that it may not write in
/// (tried by creating a temporary file there).
pub fn check_writable(path: &Path, force: bool) -> Result<(), Failure> {
    claim_temp(path, force).map(drop)
}

/// [`check_writable`]'s checks, returning the temporary file that proved the folder
/// writable.
fn claim_temp(path: &Path, force: bool) -> Result<NamedTempFile, Failure> {
    if path.is_dir() {
        return Err(Failure::usage(format!(
            "{} is a folder; give a file name",
            path.display()
        )));
    }
    if path.exists() && !force {
        return Err(Failure::usage(format!(
            "{} exists; add --force to overwrite it",
            path.display()
        )));
    }
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Err(Failure::usage(format!(
            "cannot write {}: the folder {} does not exist",
            path.display(),
            folder.display()
        )));
    }
    temp_beside(path).map_err(|e| {
        Failure::usage(format!(
            "cannot write {}: the folder {} is not writable ({e})",
            path.display(),
            folder.display()
        ))
    })
}

/// Writes `text` to `path` whole (temporary file, sync, rename), or leaves it as it was.
pub fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let mut temp = temp_beside(path)?;
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A temporary file in `path`'s folder, named after it and unique to this process; it is
/// removed when dropped unless persisted.
fn temp_beside(path: &Path) -> io::Result<NamedTempFile> {
    let (prefix, suffix) = temp_name_parts(path);
    tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(suffix)
        .tempfile_in(folder_of(path))
}

/// Temporary files for `path` are named `.NAME.XXXXXX.tmp`.
fn temp_name_parts(path: &Path) -> (String, &'static str) {
    let name = path.file_name().map_or_else(
        || "nqueens".into(),
        |name| name.to_string_lossy().into_owned(),
    );
    (format!(".{name}."), ".tmp")
}

/// Removes the temporary files a killed run left beside `path` (a process killed during
/// a write cannot clean up). Call only while holding the lock on `path`, so that no live
/// run is writing one.
pub fn remove_stale_temps(path: &Path) {
    let (prefix, suffix) = temp_name_parts(path);
    let Ok(entries) = fs::read_dir(folder_of(path)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(suffix) {
            remove_quietly(&entry.path());
        }
    }
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A listing's destination: stdout, or a file that appears only when complete.
pub enum Output {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    File {
        temp: BufWriter<NamedTempFile>,
        path: PathBuf,
        force: bool,
    },
}

impl Output {
    /// Stdout, or a new file at `path` (checked now: an existing one needs `force`).
    pub fn open(path: Option<&Path>, force: bool) -> Result<Output, Failure> {
        let Some(path) = path else {
            return Ok(Output::Stdout(BufWriter::new(io::stdout().lock())));
        };
        let temp = claim_temp(path, force)?;
        Ok(Output::File {
            temp: BufWriter::new(temp),
            path: path.to_path_buf(),
            force,
        })
    }

    /// Writes one chunk; a reader that closed the pipe ends the program quietly.
    pub fn write(&mut self, text: &str) -> Result<(), Failure> {
        match self {
            Output::Stdout(out) => quiet_on_broken_pipe(out.write_all(text.as_bytes())),
            Output::File { temp, path, .. } => temp
                .write_all(text.as_bytes())
                .map_err(|e| write_failure(path, &e)),
        }
    }

    /// Flushes stdout, or syncs the file and moves it into place.
    pub fn finish(self) -> Result<(), Failure> {
        match self {
            Output::Stdout(mut out) => quiet_on_broken_pipe(out.flush()),
            Output::File { temp, path, force } => {
                let fail = |e: &io::Error| write_failure(&path, e);
                let temp = temp.into_inner().map_err(|e| fail(e.error()))?;
                temp.as_file().sync_all().map_err(|e| fail(&e))?;
                // Without --force, a file that appeared while we worked is not replaced.
                let placed = if force {
                    temp.persist(&path)
                } else {
                    temp.persist_noclobber(&path)
                };
                placed.map(drop).map_err(|e| fail(&e.error))
            }
        }
    }
}

fn write_failure(path: &Path, e: &io::Error) -> Failure {
    Failure::failed(format!(
        "cannot write {}: {e}; nothing was written there",
        path.display()
    ))
}

/// Removes a file if it is there (cleaning up after ourselves; a failure only leaves it).
pub fn remove_quietly(path: &Path) {
    let _ = fs::remove_file(path);
}
