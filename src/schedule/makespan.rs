//! How long a shard takes on its workers, from the times of sampled sub-problems.
//!
//! A shard's work divided by its threads is its time only if every worker stays busy to
//! the end. The scheduler hands out units (runs of sub-problems a worker keeps to) in
//! order, each to the worker that is free first; once the units run out, the workers
//! that finish early wait for the last. With few units a worker, that wait is a large
//! share: shards of five row sets of N = 26 took 4.86 s on two threads (the mean of ten)
//! where their work was 4.03 s on each; one of them took 12.84 s on one thread and
//! 7.65 s on two. So a shard's time is simulated: units drawn from the sampled times,
//! dealt out as the scheduler deals them, many times over.

/// A shard's projected wall time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShardSeconds {
    /// The work's even share among the threads plus the simulated shards' mean wait.
    pub mean: f64,
    /// The time that one simulated shard in twenty exceeds, where units are single
    /// sub-problems with sampled times (none where the method times none one by one).
    /// A unit of several (a row set's pins at N = 28) is drawn as that many sub-problems
    /// apart, but the pins of a real row set are related, so the spread would be
    /// understated: eight shards of two row sets of N = 28 took 13.9 to 61.0 s on two
    /// threads where the draws put one in twenty over 49.2 s (and drawn as fourteen
    /// times one pin, over 97.2 s where the eight averaged 32.2 s). Their mean is
    /// drawn as well as the sample allows.
    pub high: Option<f64>,
}

/// Simulated shards (fewer where their units are many: see [`MOST_DRAWS`]).
const TRIALS: usize = 400;

/// Most sampled times drawn in all: past it, shards are simulated fewer times (never fewer
/// than [`LEAST_TRIALS`]).
const MOST_DRAWS: usize = 4_000_000;

/// Fewest simulated shards worth a figure: with more units than this allows, every
/// worker has so many that the wait at the end is a sliver, and the work divided by the
/// threads stands.
const LEAST_TRIALS: usize = 20;

/// The share of simulated shards that [`ShardSeconds::high`] leaves above it.
const HIGH_SHARE: f64 = 0.05;

/// The wall time of a shard of `work` core-seconds on `threads` workers, made of `units`
/// units (on average: a shard holds a whole number, the next one up in the fraction of
/// draws given by `units`' fraction), each the sum of `per_unit` sub-problems whose
/// times on one thread are drawn from `times` and scaled so that a shard's work averages
/// `work`. Where there are too many units to simulate, `work / threads`, and where there
/// is no sampled time to draw from, that with no high figure. Draws come from a fixed
/// seed: the same input, the same figure.
pub fn shard_seconds(
    times: &[f64],
    per_unit: usize,
    units: f64,
    threads: usize,
    work: f64,
) -> ShardSeconds {
    let (threads, per_unit) = (threads.max(1), per_unit.max(1));
    let even = work / threads as f64;
    let mean_time = times.iter().sum::<f64>() / times.len().max(1) as f64;
    if times.is_empty() || mean_time <= 0.0 || units <= 0.0 || work <= 0.0 {
        return ShardSeconds {
            mean: even,
            high: None,
        };
    }
    let draws_per_trial = (units.ceil() as usize).saturating_mul(per_unit);
    let trials = TRIALS.min(MOST_DRAWS / draws_per_trial.max(1));
    if trials < LEAST_TRIALS {
        return ShardSeconds {
            mean: even,
            high: (per_unit == 1).then_some(even),
        };
    }
    let scale = work / (units * per_unit as f64 * mean_time);
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    let mut idle = 0.0;
    let mut walls: Vec<f64> = (0..trials)
        .map(|_| {
            let whole = units.floor() as usize;
            let count = whole + usize::from(rng.f64() < units - whole as f64);
            let unit = |rng: &mut fastrand::Rng| -> f64 {
                (0..per_unit)
                    .map(|_| times[rng.usize(..times.len())])
                    .sum::<f64>()
                    * scale
            };
            let (wall, total) = dealt(count, threads, || unit(&mut rng));
            idle += wall - total / threads as f64;
            wall
        })
        .collect();
    // The mean is the work's even share plus the draws' mean wait, not the draws' mean
    // wall: where a rare sub-problem dwarfs the rest (one the sample met while its host
    // was busy), most sets of draws miss it and their work falls short of the share.
    let mean = even + idle / trials as f64;
    walls.sort_by(f64::total_cmp);
    let high_at = ((1.0 - HIGH_SHARE) * trials as f64).ceil() as usize;
    // Such a rare sub-problem can also put the mean above the draws' nineteen in
    // twenty: then fewer than one in twenty exceed the mean, which is given instead.
    let high = walls[high_at.clamp(1, trials) - 1].max(mean);
    ShardSeconds {
        mean,
        high: (per_unit == 1).then_some(high),
    }
}

