//! Files read whole, in memory bounded by what a valid file of their kind can hold: a
//! device, pipe or socket (`/dev/zero`) is refused before a byte is read, and so is a file
//! larger than its kind allows; one that grows while it is read is cut at that bound and
//! refused. The caller refuses the file with the reason (exit 2).

use crate::app::failure::Failure;
use nqueens::words::human_bytes;
use std::io::Read;
use std::path::Path;

/// The longest record a shard result or checkpoint holds, as JSON text:
/// `[4294967295,18446744073709551615,18446744073709551615],`.
pub const RECORD_BYTES: u64 = 56;

/// What a file of sub-problem records holds beside them (its header and runs), at most.
pub const RECORDS_HEADER_BYTES: u64 = 4 << 20;

/// A saved `bench --json` report: a few hundred bytes a thread count.
pub const BENCH_REPORT_BYTES: u64 = 16 << 20;

/// A list of files (`merge --files-from`): ten million names of a hundred bytes.
pub const FILE_LIST_BYTES: u64 = 1 << 30;

/// The bytes of a file of records for `subproblems` sub-problems, at most.
pub fn records_bytes(subproblems: u64) -> u64 {
    subproblems
        .saturating_mul(RECORD_BYTES)
        .saturating_add(RECORDS_HEADER_BYTES)
}

/// The bytes of `path`, a regular file of at most `most` bytes holding `what` (a
/// "checkpoint", a "shard result"), or why not (for the caller to refuse the file with).
pub fn read_file(path: &Path, most: u64, what: &str) -> Result<Vec<u8>, String> {
    let file = open_file(path, most, what)?;
    read_at_most(file, most).map_err(|e| match e {
        Bounded::Io(e) => format!("cannot read it ({e})"),
        Bounded::TooLarge => too_large(most + 1, most, what),
    })
}

/// `path` opened, a regular file of at most `most` bytes holding `what`, for a reader
/// that streams it; or why not.
pub fn open_file(path: &Path, most: u64, what: &str) -> Result<std::fs::File, String> {
    let cannot = |e: std::io::Error| format!("cannot read it ({e})");
    let file = std::fs::File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!(
            "is not a regular file (a folder, device, pipe or socket); a {what} is a file"
        ));
    }
    if meta.len() > most {
        return Err(too_large(meta.len(), most, what));
    }
    Ok(file)
}

/// Standard input's bytes, at most `most` of them holding `what`.
pub fn read_stdin(most: u64, what: &str) -> Result<Vec<u8>, Failure> {
    read_at_most(std::io::stdin().lock(), most).map_err(|e| match e {
        Bounded::Io(e) => Failure::refused(format!("cannot read standard input ({e})")),
        Bounded::TooLarge => Failure::refused(format!(
            "standard input: {}",
            too_large(most + 1, most, what)
        )),
    })
}

/// Why a read stopped.
enum Bounded {
    Io(std::io::Error),
    TooLarge,
}

fn read_at_most(input: impl Read, most: u64) -> Result<Vec<u8>, Bounded> {
    let mut bytes = Vec::new();
    input
        .take(most.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Bounded::Io)?;
    if bytes.len() as u64 > most {
        return Err(Bounded::TooLarge);
    }
    Ok(bytes)
}

fn too_large(size: u64, most: u64, what: &str) -> String {
    format!(
        "{} or more, larger than a {what} can be (at most {}); it is not one",
        human_bytes(size),
        human_bytes(most)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_refused_before_it_is_read() {
        let refused = read_file(Path::new("/dev/zero"), 1 << 20, "shard result").unwrap_err();
        assert!(refused.contains("not a regular file"), "{refused}");
    }

    #[test]
    fn a_file_past_its_bound_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.json");
        std::fs::write(&path, vec![b' '; 2000]).unwrap();
        assert!(read_file(&path, 1000, "bench report").is_err());
        assert_eq!(read_file(&path, 2000, "bench report").unwrap().len(), 2000);
    }
}
