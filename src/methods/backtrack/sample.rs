//! Backtracking's projection: the nodes of a sample of its searches, by Knuth's random
//! probes ([`super::probe`]), scaled to all of them. Probes cost microseconds, so this
//! works for any N, however long the count; the engine turns nodes into seconds by its
//! node rate.

use super::probe::probe_nodes;
use super::split::Split;
use crate::shuffle::Shuffle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The nodes of every sub-problem of `split`, from probes of those first in `order`,
/// with about `budget` / 2 seconds of probing; and how many were probed.
pub fn sampled_nodes(
    split: &Split,
    order: &Shuffle,
    budget: f64,
    stop: Option<&AtomicBool>,
) -> (f64, usize) {
    const PROBES: u32 = 64;
    let mut rng = fastrand::Rng::with_seed(order.len() as u64);
    let started = Instant::now();
    let (mut sum, mut taken) = (0.0, 0);
    for id in order.iter() {
        let (plan, start) = split.search(id);
        let mut pick = |k: u32| rng.u32(..k);
        let nodes: f64 = (0..PROBES)
            .map(|_| probe_nodes(plan, &start, &mut pick))
            .sum();
        sum += nodes / f64::from(PROBES);
        taken += 1;
        let stopped = stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped || started.elapsed().as_secs_f64() > budget / 2.0 && taken >= 64 {
            break;
        }
    }
    // A board without sub-problems (N = 2, 3) has only its prefix's nodes.
    let scale = if taken == 0 {
        0.0
    } else {
        order.len() as f64 / taken as f64
    };
    (sum * scale + split.prefix_nodes as f64, taken)
}
