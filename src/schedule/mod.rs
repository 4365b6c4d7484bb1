//! The scheduler: runs the sub-problems of any method on a rayon thread pool.
//!
//! Every method offers a [`Solver`]: a worker's loop that takes sub-problem ids one at a
//! time, keeps its own scratch, and reports each id's tally as it finishes. The scheduler
//! knows nothing else of the methods. It starts one such loop on every thread of the pool
//! (rayon's `broadcast`) and hands out ids from a shared cursor, in increasing order, so a
//! thread that finishes early takes the next id: the balance of work stealing at the
//! grain of one sub-problem. A cursor, not rayon's splitting of an index range, because a
//! backtracking worker keeps several searches in flight and asks for the next id whenever
//! one of them ends (see `methods::backtrack::kernel::count_stream`).
//!
//! Where consecutive ids share work (a row set's pins at N = 28 share its East half-boards
//! and slabs), the solver says so ([`Solver::ids_per_run`]) and the ids are handed out
//! run by run instead (see `runs`): a worker keeps to a run until it is done.
//!
//! The pool is built once per [`Scheduler`] and serves every step of a count (the main
//! search and the rotation-fixed searches). Called from inside a rayon pool of the same
//! size, the scheduler runs on that pool instead of building its own.

pub mod makespan;
mod runs;

use crate::cpu::Kernel;
use crate::tally::Tally;
use runs::Runs;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// Most worker threads a scheduler accepts.
///
/// Oversubscribing costs: measured on 2 CPUs (`count 8 --threads T`, pool built and every
/// step run), T = 256 takes 0.05-0.07 s, 512 0.5-0.9 s and 1,024 1-4 s, as rayon's idle
/// workers yield to one another, and each thread holds its own scratch. The command line
/// accepts 128 threads per CPU up to this bound.
pub const MAX_THREADS: usize = 1024;

/// What [`Scheduler::run`] notes of each finished sub-problem: its seconds (`timed`),
/// and its tally in the list it returns (`keep`; a caller that keeps every tally itself
/// through `finished` needs no second copy).
#[derive(Clone, Copy, Debug)]
pub struct Noted {
    pub timed: bool,
    pub keep: bool,
}

/// The two ways a run ends early: `stop` (a signal) abandons the sub-problems in hand,
/// `close` (a sample's deadline) finishes them but hands out no more.
#[derive(Clone, Copy, Default)]
pub struct Halts<'a> {
    /// Once set, no sub-problem is handed out and those in hand are abandoned.
    pub stop: Option<&'a AtomicBool>,
    /// Once set, no sub-problem is handed out; those in hand are finished.
    pub close: Option<&'a AtomicBool>,
}

/// A method's worker loop: solves the sub-problem ids `next` hands out until it returns
/// `None`, calling `done` with each id and its tally as it finishes (in any order). Each
/// call is one worker: the scratch it needs is its own.
///
/// A solver whose sub-problems can run long asks `halted` now and then inside them, and
/// once it says so returns at once, leaving the unfinished ones unreported: a stopped run
/// keeps every finished sub-problem and waits for none.
pub trait Solver: Sync {
    /// Solves ids from `next` with the kernel level `kernel`, reporting each to `done`.
    fn solve_all(
        &self,
        kernel: Kernel,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Tally),
        halted: &dyn Fn() -> bool,
    );

    /// How many consecutive ids share work that a worker does once for all of them
    /// (ids `k r .. (k + 1) r` for `r` this): the scheduler keeps each such run on one
    /// worker. 1 where none share.
    fn ids_per_run(&self) -> usize {
        1
    }
}

/// Why a scheduler could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolError {
    /// A thread count outside `1..=MAX_THREADS`.
    Threads(usize),
    /// The system would not start the threads.
    Spawn(String),
}

/// The worker threads of a count.
pub struct Scheduler {
    pool: Pool,
    threads: usize,
}

enum Pool {
    /// The rayon pool the caller runs in (it has the requested size).
    Callers,
    /// A pool of our own.
    Own(rayon::ThreadPool),
}

