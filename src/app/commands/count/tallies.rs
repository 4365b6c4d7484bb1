//! Every tally of the part of a count a run covers, in one place: a slot per covered
//! sub-problem, filled by the workers as each finishes (and by a resume from its
//! checkpoint), read by increasing id by the checkpoint writer, the shard's result and
//! the report. One copy, 16 bytes and a bit a sub-problem: a map of the finished ones and
//! the lists that fed it took about 200 (N = 27 has 135 million sub-problems).

use nqueens::records::Digesting;
use nqueens::{Plan, Tally};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The sub-problem ids a run covers: a shard's part, or every one of the plan's, which are
/// not listed (N = 28 has 280 million: 2.2 GB of ids, seconds to write, and a run stopped
/// while it was being costed spent them before it could save its checkpoint).
pub enum Covered {
    /// The ids below this many.
    All(usize),
    /// A shard's ids.
    Part(Vec<usize>),
}

impl Covered {
    /// How many ids.
    pub fn len(&self) -> usize {
        match self {
            Covered::All(len) => *len,
            Covered::Part(ids) => ids.len(),
        }
    }

    /// The ids where they are a part, as the engine's `Work::only` takes them (`None`:
    /// all).
    pub fn listed(&self) -> Option<&[usize]> {
        match self {
            Covered::All(_) => None,
            Covered::Part(ids) => Some(ids),
        }
    }

    /// Every id.
    pub fn ids(&self) -> impl Iterator<Item = usize> + '_ {
        let (all, part) = match self {
            Covered::All(len) => (0..*len, &[][..]),
            Covered::Part(ids) => (0..0, ids.as_slice()),
        };
        all.chain(part.iter().copied())
    }
}

/// The tallies of a run's covered sub-problems; each slot is written once. Slots come in
/// chunks made at their first tally, so a run that finishes few of many sub-problems (a
/// count of N = 28 stopped after a minute) holds few chunks, and starts at once.
pub struct Tallies {
    covered: Covered,
    chunks: Box<[OnceLock<Chunk>]>,
}

/// Slots a chunk holds: 16 MB of them.
const CHUNK: usize = 1 << 20;

/// The tallies of [`CHUNK`] consecutive slots.
struct Chunk {
    solutions: Box<[AtomicU64]>,
    nodes: Box<[AtomicU64]>,
    /// A bit a slot: set once its tally is written.
    done: Box<[AtomicU64]>,
}

impl Chunk {
    /// A chunk of `len` slots, at most [`CHUNK`].
    fn new(len: usize) -> Chunk {
        let zeros = |len: usize| (0..len).map(|_| AtomicU64::new(0)).collect();
        Chunk {
            solutions: zeros(len),
            nodes: zeros(len),
            done: zeros(len.div_ceil(64)),
        }
    }

    /// The tally in slot `at`, once its bit is set.
    fn tally(&self, at: usize) -> Tally {
        Tally {
            solutions: self.solutions[at].load(Ordering::Relaxed),
            nodes: self.nodes[at].load(Ordering::Relaxed),
        }
    }

    fn is_set(&self, slot: usize) -> bool {
        self.done[slot / 64].load(Ordering::Acquire) & (1 << (slot % 64)) != 0
    }
}

/// Bytes the tallies of `subproblems` take at most (every chunk made), with a
/// [`Snapshot`] of them.
pub fn tallies_bytes(subproblems: u64) -> u64 {
    subproblems * 16 + 2 * subproblems.div_ceil(64) * 8
}

/// What the finished tallies add up to.
pub struct Summed {
    /// Their solutions, each weighted by its sub-problem's symmetric copies.
    pub total: u128,
    pub nodes: u128,
    /// Their [`nqueens::records::digest`].
    pub digest: String,
}

/// Why a saved tally cannot be taken.
#[derive(Debug, PartialEq)]
pub enum Refused {
    /// Not one of the covered sub-problems.
    NotCovered(usize),
    /// Its slot holds a tally already.
    Twice(usize),
}

impl Tallies {
    /// No tally yet for any of `covered`.
    pub fn new(covered: Covered) -> Tallies {
        let chunks = covered.len().div_ceil(CHUNK);
        Tallies {
            chunks: (0..chunks).map(|_| OnceLock::new()).collect(),
            covered,
        }
    }

    /// The sub-problems the run covers.
    pub fn covered(&self) -> &Covered {
        &self.covered
    }

    /// The slot of sub-problem `id`, if the run covers it (a shard's ids are by
    /// increasing id).
    fn slot(&self, id: usize) -> Option<usize> {
        match &self.covered {
            Covered::All(len) => (id < *len).then_some(id),
            Covered::Part(ids) => ids.binary_search(&id).ok(),
        }
    }

    /// Whether slot `slot` holds a tally.
    fn is_set(&self, slot: usize) -> bool {
        self.chunks[slot / CHUNK]
            .get()
            .is_some_and(|chunk| chunk.is_set(slot % CHUNK))
    }

