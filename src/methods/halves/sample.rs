//! The join's projection: a sample of its sub-problems, each timed on its thread, scaled
//! to all of them, with a 90% interval.
//!
//! # Where the table keeps every slab: runs of a shard
//! A count (or a shard) runs its sub-problems in increasing order, and neighbours share
//! their south rows and the slabs built for them. So the sampling unit is a run of `RUN`
//! (16) consecutive sub-problems of one shard's list (a whole count's: consecutive ids),
//! taken in the fixed pseudo-random order ([`Shuffle`]) and classed by their first
//! sub-problem's stratum (East's rows in North): a simple random sample of runs,
//! stratified after the fact ([`crate::methods::stratified`]), whose census is the count
//! itself. The runs are handed out for half the budget (one in hand is finished: the
//! deadline only stops handing them out), or until the slabs built fill what the memory
//! budget leaves for the table; the finished runs are counted again with their slabs
//! built, those times stand, and the building is added: once for a whole count, and for
//! each shard the part of the table its own sub-problems touch (`shard_building`).
//!
//! # The largest boards: sized and timed
//! Where the table lets slabs go (N >= 25 without a memory budget), a sub-problem takes
//! seconds to minutes and their times differ a hundredfold: a minute times a handful.
//! So the sample is two-phase ([`crate::methods::regression`]): sub-problems in the fixed
//! pseudo-random order are timed for three quarters of the budget, as a count would run
//! them (building their slabs), and then sized ([`Join::size`]: pairs of half-boards met
//! and half-boards built, 6% of a count's time at N = 27), the timed ones first, as far
//! as the rest goes. Time's regression on the sizes carries it to every sized
//! sub-problem: at N = 25 the residuals spread 0.27 of the mean time where the times
//! themselves spread 0.70.
//!
//! At N = 28 a sub-problem is one pin of a row set, and a shard's worker counts a row
//! set's pins in a row, building its East half-boards (and their slabs) once for all of
//! them: a timed pin has its East built first, apart, and adds a pin's share of that
//! building to its count's time (see `timed_in_row_sets`). Timed as if each were its
//! row set's only pin, the projection of N = 28 was 23% higher (324,847 against 263,153
//! core-hours, two runs of `estimate 28 --shards 100000 --seconds 180`).

use super::join::{Join, Size};
use super::memory;
use crate::methods::partition;
use crate::methods::regression::{self, SIZES};
use crate::methods::sampling::{Projected, Sampler, Timed};
use crate::methods::stratified::{self, Total};
use crate::shuffle::Shuffle;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The share of a two-phase sample's budget spent timing (the rest sizes): at N = 27 a
/// sub-problem sizes in 6% of its count's time and the sizes leave 0.45 of the times'
/// spread of 0.74 unexplained, for which the best split sizes about five times as many
/// as it times, a quarter of the budget (and a minute times five or six, the fewest
/// that give an interval).
const TIMED_SHARE: f64 = 0.75;

/// Most sub-problems listed for a sample of runs (every shard's list, 8 bytes an id);
/// larger plans (only those of a table that keeps every slab under a large memory
/// budget) are sized and timed instead.
const MOST_LISTED: usize = 1 << 22;

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
    // Each worker's sub-problem in hand may still add its slabs once the table is full.
    let in_hand = sampler.threads() as u64 * memory::row_set_bytes(join.n);
    let room = sampler
        .table_budget()
        .map(|budget| budget.saturating_sub(in_hand));
    let full = || room.is_some_and(|room| join.heap_bytes() > room);
    // Where the table keeps every slab it builds, a count's (or a shard's) sub-problems
    // share them; on the largest boards it lets them go.
    if join.table_room() == u64::MAX && join.len() <= MOST_LISTED {
        by_runs(join, shards, budget, sampler, &full)
    } else {
        sized_and_timed(join, budget, sampler, &full)
    }
}