impl Scheduler {
    /// A scheduler on exactly `threads` worker threads (1 to [`MAX_THREADS`]): the rayon
    /// pool the caller is running in when it has that many threads, else a new pool.
    pub fn new(threads: usize) -> Result<Scheduler, PoolError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(PoolError::Threads(threads));
        }
        let pool =
            if rayon::current_thread_index().is_some() && rayon::current_num_threads() == threads {
                Pool::Callers
            } else {
                Pool::Own(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .thread_name(|i| format!("nqueens-{i}"))
                        .build()
                        .map_err(|e| PoolError::Spawn(e.to_string()))?,
                )
            };
        Ok(Scheduler { pool, threads })
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Solves the sub-problems `ids` with `solver`, one worker per thread, and returns
    /// each finished id with its tally (in no particular order). Once `stop` is set no
    /// further id is handed out and the solvers abandon the ones in hand, so a stopped run
    /// returns at once with those that finished; once `close` is set no further id is
    /// handed out either, but those in hand are finished (a sample that must end with
    /// whole sub-problems). Each finished one is also passed to `finished` as it finishes,
    /// with the seconds it took on its thread (from being handed out) when `timed`, else
    /// 0 (two clock reads a sub-problem cost 0.3% of a count of N = 16); without `keep`,
    /// only to `finished`, and none is returned.
    pub fn run(
        &self,
        solver: &dyn Solver,
        kernel: Kernel,
        ids: &[usize],
        Halts { stop, close }: Halts,
        Noted { timed, keep }: Noted,
        finished: &(dyn Fn(usize, Tally, f64) + Sync),
    ) -> Vec<(usize, Tally)> {
        let per_run = solver.ids_per_run();
        let cursor = if per_run > 1 {
            Hand::Runs(Runs::new(ids, |id| id / per_run, self.threads))
        } else {
            Hand::InOrder(Cursor::new(ids.len()))
        };
        let halted = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let closed = || close.is_some_and(|c| c.load(Ordering::Relaxed));
        let worker = |context: rayon::BroadcastContext<'_>| {
            let me = context.index();
            let mut results = Vec::new();
            // A worker solves what it was handed before it asks again.
            let handed = Cell::new(Instant::now());
            solver.solve_all(
                kernel,
                &mut || {
                    if halted() || closed() {
                        return None;
                    }
                    if timed {
                        handed.set(Instant::now());
                    }
                    cursor.next(me).map(|i| ids[i])
                },
                &mut |id, tally| {
                    let seconds = if timed {
                        handed.get().elapsed().as_secs_f64()
                    } else {
                        0.0
                    };
                    finished(id, tally, seconds);
                    if keep {
                        results.push((id, tally));
                    }
                },
                &halted,
            );
            results
        };
        let per_thread = match &self.pool {
            Pool::Callers => rayon::broadcast(worker),
            Pool::Own(pool) => pool.broadcast(worker),
        };
        per_thread.into_iter().flatten().collect()
    }
}

impl Scheduler {
    /// Runs `op` on the scheduler's pool, so that rayon's parallel iterators inside it
    /// use exactly its threads.
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Pool::Callers => op(),
            Pool::Own(pool) => pool.install(op),
        }
    }

    /// Runs `work` once on each worker thread (a sample's other work, on the threads
    /// and their allocator's memory a count uses), and returns when all have.
    pub fn on_each_thread(&self, work: &(dyn Fn() + Sync)) {
        let each = |_: rayon::BroadcastContext<'_>| work();
        match &self.pool {
            Pool::Callers => drop(rayon::broadcast(each)),
            Pool::Own(pool) => drop(pool.broadcast(each)),
        }
    }
}

/// How a run hands out the positions of its ids.
enum Hand {
    /// In increasing order, to whichever worker asks.
    InOrder(Cursor),
    /// Run by run, each run kept to one worker.
    Runs(Runs),
}

impl Hand {
    /// The next position for worker `worker`.
    fn next(&self, worker: usize) -> Option<usize> {
        match self {
            Hand::InOrder(cursor) => cursor.next(),
            Hand::Runs(runs) => runs.next(worker),
        }
    }
}

/// Hands out the indices `0..len`, each once, in increasing order, to whichever thread
/// asks.
struct Cursor {
    next: AtomicUsize,
    len: usize,
}

impl Cursor {
    fn new(len: usize) -> Cursor {
        Cursor {
            next: AtomicUsize::new(0),
            len,
        }
    }

    fn next(&self) -> Option<usize> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        (id < self.len).then_some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solver whose sub-problem `id` finds `id` solutions in one node.
    struct Identity;

    impl Solver for Identity {
        fn solve_all(
            &self,
            _: Kernel,
            next: &mut dyn FnMut() -> Option<usize>,
            done: &mut dyn FnMut(usize, Tally),
            _: &dyn Fn() -> bool,
        ) {
            while let Some(id) = next() {
                done(
                    id,
                    Tally {
                        solutions: id as u64,
                        nodes: 1,
                    },
                );
            }
        }
    }

