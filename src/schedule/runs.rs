//! Handing out sub-problems run by run: where consecutive ids share work (the pins of one
//! row set of N = 28 share its East half-boards and its slabs), a worker keeps to a run
//! until it is done, so that the shared work is done once per run, not once per worker
//! that meets it.

use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Hands out the positions `0..len` of a list of ids, each once: a worker takes the next
/// untaken run and keeps to it, in increasing order, until it is done; with no run left
/// untaken, it takes the later half of the largest part another worker still holds, so
/// the last runs are shared out at the grain of one position.
pub(super) struct Runs {
    /// Run `r` is `starts[r]..starts[r + 1]`.
    starts: Vec<usize>,
    next_run: AtomicUsize,
    /// Each worker's positions still to hand out.
    held: Vec<Mutex<Range<usize>>>,
}

impl Runs {
    /// The runs of `ids` (positions `i` and `i + 1` are in one run where `run_of` says
    /// their ids are), for `workers` workers.
    pub(super) fn new(ids: &[usize], run_of: impl Fn(usize) -> usize, workers: usize) -> Runs {
        let mut starts = vec![0];
        starts.extend((1..ids.len()).filter(|&i| run_of(ids[i]) != run_of(ids[i - 1])));
        if !ids.is_empty() {
            starts.push(ids.len());
        }
        Runs {
            starts,
            next_run: AtomicUsize::new(0),
            held: (0..workers).map(|_| Mutex::new(0..0)).collect(),
        }
    }

    /// The next position for worker `worker`, `None` once every position is handed out.
    pub(super) fn next(&self, worker: usize) -> Option<usize> {
        if let Some(at) = lock(&self.held[worker]).next() {
            return Some(at);
        }
        let run = self.next_run.fetch_add(1, Ordering::Relaxed);
        if run + 1 < self.starts.len() {
            let mut mine = lock(&self.held[worker]);
            *mine = self.starts[run]..self.starts[run + 1];
            return mine.next();
        }
        loop {
            // The largest part held by another. No run is left, so the positions held
            // only go down (a theft moves them), and this ends.
            let victim = (0..self.held.len())
                .filter(|&other| other != worker)
                .map(|other| (lock(&self.held[other]).len(), other))
                .max()
                .filter(|&(len, _)| len > 0)?
                .1;
            let mut theirs = lock(&self.held[victim]);
            if theirs.is_empty() {
                continue;
            }
            let middle = theirs.start + theirs.len() / 2;
            let taken = middle..theirs.end;
            theirs.end = middle;
            drop(theirs);
            let mut mine = lock(&self.held[worker]);
            *mine = taken;
            return mine.next();
        }
    }
}

/// A worker's part, locked (a panicking worker leaves it whole: each change is one step).
fn lock(part: &Mutex<Range<usize>>) -> MutexGuard<'_, Range<usize>> {
    part.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_worker_takes_every_position_in_order() {
        let ids = [3, 4, 5, 9, 10, 20];
        let runs = Runs::new(&ids, |id| id / 4, 1);
        assert_eq!(runs.starts, [0, 1, 3, 5, 6]);
        let handed: Vec<usize> = std::iter::from_fn(|| runs.next(0)).collect();
        assert_eq!(handed, [0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn a_worker_keeps_to_its_run_and_the_last_one_is_shared() {
        // Two runs of 8: each worker takes one; the first done takes half of the other's
        // rest.
        let ids: Vec<usize> = (0..16).collect();
        let runs = Runs::new(&ids, |id| id / 8, 2);
        assert_eq!(runs.next(0), Some(0));
        assert_eq!(runs.next(1), Some(8));
        assert_eq!(runs.next(1), Some(9));
        for at in 1..8 {
            assert_eq!(runs.next(0), Some(at));
        }
        // Worker 1 holds 10..16: worker 0 takes 13..16.
        assert_eq!(runs.next(0), Some(13));
        assert_eq!(runs.next(1), Some(10));
        assert_eq!(runs.next(0), Some(14));
        assert_eq!(runs.next(0), Some(15));
        // 11 and 12 left with worker 1; worker 0 takes the later one.
        assert_eq!(runs.next(0), Some(12));
        assert_eq!(runs.next(0), Some(11));
        assert_eq!(runs.next(0), None);
        assert_eq!(runs.next(1), None);
    }

    #[test]
    fn no_ids_no_positions() {
        let runs = Runs::new(&[], |id| id, 3);
        assert_eq!(runs.next(2), None);
    }
}