/// The two-phase sample of shards and of the largest boards (see the module docs).
fn sized_and_timed(
    join: &Join,
    budget: f64,
    sampler: &dyn Sampler,
    full: &(dyn Fn() -> bool + Sync),
) -> Projected {
    let order: Vec<usize> = Shuffle::new(join.len(), join.n)
        .iter()
        .take(MOST_SAMPLED)
        .collect();
    let started = Instant::now();
    let (timed, known) = match join.pins_per_row_set() {
        Some(pins) => timed_in_row_sets(join, &order, budget * TIMED_SHARE, pins, sampler, full),
        None => {
            let timed = sampler.run_for(&order, budget * TIMED_SHARE, full).0;
            (timed, HashMap::new())
        }
    };
    let seconds: HashMap<usize, f64> = timed.iter().map(|t| (t.id, t.seconds)).collect();
    let census = timed.len() == join.len();
    let sizes = if census {
        Vec::new()
    } else {
        // What the budget has left (a sub-problem in hand may outlast the timing's
        // share), a tenth of it at least.
        let left = budget - started.elapsed().as_secs_f64();
        sized(join, &order, &known, left.max(budget / 10.0), sampler, full)
    };
    let units: Vec<(f64, [f64; SIZES])> = order
        .iter()
        .zip(&sizes)
        .filter_map(|(id, &size)| Some((*seconds.get(id)?, size)))
        .collect();
    let threads = sampler.threads() as f64;
    let total = if census {
        let spent: f64 = timed.iter().map(|t| t.seconds).sum();
        Some(Total {
            total: spent,
            low: spent,
            high: spent,
        })
    } else {
        regression::total(join.len(), &sizes, &units)
    };
    let sampled = if census { timed.len() } else { units.len() };
    projected(
        total,
        &timed,
        join.len(),
        threads,
        0.0,
        sampled,
        sizes.len().max(sampled),
    )
}

/// The sizes of the longest run of `order`'s first sub-problems sized on the sampler's
/// threads within about `seconds` (none handed out after, nor once `full` or stopped),
/// those `known` already taken as they are.
fn sized(
    join: &Join,
    order: &[usize],
    known: &HashMap<usize, [f64; SIZES]>,
    seconds: f64,
    sampler: &dyn Sampler,
    full: &(dyn Fn() -> bool + Sync),
) -> Vec<[f64; SIZES]> {
    let (next, started) = (AtomicUsize::new(0), Instant::now());
    let (kernel, stop) = (sampler.kernel(), sampler.stop());
    let stopped = || stop.is_some_and(|stop| stop.load(Ordering::Relaxed));
    let found = Mutex::new(vec![None; order.len()]);
    sampler.on_each_thread(&|| {
        let mut scratch = join.scratch(kernel);
        let mut mine = Vec::new();
        while started.elapsed().as_secs_f64() < seconds && !full() {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&id) = order.get(i) else { break };
            if let Some(&size) = known.get(&id) {
                mine.push((i, size));
                continue;
            }
            let Some(size) = join.size(id, &mut scratch, &stopped) else {
                break;
            };
            mine.push((i, measures(&size)));
        }
        let mut found = found.lock().expect("no panics hold it");
        for (i, size) in mine {
            found[i] = Some(size);
        }
    });
    let found = found.into_inner().expect("no panics hold it");
    found.into_iter().map_while(|size| size).collect()
}

/// `order`'s first sub-problems, each a pin of a row set that `pins` pins share (N =
/// 28), timed on the sampler's threads as a shard's worker meets them, within about
/// `seconds` (none handed out after, nor once `full` or stopped): a worker counts a row
/// set's pins in a row (see `crate::schedule`), so it builds the row set's East and its
/// slabs once for all of them. Each pin's East is built first, then the pin is counted
/// (its West and West's slabs, which are the pin's own, included), and its time is the
/// count's plus a `pins`-th of East's. Timed cold instead, each sampled pin of its own
/// row set, six pins of `count 28 --shard k/280840224` spent 0.5 to 9.6 s of 2.2 to 10.2 s
/// building East.
///
/// Each timed pin is sized too, while its East is at hand (only its West is built
/// again), so that the sizing phase goes on to new pins: sized cold, each builds an East
/// of its own, and in a minute's sample the sizing phase had sized only the timed pins
/// again. Three minutes now size 81 pins where they sized 51, and time 45 where they
/// timed 47.
fn timed_in_row_sets(
    join: &Join,
    order: &[usize],
    seconds: f64,
    pins: usize,
    sampler: &dyn Sampler,
    full: &(dyn Fn() -> bool + Sync),
) -> (Vec<Timed>, HashMap<usize, [f64; SIZES]>) {
    let (next, started) = (AtomicUsize::new(0), Instant::now());
    let (kernel, stop) = (sampler.kernel(), sampler.stop());
    let stopped = || stop.is_some_and(|stop| stop.load(Ordering::Relaxed));
    let timed = Mutex::new(Vec::new());
    sampler.on_each_thread(&|| {
        let mut scratch = join.scratch(kernel);
        let mut mine = Vec::new();
        loop {
            // A full sample still has one sub-problem, to project from.
            let has_one = !mine.is_empty() || !lock(&timed).is_empty();
            if started.elapsed().as_secs_f64() > seconds || has_one && full() {
                break;
            }
            let Some(&id) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let building = Instant::now();
            if join.build_shared(id, &mut scratch, &stopped).is_none() {
                break;
            }
            let counting = Instant::now();
            let Some(tally) = join.solve_until(id, &mut scratch, &stopped) else {
                break;
            };
            let shared = (counting - building).as_secs_f64() / pins as f64;
            let seconds = counting.elapsed().as_secs_f64() + shared;
            let Some(size) = join.size(id, &mut scratch, &stopped) else {
                break;
            };
            mine.push((Timed { id, tally, seconds }, measures(&size)));
        }
        lock(&timed).append(&mut mine);
    });
    let timed = timed.into_inner().expect("no panics hold it");
    let sizes = timed.iter().map(|(t, size)| (t.id, *size)).collect();
    (timed.into_iter().map(|(t, _)| t).collect(), sizes)
}

