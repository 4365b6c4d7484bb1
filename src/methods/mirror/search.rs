//! The mirror counter's search: plain bitmask backtracking, one queen a row, with an
//! explicit stack. Frozen: `bench`'s scores depend on its work staying the same.

use crate::board::MAX_N;
use crate::tally::Tally;

/// Nodes between two looks at the halt flag: about a millisecond of search.
const NODES_PER_LOOK: u64 = 1 << 20;

/// Counts the completions of the board `n` whose first two rows hold queens in columns
/// `first` and `second` (which do not attack each other), and the queens placed; `None`
/// when `halted` said so part-way (a search of a large board takes hours).
pub fn from_two_rows(
    n: usize,
    first: usize,
    second: usize,
    halted: &dyn Fn() -> bool,
) -> Option<Tally> {
    let all: u64 = (1 << n) - 1;
    let (a, b) = (1u64 << first, 1u64 << second);
    let columns = a | b;
    let left = ((a << 1) | b) << 1;
    let right = ((a >> 1) | b) >> 1;
    // Two queens that do not attack each other leave a row to fill from N = 3 (N = 2 has
    // no such opening).
    assert!(n >= 3, "an opening of two rows on a board of {n}");
    let mut tally = Tally {
        solutions: 0,
        nodes: 2,
    };
    let rows_left = n - 2;
    // One frame a row still to fill: the lines taken above it and its squares untried.
    let mut stack = [(0u64, 0u64, 0u64, 0u64); MAX_N];
    stack[0] = (columns, left, right, all & !(columns | left | right));
    let mut depth = 0;
    loop {
        let (columns, left, right, free) = stack[depth];
        if free == 0 {
            if depth == 0 {
                return Some(tally);
            }
            depth -= 1;
            continue;
        }
        let bit = free & free.wrapping_neg();
        stack[depth].3 = free ^ bit;
        tally.nodes += 1;
        if tally.nodes & (NODES_PER_LOOK - 1) == 0 && halted() {
            return None;
        }
        if depth + 1 == rows_left {
            tally.solutions += 1;
            continue;
        }
        let (columns, left, right) = (columns | bit, (left | bit) << 1, (right | bit) >> 1);
        depth += 1;
        stack[depth] = (columns, left, right, all & !(columns | left | right));
    }
}
