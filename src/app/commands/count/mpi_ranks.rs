//! `nqueens count N --mpi` (cargo feature `mpi`): a count spread over MPI ranks.
//!
//! Every rank splits the count the same way (the split is deterministic), so only
//! sub-problem ids and tallies travel. Rank 0, the coordinator, hands out batches of ids on
//! demand: a worker's message carries the tallies of its last batch and asks for the next,
//! so work goes to whoever is free. Each worker searches its batch on its own cores.
//!
//! Rank 0 alone reads and writes the files (the checkpoint, a shard's result), so a job
//! can be resumed with any number of ranks: it notes every tally as it arrives and saves
//! them in the checkpoint as a plain count does. A rank that dies ends the job (Open MPI
//! and MPICH end the other ranks with SIGTERM): rank 0 then saves what has arrived and
//! ends the job with the signal's status; a rank stopped by a signal leaves its batch to
//! the next run.

use super::tallies::Tallies;
use crate::app::failure::Failure;
use crate::app::signals::Stop;
use mpi::environment::Universe;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::traits::*;
use nqueens::Tally;
use nqueens::{Engine, NoProgress, Plan, Work};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Sub-problems per batch: enough to keep a worker's cores busy between messages.
const BATCH: usize = 256;

/// How long rank 0 sleeps between looks for a message or a stop: short beside a batch,
/// long enough to leave the core to the workers (a blocking receive would spin on it).
const POLL: Duration = Duration::from_micros(200);

/// This process's place in the MPI job.
pub struct Ranks {
    universe: Universe,
    rank: i32,
    size: i32,
}

/// Joins the MPI job; refuses a job of one rank (rank 0 only hands out work).
pub fn join() -> Result<Ranks, Failure> {
    let universe =
        mpi::initialize().ok_or_else(|| Failure::refused("MPI could not be initialised"))?;
    let world = universe.world();
    let (rank, size) = (world.rank(), world.size());
    if size < 2 {
        return Err(Failure::refused(
            "--mpi needs at least 2 ranks (rank 0 hands out the work): run it under \
             mpirun -n 2 or more",
        ));
    }
    Ok(Ranks {
        universe,
        rank,
        size,
    })
}

impl Ranks {
    /// Rank 0: hands out the work, gathers the tallies, keeps the files.
    pub fn is_coordinator(&self) -> bool {
        self.rank == 0
    }

    /// Processes in the job.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// This process's rank.
    pub fn rank(&self) -> usize {
        self.rank as usize
    }

    /// Ends every rank of the job with `status` (after rank 0 has said why).
    pub fn abort(&self, status: u8) -> ! {
        self.universe.world().abort(i32::from(status))
    }

    /// Runs the sub-problems `todo` over the ranks. Rank 0 notes each tally in `tallies` as it
    /// arrives and calls `noted` after each message (the checkpoint writer); it returns
    /// once every sub-problem has reported, or at once when `stop` is set. The other ranks
    /// return `None` once the work is done; a worker that `stop` reaches abandons its
    /// batch and returns an error.
    pub fn distribute(
        &self,
        engine: &Engine,
        plan: &Plan,
        todo: &[usize],
        stop: &Stop,
        tallies: &Tallies,
        mut noted: impl FnMut(),
    ) -> Result<(), Failure> {
        if !self.is_coordinator() {
            return self.work(engine, plan, stop);
        }
        let world = self.universe.world();
        let mut next = todo.iter().copied();
        let mut workers_left = self.size - 1;
        while workers_left > 0 {
            let found = loop {
                if stop.stop.load(Ordering::Relaxed) {
                    return Ok(());
                }
                match world.any_process().immediate_matched_probe() {
                    Some(found) => break found,
                    None => std::thread::sleep(POLL),
                }
            };
            let (report, status) = found.matched_receive_vec::<u64>();
            for record in report.chunks_exact(3) {
                let tally = Tally {
                    solutions: record[1],
                    nodes: record[2],
                };
                if tallies.record(record[0] as usize, tally).is_err() {
                    return Err(Failure::failed(format!(
                        "sub-problem {} was reported twice or is not this run's (by rank {})",
                        record[0],
                        status.source_rank()
                    )));
                }
            }
            noted();
            let batch: Vec<u64> = next.by_ref().take(BATCH).map(|id| id as u64).collect();
            if batch.is_empty() {
                workers_left -= 1;
            }
            world.process_at_rank(status.source_rank()).send(&batch[..]);
        }
        Ok(())
    }

    /// A worker: reports its last batch, receives the next; an empty batch means done.
    fn work(&self, engine: &Engine, plan: &Plan, stop: &Stop) -> Result<(), Failure> {
        let world = self.universe.world();
        let coordinator = world.process_at_rank(0);
        let mut report: Vec<u64> = Vec::new();
        loop {
            coordinator.send(&report[..]);
            let (batch, _) = coordinator.receive_vec::<u64>();
            if batch.is_empty() {
                return Ok(());
            }
            let ids: Vec<usize> = batch.iter().map(|&id| id as usize).collect();
            let work = Work {
                only: Some(&ids),
                stop: Some(&stop.stop),
                ..Work::default()
            };
            let results = engine.run(plan, &work, &NoProgress);
            if stop.stop.load(Ordering::Relaxed) {
                return Err(Failure::interrupted(
                    format!(
                        "rank {} stopped; its unfinished batch is left to the next run",
                        self.rank
                    ),
                    stop.status(),
                ));
            }
            report = results
                .iter()
                .flat_map(|(id, t)| [*id as u64, t.solutions, t.nodes])
                .collect();
        }
    }
}