/// A sub-problem's size as the regression's predictors (see [`SIZES`]), time's closest
/// first.
fn measures(size: &Size) -> [f64; SIZES] {
    [size.pairs as f64, size.built as f64]
}

/// The timed sub-problems, locked.
fn lock<T>(timed: &Mutex<Vec<T>>) -> std::sync::MutexGuard<'_, Vec<T>> {
    timed.lock().expect("no panics hold it")
}

/// The sample of runs, where the table keeps every slab (see the module docs): a run is
/// `RUN` consecutive sub-problems of one shard's list (a whole count's are consecutive
/// ids), as its worker meets them.
fn by_runs(
    join: &Join,
    shards: usize,
    budget: f64,
    sampler: &dyn Sampler,
    full: &(dyn Fn() -> bool + Sync),
) -> Projected {
    // Every shard's list, one after the other, cut into runs that stay within a shard.
    let (blocks, per_block) = join.blocks();
    let mut listed = Vec::with_capacity(join.len());
    let mut runs = Vec::new();
    for shard in 0..shards {
        let part = partition::shuffled_run(blocks, per_block, shards, shard, join.n);
        for run in part.chunks(RUN) {
            runs.push(listed.len()..listed.len() + run.len());
            listed.extend_from_slice(run);
        }
    }
    let run_ids = |run: usize| &listed[runs[run].clone()];
    let taken: Vec<usize> = Shuffle::new(runs.len(), join.n)
        .iter()
        .take(MOST_SAMPLED / RUN)
        .collect();
    let ids: Vec<usize> = taken
        .iter()
        .flat_map(|&run| run_ids(run))
        .copied()
        .collect();
    let (cold, cold_seconds) = sampler.run_for(&ids, budget / 2.0, full);
    let (timed, building) = if cold.is_empty() {
        (cold, 0.0)
    } else {
        // The runs are timed again, with their slabs built.
        let (built, clock) = join.built();
        let finished = in_order(&ids, &cold);
        let (warm, warm_seconds) = sampler.run_for(&finished, f64::INFINITY, &|| false);
        let building = if shards == 1 {
            // A whole count builds the table once: what the cold pass took beyond the
            // warm one (the building, and the first touch of every buffer), scaled to
            // the whole table (N = 21 and 22 within 3% of their counts).
            let whole_table = memory::table_bytes(join.n) as f64;
            (cold_seconds - warm_seconds).max(0.0) * (whole_table / built.max(1) as f64).max(1.0)
        } else {
            // Each shard builds what its own sub-problems touch, by the table's own
            // clock (the difference of two passes, a few hundredths of a second at N =
            // 18, varied fourfold from one run to the next). That clock adds up every
            // thread's building, and a worker builds while the others count: it is work
            // shared by the threads, like the counting. Taken as wall time, a shard of
            // 135 row sets of N = 24 was projected at 7.43 s on two threads (1.22 s of it
            // building) where six took 6.70 s on average.
            shard_building(join, shards, cold.len(), built, clock) * shards as f64
                / sampler.threads() as f64
        };
        (warm, building)
    };
    // Each finished run's seconds, by stratum.
    let seconds: HashMap<usize, f64> = timed.iter().map(|t| (t.id, t.seconds)).collect();
    let sample: Vec<(usize, f64)> = taken
        .iter()
        .filter_map(|&run| {
            let ids = run_ids(run);
            let total = ids.iter().map(|id| seconds.get(id)).sum::<Option<f64>>()?;
            Some((stratum(join, ids[0]), total))
        })
        .collect();
    let mut strata = vec![0; join.n + 1];
    for run in 0..runs.len() {
        strata[stratum(join, run_ids(run)[0])] += 1;
    }
    let total = stratified::total(&strata, &sample);
    let threads = sampler.threads() as f64;
    let sampled = timed.len();
    projected(
        total,
        &timed,
        join.len(),
        threads,
        building,
        sampled,
        sampled,
    )
}

