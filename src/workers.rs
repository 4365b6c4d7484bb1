//! Worker threads: every count runs on exactly the threads asked for, each taking the next
//! piece of work from a shared cursor.
//!
//! A cursor over ids gives the balance of work stealing (a thread that finishes early takes
//! the next piece) with none of its idle cost. Plain scoped threads, not a rayon pool: with
//! more threads than CPUs, rayon's idle workers spend their time stealing from one another
//! (measured on 2 CPUs: building a pool of 1,024 threads took 1 s and each parallel step
//! 3 to 6 s), while a scoped thread that finds the cursor exhausted simply ends (70 ms for
//! 1,024 threads). Threads are started once per step; a step is a whole count's worth of
//! sub-problems, so the start-up cost does not show.

use crate::engine::Error;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Most worker threads a count accepts (`--threads` and `RAYON_NUM_THREADS`).
pub const MAX_THREADS: usize = 1024;

/// The environment variable that sets the default thread count (the name rayon uses, so
/// scripts written for rayon programs keep working).
pub const THREADS_VAR: &str = "RAYON_NUM_THREADS";

/// The thread count when none is given: `RAYON_NUM_THREADS` if set (checked like
/// `--threads`), else every CPU this process may use.
pub fn default_threads() -> Result<usize, Error> {
    match std::env::var(THREADS_VAR) {
        Ok(text) => parse_threads(&text).ok_or(Error::ThreadsVar(text)),
        Err(std::env::VarError::NotUnicode(text)) => {
            Err(Error::ThreadsVar(text.to_string_lossy().into_owned()))
        }
        Err(std::env::VarError::NotPresent) => Ok(std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(MAX_THREADS)),
    }
}

fn parse_threads(text: &str) -> Option<usize> {
    text.trim()
        .parse()
        .ok()
        .filter(|t| (1..=MAX_THREADS).contains(t))
}

/// Runs `work(thread)` on `threads` threads (the caller's thread is one of them) and
/// returns what each returned, in thread order.
pub fn on_threads<R: Send>(threads: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
    assert!(threads >= 1, "at least one thread");
    let work = &work;
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads)
            .map(|thread| {
                std::thread::Builder::new()
                    .name(format!("nqueens-{thread}"))
                    .spawn_scoped(scope, move || work(thread))
                    .expect("the system refused a worker thread")
            })
            .collect();
        let mut results = vec![work(0)];
        results.extend(
            others
                .into_iter()
                .map(|handle| handle.join().expect("a worker thread panicked")),
        );
        results
    })
}

/// Hands out the ids `0..len`, each once, in increasing order, to whichever thread asks.
pub struct Cursor {
    next: AtomicUsize,
    len: usize,
}

impl Cursor {
    /// A cursor over `0..len`.
    pub fn new(len: usize) -> Cursor {
        Cursor {
            next: AtomicUsize::new(0),
            len,
        }
    }

    /// The next id, or `None` once all are handed out.
    pub fn next(&self) -> Option<usize> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        (id < self.len).then_some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_goes_to_exactly_one_thread() {
        for threads in [1, 2, 3, 8] {
            let cursor = Cursor::new(1000);
            let taken = on_threads(threads, |_| {
                std::iter::from_fn(|| cursor.next()).collect::<Vec<_>>()
            });
            assert_eq!(taken.len(), threads);
            let mut all: Vec<usize> = taken.into_iter().flatten().collect();
            all.sort_unstable();
            assert_eq!(all, (0..1000).collect::<Vec<_>>());
        }
    }

    #[test]
    fn thread_counts_from_the_environment_are_checked() {
        assert_eq!(parse_threads("4"), Some(4));
        assert_eq!(parse_threads(" 1024 "), Some(1024));
        for bad in ["0", "1025", "100000", "-1", "x", ""] {
            assert_eq!(parse_threads(bad), None, "{bad}");
        }
    }
}
