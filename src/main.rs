//! The `nqueens` command line: parses arguments, runs the library, prints results.

mod app;

use std::process::ExitCode;

// mimalloc serves every allocation of the binary: the split and its sub-problem table,
// the join's quadrant slabs and per-worker buffers, backtracking's queued parts, one Vec
// per listed solution in `solve`. The counting loops themselves allocate per sub-problem
// at most, not per node. Its `no_thp`
// feature matters: with transparent huge pages its arena took `count 17` to a 39 MB peak
// RSS, without them 15 MB. Set here, in the binary only, so the library leaves the choice
// of allocator to its users.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    app::run()
}
