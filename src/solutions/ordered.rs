//! Listing in order on many threads. The placements of the board's first rows (its
//! prefixes) are taken in lexicographic order, a batch at a time, and the batch is cut
//! into runs of consecutive prefixes. The workers search the runs' completions at once,
//! then write them at once, each run's solutions into a piece of its own, and the pieces
//! come back in order. So the listing is the one-thread listing, index for index and
//! placed count for placed count, sooner.

use super::orbit::orbit_if_smallest;
use super::search::Search;
use crate::board::MAX_N;
use crate::error::Error;
use crate::schedule::Scheduler;
use rayon::prelude::*;

/// Rows a prefix leaves to its worker: small enough that a batch of prefixes makes a
/// short wait, large enough that a run of them is worth handing out (N = 16 has 19,688
/// prefixes of 4 rows, 750 solutions each on average). Boards of at most this many rows plus one are one piece.
const ROWS_PER_PIECE: usize = 12;

/// Queens a batch aims to place on each thread (about 30 ms of search): enough to keep
/// every thread busy, few enough that a listing stopped by its limit searched little
/// beyond it, and that a batch's solutions and their text stay a few MB a thread.
const PLACED_PER_THREAD: u128 = 1 << 22;

/// Prefixes a batch holds at most a thread: where completions are short (N = 32: about
/// 15 queens placed each), a batch grows to this, 2 MB a thread.
const PREFIXES_PER_THREAD: usize = 1 << 16;

/// Runs of consecutive prefixes a batch is cut into a thread, each searched by one
/// worker into one piece: enough to even out the threads' shares.
const RUNS_PER_THREAD: usize = 8;

/// A solution as the listing hands it over.
pub struct Listed<'a> {
    /// Its place in the listing, from 1.
    pub index: u64,
    /// The column of each row's queen.
    pub cols: &'a [usize],
    /// Queens the one-thread search had placed when it found this solution.
    pub placed: u128,
    /// The size of its orbit, when listing one solution per orbit.
    pub orbit_size: Option<usize>,
}

/// What a listing gives: every solution, or one per orbit (the smallest of its images).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Every solution.
    All,
    /// One per orbit of the eight symmetries: the lexicographically smallest image.
    OnePerOrbit,
}

/// The solutions of the `n` x `n` board in lexicographic order, listed a batch at a time
/// on a scheduler's threads, up to a limit.
pub struct InOrder {
    n: usize,
    which: Which,
    scheduler: Scheduler,
    /// The search for prefixes (`None` for a board of one piece: its empty prefix).
    prefixes: Option<Search>,
    depth: usize,
    started: bool,
    /// Prefixes in the next batch, adapted to the work the last one held.
    batch: usize,
    listed: u64,
    limit: u64,
    /// Queens placed in the completions of the prefixes searched so far.
    placed_below: u128,
}

/// A batch's prefixes, side by side: `depth` columns each (as bytes: columns are below
/// MAX_N = 32), and the queens the prefix search had placed on finding each.
struct Batch {
    depth: usize,
    cols: Vec<u8>,
    placed: Vec<u128>,
}

/// The solutions of a run of consecutive prefixes: `n` columns each; the queens placed
/// up to each, by the prefix search and in the run's completions (those of earlier runs
/// are added when the pieces are put in order); their orbits' sizes with one per orbit;
/// and the queens placed in all the run's completions.
struct Piece {
    cols: Vec<u8>,
    placed: Vec<u128>,
    orbit_sizes: Vec<u8>,
    searched: u128,
}

impl InOrder {
    /// A listing of `which` solutions of the `n` x `n` board, at most `limit`, on
    /// `threads` threads.
    pub fn new(n: usize, which: Which, limit: u64, threads: usize) -> Result<InOrder, Error> {
        if !(1..=MAX_N).contains(&n) {
            return Err(Error::BoardSize(n));
        }
        let scheduler = Scheduler::new(threads)?;
        // Rows of each prefix; none (one piece, the whole board) for a small board.
        let depth = if n > ROWS_PER_PIECE + 1 {
            n - ROWS_PER_PIECE
        } else {
            0
        };
        Ok(InOrder {
            n,
            which,
            prefixes: (depth > 0).then(|| Search::new(n, &[], depth)),
            depth,
            started: false,
            batch: threads,
            scheduler,
            listed: 0,
            limit,
            placed_below: 0,
        })
    }

