//! The command line, one module per subcommand and per rule across commands, in one test
//! binary (one link of the release profile's full LTO instead of one per file):
//! `cargo test --release --test cli count::` runs a module's tests.

#[path = "../common/mod.rs"]
mod common;

mod bench;
mod campaign;
mod check;
mod count;
mod errors;
mod estimate;
mod exit_status;
mod files;
mod find;
mod help;
mod hostile;
mod longrun;
mod merge_scale;
mod recount;
mod solve;
mod trace;
mod verify;
