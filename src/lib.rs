//! nqueens: counts the solutions of the N-Queens problem, fast, and lists, checks and
//! constructs them.
//!
//! A count is split by one of the [`methods`] into many sub-problems with stable ids:
//! bitmask backtracking over border keys reduced by the eight symmetries of the square,
//! the half-board join (from N = 10 by default), or the classic mirror-halved counter.
//! The sub-problems run on a rayon thread pool under the [`Engine`], which also counts
//! the rotation-fixed solutions and derives the unique count and the orbit split
//! ([`Orbits`]). Kernels are chosen for the CPU at run time ([`KernelLevel`]).
//!
//! ```
//! let count = nqueens::count(8, &nqueens::Options::default(), &nqueens::NoProgress).unwrap();
//! assert_eq!((count.total, count.unique), (92, 12));
//! ```
//!
//! Around the counter: [`shards`] for campaigns that spread a count over machines,
//! every solution in order ([`solutions`]), a placement's check ([`placement`]), one
//! solution of a large board ([`construct`]), the search step by step ([`stepper`]), and
//! the published table ([`known`], [`verify`]).
//!
//! The command line (the `nqueens` binary) is the `cli` feature, on by default; a crate
//! that wants the library alone depends on it with `default-features = false`.
#![deny(missing_docs)]

pub mod construct;
pub mod known;
pub mod methods;
pub mod placement;
pub mod shards;
pub mod solutions;
pub mod stepper;
pub mod verify;

// The engine's parts, public for the `nqueens` binary, the benches and the tests of this
// package; not part of the library's API, which re-exports what it needs of them.
#[doc(hidden)]
pub mod board;
#[doc(hidden)]
pub mod cpu;
#[doc(hidden)]
pub mod engine;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod estimate;
#[doc(hidden)]
pub mod ladder;
#[doc(hidden)]
pub mod oracle;
#[doc(hidden)]
pub mod records;
#[doc(hidden)]
pub mod schedule;
#[doc(hidden)]
pub mod shuffle;
#[doc(hidden)]
pub mod symmetry;
#[doc(hidden)]
pub mod tally;
#[doc(hidden)]
pub mod words;

pub use board::MAX_N;
pub use cpu::KernelLevel;
pub use engine::{Count, Engine, NoProgress, Options, Progress, Work, count};
pub use error::Error;
pub use methods::{Method, MethodChoice, Plan};
pub use symmetry::orbits::Orbits;
pub use tally::Tally;
