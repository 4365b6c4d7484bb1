//! How much memory the join needs: its quadrant table, a shard's part of it, and each
//! worker's buffers, told before any work so that a run that cannot fit is refused.

//!
//! All of it is a function of the board (and of the count's shares): a run can be sized
//! before its plan exists.

use super::geometry::Geometry;
use super::quadrants::QuadrantTable;

/// Bytes the quadrant table for `n` needs, every slab built.
pub fn table_bytes(n: usize) -> u64 {
    let g = Geometry::new(n);
    QuadrantTable::bytes(g.side)
}

/// Bytes one worker's buffers (the keys of a row set, the bit-sliced patterns, the
/// south pieces) may reach on board `n`, with a slab the table let go of while the
/// worker still reads it: an envelope of what was measured (peak memory with more
/// workers less with 1, per worker, on shards). Even boards (8 or 16 workers): N = 18:
/// 1 MB, 20: 7.5 MB, 22: 37 MB; the envelope is 15 MB at N = 20 and grows 2.5x per N,
/// up to [`WORKER_CAP`] (at N = 28 a worker holds its row set's whole East beside the
/// pair counter's load: a shard of five row sets, `count 28 --shard 1000003/4012003
/// --threads 2`, whose largest East holds 107 M keys, 854 MB, peaked at 3.56 to 3.60 GB,
/// its table's room of 1 GB included). Odd boards, whose halves are a column narrower
/// and thinned by the centre's queens (4 workers): N = 21: 6 MB, 23: 28 MB, 25: 80 MB;
/// on 2 workers, N = 27: about 650 MB (a shard of 11 row sets peaked at 2.39 GB, its
/// table's room of 1 GB included); the envelope is 10 MB at N = 21 and grows 2.05x per
/// N.
///
/// From N = 18, where the table is built by need, a worker thread holds at least
/// [`WORKER_FLOOR`]: its allocator's own pages beside its buffers (whole counts of N = 18
/// and 19 peaked 5.2 and 4.5 MB higher on 2 threads than on 1, where the envelope gives
/// 2.4; N = 17, 0.4 MB).
pub fn worker_bytes(n: usize) -> u64 {
    let buffers = if n % 2 == 1 {
        10e6 * 2.05f64.powi(n as i32 - 21)
    } else {
        15e6 * 2.5f64.powi(n as i32 - 20)
    };
    let slab = QuadrantTable::slab_bytes(Geometry::new(n).side);
    let floor = if n >= 18 { WORKER_FLOOR } else { 0 };
    (buffers as u64).clamp(floor, WORKER_CAP) + slab
}

/// The least one worker holds (see [`worker_bytes`]).
pub const WORKER_FLOOR: u64 = 6_000_000;

/// The most one worker's buffers take, at N = 26 and 28 (see [`worker_bytes`]).
pub const WORKER_CAP: u64 = 1_250_000_000;

/// Bytes of slabs the table keeps where the whole table does not fit: room for the
/// slabs of a few row sets (a row set of N = 28 touches up to 18 slabs, the largest
/// 236 MB, most far smaller), so that a shard of any size stays within it.
pub const SHARD_ROOM: u64 = 1 << 30;

/// Without a memory budget, the largest table kept whole (N = 24's is 5 GB); past it,
/// the table keeps [`SHARD_ROOM`].
const WHOLE_WITHOUT_BUDGET: u64 = 8 << 30;

/// Bytes of slabs the table of board `n` keeps, given `budget` bytes for it: all it
/// builds where the whole table fits, else [`SHARD_ROOM`] or the budget, if smaller,
/// letting go of the least recently used; never less than room for a row set's four
/// quadrants (less would build a slab again within one row set).
pub fn table_room(n: usize, budget: Option<u64>) -> u64 {
    let budget = budget.unwrap_or(WHOLE_WITHOUT_BUDGET);
    if table_bytes(n) <= budget {
        return u64::MAX;
    }
    let quadrants = 4 * QuadrantTable::slab_bytes(Geometry::new(n).side);
    SHARD_ROOM.min(budget).max(quadrants)
}

/// Bytes of the table a run needs that counts one of `parts` shares of the
/// `subproblems` in a table of `room` bytes ([`table_room`]): at most the slabs those
/// touch, never more than the whole table nor than its room.
pub fn table_bytes_for(n: usize, subproblems: usize, parts: usize, room: u64) -> u64 {
    let touched = subproblems.div_ceil(parts.max(1)) as u64;
    table_bytes(n)
        .min(touched.saturating_mul(row_set_bytes(n)))
        .min(room)
}

/// Bytes of the largest slabs one sub-problem of board `n` may touch (and so add to
/// the table while in hand): `side + 4` on an even board, `side + 3` on an odd one
/// (see [`table_bytes_for`]).
pub fn row_set_bytes(n: usize) -> u64 {
    let g = Geometry::new(n);
    let slabs = u64::from(g.side) + if g.is_cross() { 3 } else { 4 };
    slabs * QuadrantTable::slab_bytes(g.side)
}

/// Bytes a run of one of `parts` shares (1: the whole count) of a plan of
/// `subproblems` needs with `workers` workers and a table of `room` bytes: its part of
/// the table and the buffers of every worker it keeps busy (no more than its
/// sub-problems: a shard of one sub-problem fills one worker's).
pub fn need_for_part(n: usize, subproblems: usize, workers: usize, parts: usize, room: u64) -> u64 {
    let busy = workers.min(subproblems.div_ceil(parts.max(1))) as u64;
    table_bytes_for(n, subproblems, parts, room)
        .saturating_add(busy.saturating_mul(worker_bytes(n)))
}
