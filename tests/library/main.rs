//! The library, without the command line: the engine, the half-board join and the files
//! of long runs, in one test binary (one link of the release profile's full LTO instead of
//! one per file): `cargo test --release --test library halves::` runs a module's tests.

#[path = "../common/mod.rs"]
mod common;

mod engine;
mod halves;
mod records;
