//! What a method's projection asks of the engine that will run it
//! ([`crate::methods::Plan::projected_seconds`]): each method samples its own
//! sub-problems its own way, on the engine's threads.

use crate::cpu::Kernel;
use crate::tally::Tally;
use std::sync::atomic::AtomicBool;

/// A finished sub-problem of a sample: its id, tally and seconds on its thread.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// The sub-problem.
    pub id: usize,
    /// What it counted.
    pub tally: Tally,
    /// Seconds on its thread, from being handed out to finished.
    pub seconds: f64,
}

/// What a method's sample projects.
#[derive(Clone, Debug, PartialEq)]
pub struct Projected {
    /// The whole count's seconds on the sampler's threads.
    pub seconds: f64,
    /// Their 90% interval, where the sample gives one.
    pub interval: Option<(f64, f64)>,
    /// Sub-problems the projection timed.
    pub sampled: usize,
    /// Sub-problems it sized (the join's two-phase sample: see `methods::regression`);
    /// as many as it timed where it sizes none.
    pub sized: usize,
    /// The seconds each timed sub-problem took on its thread (none where the method
    /// times none one by one): what a shard's time is drawn from
    /// ([`crate::schedule::makespan`]).
    pub timed_seconds: Vec<f64>,
}

/// The engine's side of a sample.
pub trait Sampler {
    /// Worker threads the count will run on.
    fn threads(&self) -> usize;

    /// The kernel they run.
    fn kernel(&self) -> Kernel;

    /// Bytes the plan's tables may take (the memory budget less the workers' buffers);
    /// `None`: no limit.
    fn table_budget(&self) -> Option<u64>;

    /// Runs the sub-problems `ids` on the worker threads, handing out none after
    /// `seconds` or once `full` says so (those in hand are finished, so a sample is of
    /// whole sub-problems); returns those that finished, each with the seconds it took
    /// on its thread, and the seconds the run took.
    fn run_for(
        &self,
        ids: &[usize],
        seconds: f64,
        full: &(dyn Fn() -> bool + Sync),
    ) -> (Vec<Timed>, f64);

    /// Runs `work` once on each worker thread, and returns when all have.
    fn on_each_thread(&self, work: &(dyn Fn() + Sync));

    /// Backtracking's nodes per second on these threads, measured on a small board in at
    /// most `seconds`.
    fn node_rate(&self, seconds: f64) -> f64;

    /// Set when the sample must end at once (a signal).
    fn stop(&self) -> Option<&AtomicBool>;
}