/// Seconds one shard of `shards` spends building slabs, on its threads, where a sample of `sampled` sub-problems built `built` bytes of slabs in
/// `seconds`. A shard's sub-problems are a random draw of the whole
/// ([`crate::methods::partition`]), so the slabs `s` of them touch follow the sample's:
/// if `n` cover a share `c` of the table, `s` cover `1 - (1 - c)^(s / n)` of it (each
/// slab missed by each draw alike). At N = 20 in 6 shards a shard builds most of the
/// table, once for its 15,000 sub-problems: the cold sample that paid the building in
/// each sub-problem projected 41.6 s, the shards took 33.2 s. A shard's own start (its
/// buffers' first pages) is left out: a few hundredths of a second a shard at N = 19.
fn shard_building(join: &Join, shards: usize, sampled: usize, built: u64, seconds: f64) -> f64 {
    let table = memory::table_bytes(join.n).max(1) as f64;
    let covered = (built as f64 / table).min(1.0);
    if covered <= 0.0 || sampled == 0 {
        return 0.0;
    }
    let per_shard = join.len().div_ceil(shards) as f64;
    let shard_covers = 1.0 - (1.0 - covered).powf(per_shard / sampled as f64);
    seconds * shard_covers / covered
}

/// A sub-problem's stratum: how many of East's rows lie in North.
fn stratum(join: &Join, id: usize) -> usize {
    join.north_rows(id).count_ones() as usize
}

/// The projection from a sample's `total` of core-seconds (or, with too few sampled to
/// bound, the `timed` sub-problems scaled to all `len`), on `threads` threads, plus
/// `building` seconds once; its interval is never narrower than a count's own noise.
fn projected(
    total: Option<Total>,
    timed: &[Timed],
    len: usize,
    threads: f64,
    building: f64,
    sampled: usize,
    sized: usize,
) -> Projected {
    let on_threads = |core_seconds: f64| core_seconds / threads + building;
    let seconds = match total {
        Some(total) => on_threads(total.total),
        None => {
            let spent: f64 = timed.iter().map(|t| t.seconds).sum();
            on_threads(spent * len as f64 / timed.len().max(1) as f64)
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
        sampled,
        sized,
        timed_seconds: timed.iter().map(|t| t.seconds).collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::Kernel;
    use std::sync::atomic::AtomicBool;

    /// One thread, no table budget: only what `sized` asks of a sampler.
    struct OneThread;

    impl Sampler for OneThread {
        fn threads(&self) -> usize {
            1
        }
        fn kernel(&self) -> Kernel {
            Kernel::detect()
        }
        fn table_budget(&self) -> Option<u64> {
            None
        }
        fn run_for(&self, _: &[usize], _: f64, _: &(dyn Fn() -> bool + Sync)) -> (Vec<Timed>, f64) {
            unreachable!("sizing times nothing")
        }
        fn on_each_thread(&self, work: &(dyn Fn() + Sync)) {
            work();
        }
        fn node_rate(&self, _: f64) -> f64 {
            unreachable!("sizing times nothing")
        }
        fn stop(&self) -> Option<&AtomicBool> {
            None
        }
    }

    #[test]
    fn sizing_takes_known_sizes_as_they_are_and_sizes_the_rest() {
        let join = Join::new(12, None, 1).unwrap();
        let order: Vec<usize> = (0..6).rev().collect();
        // Sizes no sub-problem of N = 12 has: taken, not measured again.
        let known = HashMap::from([(order[0], [1e15, 7.0]), (order[2], [2e15, 9.0])]);
        let sizes = sized(&join, &order, &known, f64::INFINITY, &OneThread, &|| false);
        assert_eq!(sizes.len(), order.len());
        let mut scratch = join.scratch(Kernel::detect());
        for (&id, size) in order.iter().zip(&sizes) {
            let expected = match known.get(&id) {
                Some(&known) => known,
                None => measures(&join.size(id, &mut scratch, &|| false).unwrap()),
            };
            assert_eq!(*size, expected, "sub-problem {id}");
        }
        assert!(
            sizes[1][0] < 1e15 && sizes[1][1] > 0.0,
            "measured, not taken"
        );
    }
}
