//! nqueens: counts the solutions of the N-Queens problem, fast.
//!
//! The engine counts each orbit of solutions under the eight symmetries of the square
//! about once: solutions are grouped by their queens on the border ([`border`]), one
//! canonical border per orbit is searched by a bitmask backtracking kernel ([`kernel`]),
//! the work is split into many independent sub-problems with stable ids ([`split`]) and
//! spread over worker threads from a shared cursor ([`engine`], [`workers`]). The unique count and the orbit split come
//! from small searches for rotation-symmetric solutions ([`fixed`]) and Burnside's lemma.
//!
//! ```
//! let count = nqueens::count(8, &nqueens::Options::default(), &nqueens::NoProgress).unwrap();
//! assert_eq!((count.total, count.unique), (92, 12));
//! ```
#![deny(missing_docs)]

pub mod construct;
pub mod cpu;
pub mod engine;
pub mod fixed;
pub mod known;
pub mod ladder;
pub mod methods;
pub mod placement;
pub mod records;
pub mod solutions;
pub mod stepper;
pub mod symmetry;
pub mod verify;
pub mod words;
pub mod workers;

pub use engine::{Count, Engine, Error, NoProgress, Options, Orbits, Progress, Work, count};
pub use kernel::MAX_N;
pub use methods::backtrack::{border, kernel, split};
pub use methods::halves;
pub use methods::{Method, MethodChoice, Plan};
