//! Where results go: stdout, or files written whole or not at all.
//!
//! Every file a command will write is checked before its work starts
//! ([`check_writable`]). Files are written to a temporary file beside the target (a name
//! unique to the process) and renamed over it once complete and synced, so a failed or
//! interrupted write leaves the old file or none, never half of one, and removes its
//! temporary file.

use super::failure::Failure;
use super::signals::create_removed_on_signal;
use super::system::quiet_on_broken_pipe;
use crate::app::escape::ShowPath;
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
        return Err(Failure::refused(format!(
            "{} is a folder; give a file name",
            path.shown()
        )));
    }
    // Results replace only regular files: never a device (/dev/null), a pipe, a socket or
    // a symbolic link, which a rename would put a plain file in place of, --force or not.
    if let Ok(meta) = fs::symlink_metadata(path) {
        let kind = meta.file_type();
        if kind.is_symlink() {
            return Err(Failure::refused(format!(
                "{} is a symbolic link; nqueens writes its results only to regular files: \
                 name the file it points to, or another",
                path.shown()
            )));
        }
        if !kind.is_file() {
            return Err(Failure::refused(format!(
                "{} is not a regular file (a device, pipe or socket); nqueens writes its \
                 results only to regular files: name another (or leave out the option to \
                 print to stdout where there is one)",
                path.shown()
            )));
        }
    }
    if path.exists() && !force {
        return Err(Failure::refused(format!(
            "{} exists; add --force to overwrite it",
            path.shown()
        )));
    }
    let folder = folder_of(path);
    if !folder.is_dir() {
        return Err(Failure::refused(format!(
            "cannot write {}: the folder {} does not exist",
            path.shown(),
            folder.shown()
        )));
    }
    temp_beside(path).map_err(|e| {
        Failure::refused(format!(
            "cannot write {}: the folder {} is not writable ({e})",
            path.shown(),
            folder.shown()
        ))
    })
}

/// Writes `text` to `path` whole (temporary file, sync, rename), or leaves it as it was.
/// Without `replace`, a file that appeared at `path` meanwhile is not replaced (an
/// error).
pub fn write_atomically(path: &Path, text: &str, replace: bool) -> io::Result<()> {
    write_atomically_with(path, replace, |file| file.write_all(text.as_bytes()))
}

/// [`write_atomically`] of what `write` writes to the file, streamed (a checkpoint of
/// millions of sub-problems is never held as text).
pub fn write_atomically_with(
    path: &Path,
    replace: bool,
    write: impl FnOnce(&mut fs::File) -> io::Result<()>,
) -> io::Result<()> {
    let mut temp = temp_beside(path)?;
    write(temp.as_file_mut())?;
    temp.as_file().sync_all()?;
    if replace {
        temp.persist(path).map_err(|e| e.error)?;
    } else {
        temp.persist_noclobber(path).map_err(|e| e.error)?;
    }
    Ok(())
}

/// A temporary file in `path`'s folder, named after it and unique to this process; it is
/// removed when dropped unless persisted.
fn temp_beside(path: &Path) -> io::Result<NamedTempFile> {
    let (prefix, suffix) = temp_name_parts(path);
    tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(suffix)
        // What any new file gets (the umask applies), not the temporary file's 0600.
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
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

/// Whether two paths name one file: the same name in the same folder, however written
/// (`a.json`, `./a.json`, `dir/../a.json`), or two links to one file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let place = |p: &Path| {
        Some((
            fs::canonicalize(folder_of(p)).ok()?,
            p.file_name()?.to_owned(),
        ))
    };
    let same_place = matches!((place(a), place(b)), (Some(x), Some(y)) if x == y);
    let same_inode = || {
        use std::os::unix::fs::MetadataExt;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(x), Ok(y)) => (x.dev(), x.ino()) == (y.dev(), y.ino()),
            _ => false,
        }
    };
    same_place || same_inode()
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
        let temp =
            create_removed_on_signal(|| claim_temp(path, force), |temp| temp.path().to_path_buf())?;
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
        path.shown()
    ))
}

/// One run per file (a checkpoint, a shard's output): an advisory lock on `FILE.lock` (the
/// file itself is replaced by renames, so it cannot carry the lock), held while the run
/// lives and removed when it ends. A run that dies leaves the lock file unlocked, and the
/// next run takes it.
pub struct FileLock {
    file: fs::File,
    path: PathBuf,
}

impl FileLock {
    /// Takes the lock on `target` (named `what` in messages: "checkpoint", "output"), or
    /// refuses at once if another live run holds it; then removes the temporary files a
    /// killed run left beside `target`.
    pub fn claim(target: &Path, what: &str) -> Result<FileLock, Failure> {
        let mut name = target.as_os_str().to_owned();
        name.push(".lock");
        let path = PathBuf::from(name);
        let fail = |e: std::io::Error| {
            Failure::refused(format!(
                "cannot lock {what} {} (with {}): {e}",
                target.shown(),
                path.shown()
            ))
        };
        let mut file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(fail)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                let holder = fs::read_to_string(&path).unwrap_or_default();
                let holder = match holder.trim() {
                    "" => String::new(),
                    pid => format!(" (process {})", nqueens::words::shorten(pid)),
                };
                return Err(Failure::refused(format!(
                    "{what} {} is in use: another run{holder} holds it; wait for it to \
                     end or stop it, then run this again",
                    target.shown()
                )));
            }
            Err(fs::TryLockError::Error(e)) => return Err(fail(e)),
        }
        remove_stale_temps(target);
        // The holder's process id, for the message another run prints (best effort: a
        // full disk must not stop a run that may free space before it saves).
        let _ = file
            .set_len(0)
            .and_then(|()| writeln!(file, "{}", std::process::id()));
        Ok(FileLock { file, path })
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Removed while still locked, so a run starting now either sees the locked file
        // or makes a fresh one.
        remove_quietly(&self.path);
        let _ = self.file.unlock();
    }
}

/// Removes a file if it is there (cleaning up after ourselves; a failure only leaves it).
pub fn remove_quietly(path: &Path) {
    let _ = fs::remove_file(path);
}