    /// Notes sub-problem `id`'s tally; a second tally of one id keeps the first.
    pub fn record(&self, id: usize, tally: Tally) -> Result<(), Refused> {
        let slot = self.slot(id).ok_or(Refused::NotCovered(id))?;
        let first = slot / CHUNK * CHUNK;
        let chunk = self.chunks[slot / CHUNK]
            .get_or_init(|| Chunk::new(CHUNK.min(self.covered.len() - first)));
        let at = slot % CHUNK;
        if chunk.is_set(at) {
            return Err(Refused::Twice(id));
        }
        chunk.solutions[at].store(tally.solutions, Ordering::Relaxed);
        chunk.nodes[at].store(tally.nodes, Ordering::Relaxed);
        // The values are written before the bit that publishes them.
        chunk.done[at / 64].fetch_or(1 << (at % 64), Ordering::Release);
        Ok(())
    }

    /// Whether sub-problem `id` has its tally.
    pub fn contains(&self, id: usize) -> bool {
        self.slot(id).is_some_and(|slot| self.is_set(slot))
    }

    /// How many covered sub-problems have their tally.
    pub fn finished(&self) -> usize {
        self.chunks
            .iter()
            .filter_map(OnceLock::get)
            .flat_map(|chunk| chunk.done.iter())
            .map(|word| word.load(Ordering::Acquire).count_ones() as usize)
            .sum()
    }

    /// Whether every covered sub-problem has its tally.
    pub fn complete(&self) -> bool {
        self.finished() == self.covered.len()
    }

    /// The finished sub-problems' total (weighted by `plan`), nodes and digest.
    pub fn summed(&self, plan: &Plan) -> Summed {
        let (mut total, mut nodes) = (0u128, 0u128);
        let mut digesting = Digesting::default();
        for (id, t) in self.iter() {
            total += u128::from(plan.weight(id)) * u128::from(t.solutions);
            nodes += u128::from(t.nodes);
            digesting.add(id, t.solutions);
        }
        Summed {
            total,
            nodes,
            digest: digesting.finish(),
        }
    }

    /// Which sub-problems are finished now: a set the workers do not change, read as
    /// often as needed (a tally, once written, never changes).
    pub fn snapshot(&self) -> Snapshot<'_> {
        let done = self
            .chunks
            .iter()
            .map(|chunk| {
                chunk.get().map_or_else(Vec::new, |chunk| {
                    chunk
                        .done
                        .iter()
                        .map(|word| word.load(Ordering::Acquire))
                        .collect()
                })
            })
            .collect();
        Snapshot {
            tallies: self,
            done,
        }
    }

    /// The finished sub-problems with their tallies, by increasing id.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Tally)> + '_ {
        self.covered.ids().enumerate().filter_map(|(slot, id)| {
            let chunk = self.chunks[slot / CHUNK].get()?;
            let at = slot % CHUNK;
            chunk.is_set(at).then(|| (id, chunk.tally(at)))
        })
    }
}

/// The sub-problems finished at one moment (see [`Tallies::snapshot`]).
pub struct Snapshot<'a> {
    tallies: &'a Tallies,
    /// Each chunk's finished bits then (none for a chunk not made yet).
    done: Vec<Vec<u64>>,
}

impl Snapshot<'_> {
    /// The sub-problems finished then, with their tallies, by increasing id.
    pub fn iter(&self) -> impl Iterator<Item = (usize, Tally)> + '_ {
        self.tallies
            .covered
            .ids()
            .enumerate()
            .filter_map(|(slot, id)| {
                let (index, at) = (slot / CHUNK, slot % CHUNK);
                let word = *self.done[index].get(at / 64)?;
                if word & (1 << (at % 64)) == 0 {
                    return None;
                }
                let chunk = self.tallies.chunks[index].get()?;
                Some((id, chunk.tally(at)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(id: usize) -> Tally {
        Tally {
            solutions: id as u64 * 3,
            nodes: id as u64 + 1,
        }
    }

    /// A whole count's tallies and a shard's are kept by id, read back by increasing id,
    /// and refused outside the part or twice.
    #[test]
    fn tallies_are_kept_once_each_and_read_by_id() {
        for covered in [Covered::All(200), Covered::Part(vec![3, 64, 65, 130, 199])] {
            let ids: Vec<usize> = covered.ids().collect();
            let tallies = Tallies::new(covered);
            assert!(!tallies.complete() || ids.is_empty());
            for &id in ids.iter().rev().step_by(2) {
                tallies.record(id, tally(id)).unwrap();
            }
            let mut want: Vec<usize> = ids.iter().rev().step_by(2).copied().collect();
            want.sort_unstable();
            let got: Vec<(usize, Tally)> = tallies.iter().collect();
            assert_eq!(
                got,
                want.iter().map(|&id| (id, tally(id))).collect::<Vec<_>>()
            );
            assert_eq!(tallies.finished(), want.len());
            assert!(want.iter().all(|&id| tallies.contains(id)));
            let last = ids[ids.len() - 1];
            assert_eq!(tallies.record(last, tally(0)), Err(Refused::Twice(last)));
            assert_eq!(
                tallies.record(usize::MAX, tally(0)),
                Err(Refused::NotCovered(usize::MAX))
            );
            let before = tallies.snapshot();
            let snapshot: Vec<(usize, Tally)> = before.iter().collect();
            assert_eq!(snapshot, got, "a snapshot reads what is finished");
            for &id in &ids {
                let _ = tallies.record(id, tally(id));
            }
            let after: Vec<(usize, Tally)> = before.iter().collect();
            assert_eq!(after, snapshot, "a snapshot does not change");
            assert!(tallies.complete());
            assert_eq!(tallies.iter().count(), ids.len());
        }
    }
}
