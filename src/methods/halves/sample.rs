//! The join's projection: a sample of its sub-problems, each timed on its thread, scaled
//! to all of them stratum by stratum ([`Join::stratum`]), with a 90% interval
//! ([`crate::methods::stratified`]).
//!
//! # The sample
//! A whole count runs its sub-problems in order, and neighbours share their south rows
//! and the pieces prepared for them; a shard's lie scattered. So the sampling unit is a
//! run of `RUN` (16) consecutive sub-problems for a whole count, one for a shard; runs are
//! aligned (the `i`-th covers `i * RUN ..`), taken in the fixed pseudo-random order
//! ([`Shuffle`]) and classed by their first sub-problem's stratum: a simple random
//! sample of runs, stratified after the fact, whose census is the count itself.
//!
//! The first pass hands the runs' sub-problems out for half the budget (one in hand is
//! finished: the deadline only stops handing them out), or until the slabs it built fill
//! what the memory budget leaves for the table; runs left unfinished are dropped. Where
//! a whole count's table keeps every slab it builds, it builds each once: the finished
//! runs are counted again with their slabs built, those times are scaled up, and the
//! building time is added once, scaled to the whole table. Where each shard builds its
//! own slabs, or the table lets slabs go (the largest boards) and a count builds them
//! again and again, the sample built them as they will be: the first pass's times stand
//! (N = 24 in shards of 10,000: 13.0 s a shard measured, of which some 3 s building,
//! where the warm times projected 9.8 s).

use super::join::Join;
use super::memory;
use crate::methods::sampling::{Projected, Sampler, Timed};
use crate::methods::stratified;
use crate::shuffle::Shuffle;
use std::collections::HashMap;

/// Sub-problems in a run of a whole count's sample.
const RUN: usize = 16;

/// Most sub-problems listed for a sample (more than any budget finishes on small boards,
/// where a sample of all of them is exact).
const MOST_SAMPLED: usize = 1 << 16;

/// The join's projection, run whole (`shards` = 1) or in `shards` shards, from a sample
/// of about `budget` seconds.
pub fn projected_seconds(
    join: &Join,
    shards: usize,
    budget: f64,
    sampler: &dyn Sampler,
) -> Projected {
    let per_run = if shards > 1 { 1 } else { RUN };
    let runs = join.len().div_ceil(per_run);
    let run_of = |run: usize| run * per_run..((run + 1) * per_run).min(join.len());
    let taken: Vec<usize> = Shuffle::new(runs, join.n)
        .iter()
        .take(MOST_SAMPLED / per_run)
        .collect();
    let ids: Vec<usize> = taken.iter().flat_map(|&run| run_of(run)).collect();
    // Each worker's sub-problem in hand may still add its slabs once the table is full.
    let in_hand = sampler.threads() as u64 * memory::row_set_bytes(join.n);
    let room = sampler
        .table_budget()
        .map(|budget| budget.saturating_sub(in_hand));
    let full = || room.is_some_and(|room| join.heap_bytes() > room);
    let (cold, cold_seconds) = sampler.run_for(&ids, budget / 2.0, &full);
    // A whole count builds each slab once; each shard builds its own.
    let builds_once = join.table_room() == u64::MAX && shards == 1;
    let (timed, building) = if builds_once && !cold.is_empty() {
        let finished = in_order(&ids, &cold);
        let (warm, warm_seconds) = sampler.run_for(&finished, f64::INFINITY, &|| false);
        let built = join.built_bytes().max(1) as f64;
        let whole_table = memory::table_bytes(join.n) as f64;
        let building = (cold_seconds - warm_seconds).max(0.0) * (whole_table / built).max(1.0);
        (warm, building)
    } else {
        (cold, 0.0)
    };
    // Each finished run's seconds, by stratum.
    let seconds: HashMap<usize, f64> = timed.iter().map(|t| (t.id, t.seconds)).collect();
    let sample: Vec<(usize, f64)> = taken
        .iter()
        .filter_map(|&run| {
            let total = run_of(run)
                .map(|id| seconds.get(&id))
                .sum::<Option<f64>>()?;
            Some((join.stratum(run * per_run), total))
        })
        .collect();
    let threads = sampler.threads() as f64;
    let on_threads = |core_seconds: f64| core_seconds / threads + building;
    let total = stratified::total(&join.strata(per_run), &sample);
    let seconds = match total {
        Some(total) => on_threads(total.total),
        // Too few runs to bound: the whole count as that many of what finished.
        None => {
            let spent: f64 = timed.iter().map(|t| t.seconds).sum();
            on_threads(spent * join.len() as f64 / timed.len().max(1) as f64)
        }
    };
    // The sample's own error, and at least what the same count's time varies by from one
    // run to the next.
    let noise = TIMING_NOISE * seconds + TIMING_NOISE_SECONDS;
    let interval = total.map(|t| {
        let (low, high) = (on_threads(t.low), on_threads(t.high));
        (low.min(seconds - noise).max(0.0), high.max(seconds + noise))
    });
    Projected {
        seconds,
        interval,
        sampled: timed.len(),
    }
}

/// How much the time of one count varies from one run to the next on one machine, as a
/// share: the 90% interval is never narrower (three counts of N = 16 on the team's Xeon
/// took 0.058 to 0.066 s; of N = 18, 0.832 to 0.839 s).
const TIMING_NOISE: f64 = 0.05;

/// And in seconds, for the shortest counts (a thread pool's start, the rotation-fixed
/// searches, which no sample times).
const TIMING_NOISE_SECONDS: f64 = 0.01;

/// The finished sub-problems of `ids`, in its order.
fn in_order(ids: &[usize], finished: &[Timed]) -> Vec<usize> {
    let done: std::collections::HashSet<usize> = finished.iter().map(|t| t.id).collect();
    ids.iter().copied().filter(|id| done.contains(id)).collect()
}
