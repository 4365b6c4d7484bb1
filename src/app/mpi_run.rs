//! `nqueens count N --mpi` (cargo feature `mpi`): a count spread over MPI ranks.
//!
//! Every rank splits the count the same way (the split is deterministic), so only
//! sub-problem ids and tallies travel. Rank 0 hands out batches of ids on demand: a
//! worker's message carries the tallies of its last batch and asks for the next, so work
//! goes to whoever is free. Each worker searches its batch on its own cores.
//! Rank 0 prints the result as `count` does, once every sub-problem has reported.
//!
//! A rank that dies ends the whole job: Open MPI and MPICH abort the run (their default
//! error handler), so no total is printed from partial work.

use super::Failure;
use super::cli::CountArgs;
use super::count::{print_count, print_header};
use mpi::traits::*;
use nqueens::kernel::Tally;
use nqueens::{Engine, NoProgress, Options, Work};
use std::time::Instant;

/// Sub-problems per batch: enough to keep a worker's cores busy between messages.
const BATCH: usize = 256;

pub fn run(args: &CountArgs, options: &Options) -> Result<(), Failure> {
    if args.range.first != args.range.last {
        return Err(Failure::usage("--mpi takes one board size, not a range"));
    }
    let n = args.range.first;
    let universe =
        mpi::initialize().ok_or_else(|| Failure::usage("MPI could not be initialised"))?;
    let world = universe.world();
    let engine = Engine::new(options).map_err(|e| Failure::usage(e.to_string()))?;
    let plan = engine
        .prepare(n)
        .map_err(|e| Failure::usage(e.to_string()))?;
    if world.size() < 2 {
        return Err(Failure::usage(
            "--mpi needs at least 2 ranks (rank 0 hands out the work)",
        ));
    }
    let started = Instant::now();
    if world.rank() != 0 {
        // Worker: report the last batch, receive the next; an empty batch means done.
        let mut report: Vec<u64> = Vec::new();
        loop {
            world.process_at_rank(0).send(&report[..]);
            let (batch, _) = world.process_at_rank(0).receive_vec::<u64>();
            if batch.is_empty() {
                return Ok(());
            }
            let ids: Vec<usize> = batch.iter().map(|&id| id as usize).collect();
            let work = Work {
                only: Some(&ids),
                ..Work::default()
            };
            let results = engine.run(&plan, &work, &NoProgress);
            report = results
                .iter()
                .flat_map(|(id, t)| [*id as u64, t.solutions, t.nodes])
                .collect();
        }
    }
    // Rank 0: the coordinator.
    let mut tallies: Vec<Option<Tally>> = vec![None; plan.len()];
    let mut next = (0..plan.len()).collect::<Vec<_>>().into_iter();
    let mut workers_left = world.size() - 1;
    while workers_left > 0 {
        let (report, status) = world.any_process().receive_vec::<u64>();
        for record in report.chunks_exact(3) {
            let slot = &mut tallies[record[0] as usize];
            if slot.is_some() {
                return Err(Failure::failed(format!(
                    "sub-problem {} reported twice",
                    record[0]
                )));
            }
            *slot = Some(Tally {
                solutions: record[1],
                nodes: record[2],
            });
        }
        let batch: Vec<u64> = next.by_ref().take(BATCH).map(|id| id as u64).collect();
        if batch.is_empty() {
            workers_left -= 1;
        }
        world.process_at_rank(status.source_rank()).send(&batch[..]);
    }
    let count = engine
        .finish(&plan, &tallies)
        .map_err(|e| Failure::failed(e.to_string()))?;
    let seconds = started.elapsed().as_secs_f64();
    let mut out = std::io::stdout().lock();
    if !args.json {
        print_header(&mut out)?;
    }
    print_count(&mut out, &count, seconds, args.json)
}
