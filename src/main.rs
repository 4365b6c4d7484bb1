//! The `nqueens` command line: parses arguments, runs the library, prints results.

mod app;

use std::alloc::{GlobalAlloc, Layout};
use std::process::ExitCode;

// mimalloc serves every allocation of the binary: the split and its sub-problem table,
// the join's quadrant slabs and per-worker buffers, backtracking's queued parts, one Vec
// per listed solution in `solve`. The counting loops themselves allocate per sub-problem
// at most, not per node. Its `no_thp`
// feature matters: with transparent huge pages its arena took `count 17` to a 39 MB peak
// RSS, without them 15 MB. Set here, in the binary only, so the library leaves the choice
// of allocator to its users.
//
// Wrapped so that memory the system will not give (a `ulimit -v`, a full machine) ends the
// program with a message and exit status 2, as every refusal does, where Rust's own
// handler would abort with a backtrace (status 134).
#[global_allocator]
static GLOBAL: ExitWhenRefused = ExitWhenRefused(mimalloc::MiMalloc);

/// An allocator that passes every call to the one it wraps and exits the program when
/// that one returns no memory.
struct ExitWhenRefused(mimalloc::MiMalloc);

// SAFETY: every method hands its arguments on to the wrapped allocator under the same
// contract, and returns what it returned; a null it returns is never handed back.
unsafe impl GlobalAlloc for ExitWhenRefused {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller keeps `alloc`'s contract, which is the wrapped one's.
        given(unsafe { self.0.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        given(unsafe { self.0.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, so from the wrapped one, with `layout`.
        unsafe { self.0.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`, and `new_size` keeps `realloc`'s contract.
        given(unsafe { self.0.realloc(ptr, layout, new_size) }, new_size)
    }
}

/// `ptr`, unless it is null: then the program says so and exits with status 2. Nothing
/// here allocates (there is no memory to be had).
fn given(ptr: *mut u8, size: usize) -> *mut u8 {
    if !ptr.is_null() {
        return ptr;
    }
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut left = size;
    loop {
        at -= 1;
        digits[at] = b'0' + (left % 10) as u8;
        left /= 10;
        if left == 0 {
            break;
        }
    }
    let parts: [&[u8]; 3] = [
        b"nqueens: out of memory: the system refused ",
        &digits[at..],
        b" bytes (a memory limit such as `ulimit -v`, or a full machine); give it more \
          memory (a count can also take fewer --threads, or be counted in shards)\n",
    ];
    for part in parts {
        // SAFETY: writes initialized bytes from a live slice to stderr; a failed write
        // leaves nothing to do.
        unsafe { libc::write(2, part.as_ptr().cast(), part.len()) };
    }
    // SAFETY: ends the process at once, without running anything that might allocate.
    unsafe { libc::_exit(2) }
}

fn main() -> ExitCode {
    app::run()
}
