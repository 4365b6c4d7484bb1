//! The `nqueens` command line: parses arguments, runs the library, prints results.

mod app;

use std::process::ExitCode;

// mimalloc serves the few allocations made while splitting a count (the key list and the
// sub-problem table); the search itself allocates nothing. It is set here, in the binary
// only, so the library leaves the choice of allocator to its users.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    app::run()
}