    /// Solutions listed so far.
    pub fn listed(&self) -> u64 {
        self.listed
    }

    /// The next batch of solutions, each passed to `write` with what the listing knows
    /// of it, in order within a run of prefixes, into that run's piece of output (the
    /// pieces written at once on the threads); the pieces in order, or `None` when the
    /// listing is over.
    pub fn next_batch<S: Default + Send>(
        &mut self,
        write: impl Fn(&mut S, &Listed) + Sync,
    ) -> Option<Vec<S>> {
        if self.listed >= self.limit {
            return None;
        }
        let batch = self.take_prefixes();
        if batch.placed.is_empty() {
            return None;
        }
        let (n, which) = (self.n, self.which);
        let run_len = batch
            .placed
            .len()
            .div_ceil(RUNS_PER_THREAD * self.scheduler.threads());
        let prefixes = batch.placed.len();
        let pieces: Vec<Piece> = self.scheduler.install(|| {
            (0..prefixes.div_ceil(run_len))
                .into_par_iter()
                .map(|k| {
                    let run = k * run_len..((k + 1) * run_len).min(prefixes);
                    Piece::search(n, &batch, run, which)
                })
                .collect()
        });
        self.adapt_batch(pieces.iter().map(|piece| piece.searched).sum());
        // Each piece's first index and the placements before its run, in order.
        let mut starts = Vec::with_capacity(pieces.len());
        for piece in &pieces {
            let keep = (piece.len() as u64).min(self.limit - self.listed);
            starts.push((self.listed, keep, self.placed_below));
            self.listed += keep;
            self.placed_below += piece.searched;
        }
        Some(self.scheduler.install(|| {
            pieces
                .par_iter()
                .zip(starts)
                .map(|(piece, (before, keep, placed_before))| {
                    let mut out = S::default();
                    let mut cols = [0usize; MAX_N];
                    for i in 0..keep as usize {
                        let listed = Listed {
                            index: before + i as u64 + 1,
                            cols: widen(&piece.cols[i * n..(i + 1) * n], &mut cols),
                            placed: placed_before + piece.placed[i],
                            orbit_size: piece.orbit_sizes.get(i).map(|&s| usize::from(s)),
                        };
                        write(&mut out, &listed);
                    }
                    out
                })
                .collect()
        }))
    }

    /// The next batch's prefixes.
    fn take_prefixes(&mut self) -> Batch {
        let mut batch = Batch {
            depth: self.depth,
            cols: Vec::new(),
            placed: Vec::new(),
        };
        let Some(search) = &mut self.prefixes else {
            if !std::mem::replace(&mut self.started, true) {
                batch.placed.push(0);
            }
            return batch;
        };
        // Where completions are few (N = 32), finding the prefixes is most of the work,
        // and on this thread alone: a batch takes no more of it than it aims at.
        let aim = PLACED_PER_THREAD * self.scheduler.threads() as u128;
        let stop = search.placed() + aim;
        while batch.placed.len() < self.batch && search.placed() < stop {
            let Some(prefix) = search.advance() else {
                break;
            };
            batch.cols.extend(prefix.iter().map(|&c| c as u8));
            batch.placed.push(search.placed());
        }
        batch
    }

    /// Doubles the batch after one with too little work to keep the threads busy, and
    /// halves it after one with more than a short wait's.
    fn adapt_batch(&mut self, placed: u128) {
        let threads = self.scheduler.threads();
        let aim = PLACED_PER_THREAD * threads as u128;
        if placed < aim / 2 {
            self.batch = (self.batch * 2).min(PREFIXES_PER_THREAD * threads);
        } else if placed > aim * 2 {
            self.batch = (self.batch / 2).max(threads);
        }
    }
}

