//! `nqueens count N --mpi` (cargo feature `mpi`): a count spread over MPI ranks.
//!
//! Every rank splits the count the same way (the split is deterministic), so only
//! sub-problem ids and tallies travel. Rank 0 hands out batches of ids on demand: a
//! worker's message carries the tallies of its last batch and asks for the next, so work
//! goes to whoever is free. Each worker searches its batch on its own cores.
//! Rank 0 reports the result as `count` does, once every sub-problem has reported.
//!
//! A rank that dies ends the whole job: Open MPI and MPICH abort the run (their default
//! error handler), so no total is printed from partial work.

use crate::app::failure::Failure;
use mpi::traits::*;
use nqueens::Tally;
use nqueens::{Engine, NoProgress, Plan, Work};
use std::collections::BTreeMap;

/// Sub-problems per batch: enough to keep a worker's cores busy between messages.
const BATCH: usize = 256;

/// Runs every sub-problem of `plan` over the MPI ranks: rank 0 gets every tally back, the
/// other ranks `None` once the work is done.
pub fn distribute(engine: &Engine, plan: &Plan) -> Result<Option<BTreeMap<usize, Tally>>, Failure> {
    let universe =
        mpi::initialize().ok_or_else(|| Failure::usage("MPI could not be initialised"))?;
    let world = universe.world();
    if world.size() < 2 {
        return Err(Failure::usage(
            "--mpi needs at least 2 ranks (rank 0 hands out the work)",
        ));
    }
    if world.rank() != 0 {
        // Worker: report the last batch, receive the next; an empty batch means done.
        let mut report: Vec<u64> = Vec::new();
        loop {
            world.process_at_rank(0).send(&report[..]);
            let (batch, _) = world.process_at_rank(0).receive_vec::<u64>();
            if batch.is_empty() {
                return Ok(None);
            }
            let ids: Vec<usize> = batch.iter().map(|&id| id as usize).collect();
            let work = Work {
                only: Some(&ids),
                ..Work::default()
            };
            let results = engine.run(plan, &work, &NoProgress);
            report = results
                .iter()
                .flat_map(|(id, t)| [*id as u64, t.solutions, t.nodes])
                .collect();
        }
    }
    // Rank 0: the coordinator.
    let mut done: BTreeMap<usize, Tally> = BTreeMap::new();
    let mut next = 0..plan.len();
    let mut workers_left = world.size() - 1;
    while workers_left > 0 {
        let (report, status) = world.any_process().receive_vec::<u64>();
        for record in report.chunks_exact(3) {
            let tally = Tally {
                solutions: record[1],
                nodes: record[2],
            };
            if done.insert(record[0] as usize, tally).is_some() {
                return Err(Failure::failed(format!(
                    "sub-problem {} reported twice",
                    record[0]
                )));
            }
        }
        let batch: Vec<u64> = next.by_ref().take(BATCH).map(|id| id as u64).collect();
        if batch.is_empty() {
            workers_left -= 1;
        }
        world.process_at_rank(status.source_rank()).send(&batch[..]);
    }
    Ok(Some(done))
}