/// When the last of `count` units, each of `next()` seconds, ends on `threads` workers
/// that each take the next unit as soon as they are free, and the units' seconds in all.
fn dealt(count: usize, threads: usize, mut next: impl FnMut() -> f64) -> (f64, f64) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    // Times are never negative, and the bits of non-negative floats order as the floats.
    let mut free: BinaryHeap<Reverse<u64>> = (0..threads.min(count))
        .map(|_| Reverse(0f64.to_bits()))
        .collect();
    let (mut end, mut total) = (0.0f64, 0.0);
    for _ in 0..count {
        let Reverse(at) = free.pop().expect("a worker for every unit");
        let took = next().max(0.0);
        let done = f64::from_bits(at) + took;
        (end, total) = (end.max(done), total + took);
        free.push(Reverse(done.to_bits()));
    }
    (end, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_dealt_to_workers_end_with_the_busiest() {
        // Three workers, units of 3, 1, 1, 1 and 2 s: the first takes the 3 s one, the
        // other two a 1 s one each, and at 1 s the third 1 s one and the 2 s one (3 s).
        let mut units = [3.0, 1.0, 1.0, 1.0, 2.0].into_iter();
        assert_eq!(dealt(5, 3, || units.next().unwrap()), (3.0, 8.0));
        let mut units = [5.0, 1.0].into_iter();
        assert_eq!(dealt(2, 4, || units.next().unwrap()), (5.0, 6.0));
        assert_eq!(dealt(0, 4, || 1.0), (0.0, 0.0));
        assert_eq!(dealt(6, 1, || 0.5), (3.0, 3.0));
    }

    #[test]
    fn one_worker_takes_the_whole_work() {
        let times = [0.2, 1.0, 3.0, 0.5];
        let shard = shard_seconds(&times, 1, 40.0, 1, 100.0);
        // Forty draws scaled to average 100 s: within a tenth.
        assert!((shard.mean - 100.0).abs() < 10.0, "{shard:?}");
        assert!(shard.high.unwrap() >= shard.mean);
    }

    #[test]
    fn equal_units_one_a_worker_take_one_unit_time() {
        let shard = shard_seconds(&[2.0, 2.0], 1, 4.0, 4, 40.0);
        assert_eq!(shard.mean, 10.0);
        assert_eq!(shard.high, Some(10.0));
        // Six equal units on four workers: two rounds, where the work divided is 1.5.
        let shard = shard_seconds(&[1.0], 1, 6.0, 4, 60.0);
        assert_eq!(shard.mean, 20.0);
        // A unit of three sub-problems counts three draws, and gives no high figure.
        let shard = shard_seconds(&[1.0], 3, 2.0, 2, 12.0);
        assert_eq!(shard.mean, 6.0);
        assert_eq!(shard.high, None);
    }

    #[test]
    fn few_uneven_units_wait_for_the_last_and_many_even_out() {
        let times: Vec<f64> = (1..=50).map(|i| f64::from(i) * 0.1).collect();
        let few = shard_seconds(&times, 1, 5.0, 2, 10.0);
        assert!(few.mean > 5.0 * 1.05, "{few:?}");
        assert!(few.high.unwrap() > few.mean);
        let many = shard_seconds(&times, 1, 5_000.0, 2, 10_000.0);
        assert!((many.mean / 5_000.0 - 1.0).abs() < 0.01, "{many:?}");
    }

    #[test]
    fn a_rare_giant_leaves_the_mean_at_least_the_even_share() {
        // One sampled time a hundred thousand times the rest: most draws miss it.
        let mut times = vec![1.0; 999];
        times.push(1e5);
        let shard = shard_seconds(&times, 1, 3.0, 2, 300.0);
        assert!(shard.mean >= 150.0, "{shard:?}");
        assert!(shard.high.unwrap() >= shard.mean, "{shard:?}");
    }

    #[test]
    fn a_fraction_of_a_unit_shows_in_the_share_of_larger_shards() {
        // 2.5 units of 2 s on two workers: half the shards hold two (2 s), half three (4 s).
        let shard = shard_seconds(&[1.0], 1, 2.5, 2, 5.0);
        assert!((shard.mean - 3.0).abs() < 0.2, "{shard:?}");
        assert_eq!(shard.high, Some(4.0));
    }

    #[test]
    fn nothing_to_draw_from_or_too_many_units_divide_the_work() {
        let plain = ShardSeconds {
            mean: 5.0,
            high: Some(5.0),
        };
        let unknown = ShardSeconds {
            mean: 5.0,
            high: None,
        };
        assert_eq!(shard_seconds(&[], 1, 10.0, 2, 10.0), unknown);
        assert_eq!(shard_seconds(&[1.0], 1, 1e9, 2, 10.0), plain);
        assert_eq!(
            shard_seconds(&[1.0, 3.0], 1, 4.0, 2, 10.0),
            shard_seconds(&[1.0, 3.0], 1, 4.0, 2, 10.0),
            "the same draws each time"
        );
    }
}