impl Piece {
    /// Searches the completions of the batch's prefixes `run`, in order.
    fn search(n: usize, batch: &Batch, run: std::ops::Range<usize>, which: Which) -> Piece {
        let mut piece = Piece {
            cols: Vec::new(),
            placed: Vec::new(),
            orbit_sizes: Vec::new(),
            searched: 0,
        };
        let (mut widened, depth) = ([0usize; MAX_N], batch.depth);
        for p in run {
            let before = batch.placed[p] + piece.searched;
            let prefix = widen(&batch.cols[p * depth..(p + 1) * depth], &mut widened);
            let mut search = Search::new(n, prefix, n);
            while let Some(cols) = search.advance() {
                if which == Which::OnePerOrbit {
                    match orbit_if_smallest(cols) {
                        Some(size) => piece.orbit_sizes.push(size as u8),
                        None => continue,
                    }
                }
                piece.cols.extend(cols.iter().map(|&c| c as u8));
                piece.placed.push(before + search.placed());
            }
            piece.searched += search.placed();
        }
        piece
    }

    fn len(&self) -> usize {
        self.placed.len()
    }
}

/// Columns kept as bytes, widened into `into`; the slice of them.
fn widen<'a>(bytes: &[u8], into: &'a mut [usize; MAX_N]) -> &'a [usize] {
    for (col, &byte) in into.iter_mut().zip(bytes) {
        *col = usize::from(byte);
    }
    &into[..bytes.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solutions::Solutions;

    type Seen = (u64, Vec<usize>, u128, Option<usize>);

    fn in_order(n: usize, which: Which, limit: u64, threads: usize) -> Vec<Seen> {
        let mut listing = InOrder::new(n, which, limit, threads).unwrap();
        let mut seen = Vec::new();
        let keep = |out: &mut Vec<Seen>, l: &Listed| {
            out.push((l.index, l.cols.to_vec(), l.placed, l.orbit_size));
        };
        while let Some(pieces) = listing.next_batch(keep) {
            seen.extend(pieces.into_iter().flatten());
        }
        seen
    }

    /// The one-thread listing, solution by solution.
    fn one_by_one(n: usize, which: Which, limit: u64) -> Vec<Seen> {
        let mut solutions = Solutions::new(n).unwrap();
        let mut seen = Vec::new();
        while (seen.len() as u64) < limit {
            let Some(cols) = solutions.advance() else {
                break;
            };
            let orbit_size = match (which, orbit_if_smallest(cols)) {
                (Which::All, _) => None,
                (Which::OnePerOrbit, Some(size)) => Some(size),
                (Which::OnePerOrbit, None) => continue,
            };
            let index = seen.len() as u64 + 1;
            seen.push((index, cols.to_vec(), solutions.placed(), orbit_size));
        }
        seen
    }

    #[test]
    fn lists_as_one_thread_does_on_any_number() {
        // N = 14 and up are cut into prefixes; below, one piece.
        for n in 1..=14 {
            for which in [Which::All, Which::OnePerOrbit] {
                let expected = one_by_one(n, which, u64::MAX);
                for threads in [1, 2, 3] {
                    let seen = in_order(n, which, u64::MAX, threads);
                    assert!(seen == expected, "N = {n}, {which:?}, {threads} threads");
                }
            }
        }
    }

    #[test]
    fn stops_at_its_limit_mid_piece() {
        for (n, limit) in [(14, 7), (15, 1), (15, 100_001), (28, 300)] {
            let expected = one_by_one(n, Which::All, limit);
            assert_eq!(expected.len() as u64, limit);
            for threads in [1, 2, 3] {
                let seen = in_order(n, Which::All, limit, threads);
                assert!(
                    seen == expected,
                    "N = {n}, limit {limit}, {threads} threads"
                );
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_list() {
        assert_eq!(
            InOrder::new(33, Which::All, 1, 1).err(),
            Some(Error::BoardSize(33))
        );
        assert_eq!(
            InOrder::new(8, Which::All, 1, 0).err(),
            Some(Error::Threads(0))
        );
    }
}
