//! The `nqueens` command line: parses arguments, runs the library, prints results.

mod app;

use std::process::ExitCode;

// mimalloc serves the allocations around the search (the key list and sub-problem table,
// one Vec per listed solution in `solve`); the search itself allocates nothing, and the
// allocator made no measurable difference to `count 16` or `solve 14` here. Its `no_thp`
// feature matters: with transparent huge pages its arena took `count 17` to a 39 MB peak
// RSS, without them 15 MB. Set here, in the binary only, so the library leaves the choice
// of allocator to its users.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    app::run()
}
