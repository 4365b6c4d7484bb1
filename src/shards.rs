//! Shards, for campaigns that spread one count over many machines: each shard is a pure
//! function of the board, the method and the number of shards, so every machine finds
//! its own part alone ([`crate::Plan::partition`]), counts it ([`crate::Engine::run`]
//! with [`crate::Work::only`]), and writes a [`ShardResult`]; the results add up to the
//! whole count ([`crate::Engine::finish`]). A [`Checkpoint`] carries an interrupted
//! count's finished sub-problems to the run that resumes it.
//!
//! ```
//! use nqueens::{Engine, NoProgress, Options, Tally, Work};
//! let engine = Engine::new(&Options::default())?;
//! let (n, shards) = (11, 3);
//! let plan = engine.prepare_part(n, shards)?;
//! let partition = plan.partition(shards);
//! let mut tallies: Vec<Option<Tally>> = vec![None; plan.len()];
//! for index in 0..shards {
//!     // On a cluster, each shard runs on a machine of its own.
//!     let part = partition.part(index);
//!     let work = Work { only: Some(&part), ..Work::default() };
//!     for (id, tally) in engine.run(&plan, &work, &NoProgress) {
//!         tallies[id] = Some(tally);
//!     }
//! }
//! let count = engine.finish(&plan, &tallies)?;
//! assert_eq!((count.total, count.unique), (2680, 341));
//! # Ok::<(), nqueens::Error>(())
//! ```
//!
//! The files are JSON with a CRC-32 of their own bytes, so a damaged or hand-edited file
//! is refused rather than trusted ([`parse`]); their [`digest`] names a count's results
//! by the counts alone, so two sites compare digests instead of redoing the work.

pub use crate::records::{
    CHECKPOINT_FORMAT, Checkpoint, Record, Run, SHARD_FORMAT, ShardResult, digest, parse,
};