    #[test]
    fn every_id_is_solved_exactly_once_at_every_thread_count() {
        let ids: Vec<usize> = (0..1000).collect();
        for threads in [1, 2, 3, 8, 64] {
            let scheduler = Scheduler::new(threads).unwrap();
            assert_eq!(scheduler.threads(), threads);
            let seen = std::sync::Mutex::new(Vec::new());
            let mut got = scheduler.run(
                &Identity,
                Kernel::portable(),
                &ids,
                Halts::default(),
                Noted {
                    timed: false,
                    keep: true,
                },
                &|id, _, _| seen.lock().unwrap().push(id),
            );
            got.sort_unstable_by_key(|&(id, _)| id);
            assert!(got.iter().all(|&(id, t)| t.solutions == id as u64));
            assert_eq!(got.iter().map(|&(id, _)| id).collect::<Vec<_>>(), ids);
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, ids);
        }
    }

    /// A solver whose ids share work in runs of four, recording the worker that met
    /// each.
    struct InRuns(std::sync::Mutex<Vec<(usize, usize)>>);

    impl Solver for InRuns {
        fn solve_all(
            &self,
            _: Kernel,
            next: &mut dyn FnMut() -> Option<usize>,
            done: &mut dyn FnMut(usize, Tally),
            _: &dyn Fn() -> bool,
        ) {
            let worker = rayon::current_thread_index().expect("a pool's worker");
            while let Some(id) = next() {
                self.0.lock().unwrap().push((worker, id));
                done(id, Tally::default());
            }
        }

        fn ids_per_run(&self) -> usize {
            4
        }
    }

    #[test]
    fn runs_of_shared_work_are_met_by_one_worker_each_but_the_last() {
        // A whole count's ids, and a shard's (runs cut short, some missing).
        let whole: Vec<usize> = (0..400).collect();
        let shard: Vec<usize> = (0..400).filter(|id| id % 7 != 3).collect();
        for (ids, threads) in [&whole, &shard]
            .into_iter()
            .flat_map(|ids| [1, 2, 3, 8].map(|t| (ids, t)))
        {
            let scheduler = Scheduler::new(threads).unwrap();
            let solver = InRuns(Default::default());
            let got = scheduler.run(
                &solver,
                Kernel::portable(),
                ids,
                Halts::default(),
                Noted {
                    timed: false,
                    keep: true,
                },
                &|_, _, _| {},
            );
            let mut solved: Vec<usize> = got.iter().map(|&(id, _)| id).collect();
            solved.sort_unstable();
            assert_eq!(&solved, ids, "{threads} threads");
            let met = solver.0.into_inner().unwrap();
            let pairs: std::collections::HashSet<(usize, usize)> =
                met.iter().map(|&(worker, id)| (worker, id / 4)).collect();
            // Each run is taken by one worker; once none is left, the last parts (at
            // most one a worker, of four ids at most) are shared out by halves.
            let runs = 100;
            assert!(
                pairs.len() <= runs + 3 * threads,
                "{threads} threads: {}",
                pairs.len()
            );
        }
    }

    #[test]
    fn a_stopped_run_hands_out_nothing_more() {
        let scheduler = Scheduler::new(2).unwrap();
        let stop = AtomicBool::new(true);
        let got = scheduler.run(
            &Identity,
            Kernel::portable(),
            &[1, 2, 3],
            Halts {
                stop: Some(&stop),
                close: None,
            },
            Noted {
                timed: false,
                keep: true,
            },
            &|_, _, _| {},
        );
        assert!(got.is_empty());
    }

    /// A solver that closes the run as it takes its first sub-problem, then finishes it
    /// only if it is not told to abandon it.
    struct ClosesAtOnce<'a>(&'a AtomicBool);

    impl Solver for ClosesAtOnce<'_> {
        fn solve_all(
            &self,
            _: Kernel,
            next: &mut dyn FnMut() -> Option<usize>,
            done: &mut dyn FnMut(usize, Tally),
            halted: &dyn Fn() -> bool,
        ) {
            while let Some(id) = next() {
                self.0.store(true, Ordering::Relaxed);
                if !halted() {
                    done(id, Tally::default());
                }
            }
        }
    }

    #[test]
    fn a_closed_run_finishes_what_is_in_hand_and_hands_out_no_more() {
        let scheduler = Scheduler::new(2).unwrap();
        let close = AtomicBool::new(false);
        let ids: Vec<usize> = (0..100).collect();
        let got = scheduler.run(
            &ClosesAtOnce(&close),
            Kernel::portable(),
            &ids,
            Halts {
                stop: None,
                close: Some(&close),
            },
            Noted {
                timed: false,
                keep: true,
            },
            &|_, _, _| {},
        );
        assert!(!got.is_empty(), "the sub-problems in hand finished");
        assert!(got.len() <= scheduler.threads(), "{} handed out", got.len());
    }

    #[test]
    fn thread_counts_out_of_range_are_refused() {
        assert_eq!(Scheduler::new(0).err(), Some(PoolError::Threads(0)));
        assert_eq!(
            Scheduler::new(MAX_THREADS + 1).err(),
            Some(PoolError::Threads(MAX_THREADS + 1))
        );
    }

    #[test]
    fn inside_a_pool_of_the_same_size_no_new_pool_is_built() {
        let outer = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        outer.install(|| {
            let scheduler = Scheduler::new(3).unwrap();
            assert!(matches!(scheduler.pool, Pool::Callers));
            let got = scheduler.run(
                &Identity,
                Kernel::portable(),
                &[5, 6],
                Halts::default(),
                Noted {
                    timed: false,
                    keep: true,
                },
                &|_, _, _| {},
            );
            assert_eq!(got.len(), 2);
            assert!(matches!(Scheduler::new(2).unwrap().pool, Pool::Own(_)));
        });
    }
}
