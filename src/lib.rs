//! nqueens: counts the solutions of the N-Queens problem, fast.
//!
//! A count is split by one of two methods into many sub-problems with stable ids
//! ([`methods`]): bitmask backtracking over border keys reduced by the eight symmetries of
//! the square ([`methods::backtrack`]), and, from N = 10, the half-board join
//! ([`methods::halves`]). The sub-problems run on a rayon thread pool
//! ([`schedule`]) under the [`engine`], which also counts the rotation-fixed solutions
//! and derives the unique count and the orbit split ([`symmetry`]). Kernels are chosen
//! for the CPU at run time ([`cpu`]).
//!
//! Around the counter: placements and their checks ([`placement`]), one solution of a
//! large board ([`construct`]), every solution in order ([`solutions`]), the search step
//! by step ([`stepper`]), the classic algorithms ([`ladder`]), the published table
//! ([`known`], [`verify`]) and the files of long runs ([`records`]).
//!
//! ```
//! let count = nqueens::count(8, &nqueens::Options::default(), &nqueens::NoProgress).unwrap();
//! assert_eq!((count.total, count.unique), (92, 12));
//! ```
//!
//! The names re-exported here are for users of the library; inside the crate every path
//! names the module that defines the item.
#![deny(missing_docs)]

pub mod board;
pub mod construct;
pub mod cpu;
pub mod engine;
pub mod error;
pub mod estimate;
pub mod known;
pub mod ladder;
pub mod methods;
pub mod oracle;
pub mod placement;
pub mod records;
pub mod schedule;
pub mod shuffle;
pub mod solutions;
pub mod stepper;
pub mod symmetry;
pub mod tally;
pub mod verify;
pub mod words;

pub use board::MAX_N;
pub use engine::{Count, Engine, NoProgress, Options, Progress, Work, count};
pub use error::Error;
pub use methods::{Method, MethodChoice, Plan};
pub use symmetry::orbits::Orbits;
pub use tally::Tally;
